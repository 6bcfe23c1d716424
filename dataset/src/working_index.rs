//! Working time over a range of days (the server's served range): one `u16` of facts per
//! date (a working day has hours) and, per week form, a running [`Tally`] per date boundary
//! (1.5 MiB a table), so a count over any range is one subtraction and "the N-th working day
//! after a date" one binary search. Days are given by their position from the first.

use crate::contract::{Contract, Hours};
use crate::working_time::{DayFacts, DayKind, Week};
use crate::Day;

/// Totals of working time over an inclusive range of dates, in one week form (the fields
/// of `/working-days`, so their words are the API's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, schemars::JsonSchema)]
pub struct WorkingSummary {
    /// Days in the range.
    pub calendar_days: u32,
    /// Working days in the range.
    pub working_days: u32,
    /// `calendar_days - working_days`.
    pub non_working_days: u32,
    /// How many working days of the range are one hour shorter.
    pub shortened_days: u32,
    /// Working hours in the range: `working_minutes / 60`, to 2 decimals.
    pub working_hours: Hours,
    /// Working minutes in the range.
    pub working_minutes: u64,
}

/// The working-time facts of one date, as the dataset gives them. Per week form `w`
/// ([`Week`] as a number: 0 the 5-day week, 1 the 6-day), the hours in bits `4w..4w + 4`,
/// the shortened flag in bit `8 + w` and the [`DayKind`] in bits `11 + 2w..13 + 2w`; bit 10
/// tells that a red holiday falls on the date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkingDay(u16);

const RED: u16 = 1 << 10;

/// [`DayKind`] by its two bits.
const KINDS: [DayKind; 3] = [DayKind::WorkingDay, DayKind::RestDay, DayKind::Holiday];

impl WorkingDay {
    pub fn of(day: &Day) -> WorkingDay {
        let mut bits = if day.carries_red_holiday() { RED } else { 0 };
        // The kind does not depend on the next day.
        let facts = DayFacts::of(day, false);
        for week in [Week::Five, Week::Six] {
            bits |= u16::from(day.hours(week) & 0xF) << (4 * week as u16);
            bits |= u16::from(day.is_shortened(week)) << (8 + week as u16);
            let kind = KINDS.iter().position(|&k| k == facts.kind(week));
            bits |= (kind.expect("one of KINDS") as u16) << (11 + 2 * week as u16);
        }
        WorkingDay(bits)
    }

    /// The kind of the date in `week` (`/shift-hours`).
    pub fn kind(self, week: Week) -> DayKind {
        KINDS[usize::from((self.0 >> (11 + 2 * week as u16)) & 0b11)]
    }

    /// The working hours in `week` (0 on a day that is not a working day there).
    pub fn hours(self, week: Week) -> u32 {
        u32::from((self.0 >> (4 * week as u16)) & 0xF)
    }

    /// Whether the eve rule shortens the date in the 40-hour `week`.
    pub fn is_shortened(self, week: Week) -> bool {
        (self.0 >> (8 + week as u16)) & 1 != 0
    }

    /// The date's minutes for `contract`, the date falling on `weekday`.
    pub fn minutes(self, weekday: chrono::Weekday, contract: &Contract) -> u32 {
        let week = contract.week();
        contract.day_minutes(weekday, self.hours(week) > 0, self.is_shortened(week))
    }

    /// Whether the eve rule shortens the date for `contract`, the date falling on `weekday`.
    pub fn is_shortened_for(self, weekday: chrono::Weekday, contract: &Contract) -> bool {
        let week = contract.week();
        contract.is_shortened(weekday, self.hours(week) > 0, self.is_shortened(week))
    }

    /// Whether a red holiday falls on the date (whatever the weekday).
    pub fn is_red(self) -> bool {
        self.0 & RED != 0
    }
}

/// Working days (bits 0..20), hours (20..42) and shortened days (42..60) of a run of days,
/// added and subtracted as one integer. No field can carry into the next: fewer than 2^18
/// days are served (189 000), so at most 8 * 2^18 < 2^22 hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Tally(u64);

impl Tally {
    const HOURS_SHIFT: u32 = 20;
    const SHORTENED_SHIFT: u32 = 42;

    fn of(day: WorkingDay, week: Week) -> Tally {
        Tally(
            u64::from(day.hours(week) > 0)
                | u64::from(day.hours(week)) << Self::HOURS_SHIFT
                | u64::from(day.is_shortened(week)) << Self::SHORTENED_SHIFT,
        )
    }

    fn working_days(self) -> u32 {
        (self.0 & ((1 << Self::HOURS_SHIFT) - 1)) as u32
    }

    fn hours(self) -> u32 {
        ((self.0 >> Self::HOURS_SHIFT) & ((1 << (Self::SHORTENED_SHIFT - Self::HOURS_SHIFT)) - 1))
            as u32
    }

    fn shortened(self) -> u32 {
        (self.0 >> Self::SHORTENED_SHIFT) as u32
    }
}

/// Invariant: `tallies[w][i]` is the sum of `Tally::of(days[j], w)` over `j < i`.
pub struct WorkingIndex {
    days: Box<[WorkingDay]>,
    tallies: [Box<[Tally]>; 2],
}

impl WorkingIndex {
    /// The index of the served range's `days`.
    pub fn new(days: Vec<WorkingDay>) -> WorkingIndex {
        let tallies = [Week::Five, Week::Six].map(|week| {
            let sums = days.iter().scan(Tally::default(), |sum, &day| {
                *sum = Tally(sum.0 + Tally::of(day, week).0);
                Some(*sum)
            });
            std::iter::once(Tally::default()).chain(sums).collect()
        });
        WorkingIndex {
            days: days.into_boxed_slice(),
            tallies,
        }
    }

