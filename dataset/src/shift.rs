//! Shift hours for timesheets (extension E17): a shift, two instants, split by calendar date
//! and by kind of day, with its night minutes, in Lithuanian local time across clock
//! changes.
//!
//! The rules (docs/api.md, `/shift-hours`):
//! - **Local time** is Europe/Vilnius by the tz database the build carries
//!   ([`TZDB_VERSION`]). A minute belongs to the calendar date of its local wall-clock time.
//! - **Night** is 22:00-06:00 local wall time (Labour Code art. 117(1)). At the autumn change
//!   the hour 03:00-04:00 happens twice and both count; in spring 03:00-04:00 does not happen.
//! - **Kind of day**, in the 5- or 6-day week exactly as the working-time rules decide
//!   ([`crate::working_time::DayFacts::kind`]): a working day; otherwise a holiday when a
//!   red holiday or a declared day off that week follows falls on it, else the week's rest
//!   day.
//!
//! The shift is walked by segments between its boundaries (local midnights, 06:00, 22:00
//! and the clock changes), never minute by minute: within a segment the offset is constant,
//! so the wall clock runs with the instants and every minute of it is of one kind.

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeDelta, Utc};
use chrono::{FixedOffset, LocalResult, TimeZone};
use chrono_tz::Tz;

use crate::basis::labour_code;
use crate::working_time::DayKind;
use crate::Basis;

/// The time zone of every local time: Lithuania's.
pub const ZONE: Tz = chrono_tz::Europe::Vilnius;

/// The IANA tz database release compiled into this build (via `chrono-tz`).
pub const TZDB_VERSION: &str = chrono_tz::IANA_TZDB_VERSION;

/// The longest shift answered: 72 hours.
pub const MAX_MINUTES: i64 = 72 * 60;

/// The first local date a shift may touch. Until 1919-10-10 Lithuania kept local mean
/// times whose offsets have seconds (+01:35:36), so minutes would not be whole.
pub fn first_date() -> NaiveDate {
    NaiveDate::from_ymd_opt(1920, 1, 1).expect("a real date")
}

/// The last local date a shift may touch. The tz data as `chrono-tz` compiles it lists
/// clock changes through 2099 and none after, so 2100 would be a year without summer time.
pub fn last_date() -> NaiveDate {
    NaiveDate::from_ymd_opt(2099, 12, 31).expect("a real date")
}

/// Night begins at 22:00 and ends at 06:00 local wall time (art. 117(1)).
const NIGHT_ENDS: NaiveTime = NaiveTime::from_hms_opt(6, 0, 0).expect("a real time");
const NIGHT_BEGINS: NaiveTime = NaiveTime::from_hms_opt(22, 0, 0).expect("a real time");

/// Why a local wall-clock time names no single instant in Lithuania.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalTimeError {
    /// It falls in the spring gap: the clocks jump from `from` (at offset `before`) to `to`
    /// (at offset `after`).
    Gap {
        from: NaiveDateTime,
        to: NaiveDateTime,
        before: FixedOffset,
        after: FixedOffset,
    },
    /// It happens twice (the autumn overlap): first at `first`, then at `second`.
    Ambiguous {
        first: DateTime<FixedOffset>,
        second: DateTime<FixedOffset>,
    },
}

/// The instant of a local wall-clock time in Lithuania.
pub fn local(time: NaiveDateTime) -> Result<DateTime<Tz>, LocalTimeError> {
    match ZONE.from_local_datetime(&time) {
        LocalResult::Single(instant) => Ok(instant),
        LocalResult::Ambiguous(first, second) => Err(LocalTimeError::Ambiguous {
            first: first.fixed_offset(),
            second: second.fixed_offset(),
        }),
        LocalResult::None => {
            // The gap lies between the last instant before it and the first after: the
            // offsets at the instants `time` names under each of them.
            let gap = chrono_tz::GapInfo::new(&time, &ZONE);
            let begin = gap.as_ref().and_then(|g| g.begin);
            let end = gap.as_ref().and_then(|g| g.end);
            match (begin, end) {
                (Some((from, before)), Some(end)) => Err(LocalTimeError::Gap {
                    from,
                    to: end.naive_local(),
                    before: before.fix(),
                    after: end.offset().fix(),
                }),
                // Only at the ends of the tz data, which Lithuania's history never reaches.
                _ => unreachable!("a gap in Europe/Vilnius has both ends"),
            }
        }
    }
}

