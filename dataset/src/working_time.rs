//! Working time for payroll: how many hours a date counts in the 40-hour week (Labour Code
//! art. 112), in its two forms, and whether it is a shortened day (the eve rule).
//!
//! This module owns the rule, once. The generator computes every day's
//! [`Day::working_hours_5`], [`Day::working_hours_6`], [`Day::shorter_workday`] and
//! [`Day::shorter_workday_6`] with [`working_time`]; the loader checks the published values
//! against it ([`Checker`]); the server, the pages and the feeds read the fields (or call
//! this module), so they cannot disagree about a norm. It lives here, in the crate of the
//! dataset model, because every one of them depends on this crate and on nothing of each
//! other.
//!
//! The rules (docs/data.md §2.4, docs/api.md, Day status):
//! - **5-day week**: Monday-Friday, 8 hours a day. A working day is a day whose day status
//!   is not non-working: not a Saturday or Sunday, unless declared a working day; not a day
//!   carrying a red holiday; not a declared extra day off.
//! - **6-day week**: Monday-Saturday, 7 hours Monday-Friday and 5 on Saturday. A working day
//!   is any Monday-Saturday that carries no red holiday and is not a declared extra day off
//!   that the 6-day week follows ([`crate::Transfer::six_day_week`]: only the days in lieu of
//!   Sunday holidays of 2006-2008). Labour Code art. 162¹ moved the rest days of art. 161
//!   that coincided with a holiday, and the 6-day week's only rest day is Sunday; the
//!   government's transfers moved a Saturday rest day, which that week does not have. So a
//!   6-day worker works a day in lieu of a Saturday holiday and a transferred day off as
//!   usual, and a declared working Saturday is an ordinary Saturday (docs/data.md §2.2).
//! - **The eve rule** (art. 112(5), 112(6) since 2023): a working day whose next calendar
//!   day carries a red holiday is one hour shorter; in the 6-day week this includes
//!   Saturdays. A declared extra day off is not a holiday and shortens nothing.
//! - **The kind of a day** (a timesheet's, `/shift-hours`): a working day of the week form;
//!   else a holiday when a red holiday or a declared day off that week form follows falls
//!   on it; else the week's rest day.
//!
//! Before the law of 1990-10-25 no holiday is red in the data, so only weekends are
//! non-working: that follows from the facts, not from a date in this module.

use chrono::Weekday;

use crate::{Day, TransferKind};

/// The hours of a full working day Monday-Friday in the 5-day week.
pub const HOURS_5: u8 = 8;
/// The hours of a full working day Monday-Friday in the 6-day week.
pub const HOURS_6_WEEKDAY: u8 = 7;
/// The hours of a full working Saturday in the 6-day week.
pub const HOURS_6_SATURDAY: u8 = 5;
/// Hours per week in both forms.
pub const HOURS_PER_WEEK: u8 = 40;

/// The two forms of the 40-hour week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Week {
    /// Monday-Friday, 8 hours a day (the default).
    Five,
    /// Monday-Saturday, 7 hours Monday-Friday and 5 on Saturday.
    Six,
}

/// The kind of a calendar date for a timesheet, in one week form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DayKind {
    /// A working day of the week form (shortened or not).
    WorkingDay,
    /// A day off of the week form that carries no red holiday and is no declared day off:
    /// Saturday and Sunday of the 5-day week, Sunday of the 6-day week.
    RestDay,
    /// A red holiday, or a declared extra day off the week form follows.
    Holiday,
}

/// What the rules need to know about one date: its own flags and whether the next calendar
/// day carries a red holiday.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayFacts {
    /// The weekday.
    pub weekday: Weekday,
    /// A red holiday falls on the date.
    pub red: bool,
    /// A declared extra day off (a bridge day, a day in lieu) falls on the date.
    pub declared_day_off: bool,
    /// The declared day off is one the 6-day week follows too (a day in lieu of a Sunday
    /// holiday); implies `declared_day_off`.
    pub declared_day_off_6: bool,
    /// The date is a weekend day declared a working day.
    pub declared_working_day: bool,
    /// The next calendar day carries a red holiday.
    pub next_red: bool,
}

impl DayFacts {
    /// The facts of a published day; `next_red` comes from the day after it.
    pub fn of(day: &Day, next_red: bool) -> DayFacts {
        let transfer = day.transfer.as_ref();
        let kind = transfer.map(|t| t.kind);
        DayFacts {
            weekday: day.date.weekday(),
            red: day.carries_red_holiday(),
            declared_day_off: kind == Some(TransferKind::DayOff),
            declared_day_off_6: kind == Some(TransferKind::DayOff)
                && transfer.is_some_and(|t| t.six_day_week),
            declared_working_day: kind == Some(TransferKind::WorkingDay),
            next_red,
        }
    }

