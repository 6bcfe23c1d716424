//! Sliding windows (minute, day) as plain data without locks, and UTC calendar months.
//!
//! `n` buckets of `b` ms count, at `t`, the `n + 1` buckets `bucket(t) - n ..= bucket(t)`:
//! every request of the last `n * b` ms, plus at most a bucket of older ones. So no interval
//! of length `n * b` admits more than the limit: its earlier requests were all still counted
//! when its last was checked.

use std::cell::Cell;
use std::collections::VecDeque;

use chrono::{DateTime, Datelike, NaiveDate, Utc};

/// Geometry of a sliding window: `buckets` (> 0) buckets of `bucket_ms` (> 0) ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub bucket_ms: i64,
    pub buckets: i64,
}

impl Span {
    pub const MINUTE: Span = Span {
        bucket_ms: 1_000,
        buckets: 60,
    };
    pub const DAY: Span = Span {
        bucket_ms: 60_000,
        buckets: 1_440,
    };

    pub fn bucket_of(self, t_ms: i64) -> i64 {
        t_ms.div_euclid(self.bucket_ms)
    }

    /// The oldest bucket still counted at `t_ms`.
    pub fn first_counted(self, t_ms: i64) -> i64 {
        self.bucket_of(t_ms).saturating_sub(self.buckets)
    }

    /// The instant (ms) from which bucket `idx` is no longer counted.
    pub fn release_ms(self, idx: i64) -> i64 {
        self.start_ms(idx.saturating_add(self.buckets + 1))
    }

    pub fn start_ms(self, idx: i64) -> i64 {
        idx.saturating_mul(self.bucket_ms)
    }
}

/// A bucket's index since the Unix epoch and its requests (>= 1: empty ones are not kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bucket {
    pub idx: i64,
    pub count: u32,
}

/// Buckets in strictly increasing `idx` order, none older than the last prune; their total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Sliding {
    buckets: VecDeque<Bucket>,
    total: u64,
}

impl Sliding {
    pub const EMPTY: Sliding = Sliding {
        buckets: VecDeque::new(),
        total: 0,
    };

    /// Drops the buckets no longer counted at `t_ms`; returns whether any were.
    pub fn prune(&mut self, span: Span, t_ms: i64) -> bool {
        let first = span.first_counted(t_ms);
        let before = self.buckets.len();
        while let Some(front) = self.buckets.front().filter(|b| b.idx < first) {
            self.total -= u64::from(front.count);
            self.buckets.pop_front();
        }
        if self.buckets.is_empty() && self.buckets.capacity() > 0 {
            // An idle subject keeps no bucket allocation: memory follows recent activity.
            self.buckets = VecDeque::new();
        }
        before != self.buckets.len()
    }

    /// Requests counted (after `prune`).
    pub fn used(&self) -> u64 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Counts one request at `t_ms`, not before the newest bucket (a monotonic clock).
    pub fn add(&mut self, span: Span, t_ms: i64) {
        let idx = span.bucket_of(t_ms);
        self.total += 1;
        match self.buckets.back_mut() {
            Some(last) if last.idx == idx => last.count = last.count.saturating_add(1),
            _ => self.buckets.push_back(Bucket { idx, count: 1 }),
        }
    }

    /// Ms from `t_ms` until at least `need` counted requests have stopped counting.
    pub fn release_of_in(&self, span: Span, t_ms: i64, need: u64) -> i64 {
        let mut freed = 0u64;
        let bucket = self.buckets.iter().find(|b| {
            freed += u64::from(b.count);
            freed >= need
        });
        // `None` is unreachable when `need <= used`; then everything is released.
        bucket
            .or(self.buckets.back())
            .map_or(0, |b| span.release_ms(b.idx).saturating_sub(t_ms))
    }

    /// Inserts a restored bucket in order; a duplicate index keeps the larger count.
    pub fn insert(&mut self, idx: i64, count: u32) {
        if count == 0 {
            return;
        }
        let pos = self.buckets.partition_point(|b| b.idx < idx);
        match self.buckets.get_mut(pos) {
            Some(b) if b.idx == idx => {
                self.total += u64::from(count.saturating_sub(b.count));
                b.count = b.count.max(count);
            }
            _ => {
                self.buckets.insert(pos, Bucket { idx, count });
                self.total += u64::from(count);
            }
        }
    }

    pub fn buckets(&self) -> std::collections::vec_deque::Iter<'_, Bucket> {
        self.buckets.iter()
    }
}

/// Months since year 0 (`year * 12 + month0`) of an instant; `None` outside chrono's range.
pub(crate) fn month_of(t_ms: i64) -> Option<i64> {
    month_and_end(t_ms).map(|(month, _)| month)
}

