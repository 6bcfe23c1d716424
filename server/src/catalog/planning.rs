//! Planning the year (docs/api.md, `/holidays/upcoming` and `/long-weekends`). A date is
//! *non-working* by its day status (docs/api.md, Day status) and *marked* when it carries a
//! red holiday or a declared extra day off. From those:
//!
//! - the holiday dates as two sorted position lists (marked; any holiday or day off), so
//!   "the next N from a date" is a binary search and a slice;
//! - each year's periods: a *rest run* is a maximal run of non-working days; a
//!   *period* is one, or several joined by taking the working days between them as leave,
//!   listed under the year of its first day when at least three days long with a marked
//!   date; kept for up to [`MAX_LEAVE_DAYS`] leave days, sorted by first day then leave, so
//!   any smaller limit is the same list filtered.
//!
//! Both are built on first use and kept with the catalog. The served range cuts a period:
//! a rest run is taken to begin and end within it.

use kalendorius_dataset::{Date, Lang, Transfer, TransferKind};

use super::{Catalog, HolidayRecord};

/// The most leave days a period may take (`max_leave_days` 0..=10).
pub const MAX_LEAVE_DAYS: usize = 10;

/// Shortest period listed, in calendar days.
pub const MIN_DAYS_OFF: u32 = 3;

/// Which holiday dates count (`scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HolidayScope {
    /// Dates carrying a red holiday or a declared extra day off.
    Red,
    /// Dates carrying any holiday record, or a declared extra day off.
    All,
}

/// What makes a date a holiday day off: a red holiday, or a declared extra day off.
#[derive(Debug, Clone, Copy)]
pub enum DayOffCause<'a> {
    Holiday(&'a HolidayRecord),
    Declared(&'a Transfer),
}

impl<'a> DayOffCause<'a> {
    pub fn name(self, lang: Lang) -> &'a str {
        match self {
            DayOffCause::Holiday(h) => h.name(lang),
            DayOffCause::Declared(t) => t.name(lang),
        }
    }
}

/// A long weekend or a bridge: consecutive rest runs and the working days between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    pub start: Date,
    pub end: Date,
    /// The working days inside it, to be taken as leave, in date order.
    pub leave_days: Box<[Date]>,
    /// Its dates carrying a red holiday or a declared extra day off, in date order.
    pub marked: Box<[Date]>,
}

impl Period {
    /// Calendar days from `start` to `end`, both counted.
    pub fn days_off(&self) -> u32 {
        (self.start.days_until(self.end) + 1) as u32
    }

    pub fn leave_day_count(&self) -> usize {
        self.leave_days.len()
    }
}

/// A period by positions: first day, last day, leave days.
type PeriodAt = (usize, usize, Vec<usize>);

/// The periods whose first day lies in `first..=last` (positions), over days `0..len` with
/// `rest(i)` telling a non-working day and `marked(i)` a marked one: every run of rest
/// runs joined by at most `max_leave` working days, at least [`MIN_DAYS_OFF`] days long and
/// holding a marked day. As `(start, end, leave day positions)`, by start, then by leave
/// days. A rest run that starts before `first` is not listed (nor its joins).
fn periods_in(
    len: usize,
    first: usize,
    last: usize,
    max_leave: usize,
    rest: impl Fn(usize) -> bool,
    marked: impl Fn(usize) -> bool,
) -> Vec<PeriodAt> {
    let mut out = Vec::new();
    // Each period starts a rest run; a run under way on `first` began in the year before.
    for start in first..(last + 1).min(len) {
        if !rest(start) || (start > 0 && rest(start - 1)) {
            continue;
        }
        let mut j = start;
        let mut leave: Vec<usize> = Vec::new();
        let mut holds_marked = false;
        loop {
            while j < len && rest(j) {
                holds_marked |= marked(j);
                j += 1;
            }
            let end = j - 1;
            if (end - start + 1) as u32 >= MIN_DAYS_OFF && holds_marked {
                out.push((start, end, leave.clone()));
            }
            // Take the working days up to the next rest run as leave, if there is one and
            // the limit allows.
            let gap_start = j;
            while j < len && !rest(j) {
                j += 1;
            }
            if j >= len || leave.len() + (j - gap_start) > max_leave {
                break;
            }
            leave.extend(gap_start..j);
        }
    }
    out
}

impl Catalog {
    fn planning_dates(&self) -> &[Box<[u32]>; 2] {
        self.holiday_dates.get_or_init(|| {
            let mut red = Vec::new();
            let mut all = Vec::new();
            for (i, info) in self.days.iter().enumerate() {
                let list = &self.holiday_lists[info.holidays as usize];
                let date = self.date_at(i);
                let declared = self.declared_day_off(date).is_some();
                if declared || list.iter().any(|&h| self.holidays[h as usize].is_red) {
                    red.push(i as u32);
                }
                if declared || !list.is_empty() {
                    all.push(i as u32);
                }
            }
            [red.into_boxed_slice(), all.into_boxed_slice()]
        })
    }

