//! The request clock: two monotonic reads a request (arrival, end), the wall-clock time
//! derived from the first (three reads were a measurable share of a small request): the
//! monotonic reading plus a per-thread offset read afresh [`RESYNC`] after the last (a clock
//! step shows within that; NTP's slewing moves it by less than 50 µs). The monotonic clock is
//! `quanta`'s (the TSC, about 9 ns against 21 ns for `Instant`, where it is invariant).

use std::cell::Cell;
use std::time::{Duration, SystemTime};

pub use quanta::Instant;

/// How long a thread derives wall-clock times from one wall-clock reading.
pub const RESYNC: Duration = Duration::from_millis(100);

#[derive(Debug, Clone, Copy)]
pub struct Reading {
    pub instant: Instant,
    pub wall: SystemTime,
}

/// The calendar date in Europe/Vilnius at `at`: what "today" means everywhere.
pub fn vilnius_date(at: SystemTime) -> chrono::NaiveDate {
    chrono::DateTime::<chrono::Utc>::from(at)
        .with_timezone(&chrono_tz::Europe::Vilnius)
        .date_naive()
}

pub fn now() -> Reading {
    thread_local! {
        /// The last (monotonic, wall) pair read together on this thread.
        static ANCHOR: Cell<Option<(Instant, SystemTime)>> = const { Cell::new(None) };
    }
    let instant = Instant::now();
    let (at, wall) = ANCHOR.with(|anchor| match anchor.get() {
        Some((at, wall)) if instant.saturating_duration_since(at) < RESYNC => (at, wall),
        _ => {
            let pair = read_together();
            anchor.set(Some(pair));
            pair
        }
    });
    Reading {
        instant,
        wall: wall + instant.saturating_duration_since(at),
    }
}

/// A monotonic and a wall-clock reading as close together as a few tries allow: a thread
/// preempted between the two would skew every time derived until the next resync.
fn read_together() -> (Instant, SystemTime) {
    let mut best: Option<(Duration, (Instant, SystemTime))> = None;
    for _ in 0..3 {
        let before = Instant::now();
        let wall = SystemTime::now();
        let gap = Instant::now().saturating_duration_since(before);
        if best.is_none_or(|(best_gap, _)| gap < best_gap) {
            best = Some((gap, (before, wall)));
        }
        if gap < Duration::from_micros(20) {
            break;
        }
    }
    best.expect("at least one try").1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> SystemTime {
        chrono::DateTime::parse_from_rfc3339(text).unwrap().into()
    }

    #[test]
    fn vilnius_date_is_ahead_of_utc_in_winter_and_summer() {
        let date = |text| vilnius_date(utc(text)).to_string();
        assert_eq!(date("2026-12-31T21:59:59Z"), "2026-12-31");
        assert_eq!(date("2026-12-31T22:00:00Z"), "2027-01-01"); // UTC+2
        assert_eq!(date("2026-12-31T23:30:00Z"), "2027-01-01");
        assert_eq!(date("2026-07-15T20:59:59Z"), "2026-07-15");
        assert_eq!(date("2026-07-15T21:00:00Z"), "2026-07-16"); // UTC+3, summer time
        assert_eq!(date("2026-03-28T21:30:00Z"), "2026-03-28"); // still UTC+2
        assert_eq!(date("2026-03-29T21:30:00Z"), "2026-03-30"); // UTC+3 from 03-29 01:00 UTC
    }

    #[test]
    fn derived_wall_times_follow_the_wall_clock_across_resyncs() {
        let start = Instant::now();
        let mut last = now();
        while Instant::now().saturating_duration_since(start) < RESYNC * 3 {
            let before = SystemTime::now();
            let reading = now();
            let after = SystemTime::now();
            // Within the two direct readings, give or take slewing and a busy machine's
            // scheduling between the reads.
            let tolerance = Duration::from_millis(20);
            assert!(reading.wall + tolerance >= before, "{reading:?} {before:?}");
            assert!(reading.wall <= after + tolerance, "{reading:?} {after:?}");
            assert!(reading.instant >= last.instant, "monotonic");
            last = reading;
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
