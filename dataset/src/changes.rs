//! What changed between two datasets: every date whose answer differs, grouped by kind.
//!
//! This is the shape of `changes.json`, which every build writes into the new dataset
//! directory (the difference against the version it replaces), and of
//! `kalendorius-generator diff --json`. The comparison is a pure function of the days:
//! [`compare`] over two lists, or [`Differ`] fed one pair of days at a time (how the
//! generator compares two full datasets without holding either in memory).
//!
//! Only dates both datasets cover are compared; a change of the year range shows in
//! [`Changes::old`] and [`Changes::new`]. A date is listed under each kind whose part of the
//! answer differs:
//!
//! - `status`: `laisvadienis`, `reason` or `holiday_name` (what `/laisvadienis` answers);
//! - `shortened`: `shorter_workday` (5-day week) or `shorter_workday_6` (6-day week);
//! - `working_hours`: `working_hours_5` or `working_hours_6`;
//! - `holidays`: one entry per holiday id added to, removed from or changed on the date
//!   (renamed in any language, made red or no longer red, another type or source, another
//!   legal basis or confidence while red where the old dataset records one);
//! - `name_days`: the names added to and removed from the date (a name and its gender; the
//!   order of the list is not compared);
//! - `transfers`: the transfer declared for the date, before and after.
//!
//! Weekday, ISO week and weekend never differ for one date, so they are not compared. Every
//! list is in date order (holidays: then by id), so the same two datasets always give the
//! same bytes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Basis, Date, Day, Holiday, NameDay, Reason, Transfer, SCHEMA_VERSION};

/// What a dataset version changes against another: `changes.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Changes {
    /// [`crate::SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// Whether anything was compared: `compared` (then `old` names the dataset compared
    /// against), `none` (a first build: no dataset was in service, `old` is null and every
    /// list is empty) or `unreadable` (the dataset in service could not be read: `old` is
    /// null, every list is empty and `note` says which and why).
    pub baseline: Baseline,
    /// The dataset compared against (for a build: the one in service before it); null when
    /// nothing was compared.
    pub old: Option<DatasetRef>,
    /// The dataset whose changes these are.
    pub new: DatasetRef,
    /// Why nothing was compared, in words; null when `baseline` is `compared`.
    pub note: Option<String>,
    /// How many entries each list has, and how many distinct dates they name.
    pub summary: Summary,
    /// Dates whose status differs: `laisvadienis`, `reason` or `holiday_name`.
    pub status: Vec<StatusChange>,
    /// Dates whose shortening by the eve rule differs, in the 5- or the 6-day week.
    pub shortened: Vec<ShortenedChange>,
    /// Dates whose working hours differ, in the 5- or the 6-day week.
    pub working_hours: Vec<HoursChange>,
    /// Holidays added to, removed from or changed on a date, one entry per date and id.
    pub holidays: Vec<HolidayChange>,
    /// Dates whose name days differ.
    pub name_days: Vec<NameDayChange>,
    /// Dates whose declared transfer differs.
    pub transfers: Vec<TransferChange>,
}

/// Whether a [`Changes`] compares two datasets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Baseline {
    /// Two datasets were compared.
    Compared,
    /// Nothing to compare with: the first build into an output root.
    None,
    /// The dataset in service could not be read (damaged, or days of another shape).
    Unreadable,
}

/// A dataset named in a [`Changes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DatasetRef {
    /// Its dataset version.
    pub dataset_version: String,
    /// First year it covers.
    pub first_year: i32,
    /// Last year it covers.
    pub last_year: i32,
}

/// Counts of a [`Changes`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Distinct dates with at least one change of any kind.
    pub dates: u64,
    /// Entries of `status`.
    pub status: u64,
    /// Entries of `shortened`.
    pub shortened: u64,
    /// Entries of `working_hours`.
    pub working_hours: u64,
    /// Entries of `holidays` (one per date and holiday id).
    pub holidays: u64,
    /// Entries of `name_days`.
    pub name_days: u64,
    /// Entries of `transfers`.
    pub transfers: u64,
}

