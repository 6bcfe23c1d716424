//! Calendar dates and years inside the service's range, parsed strictly at the boundary.
//!
//! A [`Date`] is always a real Gregorian date between 1583-01-01 and 2100-12-31, and a
//! [`Year`] always lies in 1583..=2100: once a value of these types exists,
//! no layer below has to check it again.

use std::fmt;

use chrono::{Datelike, NaiveDate, Weekday};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{FIRST_YEAR, LAST_YEAR};

/// Why a string is not a [`Date`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DateError {
    /// Not of the exact form `YYYY-MM-DD` (zero-padded, ASCII digits, dashes).
    #[error("not in YYYY-MM-DD form")]
    Malformed,
    /// Well-formed but no such day exists (2023-02-29, 2024-13-01).
    #[error("not a real calendar date")]
    NotReal,
    /// A real date outside 1583-01-01..=2100-12-31.
    #[error("outside the supported range 1583-01-01..2100-12-31")]
    OutOfRange,
}

/// A real Gregorian date in the service's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(NaiveDate);

impl Date {
    /// The first supported date, 1583-01-01.
    pub fn first() -> Date {
        Date(NaiveDate::from_ymd_opt(FIRST_YEAR, 1, 1).expect("valid constant"))
    }

    /// The last supported date, 2100-12-31.
    pub fn last() -> Date {
        Date(NaiveDate::from_ymd_opt(LAST_YEAR, 12, 31).expect("valid constant"))
    }

    /// Parses exactly `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Result<Date, DateError> {
        let b = s.as_bytes();
        let digits = |r: std::ops::Range<usize>| -> Option<u32> {
            b[r].iter().try_fold(0u32, |acc, &c| {
                c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
            })
        };
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return Err(DateError::Malformed);
        }
        let (Some(y), Some(m), Some(d)) = (digits(0..4), digits(5..7), digits(8..10)) else {
            return Err(DateError::Malformed);
        };
        let date = NaiveDate::from_ymd_opt(y as i32, m, d).ok_or(DateError::NotReal)?;
        Date::from_naive(date)
    }

    /// Wraps a chrono date, checking the range.
    pub fn from_naive(date: NaiveDate) -> Result<Date, DateError> {
        if (FIRST_YEAR..=LAST_YEAR).contains(&date.year()) {
            Ok(Date(date))
        } else {
            Err(DateError::OutOfRange)
        }
    }

    /// Builds a date from its parts, checking both reality and range.
    pub fn from_ymd(year: i32, month: u32, day: u32) -> Result<Date, DateError> {
        let date = NaiveDate::from_ymd_opt(year, month, day).ok_or(DateError::NotReal)?;
        Date::from_naive(date)
    }

    /// The underlying chrono date.
    pub fn naive(self) -> NaiveDate {
        self.0
    }

    /// The year.
    pub fn year(self) -> i32 {
        self.0.year()
    }

    /// The month, 1..=12.
    pub fn month(self) -> u32 {
        self.0.month()
    }

    /// The day of the month, 1..=31.
    pub fn day(self) -> u32 {
        self.0.day()
    }

    /// The day of the week.
    pub fn weekday(self) -> Weekday {
        self.0.weekday()
    }

    /// The next date, if it is still in range.
    pub fn succ(self) -> Option<Date> {
        self.0.succ_opt().and_then(|d| Date::from_naive(d).ok())
    }

    /// Days from `self` to `other` (negative when `other` is earlier).
    pub fn days_until(self, other: Date) -> i64 {
        (other.0 - self.0).num_days()
    }

    /// `YYYY-MM-DD` in ASCII, without going through `core::fmt`: the server writes thousands
    /// of dates into its answers and tags.
    pub fn iso_bytes(self) -> [u8; 10] {
        let (y, m, d) = (self.year() as u32, self.month(), self.day());
        [
            b'0' + (y / 1000 % 10) as u8,
            b'0' + (y / 100 % 10) as u8,
            b'0' + (y / 10 % 10) as u8,
            b'0' + (y % 10) as u8,
            b'-',
            b'0' + (m / 10) as u8,
            b'0' + (m % 10) as u8,
            b'-',
            b'0' + (d / 10) as u8,
            b'0' + (d % 10) as u8,
        ]
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}",
            self.year(),
            self.month(),
            self.day()
        )
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Date::parse(&s).map_err(|e| serde::de::Error::custom(format!("date '{s}': {e}")))
    }
}

