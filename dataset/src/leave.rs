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
use crate::Basis;

/// The fewest working days of leave an answer covers.
pub const MIN_DAYS: u32 = 1;
/// The most: a year of days (more than any statutory leave, for long accumulated leave).
pub const MAX_DAYS: u32 = 366;

/// Labour Code art. 126 part 2, cited as the register renders it.
pub fn basis() -> &'static Basis {
    static BASIS: OnceLock<Basis> = OnceLock::new();
    BASIS.get_or_init(|| labour_code("XII-2603", "126", Some(2)))
}