/// The status of a date: what `/laisvadienis` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Status {
    /// Non-working day.
    pub laisvadienis: bool,
    /// Why it is non-working.
    pub reason: Option<Reason>,
    /// The name of the red holidays or of the declared day off.
    pub holiday_name: Option<String>,
}

/// One part of a date's answer, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{T}Change")]
pub struct DateChange<T> {
    /// The date.
    pub date: Date,
    /// Before (for a transfer: null when there was none).
    pub old: T,
    /// After (for a transfer: null when there is none).
    pub new: T,
}

/// A date whose status differs.
pub type StatusChange = DateChange<Status>;
/// A date whose shortening differs.
pub type ShortenedChange = DateChange<Shortened>;
/// A date whose working hours differ.
pub type HoursChange = DateChange<Hours>;
/// A date whose declared transfer differs.
pub type TransferChange = DateChange<Option<Transfer>>;

/// Whether a date is shortened by the eve rule, in each week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shortened {
    /// In the 5-day week.
    pub shorter_workday: bool,
    /// In the 6-day week.
    pub shorter_workday_6: bool,
}

/// The working hours of a date, in each week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hours {
    /// In the 5-day week.
    pub working_hours_5: u8,
    /// In the 6-day week.
    pub working_hours_6: u8,
}

/// What happened to a holiday on a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HolidayChangeKind {
    /// Listed on the date only in the new dataset (`old` is null).
    Added,
    /// Listed on the date only in the old dataset (`new` is null).
    Removed,
    /// Listed in both, with the differences named in `aspects`.
    Changed,
}

/// What differs in a holiday listed on a date in both datasets.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum HolidayAspect {
    /// Its name in at least one language (`name_lt`, `name_en`, `name_pl`, `name_ru`).
    Renamed,
    /// `is_red`: it became a non-working day, or stopped being one.
    IsRed,
    /// Its `type`.
    Type,
    /// Its `source`.
    Source,
    /// Its legal `basis` or `confidence` while red; compared only where the old dataset
    /// records bases (schema version 6 on).
    Basis,
}

/// `new` bases as they compare with `old` ones: an act's `url` counts only where the old
/// basis records one (schema version 8 on), so the links added in version 8 are not
/// reported as changed citations.
fn comparable(old: &[Basis], new: &[Basis]) -> Vec<Basis> {
    new.iter()
        .enumerate()
        .map(|(i, b)| Basis {
            url: old.get(i).and_then(|o| o.url.as_ref()).and(b.url.clone()),
            ..b.clone()
        })
        .collect()
}

/// A holiday added to, removed from or changed on a date, matched by its stable id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HolidayChange {
    /// The date.
    pub date: Date,
    /// The holiday's id.
    pub id: String,
    /// Added, removed or changed.
    pub change: HolidayChangeKind,
    /// For `changed`: what differs, in the order renamed, is_red, type, source, basis; empty
    /// otherwise.
    pub aspects: Vec<HolidayAspect>,
    /// The holiday as the old dataset lists it on the date; null when added.
    pub old: Option<Holiday>,
    /// The holiday as the new dataset lists it on the date; null when removed.
    pub new: Option<Holiday>,
}

/// A date whose name days differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NameDayChange {
    /// The date.
    pub date: Date,
    /// Names celebrated on the date only in the new dataset, in its order.
    pub added: Vec<NameDay>,
    /// Names celebrated on the date only in the old dataset, in its order.
    pub removed: Vec<NameDay>,
}

impl Changes {
    /// Nothing compared: every list empty, `old` null.
    pub fn uncompared(new: DatasetRef, baseline: Baseline, note: String) -> Changes {
        Changes::empty(baseline, None, new, Some(note))
    }

    fn empty(
        baseline: Baseline,
        old: Option<DatasetRef>,
        new: DatasetRef,
        note: Option<String>,
    ) -> Changes {
        Changes {
            schema_version: SCHEMA_VERSION,
            baseline,
            old,
            new,
            note,
            summary: Summary::default(),
            status: Vec::new(),
            shortened: Vec::new(),
            working_hours: Vec::new(),
            holidays: Vec::new(),
            name_days: Vec::new(),
            transfers: Vec::new(),
        }
    }