    /// Whether the date is a working day in `week` (before the eve rule, which shortens a
    /// working day but never makes it non-working).
    pub fn is_working_day(&self, week: Week) -> bool {
        if self.red {
            return false;
        }
        match (week, self.weekday) {
            (Week::Five, _) if self.declared_day_off => false,
            (Week::Five, Weekday::Sat | Weekday::Sun) => self.declared_working_day,
            (Week::Five, _) => true,
            (Week::Six, _) if self.declared_day_off_6 => false,
            (Week::Six, Weekday::Sun) => false,
            (Week::Six, _) => true,
        }
    }

    /// The hours of the date in `week` without the eve rule: 0 on a day that is not a
    /// working day.
    pub fn full_hours(&self, week: Week) -> u8 {
        if !self.is_working_day(week) {
            return 0;
        }
        match (week, self.weekday) {
            (Week::Five, _) => HOURS_5,
            (Week::Six, Weekday::Sat) => HOURS_6_SATURDAY,
            (Week::Six, _) => HOURS_6_WEEKDAY,
        }
    }

    /// Whether the eve rule shortens the date in `week`: a working day before a red day.
    pub fn is_shortened(&self, week: Week) -> bool {
        self.next_red && self.is_working_day(week)
    }

    /// The hours of the date in `week`, the eve rule applied.
    pub fn hours(&self, week: Week) -> u8 {
        self.full_hours(week) - u8::from(self.is_shortened(week))
    }

    /// The kind of the date in `week` (a timesheet's, `/shift-hours`).
    pub fn kind(&self, week: Week) -> DayKind {
        let declared_day_off = match week {
            Week::Five => self.declared_day_off,
            Week::Six => self.declared_day_off_6,
        };
        if self.is_working_day(week) {
            DayKind::WorkingDay
        } else if self.red || declared_day_off {
            DayKind::Holiday
        } else {
            DayKind::RestDay
        }
    }
}

/// The working-time fields of one day, as [`Day`] carries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkingTime {
    /// [`Day::working_hours_5`].
    pub working_hours_5: u8,
    /// [`Day::working_hours_6`].
    pub working_hours_6: u8,
    /// [`Day::shorter_workday`]: shortened in the 5-day week.
    pub shorter_workday: bool,
    /// [`Day::shorter_workday_6`]: shortened in the 6-day week.
    pub shorter_workday_6: bool,
}

/// The working-time fields of a date by the rules of this module.
pub fn working_time(facts: DayFacts) -> WorkingTime {
    WorkingTime {
        working_hours_5: facts.hours(Week::Five),
        working_hours_6: facts.hours(Week::Six),
        shorter_workday: facts.is_shortened(Week::Five),
        shorter_workday_6: facts.is_shortened(Week::Six),
    }
}

impl Day {
    /// Whether a red holiday falls on this date.
    pub fn carries_red_holiday(&self) -> bool {
        self.holidays.iter().any(|h| h.is_red)
    }

    /// The working-time fields as this day carries them.
    pub fn working_time(&self) -> WorkingTime {
        WorkingTime {
            working_hours_5: self.working_hours_5,
            working_hours_6: self.working_hours_6,
            shorter_workday: self.shorter_workday,
            shorter_workday_6: self.shorter_workday_6,
        }
    }

    /// The hours of this date in `week` (the eve rule applied; 0 on a non-working day).
    pub fn hours(&self, week: Week) -> u8 {
        match week {
            Week::Five => self.working_hours_5,
            Week::Six => self.working_hours_6,
        }
    }

    /// Whether this date is shortened by the eve rule in `week`.
    pub fn is_shortened(&self, week: Week) -> bool {
        match week {
            Week::Five => self.shorter_workday,
            Week::Six => self.shorter_workday_6,
        }
    }
}

/// Checks published days, fed in date order, against the rules: each day's working-time
/// fields and its `laisvadienis` must be what [`working_time`] gives from the day's own
/// flags and the next day's red holidays.
///
/// The last day fed has no next day to look at: its fields must then agree with one of the
/// two possible answers (the next day red or not).
#[derive(Debug, Default)]
pub struct Checker {
    /// The previous day, waiting for the next day's red flag.
    pending: Option<Pending>,
}

/// What the check of a day needs, kept until the next day arrives (not the whole [`Day`]:
/// the server loads 189 000 days through a checker).
#[derive(Debug, Clone, Copy)]
struct Pending {
    date: crate::Date,
    laisvadienis: bool,
    /// The day's facts with `next_red` false.
    facts: DayFacts,
    found: WorkingTime,
}