    pub fn declared_day_off(&self, date: Date) -> Option<&Transfer> {
        self.transfer_on(date)
            .filter(|t| t.kind == TransferKind::DayOff)
    }

    /// What makes a served `date` a holiday day off: its red holidays (in holiday order),
    /// then its declared extra day off. Empty on any other date.
    pub fn day_off_causes(&self, date: Date) -> impl Iterator<Item = DayOffCause<'_>> + '_ {
        self.holidays_on(date)
            .filter(|h| h.is_red)
            .map(DayOffCause::Holiday)
            .chain(self.declared_day_off(date).map(DayOffCause::Declared))
    }

    /// The holiday dates of `scope` on or after a served `from`, in date order, at most
    /// `count` (fewer when the served range ends first).
    pub fn holiday_dates_from(
        &self,
        from: Date,
        scope: HolidayScope,
        count: usize,
    ) -> impl Iterator<Item = Date> + '_ {
        let list = &self.planning_dates()[scope as usize];
        let at = self.first.days_until(from) as u32;
        let begin = list.partition_point(|&p| p < at);
        list[begin..]
            .iter()
            .take(count)
            .map(|&p| self.date_at(p as usize))
    }

    /// The periods (long weekends and bridges) that start in a served `year`, with at most
    /// `max_leave_days` (at most [`MAX_LEAVE_DAYS`]) leave days, by start, then by leave
    /// days.
    pub fn long_weekends(
        &self,
        year: i32,
        max_leave_days: usize,
    ) -> impl Iterator<Item = &Period> + '_ {
        let slot = (year - self.first.year()) as usize;
        let periods = self.periods[slot].get_or_init(|| {
            let position = |month, day| {
                let date = Date::from_ymd(year, month, day).expect("a served year");
                self.first.days_until(date) as usize
            };
            let (first, last) = (position(1, 1), position(12, 31));
            let rest = |i: usize| self.days[i].reason.is_some();
            let red = &self.planning_dates()[HolidayScope::Red as usize];
            let marked = |i: usize| red.binary_search(&(i as u32)).is_ok();
            periods_in(self.days.len(), first, last, MAX_LEAVE_DAYS, rest, marked)
                .into_iter()
                .map(|(start, end, leave)| Period {
                    start: self.date_at(start),
                    end: self.date_at(end),
                    leave_days: leave.into_iter().map(|i| self.date_at(i)).collect(),
                    marked: (start..=end)
                        .filter(|&i| marked(i))
                        .map(|i| self.date_at(i))
                        .collect(),
                })
                .collect::<Box<[Period]>>()
        });
        periods
            .iter()
            .filter(move |p| p.leave_day_count() <= max_leave_days)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The periods of a pattern: `.` working, `_` rest, `*` marked rest; positions
    /// `first..=last` are "the year".
    fn periods(days: &str, first: usize, last: usize, max: usize) -> Vec<PeriodAt> {
        let b = days.as_bytes();
        let (rest, marked) = (|i: usize| b[i] != b'.', |i: usize| b[i] == b'*');
        periods_in(b.len(), first, last, max, rest, marked)
    }

    #[test]
    fn a_long_weekend_needs_three_days_and_a_marked_one() {
        //              0123456789
        assert_eq!(periods(".__*.__..", 0, 8, 0), vec![(1, 3, vec![])]);
        assert_eq!(periods(".*_.", 0, 3, 0), vec![], "two days are not enough");
        assert_eq!(periods(".___.", 0, 4, 0), vec![], "no marked day");
    }

    #[test]
    fn bridges_join_runs_within_the_limit() {
        //          0123456789012
        let days = "..__.*__..__.";
        assert_eq!(periods(days, 0, 12, 0), vec![(5, 7, vec![])]);
        assert_eq!(
            periods(days, 0, 12, 1),
            vec![(2, 7, vec![4]), (5, 7, vec![])]
        );
        assert_eq!(
            periods(days, 0, 12, 3),
            vec![
                (2, 7, vec![4]),
                (2, 11, vec![4, 8, 9]),
                (5, 7, vec![]),
                (5, 11, vec![8, 9]),
            ]
        );
    }

    #[test]
    fn a_run_from_the_year_before_is_not_listed_and_periods_run_past_the_year() {
        //          0123456789
        let days = "_*_..__*_.";
        // The year is 2..=5: the run 0..=2 began before it.
        assert_eq!(periods(days, 2, 5, 2), vec![(5, 8, vec![])]);
        // The year is 0..=1: a period starting in it may end after it.
        assert_eq!(
            periods(days, 0, 1, 2),
            vec![(0, 2, vec![]), (0, 8, vec![3, 4])]
        );
    }

    #[test]
    fn the_served_range_cuts_a_run() {
        assert_eq!(periods("._*_", 0, 3, 4), vec![(1, 3, vec![])]);
        assert_eq!(periods("*__", 0, 2, 0), vec![(0, 2, vec![])]);
    }
}
