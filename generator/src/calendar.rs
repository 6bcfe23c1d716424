//! The calendar computation: from validated sources to one [`Day`] per date.
//!
//! This is where the rules live, once: day status and reason precedence, holiday order,
//! `is_red` by the law in force on the date, transfers on top (docs/api.md, Day status),
//! plus the Feb 29 name-day rule. The working-time fields (`shorter_workday`, the hours of
//! the 5-day and 6-day weeks) come from the rule of the dataset crate
//! ([`kalendorius_dataset::working_time`]), which the loader checks them against. The
//! server only serves what this module decided.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use chrono::{Datelike, NaiveDate, Weekday};
use kalendorius_dataset::working_time::{working_time, DayFacts, Week};
use kalendorius_dataset::{Counts, Date, Day, Holiday, NameDay, Reason, Transfer, TransferKind};

use crate::error::{BuildError, SourceError, SourceErrorKind};
use crate::sources::{bases_on, HolidayDef, Sources, TransferDef};

/// Computes every day of `years` in date order, handing each to `each_day`, and returns the
/// totals. Fails when a transfer contradicts the calendar.
pub fn compute(
    sources: &Sources,
    years: RangeInclusive<i32>,
    mut each_day: impl FnMut(Day),
) -> Result<Counts, BuildError> {
    check_transfers(sources)?;

    let first = NaiveDate::from_ymd_opt(*years.start(), 1, 1).expect("year in range");
    let last = NaiveDate::from_ymd_opt(*years.end(), 12, 31).expect("year in range");
    let span = (last - first).num_days() as usize + 1;

    // Holidays placed by day index; one extra day after the range so that Dec 31 of the
    // last year knows whether Jan 1 after it is red.
    let mut placed: Vec<Vec<usize>> = vec![Vec::new(); span + 1];
    for year in *years.start()..=*years.end() + 1 {
        for (i, holiday) in sources.holidays.iter().enumerate() {
            if !holiday.observed_in(year) {
                continue;
            }
            if let Some(date) = holiday.rule.date_in(year) {
                let index = (date - first).num_days();
                if (0..=span as i64).contains(&index) {
                    placed[index as usize].push(i);
                }
            }
        }
    }

    let name_days = name_day_table(sources);
    let transfers: HashMap<NaiveDate, &TransferDef> =
        sources.transfers.iter().map(|t| (t.date, t)).collect();

    let mut counts = Counts {
        source_holidays: sources.holidays.len() as u64,
        source_transfers: sources.transfers.len() as u64,
        source_name_days: sources.name_days.len() as u64,
        ..Counts::default()
    };
    let mut date = first;
    for index in 0..span {
        let holidays = &placed[index];
        let next_is_red = placed[index + 1].iter().any(|&i| {
            sources.holidays[i]
                .red_period(date.succ_opt().expect("in range"))
                .is_some()
        });
        let mut day = day(
            date,
            holidays.iter().map(|&i| &sources.holidays[i]),
            transfers.get(&date).copied(),
            next_is_red,
            &name_days,
        );
        if day.shorter_workday || day.shorter_workday_6 {
            day.shorter_workday_basis = sources.acts.eve_bases_on(date);
            if day.shorter_workday_basis.is_empty() {
                return Err(BuildError::Invalid(vec![SourceError {
                    file: sources.acts.file.clone(),
                    line: None,
                    key: Some("eve_rule".into()),
                    kind: SourceErrorKind::OutOfRange,
                    message: format!(
                        "{date} is shortened by the eve rule, but no [[eve_rule]] period holds it"
                    ),
                }]));
            }
        }
        counts.days += 1;
        counts.holiday_records += day.holidays.len() as u64;
        counts.red_holiday_records += day.holidays.iter().filter(|h| h.is_red).count() as u64;
        counts.non_working_days += u64::from(day.laisvadienis);
        counts.transfers += u64::from(day.transfer.is_some());
        counts.name_day_records += day.name_days.len() as u64;
        each_day(day);
        date = date.succ_opt().expect("in range");
    }
    Ok(counts)
}