/// One calendar date's share of a shift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayPart {
    /// The local date.
    pub date: NaiveDate,
    /// The first instant of the shift on the date.
    pub from: DateTime<Tz>,
    /// The instant after its last minute on the date.
    pub to: DateTime<Tz>,
    /// Minutes on the date.
    pub minutes: u32,
    /// Of them, night minutes.
    pub night_minutes: u32,
}

/// A date's share with the kind of the date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShiftDay {
    pub part: DayPart,
    pub kind: DayKind,
}

/// A shift split for a timesheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    /// Elapsed minutes.
    pub minutes: u32,
    /// 22:00-06:00 local wall time.
    pub night_minutes: u32,
    /// On holidays (red holidays and declared days off).
    pub holiday_minutes: u32,
    /// On the week's rest days.
    pub rest_day_minutes: u32,
    /// On working days.
    pub working_day_minutes: u32,
    /// One per local date touched, in date order.
    pub days: Vec<ShiftDay>,
}

/// The shift `start..end` (`start < end`, whole minutes apart) split by date, each date's
/// kind given by `kind_of`.
pub fn shift(
    start: DateTime<Tz>,
    end: DateTime<Tz>,
    mut kind_of: impl FnMut(NaiveDate) -> DayKind,
) -> Shift {
    let days: Vec<ShiftDay> = split(start, end)
        .into_iter()
        .map(|part| ShiftDay {
            part,
            kind: kind_of(part.date),
        })
        .collect();
    let minutes_of = |kind: DayKind| -> u32 {
        let of_kind = days.iter().filter(|d| d.kind == kind);
        of_kind.map(|d| d.part.minutes).sum()
    };
    Shift {
        minutes: days.iter().map(|d| d.part.minutes).sum(),
        night_minutes: days.iter().map(|d| d.part.night_minutes).sum(),
        holiday_minutes: minutes_of(DayKind::Holiday),
        rest_day_minutes: minutes_of(DayKind::RestDay),
        working_day_minutes: minutes_of(DayKind::WorkingDay),
        days,
    }
}

/// The shift `start..end` split by local date, in date order.
pub fn split(start: DateTime<Tz>, end: DateTime<Tz>) -> Vec<DayPart> {
    let (start, end) = (start.with_timezone(&Utc), end.with_timezone(&Utc));
    let mut parts: Vec<DayPart> = Vec::new();
    let mut at = start;
    while at < end {
        let offset = offset_at(at);
        let wall = at.naive_utc() + offset;
        let next_boundary = at + (next_wall_boundary(wall) - wall);
        let until = change_before(at, next_boundary.min(end), offset);
        let minutes = u32::try_from((until - at).num_minutes()).expect("a short shift");
        let night = wall.time() < NIGHT_ENDS || wall.time() >= NIGHT_BEGINS;
        let (from, to) = (at.with_timezone(&ZONE), until.with_timezone(&ZONE));
        // A date comes back only when clocks go back across midnight (1941-06-24 00:00
        // MSK became 06-23 22:00 CET): its minutes are added to its entry.
        match parts.iter_mut().find(|p| p.date == wall.date()) {
            Some(part) => {
                part.to = to;
                part.minutes += minutes;
                part.night_minutes += if night { minutes } else { 0 };
            }
            None => parts.push(DayPart {
                date: wall.date(),
                from,
                to,
                minutes,
                night_minutes: if night { minutes } else { 0 },
            }),
        }
        at = until;
    }
    parts.sort_by_key(|p| p.date);
    parts
}

/// Lithuania's offset from UTC at `instant`.
fn offset_at(instant: DateTime<Utc>) -> TimeDelta {
    let seconds = ZONE
        .offset_from_utc_datetime(&instant.naive_utc())
        .fix()
        .local_minus_utc();
    TimeDelta::seconds(i64::from(seconds))
}

