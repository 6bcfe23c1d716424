//! What changed between two datasets on disk: `kalendorius-generator diff`, the
//! `changes.json` of every build, and its check in `verify`.
//!
//! The comparison itself is [`kalendorius_dataset::changes`] (a pure function of the days);
//! this module feeds it two datasets one year at a time, so neither is ever held whole in
//! memory, and writes the result as text for a maintainer.

use std::fmt::Write as _;
use std::path::Path;

use kalendorius_dataset::changes::{
    Baseline, HolidayAspect, HolidayChange, HolidayChangeKind, Hours, Shortened, Status,
};
use kalendorius_dataset::load::YearFiles;
use kalendorius_dataset::{
    open_days, Changes, DatasetRef, Date, Day, DaysDir, Differ, LoadError, Reason, Transfer,
    TransferKind, YearFile,
};

/// Compares the datasets at `old` and `new`: each a dataset (version) directory, or an
/// output root whose `current` link names one. Reads every schema version whose days have
/// this one's shape ([`kalendorius_dataset::DAYS_SHAPE_SINCE`]), checking each year file.
pub fn diff_dirs(old: &Path, new: &Path) -> Result<Changes, LoadError> {
    let old = open_days(old)?;
    let new = open_days(new)?;
    let mut lockstep = Lockstep::new(&old, new.reference());
    for file in new.years() {
        for day in &file?.days {
            lockstep.push(day);
        }
    }
    lockstep.finish()
}

/// Compares the days of a new dataset, pushed one at a time in date order, with the days of
/// an old one read from disk a year at a time as the new days reach it.
pub struct Lockstep {
    old_years: YearFiles,
    old_range: (i32, i32),
    old_version: String,
    /// The old dataset's year being compared.
    current: Option<YearFile>,
    differ: Differ,
    failed: Option<LoadError>,
}

impl Lockstep {
    /// A comparison of `old` with the dataset `new` names.
    pub fn new(old: &DaysDir, new: DatasetRef) -> Lockstep {
        Lockstep {
            old_years: old.years(),
            old_range: (old.first_year, old.last_year),
            old_version: old.dataset_version.clone(),
            current: None,
            differ: Differ::new(old.reference(), new),
            failed: None,
        }
    }

    /// Compares `new` with the old dataset's day of the same date, if it has one. Days must
    /// come in date order.
    pub fn push(&mut self, new: &Day) {
        let year = new.date.year();
        if self.failed.is_some() || year < self.old_range.0 || year > self.old_range.1 {
            return;
        }
        while self.current.as_ref().is_none_or(|f| f.year < year) {
            match self.old_years.next() {
                Some(Ok(file)) => self.current = Some(file),
                Some(Err(e)) => {
                    self.failed = Some(e);
                    return;
                }
                None => return,
            }
        }
        let Some(file) = self.current.as_ref().filter(|f| f.year == year) else {
            return;
        };
        let jan1 = Date::from_ymd(year, 1, 1).expect("a year in range has January 1");
        let index = jan1.days_until(new.date) as usize;
        if let Some(old) = file.days.get(index).filter(|d| d.date == new.date) {
            self.differ.day(old, new);
        }
    }

    /// The version of the old dataset.
    pub fn old_version(&self) -> &str {
        &self.old_version
    }

    /// The changes found, or why the old dataset could not be read.
    pub fn finish(self) -> Result<Changes, LoadError> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.differ.finish()),
        }
    }
}

/// One line: which datasets, how many dates differ and of which kinds.
pub fn headline(changes: &Changes) -> String {
    let new = &changes.new;
    let Some(old) = &changes.old else {
        return format!(
            "{}: nothing compared ({}): {}",
            new.dataset_version,
            match changes.baseline {
                Baseline::Unreadable => "unreadable",
                _ => "none",
            },
            changes.note.as_deref().unwrap_or("")
        );
    };
    let s = &changes.summary;
    let mut line = format!("{} -> {}: ", old.dataset_version, new.dataset_version);
    if s.dates == 0 {
        line += "no date differs";
    } else {
        let _ = write!(
            line,
            "{} date{} differ{} (status {}, shortened {}, working hours {}, holidays {}, name days {}, transfers {})",
            s.dates,
            if s.dates == 1 { "" } else { "s" },
            if s.dates == 1 { "s" } else { "" },
            s.status,
            s.shortened,
            s.working_hours,
            s.holidays,
            s.name_days,
            s.transfers
        );
    }
    if (old.first_year, old.last_year) != (new.first_year, new.last_year) {
        let _ = write!(
            line,
            "; years {}..{} -> {}..{} (only the years both cover are compared)",
            old.first_year, old.last_year, new.first_year, new.last_year
        );
    }
    line
}