/// One day, by the rules of docs/api.md, Day status.
fn day<'a>(
    date: NaiveDate,
    holidays: impl Iterator<Item = &'a HolidayDef>,
    transfer: Option<&TransferDef>,
    next_is_red: bool,
    name_days: &NameDayTable,
) -> Day {
    let weekday = date.weekday();
    let mut red: Vec<(u32, &str)> = Vec::new();
    let mut records: Vec<Holiday> = holidays
        .map(|h| {
            let period = h.red_period(date);
            let names = h.names_on(date);
            if period.is_some() {
                red.push((h.labour_code_item.unwrap_or(u32::MAX), &names.lt));
            }
            Holiday {
                id: h.id.clone(),
                kind: h.kind,
                is_red: period.is_some(),
                name_lt: names.lt.clone(),
                name_en: names.en.clone(),
                name_pl: names.pl.clone(),
                name_ru: names.ru.clone(),
                source: period.map_or(&h.source, |p| &p.source).clone(),
                confidence: period.map(|p| p.confidence),
                basis: period.map_or_else(Vec::new, |p| bases_on(&p.bases, date)),
            }
        })
        .collect();
    // Red first, then type, then Lithuanian name.
    records.sort_by(|a, b| (!a.is_red, a.kind, &a.name_lt).cmp(&(!b.is_red, b.kind, &b.name_lt)));
    // Joined names follow the Labour Code list.
    red.sort();
    let red_name = (!red.is_empty()).then(|| {
        red.iter()
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    });

    let facts = DayFacts {
        weekday,
        red: red_name.is_some(),
        declared_day_off: transfer.is_some_and(|t| t.kind == TransferKind::DayOff),
        declared_day_off_6: transfer
            .is_some_and(|t| t.kind == TransferKind::DayOff && t.six_day_week),
        declared_working_day: transfer.is_some_and(|t| t.kind == TransferKind::WorkingDay),
        next_red: next_is_red,
    };
    let (laisvadienis, reason, holiday_name) = match (red_name, transfer.map(|t| t.kind)) {
        (Some(name), _) => (true, Some(Reason::PublicHoliday), Some(name)),
        (None, Some(TransferKind::DayOff)) => (
            true,
            Some(Reason::PublicHoliday),
            transfer.map(|t| t.names.lt.clone()),
        ),
        (None, Some(TransferKind::WorkingDay)) => (false, None, None),
        (None, None) => match weekday {
            Weekday::Sun => (true, Some(Reason::Sunday), None),
            Weekday::Sat => (true, Some(Reason::Saturday), None),
            _ => (false, None, None),
        },
    };

    // The day status and the working-time rule say the same about the 5-day week.
    debug_assert_eq!(laisvadienis, !facts.is_working_day(Week::Five), "{date}");
    let hours = working_time(facts);

    Day {
        date: Date::from_naive(date).expect("dates of a build are in range"),
        day_of_week: weekday.num_days_from_sunday() as u8,
        iso_week: date.iso_week().week() as u8,
        is_weekend: matches!(weekday, Weekday::Sat | Weekday::Sun),
        laisvadienis,
        reason,
        holiday_name,
        shorter_workday: hours.shorter_workday,
        working_hours_5: hours.working_hours_5,
        working_hours_6: hours.working_hours_6,
        shorter_workday_6: hours.shorter_workday_6,
        // Filled in by `compute`, which has the eve rule.
        shorter_workday_basis: Vec::new(),
        holidays: records,
        transfer: transfer.map(|t| Transfer {
            kind: t.kind,
            six_day_week: t.six_day_week,
            name_lt: t.names.lt.clone(),
            name_en: t.names.en.clone(),
            name_pl: t.names.pl.clone(),
            name_ru: t.names.ru.clone(),
            source: t.source.clone(),
            confidence: t.confidence,
            basis: bases_on(&t.bases, date),
        }),
        name_days: name_days.on(date),
    }
}

/// Name days by month and day.
struct NameDayTable {
    /// `[month][day]`, leap-year days.
    by_day: Vec<Vec<Vec<NameDay>>>,
}

impl NameDayTable {
    /// The names of a date. In a common year Feb 28 also shows the Feb 29 names, after its
    /// own, so no name is lost (documented in sources/README.md and docs/guide.md#calendar-feeds-subscribe-in-a-calendar-app).
    fn on(&self, date: NaiveDate) -> Vec<NameDay> {
        let (m, d) = (date.month() as usize, date.day() as usize);
        let mut names = self.by_day[m][d].clone();
        if m == 2 && d == 28 && NaiveDate::from_ymd_opt(date.year(), 2, 29).is_none() {
            names.extend(self.by_day[2][29].iter().cloned());
        }
        names
    }
}

fn name_day_table(sources: &Sources) -> NameDayTable {
    let mut by_day = vec![vec![Vec::new(); 32]; 13];
    for row in &sources.name_days {
        by_day[row.month as usize][row.day as usize].push(NameDay {
            name: row.name.clone(),
            gender: row.gender,
        });
    }
    NameDayTable { by_day }
}

/// Whether a red holiday falls on `date` under the sources.
fn red_on(sources: &Sources, date: NaiveDate) -> Option<&HolidayDef> {
    sources.holidays.iter().find(|h| {
        h.observed_in(date.year())
            && h.rule.date_in(date.year()) == Some(date)
            && h.red_period(date).is_some()
    })
}

/// Transfers: a day off replaces a working day; a working day replaces a weekend day.
fn check_transfers(sources: &Sources) -> Result<(), BuildError> {
    let mut errors = Vec::new();
    for t in &sources.transfers {
        let weekday = t.date.weekday();
        let weekend = matches!(weekday, Weekday::Sat | Weekday::Sun);
        let problem = match (t.kind, red_on(sources, t.date)) {
            (_, Some(h)) => Some(format!(
                "{} ({weekday}) is already the red holiday '{}'",
                t.date, h.id
            )),
            (TransferKind::DayOff, None) if weekend => Some(format!(
                "a day_off on {} ({weekday}) changes nothing: it is already a weekend day",
                t.date
            )),
            (TransferKind::WorkingDay, None) if !weekend => Some(format!(
                "a working_day on {} ({weekday}) changes nothing: it is already a working day",
                t.date
            )),
            _ => None,
        };
        if let Some(message) = problem {
            errors.push(SourceError {
                file: t.origin.file.clone(),
                line: Some(t.origin.line),
                key: Some(t.origin.key.clone()),
                kind: SourceErrorKind::TransferConflict,
                message,
            });
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(BuildError::Invalid(errors))
    }
}