/// The next local wall time after `wall` at which a minute may change its date or its
/// night: 06:00, 22:00 or the next midnight.
fn next_wall_boundary(wall: NaiveDateTime) -> NaiveDateTime {
    let date = wall.date();
    match wall.time() {
        t if t < NIGHT_ENDS => date.and_time(NIGHT_ENDS),
        t if t < NIGHT_BEGINS => date.and_time(NIGHT_BEGINS),
        _ => date
            .succ_opt()
            .expect("a served date has a next day")
            .and_time(NaiveTime::MIN),
    }
}

/// The first instant in `(from, until)` whose offset is not `offset` (a clock change), or
/// `until`. At most one change falls within a segment (they are months apart): a binary
/// search over whole minutes, as every change is at a whole minute.
fn change_before(from: DateTime<Utc>, until: DateTime<Utc>, offset: TimeDelta) -> DateTime<Utc> {
    let minute = TimeDelta::minutes(1);
    if offset_at(until - minute) == offset {
        return until;
    }
    // Invariant: the offset at `low` is `offset`, at `high` it is not.
    let (mut low, mut high) = (from, until - minute);
    while high - low > minute {
        let mid = low + TimeDelta::minutes((high - low).num_minutes() / 2);
        if offset_at(mid) == offset {
            low = mid;
        } else {
            high = mid;
        }
    }
    high
}

/// Minutes as hours rounded half up to two decimals (25 minutes: 0.42).
pub fn hours(minutes: u32) -> f64 {
    let hundredths = (u64::from(minutes) * 100 + 30) / 60;
    hundredths as f64 / 100.0
}

/// The provisions that define night work and holidays and set the pay for night, rest-day
/// and holiday work, in force on `date` (none before 2003: the articles of the earlier
/// code were not found). Pay itself is the employer's: the answer cites, never computes it.
/// Each is `confirmed`: its words were read as quoted with its number, XII-2603 art. 117(1)
/// at lrvalstybe.lt, art. 144(1) and 144(3) by the Labour Inspectorate (vdi.lt), 144(2) by
/// a trade union's guide (maistininkuprofsajunga.lt), art. 123(1) as in `sources/acts.toml`;
/// IX-926 art. 154(1) and 193 in the code's commentary (dkkomentaras.lt), 194(1) and 194(2)
/// at somo.lt, 162(1) as in `sources/acts.toml`.
pub fn provisions_on(date: NaiveDate) -> &'static [Basis] {
    static CODES: LazyLock<[(NaiveDate, Vec<Basis>); 2]> = LazyLock::new(|| {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).expect("a real date");
        let cite =
            |(number, article, part): (&str, &str, Option<u32>)| labour_code(number, article, part);
        [
            (
                day(2003, 1, 1),
                [
                    // Night time; holidays; pay for night (and overtime) work; pay for
                    // rest-day and holiday work.
                    ("IX-926", "154", Some(1)),
                    ("IX-926", "162", Some(1)),
                    ("IX-926", "193", None),
                    ("IX-926", "194", Some(1)),
                    ("IX-926", "194", Some(2)),
                ]
                .map(cite)
                .into(),
            ),
            (
                day(2017, 7, 1),
                [
                    // Night time; holidays; pay for rest-day, holiday and night work.
                    ("XII-2603", "117", Some(1)),
                    ("XII-2603", "123", Some(1)),
                    ("XII-2603", "144", Some(1)),
                    ("XII-2603", "144", Some(2)),
                    ("XII-2603", "144", Some(3)),
                ]
                .map(cite)
                .into(),
            ),
        ]
    });
    CODES
        .iter()
        .rev()
        .find(|(from, _)| *from <= date)
        .map_or(&[], |(_, bases)| bases.as_slice())
}

#[derive(Debug, PartialEq, Eq)]
pub enum TimeFormError {
    Malformed,
    /// Seconds other than `:00`.
    Seconds,
}

