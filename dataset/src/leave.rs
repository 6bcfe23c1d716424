//! Annual leave (Labour Code XII-2603 art. 126): counted in working days, so a red holiday
//! or a declared day off inside it is not a leave day. Art. 126 part 2: "not shorter than
//! twenty working days (when five days a week are worked) or twenty-four working days (when
//! six days a week are worked)". Its wording is read in the register's comparison text of a
//! 2024 bill amending it (e-seimas.lrs.lt, TAK 8625297006be11ef8e4be9fad87afa59, which
//! quotes part 2 as in force) and the Labour Inspectorate's answer on part 3
//! (vdi.lt, DUK 685, 2023-02-09); the bill (22 days) was not adopted.
//!
//! A leave day is a working day of the week form as the data publishes it
//! ([`crate::working_time::DayFacts::is_working_day`]): the server counts them with its
//! working-time index, so leave and working time cannot disagree.

use std::sync::OnceLock;

use crate::basis::labour_code;
use crate::working_index::WorkingIndex;
use crate::working_time::Week;
use crate::Basis;

/// The fewest working days of leave an answer covers.
pub const MIN_DAYS: u32 = 1;
/// The most: a year of days (more than any statutory leave, for long accumulated leave).
pub const MAX_DAYS: u32 = 366;

/// The days of a leave: by position in a [`WorkingIndex`], or as dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaveDays<D> {
    /// The first leave day.
    pub start: D,
    /// The last leave day.
    pub end: D,
    /// The working day after it: the employee returns.
    pub return_date: D,
}

impl<D> LeaveDays<D> {
    pub fn map<E>(self, f: impl Fn(D) -> E) -> LeaveDays<E> {
        LeaveDays {
            start: f(self.start),
            end: f(self.end),
            return_date: f(self.return_date),
        }
    }
}

/// A leave of `days` working days in `week`, asked from the day at `asked`: it begins that
/// day when it is a working day, else on the next one, and ends `days - 1` working days
/// later. `None` when a day of it, or the return, falls past the index.
pub fn leave_days(
    index: &WorkingIndex,
    asked: usize,
    days: u32,
    week: Week,
) -> Option<LeaveDays<usize>> {
    let start = index.add(asked, 0, week)?;
    let end = index.add(start, i64::from(days) - 1, week)?;
    let return_date = index.add(end, 1, week)?;
    Some(LeaveDays {
        start,
        end,
        return_date,
    })
}

/// Labour Code art. 126 part 2, cited as the register renders it.
pub fn basis() -> &'static Basis {
    static BASIS: OnceLock<Basis> = OnceLock::new();
    BASIS.get_or_init(|| labour_code("XII-2603", "126", Some(2)))
}