/// In the published JSON Schemas ([`crate::schema`]): a `YYYY-MM-DD` string.
impl schemars::JsonSchema for Date {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Date".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A Gregorian date between 1583-01-01 and 2100-12-31, `YYYY-MM-DD`.",
            "type": "string",
            "format": "date",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
        })
    }
}

/// Why a string is not a [`Year`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum YearError {
    /// Not a base-10 integer in plain form (digits only, no sign, no leading zero).
    #[error("not a base-10 integer without sign or leading zero")]
    Malformed,
    /// An integer outside 1583..=2100.
    #[error("outside the supported range 1583..2100")]
    OutOfRange,
}

/// A year in 1583..=2100.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Year(i32);

impl Year {
    /// Parses a year in its plain decimal form: ASCII digits, no sign, no leading zero (as
    /// a date is accepted only in its one exact form, `+2024` and `02024` are not years).
    pub fn parse(s: &str) -> Result<Year, YearError> {
        if s.starts_with('0') || s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(YearError::Malformed);
        }
        // Long digit strings are valid integers, merely out of range.
        let value: i64 = s.parse().unwrap_or(i64::MAX);
        Year::new(value)
    }

    /// Checks the range.
    pub fn new(value: i64) -> Result<Year, YearError> {
        if (i64::from(FIRST_YEAR)..=i64::from(LAST_YEAR)).contains(&value) {
            Ok(Year(value as i32))
        } else {
            Err(YearError::OutOfRange)
        }
    }

    /// The year as a number.
    pub fn get(self) -> i32 {
        self.0
    }
}

impl fmt::Display for Year {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_the_exact_form() {
        assert_eq!(Date::parse("2024-02-29").unwrap().to_string(), "2024-02-29");
        assert_eq!(Date::parse("2023-02-29"), Err(DateError::NotReal));
        assert_eq!(Date::parse("2024-2-29"), Err(DateError::Malformed));
        assert_eq!(Date::parse("2024-02-29 "), Err(DateError::Malformed));
        assert_eq!(Date::parse("+024-02-29"), Err(DateError::Malformed));
        assert_eq!(Date::parse("２０２４-02-29"), Err(DateError::Malformed));
        assert_eq!(Date::parse("1582-12-31"), Err(DateError::OutOfRange));
        assert_eq!(Date::parse("2101-01-01"), Err(DateError::OutOfRange));
        assert!(Date::parse("1583-01-01").is_ok() && Date::parse("2100-12-31").is_ok());
    }

    #[test]
    fn iso_bytes_are_the_displayed_date() {
        for text in ["1583-01-01", "2024-02-29", "2100-12-31"] {
            assert_eq!(&Date::parse(text).unwrap().iso_bytes(), text.as_bytes());
        }
    }

    #[test]
    fn years_are_integers_in_range() {
        assert_eq!(Year::parse("2026").unwrap().get(), 2026);
        assert_eq!(Year::parse("1582"), Err(YearError::OutOfRange));
        assert_eq!(
            Year::parse("99999999999999999999999"),
            Err(YearError::OutOfRange)
        );
        assert_eq!(Year::parse("20x6"), Err(YearError::Malformed));
        assert_eq!(Year::parse("2026.0"), Err(YearError::Malformed));
        assert_eq!(Year::parse(""), Err(YearError::Malformed));
        for not_plain in ["+2024", "02024", "-2024", "0", " 2024"] {
            assert_eq!(
                Year::parse(not_plain),
                Err(YearError::Malformed),
                "{not_plain}"
            );
        }
    }
}
