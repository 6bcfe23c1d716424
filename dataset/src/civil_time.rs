//! Lithuania's legal time (Europe/Vilnius in the IANA tz database, through `chrono-tz`):
//! the instants the sun and moon modules compute are told in it, to the minute, and the
//! clock changes (summer time and the changes of zone) are read from it.
//!
//! Served from [`FIRST_YEAR`]: before 10 October 1919 the clocks kept local mean times
//! (Vilnius +01:41:16, Warsaw +01:24, Kaunas +01:35:36), offsets RFC 3339 cannot write.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Offset, TimeZone, Timelike, Utc};
use chrono_tz::Europe::Vilnius;
use chrono_tz::Tz;

use crate::Date;

/// The first year whose local times are whole minutes from UTC in every instant.
pub const FIRST_YEAR: i32 = 1920;

/// Whether `date` lies in the years whose sun, moon and clock changes are served.
pub fn served(date: Date) -> bool {
    date.year() >= FIRST_YEAR
}

/// `at` rounded to the nearest minute.
pub fn round_minute(at: DateTime<Utc>) -> DateTime<Utc> {
    (at + Duration::seconds(30))
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .expect("second 0 exists")
}

/// `at` rounded to the nearest minute, in Lithuania's legal time.
pub fn local_minute(at: DateTime<Utc>) -> DateTime<Tz> {
    round_minute(at).with_timezone(&Vilnius)
}

/// RFC 3339 with the offset (`2026-04-08T06:34:00+03:00`), seconds always written.
pub fn rfc3339<T: TimeZone>(at: &DateTime<T>) -> String
where
    T::Offset: std::fmt::Display,
{
    at.format("%Y-%m-%dT%H:%M:%S%:z").to_string()
}

/// The UTC instant of a local midnight opening `date` (the first instant of the date).
pub fn start_of(date: NaiveDate) -> DateTime<Utc> {
    // No clock change in Lithuania's data falls at midnight; `earliest` covers one anyway.
    let midnight = date.and_time(NaiveTime::MIN);
    match Vilnius.from_local_datetime(&midnight).earliest() {
        Some(local) => local.with_timezone(&Utc),
        None => Utc.from_utc_datetime(&midnight) - Duration::hours(2),
    }
}

/// Offset from UTC in seconds at `at`.
fn offset_at(at: DateTime<Utc>) -> i32 {
    at.with_timezone(&Vilnius).offset().fix().local_minus_utc()
}

/// A change of the clocks: at `utc`, the local time jumps from `before` to `after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockChange {
    /// The instant of the change.
    pub utc: DateTime<Utc>,
    /// The local time the clocks showed as the change came (its old offset).
    pub before: DateTime<chrono::FixedOffset>,
    /// The local time they show from it (its new offset).
    pub after: DateTime<chrono::FixedOffset>,
}

impl ClockChange {
    /// Minutes the clocks move: 60 forward in spring, -60 back in autumn.
    pub fn minutes(&self) -> i64 {
        i64::from(self.after.offset().local_minus_utc() - self.before.offset().local_minus_utc())
            / 60
    }
}

/// The clock change on the local date `date`, if any (never more than one a day).
pub fn clock_change(date: Date) -> Option<ClockChange> {
    if !served(date) {
        return None;
    }
    let start = start_of(date.naive());
    let end = start_of(date.naive().succ_opt()?);
    let (first, last) = (offset_at(start), offset_at(end - Duration::seconds(1)));
    if first == last {
        return None;
    }
    // The change is on a whole minute: halve the day down to it.
    let (mut low, mut high) = (start, end - Duration::seconds(1));
    while high - low > Duration::minutes(1) {
        let mid = low + (high - low) / 2;
        if offset_at(mid) == first {
            low = mid;
        } else {
            high = mid;
        }
    }
    let utc = high
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .expect("second 0 exists");
    let utc = if offset_at(utc) == first { high } else { utc };
    let fixed = |seconds| chrono::FixedOffset::east_opt(seconds).expect("offset in range");
    Some(ClockChange {
        utc,
        before: utc.with_timezone(&fixed(first)),
        after: utc.with_timezone(&fixed(last)),
    })
}

/// The Julian Day of `at` (UT): days since noon UT of 1 January 4713 BC (Julian calendar).
pub fn julian_day(at: DateTime<Utc>) -> f64 {
    // 2440587.5 is 1970-01-01T00:00Z.
    2440587.5 + at.timestamp_millis() as f64 / 86400000.0
}

/// The instant of a Julian Day (UT).
pub fn from_julian_day(jd: f64) -> DateTime<Utc> {
    let millis = ((jd - 2440587.5) * 86400000.0).round() as i64;
    DateTime::from_timestamp_millis(millis).expect("Julian day in chrono's range")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    #[test]
    fn summer_time_starts_and_ends_at_one_utc() {
        let spring = clock_change(date("2026-03-29")).unwrap();
        assert_eq!(spring.utc.to_rfc3339(), "2026-03-29T01:00:00+00:00");
        assert_eq!(rfc3339(&spring.before), "2026-03-29T03:00:00+02:00");
        assert_eq!(rfc3339(&spring.after), "2026-03-29T04:00:00+03:00");
        assert_eq!(spring.minutes(), 60);
        let autumn = clock_change(date("2026-10-25")).unwrap();
        assert_eq!(rfc3339(&autumn.before), "2026-10-25T04:00:00+03:00");
        assert_eq!(rfc3339(&autumn.after), "2026-10-25T03:00:00+02:00");
        assert_eq!(autumn.minutes(), -60);
        assert_eq!(clock_change(date("2026-03-28")), None);
        assert_eq!(clock_change(date("2026-10-26")), None);
    }

    #[test]
    fn no_summer_time_in_2000_to_2002() {
        // EET all year from 1999-10-31 to 2003-01-01 (the tz database, Europe/Vilnius).
        assert_eq!(clock_change(date("2001-03-25")), None);
        // CEST (+02:00) became EET (+02:00): the zone changed, the clocks did not.
        assert_eq!(clock_change(date("1999-10-31")), None);
    }

    #[test]
    fn julian_day_of_the_j2000_epoch() {
        let j2000 = Utc.with_ymd_and_hms(2000, 1, 1, 12, 0, 0).unwrap();
        assert_eq!(julian_day(j2000), 2451545.0);
        assert_eq!(from_julian_day(2451545.0), j2000);
    }

    #[test]
    fn minutes_round_to_nearest() {
        let at = Utc.with_ymd_and_hms(2026, 4, 8, 3, 33, 30).unwrap();
        assert_eq!(rfc3339(&local_minute(at)), "2026-04-08T06:34:00+03:00");
        let at = Utc.with_ymd_and_hms(2026, 4, 8, 3, 33, 29).unwrap();
        assert_eq!(rfc3339(&local_minute(at)), "2026-04-08T06:33:00+03:00");
    }
}
