//! Date rules of holidays: how a holiday's date is found in a given year.
//!
//! The grammar (documented for maintainers in `sources/README.md`) is small on purpose:
//! fixed days, offsets from Western Easter, the nth or last weekday of a month, and the
//! first weekday on or after a fixed day. Parsing checks everything that can be checked
//! without a year (a real month-day, an offset that stays inside the year).

use std::fmt;

use chrono::{Datelike, Duration, NaiveDate, Weekday};

use crate::easter::western_easter;

/// Largest allowed distance from Easter, in days: Easter falls between Mar 22 and Apr 25,
/// so +-80 days always stays inside the same year.
pub const MAX_EASTER_OFFSET: i64 = 80;

/// A parsed date rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateRule {
    /// The same month and day every year (Feb 29: leap years only).
    Fixed {
        /// 1..=12.
        month: u32,
        /// A day that exists in `month` of a leap year.
        day: u32,
    },
    /// Western Easter Sunday plus `offset` days (|offset| <= [`MAX_EASTER_OFFSET`]).
    Easter {
        /// Days after (positive) or before (negative) Easter Sunday.
        offset: i64,
    },
    /// The `n`th `weekday` of `month` (`n` in 1..=5; no date when the month has fewer).
    NthWeekday {
        /// 1..=5.
        n: u32,
        /// The weekday.
        weekday: Weekday,
        /// 1..=12.
        month: u32,
    },
    /// The last `weekday` of `month`.
    LastWeekday {
        /// The weekday.
        weekday: Weekday,
        /// 1..=12.
        month: u32,
    },
    /// The first `weekday` on or after `month`-`day` (never later than Dec 31).
    OnOrAfter {
        /// The weekday.
        weekday: Weekday,
        /// 1..=12.
        month: u32,
        /// A day that exists in every year, at most Dec 25.
        day: u32,
    },
}

/// Why a rule string is not a rule. The message is shown to the maintainer as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The text matches no form of the grammar.
    #[error("malformed rule '{0}': expected MM-DD, easter[+-N], 'Nth|last WEEKDAY of MONTH' or 'WEEKDAY on or after MM-DD'")]
    Malformed(String),
    /// A month-day that does not exist (Feb 30, Apr 31, 13-01).
    #[error("impossible date {0} in rule")]
    ImpossibleDate(String),
    /// An Easter offset that could leave the year.
    #[error("easter offset {0} is outside -{MAX_EASTER_OFFSET}..+{MAX_EASTER_OFFSET}")]
    OffsetTooLarge(i64),
}