/// [`month_of`] and the instant (ms) that month ends (the next one's start).
pub(crate) fn month_and_end(t_ms: i64) -> Option<(i64, i64)> {
    thread_local! {
        /// This thread's last month: calendar arithmetic monthly, not per request under a lock.
        static LAST: Cell<(i64, i64, i64)> = const { Cell::new((0, 0, i64::MIN)) };
    }
    let (month, start, end) = LAST.get();
    if (start..end).contains(&t_ms) {
        return Some((month, end));
    }
    let month = calendar_month_of(t_ms)?;
    let (start, end) = (month_start_ms(month), month_start_ms(month + 1));
    // Bounds saturated at chrono's range are not a month's true span: not kept.
    if start != i64::MIN && end != i64::MAX {
        LAST.set((month, start, end));
    }
    Some((month, end))
}

/// [`month_of`] by the calendar, without the memo.
fn calendar_month_of(t_ms: i64) -> Option<i64> {
    let t = DateTime::<Utc>::from_timestamp_millis(t_ms)?;
    Some(i64::from(t.year()) * 12 + i64::from(t.month0()))
}

/// Ms from `t_ms` until its month ends (`i64::MAX` outside chrono's range).
pub(crate) fn until_month_end(t_ms: i64) -> i64 {
    month_and_end(t_ms).map_or(i64::MAX, |(_, end)| end.saturating_sub(t_ms))
}

/// The instant (ms) a month (as numbered by [`month_of`]) starts; saturates out of range.
pub(crate) fn month_start_ms(month: i64) -> i64 {
    i32::try_from(month.div_euclid(12))
        .ok()
        .and_then(|y| NaiveDate::from_ymd_opt(y, month.rem_euclid(12) as u32 + 1, 1))
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map_or(if month < 0 { i64::MIN } else { i64::MAX }, |d| {
            d.and_utc().timestamp_millis()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minute_counts_sixty_one_buckets() {
        let s = Span::MINUTE;
        assert_eq!(s.bucket_of(59_900), 59);
        assert_eq!(s.first_counted(59_900), -1);
        assert_eq!(s.first_counted(60_000), 0);
        assert_eq!(s.first_counted(61_000), 1);
        assert_eq!(s.release_ms(0), 61_000);
        assert_eq!(
            s.bucket_of(-1),
            -1,
            "floor, not truncation, before the epoch"
        );
    }

    #[test]
    fn prune_add_release() {
        let s = Span::MINUTE;
        let mut w = Sliding::default();
        w.add(s, 300);
        w.add(s, 900);
        w.add(s, 30_000);
        assert_eq!(w.used(), 3);
        assert_eq!(w.buckets().count(), 2);
        assert_eq!(
            w.release_of_in(s, 30_000, 1),
            31_000,
            "the oldest bucket's release"
        );
        assert_eq!(w.release_of_in(s, 30_000, 3), 61_000 + 30_000 - 30_000);
        assert!(!w.prune(s, 60_999));
        assert_eq!(w.used(), 3, "0.3 s still counted at 60.999 s");
        assert!(w.prune(s, 61_000));
        assert_eq!((w.used(), w.buckets().len()), (1, 1), "one bucket dropped");
    }

    #[test]
    fn load_keeps_order_and_the_larger_count() {
        let s = Span::DAY;
        let mut w = Sliding::default();
        w.add(s, 0);
        w.add(s, 120_000);
        w.insert(1, 5);
        w.insert(2, 3);
        w.insert(2, 1);
        w.insert(9, 0);
        assert_eq!(w.used(), 1 + 5 + 3);
        assert_eq!(
            w.buckets().map(|b| b.idx).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert!(w.prune(s, 1_441 * 60_000));
        assert_eq!(w.used(), 8, "bucket 0 no longer counted");
    }

    #[test]
    fn months_are_utc_calendar_months() {
        let jan31 = DateTime::parse_from_rfc3339("2025-01-31T23:59:59.999Z").unwrap();
        let feb1 = DateTime::parse_from_rfc3339("2025-02-01T00:00:00Z").unwrap();
        // 00:30 in Vilnius on Feb 1 is still January in UTC.
        let vilnius = DateTime::parse_from_rfc3339("2025-02-01T00:30:00+02:00").unwrap();
        let m = month_of(jan31.timestamp_millis()).unwrap();
        assert_eq!(month_of(feb1.timestamp_millis()), Some(m + 1));
        assert_eq!(month_of(vilnius.timestamp_millis()), Some(m));
        assert_eq!(month_start_ms(m + 1), feb1.timestamp_millis());
        assert_eq!(
            month_start_ms(2024 * 12 + 11 + 1),
            1_735_689_600_000,
            "Dec→Jan"
        );
        assert_eq!(month_start_ms(i64::MAX), i64::MAX);
        // The per-thread memo answers as the calendar does, at and around the boundaries.
        for t in [
            jan31.timestamp_millis(),
            feb1.timestamp_millis() - 1,
            feb1.timestamp_millis(),
        ] {
            assert_eq!(month_of(t), calendar_month_of(t), "{t}");
            assert_eq!(month_of(t), calendar_month_of(t), "{t}, memoised");
        }
        assert_eq!(
            month_and_end(feb1.timestamp_millis() - 1),
            Some((m, feb1.timestamp_millis()))
        );
    }
}