impl Checker {
    /// A checker with no day fed yet.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Feeds the next day; checks the day before it. The error names the date and the field.
    pub fn push(&mut self, day: &Day) -> Result<(), String> {
        let result = match self.pending.take() {
            Some(previous) => previous.check(&[day.carries_red_holiday()]),
            None => Ok(()),
        };
        self.pending = Some(Pending {
            date: day.date,
            laisvadienis: day.laisvadienis,
            facts: DayFacts::of(day, false),
            found: day.working_time(),
        });
        result
    }

    /// Checks the last day fed.
    pub fn finish(self) -> Result<(), String> {
        match self.pending {
            Some(last) => last.check(&[false, true]),
            None => Ok(()),
        }
    }
}

impl Pending {
    /// Checks the day against the rules for any of `next_red`.
    fn check(&self, next_red: &[bool]) -> Result<(), String> {
        let working = self.facts.is_working_day(Week::Five);
        if self.laisvadienis == working {
            return Err(format!(
                "{}: laisvadienis is {}, the day's flags make it {}",
                self.date, self.laisvadienis, !working
            ));
        }
        let mut expected = None;
        for &next_red in next_red {
            let rule = working_time(DayFacts {
                next_red,
                ..self.facts
            });
            if rule == self.found {
                return Ok(());
            }
            expected = Some(rule);
        }
        Err(format!(
            "{}: working time {:?}, the rules give {:?}",
            self.date,
            self.found,
            expected.expect("at least one case")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Weekday::*;

    fn facts(weekday: Weekday) -> DayFacts {
        DayFacts {
            weekday,
            red: false,
            declared_day_off: false,
            declared_day_off_6: false,
            declared_working_day: false,
            next_red: false,
        }
    }

    fn wt(f: DayFacts) -> (u8, bool, u8, bool) {
        let w = working_time(f);
        (
            w.working_hours_5,
            w.shorter_workday,
            w.working_hours_6,
            w.shorter_workday_6,
        )
    }

    #[test]
    fn an_ordinary_week() {
        for day in [Mon, Tue, Wed, Thu, Fri] {
            assert_eq!(wt(facts(day)), (8, false, 7, false), "{day}");
        }
        assert_eq!(wt(facts(Sat)), (0, false, 5, false));
        assert_eq!(wt(facts(Sun)), (0, false, 0, false));
        // Both weeks are 40 hours.
        let week = |w: Week| -> u32 {
            [Mon, Tue, Wed, Thu, Fri, Sat, Sun]
                .into_iter()
                .map(|d| u32::from(facts(d).hours(w)))
                .sum()
        };
        assert_eq!(week(Week::Five), u32::from(HOURS_PER_WEEK));
        assert_eq!(week(Week::Six), u32::from(HOURS_PER_WEEK));
    }

    #[test]
    fn kinds_follow_the_week_form() {
        assert_eq!(facts(Sat).kind(Week::Five), DayKind::RestDay);
        assert_eq!(facts(Sat).kind(Week::Six), DayKind::WorkingDay);
        assert_eq!(facts(Sun).kind(Week::Six), DayKind::RestDay);
        let red_sunday = DayFacts {
            red: true,
            ..facts(Sun)
        };
        assert_eq!(red_sunday.kind(Week::Five), DayKind::Holiday);
        // A bridge day: off in the 5-day week only.
        let bridge = DayFacts {
            declared_day_off: true,
            ..facts(Mon)
        };
        assert_eq!(bridge.kind(Week::Five), DayKind::Holiday);
        assert_eq!(bridge.kind(Week::Six), DayKind::WorkingDay);
        let working_saturday = DayFacts {
            declared_working_day: true,
            ..facts(Sat)
        };
        assert_eq!(working_saturday.kind(Week::Five), DayKind::WorkingDay);
    }

    #[test]
    fn the_eve_rule() {
        let eve = |day| DayFacts {
            next_red: true,
            ..facts(day)
        };
        // A weekday before a holiday: shortened in both weeks.
        assert_eq!(wt(eve(Tue)), (7, true, 6, true));
        // Friday before a Saturday holiday: both weeks.
        assert_eq!(wt(eve(Fri)), (7, true, 6, true));
        // Saturday before a Sunday holiday: only the 6-day week works on it.
        assert_eq!(wt(eve(Sat)), (0, false, 4, true));
        // Sunday before a Monday holiday: nobody works.
        assert_eq!(wt(eve(Sun)), (0, false, 0, false));
    }

    #[test]
    fn a_red_holiday_is_never_worked_nor_shortened() {
        for day in [Mon, Tue, Wed, Thu, Fri, Sat, Sun] {
            let red = DayFacts {
                red: true,
                next_red: true, // Dec 24 before Dec 25
                ..facts(day)
            };
            assert_eq!(wt(red), (0, false, 0, false), "{day}");
        }
    }

    #[test]
    fn declared_transfers() {
        // A day in lieu of a Sunday holiday (Mon 2007-03-12): off in both weeks.
        let in_lieu_of_sunday = DayFacts {
            declared_day_off: true,
            declared_day_off_6: true,
            ..facts(Mon)
        };
        assert_eq!(wt(in_lieu_of_sunday), (0, false, 0, false));
        // A bridge day before a holiday (Mon 2008-03-10, Tue Mar 11 red), or a day in lieu
        // of a Saturday holiday: off in the 5-day week only; the 6-day week works it, and the
        // eve rule shortens it there.
        let bridge = DayFacts {
            declared_day_off: true,
            next_red: true,
            ..facts(Mon)
        };
        assert_eq!(wt(bridge), (0, false, 6, true));
        // A declared day off the 6-day week follows is not shortened before a holiday either.
        let off = DayFacts {
            declared_day_off: true,
            declared_day_off_6: true,
            next_red: true,
            ..facts(Fri)
        };
        assert_eq!(wt(off), (0, false, 0, false));
        // The day before a declared day off is not shortened: `next_red` is false.
        assert_eq!(wt(facts(Thu)), (8, false, 7, false));
        // A declared working Saturday: a full 8-hour day in the 5-day week, an ordinary
        // Saturday in the 6-day week.
        let working = DayFacts {
            declared_working_day: true,
            ..facts(Sat)
        };
        assert_eq!(wt(working), (8, false, 5, false));
        let working_eve = DayFacts {
            next_red: true,
            ..working
        };
        assert_eq!(wt(working_eve), (7, true, 4, true));
    }

    fn day(date: &str, red: bool) -> Day {
        let date = crate::Date::parse(date).unwrap();
        let weekend = matches!(date.weekday(), Sat | Sun);
        let f = DayFacts {
            red,
            ..facts(date.weekday())
        };
        let w = working_time(f);
        Day {
            date,
            day_of_week: date.weekday().num_days_from_sunday() as u8,
            iso_week: 1,
            is_weekend: weekend,
            laisvadienis: red || weekend,
            reason: None,
            holiday_name: None,
            shorter_workday: w.shorter_workday,
            working_hours_5: w.working_hours_5,
            working_hours_6: w.working_hours_6,
            shorter_workday_6: w.shorter_workday_6,
            shorter_workday_basis: Vec::new(),
            holidays: if red {
                vec![crate::Holiday {
                    id: "x".into(),
                    kind: crate::HolidayType::Public,
                    is_red: true,
                    name_lt: "x".into(),
                    name_en: "x".into(),
                    name_pl: "x".into(),
                    name_ru: "x".into(),
                    source: "x".into(),
                    confidence: Some(crate::Confidence::Confirmed),
                    basis: Vec::new(),
                }]
            } else {
                Vec::new()
            },
            transfer: None,
            name_days: Vec::new(),
        }
    }

    #[test]
    fn the_checker_looks_at_the_next_day() {
        // 2025-02-14 Fri, 15 Sat, 16 Sun (red).
        let mut fri = day("2025-02-14", false);
        let mut sat = day("2025-02-15", false);
        let sun = day("2025-02-16", true);

        // Saturday must be shortened in the 6-day week: the checker refuses it as written.
        let mut checker = Checker::new();
        checker.push(&fri).unwrap();
        checker.push(&sat).unwrap();
        let error = checker.push(&sun).unwrap_err();
        assert!(error.starts_with("2025-02-15:"), "{error}");

        sat.working_hours_6 = 4;
        sat.shorter_workday_6 = true;
        let mut checker = Checker::new();
        for d in [&fri, &sat, &sun] {
            checker.push(d).unwrap();
        }
        checker.finish().unwrap();

        // The last day may be either; a field contradicting the others may not.
        let mut checker = Checker::new();
        checker.push(&sat).unwrap();
        checker.finish().unwrap();
        fri.working_hours_5 = 7;
        let mut checker = Checker::new();
        checker.push(&fri).unwrap();
        assert!(checker.finish().is_err());

        // laisvadienis is checked too.
        let mut wrong = day("2025-02-17", false);
        wrong.laisvadienis = true;
        let mut checker = Checker::new();
        checker.push(&wrong).unwrap();
        let error = checker.finish().unwrap_err();
        assert!(error.contains("laisvadienis"), "{error}");
    }
}