impl DateRule {
    /// Parses a rule (case-insensitive, words separated by spaces).
    pub fn parse(text: &str) -> Result<DateRule, RuleError> {
        let lower = text.trim().to_ascii_lowercase();
        let malformed = || RuleError::Malformed(text.to_string());
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            [single] if single.starts_with("easter") => {
                let rest = &single["easter".len()..];
                let offset = if rest.is_empty() {
                    0
                } else {
                    let (sign, digits) = rest.split_at(1);
                    if !matches!(sign, "+" | "-")
                        || digits.is_empty()
                        || !digits.bytes().all(|b| b.is_ascii_digit())
                    {
                        return Err(malformed());
                    }
                    let n: i64 = digits.parse().map_err(|_| malformed())?;
                    if sign == "-" {
                        -n
                    } else {
                        n
                    }
                };
                if offset.abs() > MAX_EASTER_OFFSET {
                    return Err(RuleError::OffsetTooLarge(offset));
                }
                Ok(DateRule::Easter { offset })
            }
            [single] => {
                let (month, day) = parse_month_day(single).ok_or_else(malformed)?;
                check_month_day(month, day, 2000)?;
                Ok(DateRule::Fixed { month, day })
            }
            [nth, weekday, "of", month] => {
                let weekday = parse_weekday(weekday).ok_or_else(malformed)?;
                let month = parse_month(month).ok_or_else(malformed)?;
                match *nth {
                    "last" => Ok(DateRule::LastWeekday { weekday, month }),
                    _ => {
                        let n = match *nth {
                            "1st" | "first" => 1,
                            "2nd" | "second" => 2,
                            "3rd" | "third" => 3,
                            "4th" | "fourth" => 4,
                            "5th" | "fifth" => 5,
                            _ => return Err(malformed()),
                        };
                        Ok(DateRule::NthWeekday { n, weekday, month })
                    }
                }
            }
            [weekday, "on", "or", "after", md] => {
                let weekday = parse_weekday(weekday).ok_or_else(malformed)?;
                let (month, day) = parse_month_day(md).ok_or_else(malformed)?;
                // A common year: the rule must find a date in every year.
                check_month_day(month, day, 2001)?;
                if month == 12 && day > 25 {
                    return Err(malformed());
                }
                Ok(DateRule::OnOrAfter {
                    weekday,
                    month,
                    day,
                })
            }
            _ => Err(malformed()),
        }
    }

    /// The rule's date in `year`, or `None` when the year has none (Feb 29 in a common
    /// year, a 5th weekday that does not exist).
    pub fn date_in(&self, year: i32) -> Option<NaiveDate> {
        match *self {
            DateRule::Fixed { month, day } => NaiveDate::from_ymd_opt(year, month, day),
            DateRule::Easter { offset } => Some(western_easter(year) + Duration::days(offset)),
            DateRule::NthWeekday { n, weekday, month } => {
                NaiveDate::from_weekday_of_month_opt(year, month, weekday, n as u8)
            }
            DateRule::LastWeekday { weekday, month } => {
                let first_next = if month == 12 {
                    NaiveDate::from_ymd_opt(year + 1, 1, 1)
                } else {
                    NaiveDate::from_ymd_opt(year, month + 1, 1)
                }?;
                let last = first_next.pred_opt()?;
                let back = (7 + last.weekday().num_days_from_monday()
                    - weekday.num_days_from_monday())
                    % 7;
                Some(last - Duration::days(i64::from(back)))
            }
            DateRule::OnOrAfter {
                weekday,
                month,
                day,
            } => {
                let start = NaiveDate::from_ymd_opt(year, month, day)?;
                let ahead = (7 + weekday.num_days_from_monday()
                    - start.weekday().num_days_from_monday())
                    % 7;
                Some(start + Duration::days(i64::from(ahead)))
            }
        }
    }
}

impl fmt::Display for DateRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DateRule::Fixed { month, day } => write!(f, "{month:02}-{day:02}"),
            DateRule::Easter { offset: 0 } => write!(f, "easter"),
            DateRule::Easter { offset } => write!(f, "easter{offset:+}"),
            DateRule::NthWeekday { n, weekday, month } => {
                write!(f, "{n}. {weekday} of month {month}")
            }
            DateRule::LastWeekday { weekday, month } => {
                write!(f, "last {weekday} of month {month}")
            }
            DateRule::OnOrAfter {
                weekday,
                month,
                day,
            } => write!(f, "{weekday} on or after {month:02}-{day:02}"),
        }
    }
}