/// The changes as text, grouped by kind, one line per entry: at most `limit` entries of
/// each kind when given.
pub fn text(changes: &Changes, limit: Option<usize>) -> String {
    let mut out = headline(changes);
    let mut group = |title: &str, lines: Vec<String>| {
        if lines.is_empty() {
            return;
        }
        let _ = write!(out, "\n{title} ({}):", lines.len());
        let shown = limit.unwrap_or(usize::MAX);
        for line in lines.iter().take(shown) {
            let _ = write!(out, "\n  {line}");
        }
        if lines.len() > shown {
            let _ = write!(out, "\n  ... and {} more", lines.len() - shown);
        }
    };
    group(
        "status",
        changes
            .status
            .iter()
            .map(|c| {
                format!(
                    "{}  {} -> {}",
                    c.date,
                    status_text(&c.old),
                    status_text(&c.new)
                )
            })
            .collect(),
    );
    group(
        "shortened (eve of a red holiday)",
        changes
            .shortened
            .iter()
            .map(|c| format!("{}  {}", c.date, shortened_text(c.old, c.new)))
            .collect(),
    );
    group(
        "working hours",
        changes
            .working_hours
            .iter()
            .map(|c| format!("{}  {}", c.date, hours_text(c.old, c.new)))
            .collect(),
    );
    group(
        "holidays",
        changes.holidays.iter().map(holiday_text).collect(),
    );
    group(
        "name days",
        changes
            .name_days
            .iter()
            .map(|c| {
                let names = |sign: char, list: &[kalendorius_dataset::NameDay]| {
                    list.iter()
                        .map(|n| format!("{sign} {} ({})", n.name, n.gender.as_str()))
                        .collect::<Vec<_>>()
                };
                let mut all = names('+', &c.added);
                all.extend(names('-', &c.removed));
                format!("{}  {}", c.date, all.join(", "))
            })
            .collect(),
    );
    group(
        "transfers",
        changes
            .transfers
            .iter()
            .map(|c| {
                format!(
                    "{}  {} -> {}",
                    c.date,
                    transfer_text(c.old.as_ref()),
                    transfer_text(c.new.as_ref())
                )
            })
            .collect(),
    );
    out
}

fn status_text(status: &Status) -> String {
    match (status.laisvadienis, status.reason) {
        (false, _) => "working day".into(),
        (true, Some(Reason::PublicHoliday)) => format!(
            "laisvadienis \"{}\"",
            status.holiday_name.as_deref().unwrap_or("")
        ),
        (true, reason) => format!(
            "laisvadienis ({})",
            reason.map_or("no reason", Reason::as_str)
        ),
    }
}

fn shortened_text(old: Shortened, new: Shortened) -> String {
    let word = |b: bool| if b { "shortened" } else { "not shortened" };
    let mut parts = Vec::new();
    if old.shorter_workday != new.shorter_workday {
        parts.push(format!(
            "5-day week {} -> {}",
            word(old.shorter_workday),
            word(new.shorter_workday)
        ));
    }
    if old.shorter_workday_6 != new.shorter_workday_6 {
        parts.push(format!(
            "6-day week {} -> {}",
            word(old.shorter_workday_6),
            word(new.shorter_workday_6)
        ));
    }
    parts.join(", ")
}

fn hours_text(old: Hours, new: Hours) -> String {
    let mut parts = Vec::new();
    if old.working_hours_5 != new.working_hours_5 {
        parts.push(format!(
            "5-day week {} -> {} h",
            old.working_hours_5, new.working_hours_5
        ));
    }
    if old.working_hours_6 != new.working_hours_6 {
        parts.push(format!(
            "6-day week {} -> {} h",
            old.working_hours_6, new.working_hours_6
        ));
    }
    parts.join(", ")
}