    /// Whether no compared date differs and the year range is the same.
    pub fn is_empty(&self) -> bool {
        self.summary.dates == 0
            && self.old.as_ref().is_none_or(|old| {
                (old.first_year, old.last_year) == (self.new.first_year, self.new.last_year)
            })
    }

    /// The summary these lists give ([`Changes::summary`] must equal it).
    pub fn count(&self) -> Summary {
        let mut dates: Vec<Date> = (self.status.iter().map(|c| c.date))
            .chain(self.shortened.iter().map(|c| c.date))
            .chain(self.working_hours.iter().map(|c| c.date))
            .chain(self.holidays.iter().map(|c| c.date))
            .chain(self.name_days.iter().map(|c| c.date))
            .chain(self.transfers.iter().map(|c| c.date))
            .collect();
        dates.sort_unstable();
        dates.dedup();
        Summary {
            dates: dates.len() as u64,
            status: self.status.len() as u64,
            shortened: self.shortened.len() as u64,
            working_hours: self.working_hours.len() as u64,
            holidays: self.holidays.len() as u64,
            name_days: self.name_days.len() as u64,
            transfers: self.transfers.len() as u64,
        }
    }

    /// Checks what a reader can check without the datasets: the lists are in order, every
    /// date is covered by both datasets, the summary counts the lists, and `baseline`,
    /// `old` and `note` agree. `Err` says what is wrong.
    pub fn check_consistency(&self) -> Result<(), String> {
        match (self.baseline, &self.old, &self.note) {
            (Baseline::Compared, Some(_), None) => {}
            (Baseline::None | Baseline::Unreadable, None, Some(_)) => {}
            _ => {
                return Err(format!(
                    "baseline {:?} does not agree with old and note (old is set exactly when compared, note exactly when not)",
                    self.baseline
                ))
            }
        }
        let covered = |date: Date| {
            let year = date.year();
            let in_new = (self.new.first_year..=self.new.last_year).contains(&year);
            let in_old = self
                .old
                .as_ref()
                .is_some_and(|old| (old.first_year..=old.last_year).contains(&year));
            in_new && in_old
        };
        fn ordered<T, K: Ord>(list: &[T], key: impl Fn(&T) -> K) -> bool {
            list.windows(2).all(|w| key(&w[0]) < key(&w[1]))
        }
        let lists_ordered = ordered(&self.status, |c| c.date)
            && ordered(&self.shortened, |c| c.date)
            && ordered(&self.working_hours, |c| c.date)
            && ordered(&self.holidays, |c| (c.date, c.id.clone()))
            && ordered(&self.name_days, |c| c.date)
            && ordered(&self.transfers, |c| c.date);
        if !lists_ordered {
            return Err("a list is not in date order, or names a date twice".into());
        }
        let dates = (self.status.iter().map(|c| c.date))
            .chain(self.shortened.iter().map(|c| c.date))
            .chain(self.working_hours.iter().map(|c| c.date))
            .chain(self.holidays.iter().map(|c| c.date))
            .chain(self.name_days.iter().map(|c| c.date))
            .chain(self.transfers.iter().map(|c| c.date));
        for date in dates {
            if !covered(date) {
                return Err(format!("{date} is not covered by both datasets"));
            }
        }
        let counted = self.count();
        if counted != self.summary {
            return Err(format!(
                "the summary says {:?}, the lists hold {counted:?}",
                self.summary
            ));
        }
        Ok(())
    }
}

/// Compares two datasets given as every day of each, in date order: the pure form of
/// [`Differ`]. `old` is `None` for a first build (the result says `baseline: none`).
pub fn compare(old: Option<(&DatasetRef, &[Day])>, new: (&DatasetRef, &[Day])) -> Changes {
    let (new_ref, new_days) = new;
    let Some((old_ref, old_days)) = old else {
        return Changes::uncompared(
            new_ref.clone(),
            Baseline::None,
            "nothing to compare with: no dataset was in service before this one".into(),
        );
    };
    let mut differ = Differ::new(old_ref.clone(), new_ref.clone());
    let mut old_days = old_days.iter().peekable();
    for new_day in new_days {
        while old_days.next_if(|old| old.date < new_day.date).is_some() {}
        if let Some(old_day) = old_days.next_if(|old| old.date == new_day.date) {
            differ.day(old_day, new_day);
        }
    }
    differ.finish()
}

