//! The long weekends of a year, as a calendar rule over two facts of each day (is it
//! non-working, is it marked), asked by position: a *rest run* is a
//! maximal run of non-working days; a *period* is one, or several joined by taking the
//! working days between them as leave, listed under the year of its first day when at least
//! [`MIN_DAYS_OFF`] days long with a marked date (a red holiday or a declared extra day off).
//! The served range cuts a period: a rest run is taken to begin and end within it.

/// Shortest period listed, in calendar days.
pub const MIN_DAYS_OFF: u32 = 3;

/// A period by positions: first day, last day, leave days.
pub type PeriodAt = (usize, usize, Vec<usize>);

/// The periods whose first day lies in `first..=last` (positions below `len`, whose days
/// are non-working where `rest` and carry a red holiday or a declared extra day off where
/// `marked`): every run of rest runs joined by at most `max_leave` working days, at least
/// [`MIN_DAYS_OFF`] days long and holding a marked day. As `(start, end, leave day
/// positions)`, by start, then by leave days. A rest run that starts before `first` is not
/// listed (nor its joins).
pub fn periods(
    len: usize,
    rest: impl Fn(usize) -> bool,
    marked: impl Fn(usize) -> bool,
    first: usize,
    last: usize,
    max_leave: usize,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The periods of a pattern: `.` working, `_` rest, `*` marked rest; positions
    /// `first..=last` are "the year".
    fn of(days: &str, first: usize, last: usize, max: usize) -> Vec<PeriodAt> {
        let days = days.as_bytes();
        let rest = |i: usize| days[i] != b'.';
        let marked = |i: usize| days[i] == b'*';
        periods(days.len(), rest, marked, first, last, max)
    }

    #[test]
    fn a_long_weekend_needs_three_days_and_a_marked_one() {
        //              0123456789
        assert_eq!(of(".__*.__..", 0, 8, 0), vec![(1, 3, vec![])]);
        assert_eq!(of(".*_.", 0, 3, 0), vec![], "two days are not enough");
        assert_eq!(of(".___.", 0, 4, 0), vec![], "no marked day");
    }

    #[test]
    fn bridges_join_runs_within_the_limit() {
        //          0123456789012
        let days = "..__.*__..__.";
        assert_eq!(of(days, 0, 12, 0), vec![(5, 7, vec![])]);
        assert_eq!(of(days, 0, 12, 1), vec![(2, 7, vec![4]), (5, 7, vec![])]);
        assert_eq!(
            of(days, 0, 12, 3),
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
        assert_eq!(of(days, 2, 5, 2), vec![(5, 8, vec![])]);
        // The year is 0..=1: a period starting in it may end after it.
        assert_eq!(of(days, 0, 1, 2), vec![(0, 2, vec![]), (0, 8, vec![3, 4])]);
    }

    #[test]
    fn the_served_range_cuts_a_run() {
        assert_eq!(of("._*_", 0, 3, 4), vec![(1, 3, vec![])]);
        assert_eq!(of("*__", 0, 2, 0), vec![(0, 2, vec![])]);
    }
}
