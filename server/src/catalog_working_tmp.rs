//! TEMPORARY, replaced at merge: the working-time summary of a date range, summed from the
//! catalog's per-day facts, so the month pages can show the month's working days and hours.
//!
//! Another branch adds `Catalog::working_summary` with this exact signature (answered from
//! precomputed prefix sums); when the branches merge, that implementation is kept and this
//! file is deleted (with its `mod` line in `lib.rs` and the re-export in `catalog.rs`).
//! The rules are not restated here: each day's hours come from
//! `kalendorius_dataset::working_time`, fed with the catalog's facts of the day.

use kalendorius_dataset::working_time::{DayFacts, Week};
use kalendorius_dataset::{Date, TransferKind};

use crate::catalog::Catalog;

/// Working time over an inclusive range of dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WorkingSummary {
    /// Days in the range.
    pub calendar_days: u32,
    /// Working days of the chosen week.
    pub working_days: u32,
    /// The other days.
    pub non_working_days: u32,
    /// Working days one hour shorter (the eve rule).
    pub shortened_days: u32,
    /// Working hours, the eve rule applied.
    pub working_hours: u32,
}

impl Catalog {
    /// The working time of `from..=to` in `week`. Both dates must be served and
    /// `from <= to`.
    pub fn working_summary(&self, from: Date, to: Date, week: Week) -> WorkingSummary {
        let mut summary = WorkingSummary::default();
        let mut date = Some(from);
        while let Some(day) = date.filter(|d| *d <= to) {
            let facts = self.day_facts(day);
            summary.calendar_days += 1;
            if facts.is_working_day(week) {
                summary.working_days += 1;
            } else {
                summary.non_working_days += 1;
            }
            summary.shortened_days += u32::from(facts.is_shortened(week));
            summary.working_hours += u32::from(facts.hours(week));
            date = day.succ();
        }
        summary
    }

    /// What the working-time rules need to know about `date` (served).
    fn day_facts(&self, date: Date) -> DayFacts {
        let red = |d: Date| self.holidays_on(d).any(|h| h.is_red);
        let transfer = self.transfer_on(date).map(|t| t.kind);
        let next_red = match date.succ().filter(|next| self.contains(*next)) {
            Some(next) => red(next),
            // The day after the last served date is not in the catalog: its eve is known
            // from the day's own published flag.
            None => self.status_of(date).shorter_workday,
        };
        DayFacts {
            weekday: date.weekday(),
            red: red(date),
            declared_day_off: transfer == Some(TransferKind::DayOff),
            declared_working_day: transfer == Some(TransferKind::WorkingDay),
            next_red,
        }
    }
}