/// Parses `YYYY-MM-DDTHH:MM`, optionally `:00`, optionally `Z` or `±HH:MM` (a shift's
/// start or end as `/shift-hours` takes it): the local wall time and the offset given.
pub fn parse_time(value: &str) -> Result<(NaiveDateTime, Option<FixedOffset>), TimeFormError> {
    let b = value.as_bytes();
    let number = |at: usize, len: usize| -> Result<u32, TimeFormError> {
        let digits = b.get(at..at + len).ok_or(TimeFormError::Malformed)?;
        digits.iter().try_fold(0, |n, &c| {
            if c.is_ascii_digit() {
                Ok(n * 10 + u32::from(c - b'0'))
            } else {
                Err(TimeFormError::Malformed)
            }
        })
    };
    let at = |i: usize, c: u8| {
        if b.get(i) == Some(&c) {
            Ok(())
        } else {
            Err(TimeFormError::Malformed)
        }
    };
    at(4, b'-')?;
    at(7, b'-')?;
    at(10, b'T')?;
    at(13, b':')?;
    let date = NaiveDate::from_ymd_opt(number(0, 4)? as i32, number(5, 2)?, number(8, 2)?);
    let time = NaiveTime::from_hms_opt(number(11, 2)?, number(14, 2)?, 0);
    let (Some(date), Some(time)) = (date, time) else {
        return Err(TimeFormError::Malformed);
    };
    let mut rest = &value[16..];
    if let Some(seconds) = rest.strip_prefix(':') {
        let (digits, tail) = seconds
            .split_at_checked(2)
            .ok_or(TimeFormError::Malformed)?;
        if !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(TimeFormError::Malformed);
        }
        if digits != "00" {
            return Err(TimeFormError::Seconds);
        }
        rest = tail;
    }
    let offset = match rest.as_bytes() {
        [] => None,
        [b'Z'] => FixedOffset::east_opt(0),
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let digits = [*h1, *h2, *m1, *m2];
            if !digits.iter().all(u8::is_ascii_digit) {
                return Err(TimeFormError::Malformed);
            }
            let [h1, h2, m1, m2] = digits.map(|c| i32::from(c - b'0'));
            let (hours, minutes) = (h1 * 10 + h2, m1 * 10 + m2);
            if minutes >= 60 {
                return Err(TimeFormError::Malformed);
            }
            let seconds = (hours * 60 + minutes) * 60;
            let offset = if *sign == b'+' {
                FixedOffset::east_opt(seconds)
            } else {
                FixedOffset::west_opt(seconds)
            };
            Some(offset.ok_or(TimeFormError::Malformed)?)
        }
        _ => return Err(TimeFormError::Malformed),
    };
    Ok((date.and_time(time), offset))
}

#[cfg(test)]
mod tests {
    use chrono::Datelike;

    use super::*;

    fn at(text: &str) -> DateTime<Tz> {
        let naive = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M").unwrap();
        local(naive).unwrap()
    }

    fn summary(parts: &[DayPart]) -> Vec<(String, u32, u32)> {
        parts
            .iter()
            .map(|p| (p.date.to_string(), p.minutes, p.night_minutes))
            .collect()
    }

    fn s(date: &str, minutes: u32, night: u32) -> (String, u32, u32) {
        (date.to_string(), minutes, night)
    }

    #[test]
    fn the_tz_data_has_lithuanias_clock_changes() {
        // Spring: 03:00 EET becomes 04:00 EEST; autumn: 04:00 EEST becomes 03:00 EET.
        assert_eq!(
            local("2026-03-29T03:30:00".parse().unwrap()),
            Err(LocalTimeError::Gap {
                from: "2026-03-29T03:00:00".parse().unwrap(),
                to: "2026-03-29T04:00:00".parse().unwrap(),
                before: FixedOffset::east_opt(2 * 3600).unwrap(),
                after: FixedOffset::east_opt(3 * 3600).unwrap(),
            })
        );
        let Err(LocalTimeError::Ambiguous { first, second }) =
            local("2026-10-25T03:30:00".parse().unwrap())
        else {
            panic!("03:30 happens twice on 2026-10-25");
        };
        assert_eq!(first.to_rfc3339(), "2026-10-25T03:30:00+03:00");
        assert_eq!(second.to_rfc3339(), "2026-10-25T03:30:00+02:00");
        assert_eq!(
            at("2026-03-29T02:59").offset().fix().local_minus_utc(),
            7200
        );
        assert_eq!(
            at("2026-03-29T04:00").offset().fix().local_minus_utc(),
            10800
        );
        // Summer time through the last year answered, and none in the tz data after it
        // (should a tz update list them, `last_date` may move to the last year served).
        let summer = |year: i32| -> i32 {
            let noon = format!("{year}-07-01T12:00");
            at(&noon).offset().fix().local_minus_utc()
        };
        assert_eq!(summer(last_date().year()), 10800);
        assert_eq!(summer(last_date().year() + 1), 7200);
    }