/// Builds a [`Changes`] from the pairs of days that share a date, fed in date order.
#[derive(Debug)]
pub struct Differ {
    changes: Changes,
}

impl Differ {
    /// A comparison of `old` against `new` with nothing found yet.
    pub fn new(old: DatasetRef, new: DatasetRef) -> Differ {
        Differ {
            changes: Changes::empty(Baseline::Compared, Some(old), new, None),
        }
    }

    /// Compares the two datasets' answers for one date. Dates must come in increasing order
    /// (each once); `old.date` must equal `new.date`.
    pub fn day(&mut self, old: &Day, new: &Day) {
        debug_assert_eq!(old.date, new.date);
        let date = new.date;
        let c = &mut self.changes;

        let status = |d: &Day| Status {
            laisvadienis: d.laisvadienis,
            reason: d.reason,
            holiday_name: d.holiday_name.clone(),
        };
        differs(&mut c.status, date, status(old), status(new));
        let shortened = |d: &Day| Shortened {
            shorter_workday: d.shorter_workday,
            shorter_workday_6: d.shorter_workday_6,
        };
        differs(&mut c.shortened, date, shortened(old), shortened(new));
        let hours = |d: &Day| Hours {
            working_hours_5: d.working_hours_5,
            working_hours_6: d.working_hours_6,
        };
        differs(&mut c.working_hours, date, hours(old), hours(new));
        if old.holidays != new.holidays {
            holidays(date, &old.holidays, &new.holidays, &mut c.holidays);
        }
        if old.name_days != new.name_days {
            let only_in = |a: &[NameDay], b: &[NameDay]| -> Vec<NameDay> {
                a.iter().filter(|n| !b.contains(n)).cloned().collect()
            };
            let added = only_in(&new.name_days, &old.name_days);
            let removed = only_in(&old.name_days, &new.name_days);
            if !added.is_empty() || !removed.is_empty() {
                c.name_days.push(NameDayChange {
                    date,
                    added,
                    removed,
                });
            }
        }
        // A transfer's basis is compared only where the old dataset records it (schema
        // version 6 on): against an older one, the new transfer without it.
        let new_transfer = match (&old.transfer, &new.transfer) {
            (Some(before), Some(after)) if before.basis.is_empty() => Some(Transfer {
                confidence: before.confidence,
                basis: Vec::new(),
                ..after.clone()
            }),
            (Some(before), Some(after)) => Some(Transfer {
                basis: comparable(&before.basis, &after.basis),
                ..after.clone()
            }),
            _ => new.transfer.clone(),
        };
        if old.transfer != new_transfer {
            c.transfers.push(DateChange {
                date,
                old: old.transfer.clone(),
                new: new.transfer.clone(),
            });
        }
    }

    /// The changes found.
    pub fn finish(mut self) -> Changes {
        self.changes.summary = self.changes.count();
        self.changes
    }
}

/// Lists `old` and `new` of `date` when they differ.
fn differs<T: PartialEq>(list: &mut Vec<DateChange<T>>, date: Date, old: T, new: T) {
    if old != new {
        list.push(DateChange { date, old, new });
    }
}