fn holiday_text(change: &HolidayChange) -> String {
    let red = |is_red: bool| if is_red { "red" } else { "not red" };
    let date = change.date;
    let id = &change.id;
    match (change.change, &change.old, &change.new) {
        (HolidayChangeKind::Added, _, Some(h)) => format!(
            "{date}  + {id} \"{}\" ({}, {})",
            h.name_lt,
            h.kind.as_str(),
            red(h.is_red)
        ),
        (HolidayChangeKind::Removed, Some(h), _) => format!(
            "{date}  - {id} \"{}\" ({}, {})",
            h.name_lt,
            h.kind.as_str(),
            red(h.is_red)
        ),
        (_, Some(old), Some(new)) => {
            let mut parts = Vec::new();
            for aspect in &change.aspects {
                match aspect {
                    HolidayAspect::Renamed => {
                        let names = [
                            ("lt", &old.name_lt, &new.name_lt),
                            ("en", &old.name_en, &new.name_en),
                            ("pl", &old.name_pl, &new.name_pl),
                            ("ru", &old.name_ru, &new.name_ru),
                        ];
                        let renamed: Vec<String> = names
                            .iter()
                            .filter(|(_, a, b)| a != b)
                            .map(|(lang, a, b)| format!("{lang} \"{a}\" -> \"{b}\""))
                            .collect();
                        parts.push(format!("renamed: {}", renamed.join(", ")));
                    }
                    HolidayAspect::IsRed => parts.push(if new.is_red {
                        "now red".into()
                    } else {
                        "no longer red".into()
                    }),
                    HolidayAspect::Type => parts.push(format!(
                        "type {} -> {}",
                        old.kind.as_str(),
                        new.kind.as_str()
                    )),
                    HolidayAspect::Source => parts.push("source changed".into()),
                    HolidayAspect::Basis => {
                        let cite = |h: &kalendorius_dataset::Holiday| {
                            h.basis
                                .iter()
                                .map(|b| b.text_en.as_str())
                                .collect::<Vec<_>>()
                                .join("; ")
                        };
                        parts.push(format!("basis \"{}\" -> \"{}\"", cite(old), cite(new)))
                    }
                }
            }
            format!("{date}  ~ {id} {}", parts.join("; "))
        }
        _ => format!("{date}  {id}"),
    }
}

fn transfer_text(transfer: Option<&Transfer>) -> String {
    match transfer {
        None => "none".into(),
        Some(t) => format!(
            "{} \"{}\"",
            match t.kind {
                TransferKind::DayOff => "day off",
                TransferKind::WorkingDay => "working day",
            },
            t.name_lt
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalendorius_dataset::changes::{StatusChange, Summary};

    #[test]
    fn text_groups_by_kind_and_limits() {
        let reference = |v: &str| DatasetRef {
            dataset_version: v.into(),
            first_year: 2024,
            last_year: 2024,
        };
        let status = |laisvadienis: bool| Status {
            laisvadienis,
            reason: laisvadienis.then_some(Reason::PublicHoliday),
            holiday_name: laisvadienis.then(|| "Kūčios".to_string()),
        };
        let mut changes = Changes::uncompared(reference("v4-b"), Baseline::None, "x".into());
        assert_eq!(headline(&changes), "v4-b: nothing compared (none): x");
        changes.baseline = Baseline::Compared;
        changes.old = Some(reference("v4-a"));
        changes.note = None;
        for day in 23..=25 {
            changes.status.push(StatusChange {
                date: Date::from_ymd(2024, 12, day).unwrap(),
                old: status(false),
                new: status(true),
            });
        }
        changes.summary = changes.count();
        assert_eq!(
            changes.summary,
            Summary {
                dates: 3,
                status: 3,
                ..Summary::default()
            }
        );
        let text = text(&changes, Some(2));
        assert_eq!(
            text,
            "v4-a -> v4-b: 3 dates differ (status 3, shortened 0, working hours 0, holidays 0, name days 0, transfers 0)\n\
             status (3):\n  \
             2024-12-23  working day -> laisvadienis \"Kūčios\"\n  \
             2024-12-24  working day -> laisvadienis \"Kūčios\"\n  \
             ... and 1 more"
        );
    }
}