    #[test]
    fn a_night_across_midnight() {
        let parts = split(at("2026-12-24T20:00"), at("2026-12-25T08:00"));
        assert_eq!(
            summary(&parts),
            [s("2026-12-24", 240, 120), s("2026-12-25", 480, 360)]
        );
        assert_eq!(
            parts[0].to, parts[1].from,
            "midnight ends one and starts the next"
        );
        assert_eq!(parts[1].from.to_rfc3339(), "2026-12-25T00:00:00+02:00");
    }

    #[test]
    fn clock_change_nights() {
        // Spring: 02:00 wall ... 03:00 jumps to 04:00; seven hours from 22:00 to 06:00.
        let spring = split(at("2026-03-28T22:00"), at("2026-03-29T06:00"));
        assert_eq!(
            summary(&spring),
            [s("2026-03-28", 120, 120), s("2026-03-29", 300, 300)]
        );
        // Autumn: 03:00-04:00 twice; nine hours.
        let autumn = split(at("2026-10-24T22:00"), at("2026-10-25T06:00"));
        assert_eq!(
            summary(&autumn),
            [s("2026-10-24", 120, 120), s("2026-10-25", 420, 420)]
        );
        // A day shift on the change day is untouched.
        let day = split(at("2026-10-25T08:00"), at("2026-10-25T20:00"));
        assert_eq!(summary(&day), [s("2026-10-25", 720, 0)]);
        // Starting in the repeated hour, the second time: one hour to 04:00 (+02:00).
        let second = "2026-10-25T03:00:00+02:00".parse::<DateTime<FixedOffset>>();
        let second = second.unwrap().with_timezone(&ZONE);
        assert_eq!(
            summary(&split(second, at("2026-10-25T04:00"))),
            [s("2026-10-25", 60, 60)]
        );
    }

    #[test]
    fn night_boundaries_inside_a_day() {
        let parts = split(at("2026-06-10T05:30"), at("2026-06-10T22:15"));
        assert_eq!(summary(&parts), [s("2026-06-10", 1005, 45)]);
        // Exactly 06:00-22:00: no night minute.
        let day = split(at("2026-06-10T06:00"), at("2026-06-10T22:00"));
        assert_eq!(summary(&day), [s("2026-06-10", 960, 0)]);
    }

    #[test]
    fn seventy_two_hours_across_christmas() {
        let parts = split(at("2026-12-23T12:00"), at("2026-12-26T12:00"));
        assert_eq!(
            summary(&parts),
            [
                s("2026-12-23", 720, 120),
                s("2026-12-24", 1440, 480),
                s("2026-12-25", 1440, 480),
                s("2026-12-26", 720, 360),
            ]
        );
    }

    #[test]
    fn clocks_going_back_across_midnight_merge_the_date() {
        // 1941-06-24 00:00 MSK (+03:00) became 1941-06-23 23:00 CEST (+02:00): the date
        // 06-23 is touched twice, one entry.
        let instant = |text: &str| text.parse::<DateTime<FixedOffset>>().unwrap();
        let parts = split(
            instant("1941-06-23T20:00:00+03:00").with_timezone(&ZONE),
            instant("1941-06-24T02:00:00+02:00").with_timezone(&ZONE),
        );
        // 20:00-24:00 MSK (2 h of night), 23:00-24:00 CEST again, then 00:00-02:00.
        assert_eq!(
            summary(&parts),
            [s("1941-06-23", 300, 180), s("1941-06-24", 120, 120)]
        );
    }