/// The holiday entries of one date, by id.
fn holidays(date: Date, old: &[Holiday], new: &[Holiday], out: &mut Vec<HolidayChange>) {
    let by_id = |list: &[Holiday]| -> BTreeMap<String, Holiday> {
        let mut map = BTreeMap::new();
        for holiday in list {
            map.entry(holiday.id.clone())
                .or_insert_with(|| holiday.clone());
        }
        map
    };
    let (mut old, new) = (by_id(old), by_id(new));
    let mut entries: BTreeMap<String, HolidayChange> = BTreeMap::new();
    for (id, after) in new {
        match old.remove(&id) {
            None => {
                entries.insert(
                    id.clone(),
                    HolidayChange {
                        date,
                        id,
                        change: HolidayChangeKind::Added,
                        aspects: Vec::new(),
                        old: None,
                        new: Some(after),
                    },
                );
            }
            Some(before) => {
                let mut aspects = Vec::new();
                if (
                    &before.name_lt,
                    &before.name_en,
                    &before.name_pl,
                    &before.name_ru,
                ) != (
                    &after.name_lt,
                    &after.name_en,
                    &after.name_pl,
                    &after.name_ru,
                ) {
                    aspects.push(HolidayAspect::Renamed);
                }
                if before.is_red != after.is_red {
                    aspects.push(HolidayAspect::IsRed);
                }
                if before.kind != after.kind {
                    aspects.push(HolidayAspect::Type);
                }
                if before.source != after.source {
                    aspects.push(HolidayAspect::Source);
                }
                if before.is_red
                    && after.is_red
                    && !before.basis.is_empty()
                    && (&before.basis, before.confidence)
                        != (&comparable(&before.basis, &after.basis), after.confidence)
                {
                    aspects.push(HolidayAspect::Basis);
                }
                if !aspects.is_empty() {
                    entries.insert(
                        id.clone(),
                        HolidayChange {
                            date,
                            id,
                            change: HolidayChangeKind::Changed,
                            aspects,
                            old: Some(before),
                            new: Some(after),
                        },
                    );
                }
            }
        }
    }
    for (id, before) in old {
        entries.insert(
            id.clone(),
            HolidayChange {
                date,
                id,
                change: HolidayChangeKind::Removed,
                aspects: Vec::new(),
                old: Some(before),
                new: None,
            },
        );
    }
    out.extend(entries.into_values());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Gender, HolidayType, TransferKind};

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    /// A working Monday-Friday or a weekend day, with no holiday and one name.
    fn plain(text: &str) -> Day {
        let d = date(text);
        let dow = chrono::Datelike::weekday(&d.naive()).num_days_from_sunday() as u8;
        let weekend = dow == 0 || dow == 6;
        Day {
            date: d,
            day_of_week: dow,
            iso_week: chrono::Datelike::iso_week(&d.naive()).week() as u8,
            is_weekend: weekend,
            laisvadienis: weekend,
            reason: match dow {
                0 => Some(Reason::Sunday),
                6 => Some(Reason::Saturday),
                _ => None,
            },
            holiday_name: None,
            shorter_workday: false,
            working_hours_5: if weekend { 0 } else { 8 },
            working_hours_6: match dow {
                0 => 0,
                6 => 5,
                _ => 7,
            },
            shorter_workday_6: false,
            shorter_workday_basis: Vec::new(),
            holidays: Vec::new(),
            transfer: None,
            name_days: vec![NameDay {
                name: "Jonas".into(),
                gender: Gender::Male,
            }],
        }
    }

    fn holiday(id: &str, name: &str, red: bool) -> Holiday {
        Holiday {
            id: id.into(),
            kind: HolidayType::Public,
            is_red: red,
            name_lt: name.into(),
            name_en: format!("{name} (en)"),
            name_pl: format!("{name} (pl)"),
            name_ru: format!("{name} (ru)"),
            source: "[S1]".into(),
            confidence: None,
            basis: Vec::new(),
        }
    }

    /// Makes `day` a red holiday.
    fn red(mut day: Day, h: Holiday) -> Day {
        day.laisvadienis = true;
        day.reason = Some(Reason::PublicHoliday);
        day.holiday_name = Some(h.name_lt.clone());
        day.working_hours_5 = 0;
        day.working_hours_6 = 0;
        day.holidays.push(h);
        day
    }

    fn reference(version: &str) -> DatasetRef {
        DatasetRef {
            dataset_version: version.into(),
            first_year: 2024,
            last_year: 2024,
        }
    }

    /// 2024-12-20 (Fri) .. 2024-12-27 (Fri), with Dec 25 and 26 red and Dec 24 shortened.
    fn week() -> Vec<Day> {
        let mut days: Vec<Day> = (20..=27).map(|d| plain(&format!("2024-12-{d}"))).collect();
        days[4].shorter_workday = true; // Dec 24, Tuesday
        days[4].shorter_workday_6 = true;
        days[4].working_hours_5 = 7;
        days[4].working_hours_6 = 6;
        days[5] = red(days[5].clone(), holiday("kaledos-1", "Kalėdos", true));
        days[6] = red(
            days[6].clone(),
            holiday("kaledos-2", "Kalėdos (antra diena)", true),
        );
        days
    }

    fn diff(old: &[Day], new: &[Day]) -> Changes {
        compare(
            Some((&reference("v4-000000000001"), old)),
            (&reference("v4-000000000002"), new),
        )
    }

    #[test]
    fn equal_datasets_give_no_change() {
        let changes = diff(&week(), &week());
        assert!(changes.is_empty());
        assert_eq!(changes.summary, Summary::default());
        assert_eq!(changes.baseline, Baseline::Compared);
        changes.check_consistency().unwrap();
    }

    #[test]
    fn a_new_red_holiday_changes_status_hours_shortening_and_holidays() {
        let old = week();
        let mut new = week();
        // Dec 24 becomes red: it is no longer shortened, and Dec 23 is.
        new[4] = red(plain("2024-12-24"), holiday("kucios", "Kūčios", true));
        new[3].shorter_workday = true;
        new[3].shorter_workday_6 = true;
        new[3].working_hours_5 = 7;
        new[3].working_hours_6 = 6;
        let changes = diff(&old, &new);
        changes.check_consistency().unwrap();
        assert_eq!(changes.summary.dates, 2);
        assert_eq!(
            changes.status,
            vec![StatusChange {
                date: date("2024-12-24"),
                old: Status {
                    laisvadienis: false,
                    reason: None,
                    holiday_name: None
                },
                new: Status {
                    laisvadienis: true,
                    reason: Some(Reason::PublicHoliday),
                    holiday_name: Some("Kūčios".into())
                },
            }]
        );
        let dates = |list: Vec<Date>| list.iter().map(Date::to_string).collect::<Vec<_>>();
        assert_eq!(
            dates(changes.shortened.iter().map(|c| c.date).collect()),
            ["2024-12-23", "2024-12-24"]
        );
        assert_eq!(
            changes.working_hours[1].new,
            Hours {
                working_hours_5: 0,
                working_hours_6: 0
            }
        );
        assert_eq!(changes.holidays.len(), 1);
        let added = &changes.holidays[0];
        assert_eq!(added.change, HolidayChangeKind::Added);
        assert_eq!((added.id.as_str(), added.old.is_none()), ("kucios", true));
        assert!(changes.name_days.is_empty() && changes.transfers.is_empty());
    }

    #[test]
    fn holidays_are_matched_by_id_renamed_made_red_or_removed() {
        let old = week();
        let mut new = week();
        // Dec 25 renamed in English only; Dec 26 no longer red (status follows); a
        // non-red day added on Dec 20 and one on Dec 27 removed.
        new[5].holidays[0].name_en = "Christmas Day".into();
        new[6].holidays[0].is_red = false;
        new[6].laisvadienis = false;
        new[6].reason = None;
        new[6].holiday_name = None;
        new[6].working_hours_5 = 8;
        new[6].working_hours_6 = 7;
        new[0]
            .holidays
            .push(holiday("naujas", "Nauja diena", false));
        let mut old = old;
        old[7].holidays.push(holiday("senas", "Sena diena", false));
        let changes = diff(&old, &new);
        changes.check_consistency().unwrap();
        let entries: Vec<(String, &str, HolidayChangeKind, Vec<HolidayAspect>)> = changes
            .holidays
            .iter()
            .map(|c| {
                (
                    c.date.to_string(),
                    c.id.as_str(),
                    c.change,
                    c.aspects.clone(),
                )
            })
            .collect();
        assert_eq!(
            entries,
            vec![
                (
                    "2024-12-20".into(),
                    "naujas",
                    HolidayChangeKind::Added,
                    vec![]
                ),
                (
                    "2024-12-25".into(),
                    "kaledos-1",
                    HolidayChangeKind::Changed,
                    vec![HolidayAspect::Renamed]
                ),
                (
                    "2024-12-26".into(),
                    "kaledos-2",
                    HolidayChangeKind::Changed,
                    vec![HolidayAspect::IsRed]
                ),
                (
                    "2024-12-27".into(),
                    "senas",
                    HolidayChangeKind::Removed,
                    vec![]
                ),
            ]
        );
        // The rename changes no status (the Lithuanian name is the same); losing red does.
        assert_eq!(
            changes.status.iter().map(|c| c.date).collect::<Vec<_>>(),
            [date("2024-12-26")]
        );
        assert_eq!(changes.working_hours.len(), 1);
        assert_eq!(changes.summary.dates, 4);
    }

    #[test]
    fn name_days_and_transfers() {
        let old = week();
        let mut new = week();
        new[1].name_days = vec![
            NameDay {
                name: "Ona".into(),
                gender: Gender::Female,
            },
            NameDay {
                name: "Jonas".into(),
                gender: Gender::Male,
            },
        ];
        new[2].name_days.clear();
        // Reordering the same names is no change.
        let mut old = old;
        old[3].name_days.push(NameDay {
            name: "Ona".into(),
            gender: Gender::Female,
        });
        new[3].name_days = old[3].name_days.iter().rev().cloned().collect();
        let transfer = Transfer {
            kind: TransferKind::WorkingDay,
            six_day_week: false,
            confidence: crate::Confidence::Confirmed,
            basis: Vec::new(),
            name_lt: "Perkelta darbo diena".into(),
            name_en: "Transferred working day".into(),
            name_pl: "pl".into(),
            name_ru: "ru".into(),
            source: "[S31]".into(),
        };
        new[1].transfer = Some(transfer.clone());
        let changes = diff(&old, &new);
        changes.check_consistency().unwrap();
        assert_eq!(changes.name_days.len(), 2);
        assert_eq!(changes.name_days[0].added[0].name, "Ona");
        assert!(changes.name_days[0].removed.is_empty());
        assert_eq!(changes.name_days[1].removed[0].name, "Jonas");
        assert_eq!(
            changes.transfers,
            vec![TransferChange {
                date: date("2024-12-21"),
                old: None,
                new: Some(transfer)
            }]
        );
        assert_eq!(changes.summary.dates, 2);
        assert_eq!(changes.summary.name_days, 2);
    }

    #[test]
    fn only_dates_both_cover_are_compared() {
        let old = week();
        let new: Vec<Day> = week()[3..].to_vec();
        let mut new = new;
        new.push(plain("2024-12-28"));
        let changes = diff(&old, &new);
        assert_eq!(changes.summary.dates, 0);
    }

    #[test]
    fn a_first_build_compares_nothing_and_says_so() {
        let changes = compare(None, (&reference("v4-000000000002"), &week()));
        assert_eq!(changes.baseline, Baseline::None);
        assert!(changes.old.is_none() && changes.note.is_some());
        changes.check_consistency().unwrap();
        let json = serde_json::to_value(&changes).unwrap();
        assert_eq!(json["baseline"], "none");
        assert_eq!(json["old"], serde_json::Value::Null);
    }

    #[test]
    fn the_json_round_trips_and_inconsistencies_are_caught() {
        let mut new = week();
        new[5].holidays[0].name_lt = "Šv. Kalėdos".into();
        new[5].holiday_name = Some("Šv. Kalėdos".into());
        let changes = diff(&week(), &new);
        let json = serde_json::to_string(&changes).unwrap();
        let back: Changes = serde_json::from_str(&json).unwrap();
        assert_eq!(back, changes);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["holidays"][0]["aspects"][0], "renamed");
        assert_eq!(value["holidays"][0]["change"], "changed");
        assert_eq!(value["status"][0]["new"]["holiday_name"], "Šv. Kalėdos");

        let mut wrong = changes.clone();
        wrong.summary.status = 5;
        assert!(wrong.check_consistency().unwrap_err().contains("summary"));
        let mut wrong = changes.clone();
        wrong.status.push(wrong.status[0].clone());
        wrong.summary = wrong.count();
        assert!(wrong.check_consistency().is_err());
        let mut wrong = changes;
        wrong.note = Some("x".into());
        assert!(wrong.check_consistency().is_err());
    }
}