fn parse_month_day(s: &str) -> Option<(u32, u32)> {
    let (m, d) = s.split_once('-')?;
    if m.len() != 2 || d.len() != 2 {
        return None;
    }
    if !m.bytes().chain(d.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((m.parse().ok()?, d.parse().ok()?))
}

fn check_month_day(month: u32, day: u32, year: i32) -> Result<(), RuleError> {
    NaiveDate::from_ymd_opt(year, month, day)
        .map(|_| ())
        .ok_or_else(|| RuleError::ImpossibleDate(format!("{month:02}-{day:02}")))
}

fn parse_weekday(s: &str) -> Option<Weekday> {
    Some(match s {
        "mon" | "monday" => Weekday::Mon,
        "tue" | "tuesday" => Weekday::Tue,
        "wed" | "wednesday" => Weekday::Wed,
        "thu" | "thursday" => Weekday::Thu,
        "fri" | "friday" => Weekday::Fri,
        "sat" | "saturday" => Weekday::Sat,
        "sun" | "sunday" => Weekday::Sun,
        _ => return None,
    })
}

fn parse_month(s: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    MONTHS
        .iter()
        .position(|full| s == *full || (s.len() == 3 && full.starts_with(s)))
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn on(rule: &str, year: i32) -> Option<NaiveDate> {
        DateRule::parse(rule).unwrap().date_in(year)
    }

    #[test]
    fn mothers_day_is_the_first_sunday_of_may() {
        for (year, expected) in [
            (1994, "1994-05-01"),
            (2008, "2008-05-04"),
            (2016, "2016-05-01"),
            (2022, "2022-05-01"),
            (2023, "2023-05-07"),
            (2024, "2024-05-05"),
            (2025, "2025-05-04"),
            (2026, "2026-05-03"),
        ] {
            assert_eq!(on("1st sun of may", year), Some(date(expected)));
        }
    }

    #[test]
    fn fathers_day_is_the_first_sunday_of_june() {
        for (year, expected) in [
            (2008, "2008-06-01"),
            (2019, "2019-06-02"),
            (2024, "2024-06-02"),
            (2025, "2025-06-01"),
            (2026, "2026-06-07"),
        ] {
            assert_eq!(on("1st sun of june", year), Some(date(expected)));
        }
    }

    #[test]
    fn nth_and_last_weekdays() {
        assert_eq!(on("4th sun of may", 2026), Some(date("2026-05-24")));
        assert_eq!(on("last sun of jul", 2026), Some(date("2026-07-26")));
        assert_eq!(on("last sat of dec", 2026), Some(date("2026-12-26")));
        assert_eq!(on("last mon of feb", 2024), Some(date("2024-02-26")));
        assert_eq!(on("3rd sat of sep", 2025), Some(date("2025-09-20")));
        assert_eq!(on("5th fri of jan", 2027), Some(date("2027-01-29")));
        assert_eq!(on("5th mon of feb", 2026), None);
        assert_eq!(on("last sun of april", 2009), Some(date("2009-04-26")));
    }

    #[test]
    fn on_or_after_and_easter_offsets() {
        // Advent: the Sunday between Nov 27 and Dec 3.
        assert_eq!(on("sun on or after 11-27", 2026), Some(date("2026-11-29")));
        assert_eq!(on("sun on or after 11-27", 2022), Some(date("2022-11-27")));
        assert_eq!(on("easter-47", 2026), Some(date("2026-02-17")));
        assert_eq!(on("easter+1", 2026), Some(date("2026-04-06")));
        assert_eq!(on("EASTER", 2026), Some(date("2026-04-05")));
        assert_eq!(on("02-29", 2023), None);
        assert_eq!(on("02-29", 2024), Some(date("2024-02-29")));
    }

    #[test]
    fn rejects_malformed_rules() {
        for bad in [
            "",
            "12-24-1",
            "2-29",
            "easter+",
            "easter*2",
            "easter+1d",
            "0th sun of may",
            "1st sun of mai",
            "1st sund of may",
            "last sun may",
            "sun on or after 12-27",
        ] {
            assert!(
                matches!(DateRule::parse(bad), Err(RuleError::Malformed(_))),
                "{bad:?} should be malformed"
            );
        }
        assert_eq!(
            DateRule::parse("02-30"),
            Err(RuleError::ImpossibleDate("02-30".into()))
        );
        assert_eq!(
            DateRule::parse("13-01"),
            Err(RuleError::ImpossibleDate("13-01".into()))
        );
        assert_eq!(
            DateRule::parse("sun on or after 02-29"),
            Err(RuleError::ImpossibleDate("02-29".into()))
        );
        assert_eq!(
            DateRule::parse("easter+81"),
            Err(RuleError::OffsetTooLarge(81))
        );
    }
}