    #[test]
    fn totals_by_kind() {
        let shift = shift(at("2026-12-23T12:00"), at("2026-12-26T12:00"), |date| {
            if date.day() == 23 {
                DayKind::WorkingDay
            } else {
                DayKind::Holiday
            }
        });
        assert_eq!(shift.minutes, 72 * 60);
        assert_eq!(shift.working_day_minutes, 720);
        assert_eq!(shift.holiday_minutes, 72 * 60 - 720);
        assert_eq!(shift.rest_day_minutes, 0);
        assert_eq!(shift.night_minutes, 120 + 480 + 480 + 360);
    }

    #[test]
    fn hours_round_half_up_to_hundredths() {
        assert_eq!(hours(720), 12.0);
        assert_eq!(hours(25), 0.42);
        assert_eq!(hours(1), 0.02);
        assert_eq!(hours(20), 0.33);
        assert_eq!(hours(50), 0.83);
        assert_eq!(hours(4320), 72.0);
    }

    #[test]
    fn provisions_by_the_code_in_force() {
        let texts = |y, m, d| -> Vec<&str> {
            let date = NaiveDate::from_ymd_opt(y, m, d).unwrap();
            provisions_on(date)
                .iter()
                .map(|b| b.text_en.as_str())
                .collect()
        };
        assert_eq!(
            texts(2026, 12, 24),
            [
                "Labour Code (XII-2603) art. 117(1)",
                "Labour Code (XII-2603) art. 123(1)",
                "Labour Code (XII-2603) art. 144(1)",
                "Labour Code (XII-2603) art. 144(2)",
                "Labour Code (XII-2603) art. 144(3)",
            ]
        );
        assert_eq!(texts(2017, 6, 30)[0], "Labour Code (IX-926) art. 154(1)");
        assert_eq!(texts(2017, 6, 30)[2], "Labour Code (IX-926) art. 193");
        assert!(texts(2002, 12, 31).is_empty());
        let lt = &provisions_on(NaiveDate::from_ymd_opt(2026, 1, 1).unwrap())[4];
        assert_eq!(lt.text_lt, "Darbo kodekso (XII-2603) 144 str. 3 d.");
        assert_eq!(lt.text_ru, "ч. 3 ст. 144 Трудового кодекса (XII-2603)");
    }

    #[test]
    fn times_are_parsed_in_their_exact_forms() {
        let local = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M").unwrap();
        let east = |h: i32| FixedOffset::east_opt(h * 3600);
        assert_eq!(
            parse_time("2026-12-24T20:00"),
            Ok((local("2026-12-24T20:00"), None))
        );
        assert_eq!(
            parse_time("2026-12-24T20:00:00"),
            Ok((local("2026-12-24T20:00"), None))
        );
        assert_eq!(
            parse_time("2026-10-25T03:30+02:00"),
            Ok((local("2026-10-25T03:30"), east(2)))
        );
        assert_eq!(
            parse_time("2026-10-25T03:30:00-01:30"),
            Ok((local("2026-10-25T03:30"), FixedOffset::west_opt(5400)))
        );
        assert_eq!(
            parse_time("2026-10-25T00:30Z"),
            Ok((local("2026-10-25T00:30"), east(0)))
        );
        assert_eq!(
            parse_time("2026-12-24T20:00:30"),
            Err(TimeFormError::Seconds)
        );
        for bad in [
            "2026-12-24",
            "2026-12-24 20:00",
            "2026-12-24T24:00",
            "2026-12-24T20:60",
            "2026-02-29T20:00",
            "2026-12-24T20",
            "2026-12-24T20:00+2",
            "2026-12-24T20:00+02:60",
            "2026-12-24T20:00+24:00",
            "2026-12-24T20:00z",
            "2026-12-24T20:00:00.5",
            "2026-12-24T20:0x",
            "+026-12-24T20:00",
            "2026-12-24T20:00ą",
        ] {
            assert_eq!(parse_time(bad), Err(TimeFormError::Malformed), "{bad}");
        }
    }
}