    /// The facts of the day at `position`.
    pub fn day(&self, position: usize) -> WorkingDay {
        self.days[position]
    }

    /// Totals over the days `from..=to` (indices; `from <= to < days.len()`).
    pub fn summary(&self, from: usize, to: usize, week: Week) -> WorkingSummary {
        let tallies = &self.tallies[week as usize];
        let range = Tally(tallies[to + 1].0 - tallies[from].0);
        let calendar_days = (to - from + 1) as u32;
        WorkingSummary {
            calendar_days,
            working_days: range.working_days(),
            non_working_days: calendar_days - range.working_days(),
            shortened_days: range.shortened(),
            working_hours: Hours(u64::from(range.hours()) * 60),
            working_minutes: u64::from(range.hours()) * 60,
        }
    }

    /// Totals over the days `from..=to` for `contract`, `first` the weekday of `from`: a walk
    /// over the days (the tallies hold the 40-hour week only), at most the served range.
    pub fn contract_summary(
        &self,
        from: usize,
        to: usize,
        first: chrono::Weekday,
        contract: &Contract,
    ) -> WorkingSummary {
        let week = contract.week();
        let (mut working_days, mut shortened_days, mut minutes) = (0, 0, 0u64);
        let mut weekday = first;
        for day in &self.days[from..=to] {
            let (working, eve) = (day.hours(week) > 0, day.is_shortened(week));
            working_days += u32::from(contract.is_working(weekday, working));
            shortened_days += u32::from(contract.is_shortened(weekday, working, eve));
            minutes += u64::from(contract.day_minutes(weekday, working, eve));
            weekday = weekday.succ();
        }
        let calendar_days = (to - from + 1) as u32;
        WorkingSummary {
            calendar_days,
            working_days,
            non_working_days: calendar_days - working_days,
            shortened_days,
            working_hours: Hours(minutes),
            working_minutes: minutes,
        }
    }

    /// "Add `n` working days" in `week` from index `at`: the `n`-th working day after it
    /// (`n > 0`), the `|n|`-th before it (`n < 0`), or for `n == 0` `at` itself when it is a
    /// working day, else the next one; `None` past either end.
    pub fn add(&self, at: usize, n: i64, week: Week) -> Option<usize> {
        let tallies = &self.tallies[week as usize];
        let before = i64::from(tallies[at].working_days());
        let through = i64::from(tallies[at + 1].working_days());
        let target = match n {
            0 => before + 1,
            n if n > 0 => through + n,
            n => before + n + 1,
        };
        let target = u32::try_from(target).ok().filter(|&t| t >= 1)?;
        // The first boundary whose count reaches `target` follows the working day sought.
        let boundary = tallies.partition_point(|t| t.working_days() < target);
        (boundary < tallies.len() && boundary > 0).then(|| boundary - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index of `hours` (5-day week) with no 6-day hours, for the arithmetic.
    fn index(hours: &[u8]) -> WorkingIndex {
        let days = hours
            .iter()
            .map(|&h| WorkingDay(u16::from(h) | u16::from(h == 7) << 8));
        WorkingIndex::new(days.collect())
    }

    #[test]
    fn tallies_add_field_by_field_up_to_the_served_range() {
        let day = WorkingDay(8 | 1 << 8);
        let mut total = Tally::default();
        for _ in 0..200_000 {
            total = Tally(total.0 + Tally::of(day, Week::Five).0);
        }
        assert_eq!(
            (total.working_days(), total.hours(), total.shortened()),
            (200_000, 1_600_000, 200_000)
        );
    }

    #[test]
    fn summaries_count_the_inclusive_range() {
        // Mon..Sun, a shortened Thursday, then Mon.
        let idx = index(&[8, 8, 8, 7, 8, 0, 0, 8]);
        let s = idx.summary(0, 7, Week::Five);
        assert_eq!(
            s,
            WorkingSummary {
                calendar_days: 8,
                working_days: 6,
                non_working_days: 2,
                shortened_days: 1,
                working_hours: Hours(47 * 60),
                working_minutes: 47 * 60,
            }
        );
        assert_eq!(idx.summary(5, 6, Week::Five).working_days, 0);
        assert_eq!(idx.summary(3, 3, Week::Five).working_minutes, 7 * 60);
    }

    #[test]
    fn adding_working_days() {
        //               0  1  2  3  4  5  6  7  8
        let idx = index(&[8, 0, 0, 8, 8, 0, 8, 0, 0]);
        let w = Week::Five;
        assert_eq!(idx.add(0, 1, w), Some(3));
        assert_eq!(idx.add(1, 1, w), Some(3), "from a rest day");
        assert_eq!(idx.add(0, 3, w), Some(6));
        assert_eq!(idx.add(0, 4, w), None, "past the end");
        assert_eq!(idx.add(0, 0, w), Some(0), "a working day itself");
        assert_eq!(
            idx.add(1, 0, w),
            Some(3),
            "a rest day: the next working day"
        );
        assert_eq!(idx.add(7, 0, w), None, "no working day after");
        assert_eq!(idx.add(6, -1, w), Some(4));
        assert_eq!(idx.add(5, -2, w), Some(3), "from a rest day");
        assert_eq!(idx.add(6, -3, w), Some(0));
        assert_eq!(idx.add(6, -4, w), None, "before the start");
        assert_eq!(idx.add(0, -1, w), None);
    }
}
