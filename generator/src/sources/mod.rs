//! Loading and validating the curated sources (`sources/` in the repository).
//!
//! Everything is read and checked before anything is written. Problems are collected, not
//! stopped at: a maintainer sees every mistake of a change at once, each with its file,
//! line and key. The validated result, [`Sources`], holds only well-formed values (parsed
//! rules, real dates, known types), so the calendar computation cannot meet bad input.

mod acts;
mod diagnostics;
mod holidays;
mod namedays;
mod places;
mod school_holidays;
mod toml_src;
mod transfers;

use std::fs;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use kalendorius_dataset::{Confidence, Gender, HolidayType, PlacesFile, TransferKind};
use sha2::{Digest, Sha256};

pub use acts::{bases_on, Acts, DatedBasis, EveRule};
pub use diagnostics::Diagnostics;
pub use school_holidays::{
    GradeRange, SchoolHolidayDef, SchoolHolidayKind, SchoolHolidays, SchoolYearDef,
};

use crate::error::BuildError;
use crate::rule::DateRule;

/// A holiday's names in the four languages, all non-empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// Lithuanian.
    pub lt: String,
    /// English.
    pub en: String,
    /// Polish.
    pub pl: String,
    /// Russian.
    pub ru: String,
}

/// A period in which a holiday is a non-working day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedPeriod {
    /// First red date, inclusive.
    pub from: NaiveDate,
    /// Last red date, inclusive; `None` = in force today and after.
    pub to: Option<NaiveDate>,
    /// The act that made it so.
    pub source: String,
    /// How sure it is that the day is non-working.
    pub confidence: Confidence,
    /// The provisions that make it so, contiguous over the period.
    pub bases: Vec<DatedBasis>,
}

impl RedPeriod {
    /// Whether `date` lies in the period.
    pub fn contains(&self, date: NaiveDate) -> bool {
        date >= self.from && self.to.is_none_or(|to| date <= to)
    }
}

/// An older official Lithuanian wording of a holiday's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormerName {
    /// First date the wording applies, inclusive; `None` = every earlier date.
    pub from: Option<NaiveDate>,
    /// Last date the wording applies, inclusive.
    pub until: NaiveDate,
    /// The names; languages not given in the source fall back to the current ones.
    pub names: Names,
}

/// A validated holiday record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HolidayDef {
    /// Stable id, unique over all files.
    pub id: String,
    /// Category.
    pub kind: HolidayType,
    /// How its date is found.
    pub rule: DateRule,
    /// Position in the Labour Code list; `Some` exactly when `red` is non-empty.
    pub labour_code_item: Option<u32>,
    /// Inclusive year ranges in which it is listed (`None` end = open); empty = every year.
    /// Sorted and non-overlapping.
    pub observed: Vec<(i32, Option<i32>)>,
    /// Where the record comes from.
    pub source: String,
    /// Current names.
    pub names: Names,
    /// Red periods, sorted and non-overlapping, inside the observed years.
    pub red: Vec<RedPeriod>,
    /// Older wordings, sorted by `until`, their date ranges disjoint.
    pub former_names: Vec<FormerName>,
}

impl HolidayDef {
    /// Whether the holiday is listed in `year`.
    pub fn observed_in(&self, year: i32) -> bool {
        self.observed.is_empty()
            || self
                .observed
                .iter()
                .any(|&(from, to)| year >= from && to.is_none_or(|to| year <= to))
    }

    /// The red period containing `date`, if any.
    pub fn red_period(&self, date: NaiveDate) -> Option<&RedPeriod> {
        self.red.iter().find(|p| p.contains(date))
    }

    /// The names in force on `date`.
    pub fn names_on(&self, date: NaiveDate) -> &Names {
        self.former_names
            .iter()
            .find(|f| f.from.is_none_or(|from| from <= date) && date <= f.until)
            .map_or(&self.names, |f| &f.names)
    }
}

/// Where a record was defined, for errors found after loading (transfer conflicts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// Key path.
    pub key: String,
}

/// A validated transfer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferDef {
    /// Its date (unique among transfers).
    pub date: NaiveDate,
    /// Day off or working day.
    pub kind: TransferKind,
    /// Whether the 6-day week follows it too (`six_day_week`, default false; only on a day
    /// off: the days in lieu of Sunday holidays).
    pub six_day_week: bool,
    /// Names.
    pub names: Names,
    /// Where it comes from.
    pub source: String,
    /// How sure it is.
    pub confidence: Confidence,
    /// The act that declares it, covering its date.
    pub bases: Vec<DatedBasis>,
    /// Where it is defined.
    pub origin: Origin,
}

/// A validated name-day row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameDayRow {
    /// 1..=12.
    pub month: u32,
    /// A day of `month` in a leap year.
    pub day: u32,
    /// The name.
    pub name: String,
    /// Its gender.
    pub gender: Gender,
}

/// Everything in the sources directory, validated.
#[derive(Debug, Clone)]
pub struct Sources {
    /// Holidays, ordered by file then position.
    pub holidays: Vec<HolidayDef>,
    /// Transfers, ordered by date.
    pub transfers: Vec<TransferDef>,
    /// Name-day rows in file order.
    pub name_days: Vec<NameDayRow>,
    /// The register of legal acts and the eve rule (`acts.toml`).
    pub acts: Acts,
    /// The pupils' holidays (`school_holidays.toml`, optional).
    pub school_holidays: SchoolHolidays,
    /// The places whose sun is computed (`places.csv`), in its published form.
    pub places: PlacesFile,
    /// SHA-256 over every source file's path and bytes: the basis of the dataset version.
    pub content_sha256: String,
}

/// Reads and validates every source under `dir`.
pub fn load(dir: &Path) -> Result<Sources, BuildError> {
    let read_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BuildError::Read { path, source }
    };
    let holidays_dir = dir.join("holidays");
    let mut holiday_files: Vec<PathBuf> = fs::read_dir(&holidays_dir)
        .map_err(read_err(&holidays_dir))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(read_err(&holidays_dir))?;
    holiday_files.retain(|p| p.extension().is_some_and(|e| e == "toml"));
    holiday_files.sort();
    let transfers_file = dir.join("transfers.toml");
    let namedays_file = dir.join("namedays.csv");

    let mut hasher = Sha256::new();
    let mut read = |path: &Path| -> Result<String, BuildError> {
        let text = fs::read_to_string(path).map_err(read_err(path))?;
        let relative = path.strip_prefix(dir).unwrap_or(path);
        hasher.update(relative.to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update((text.len() as u64).to_be_bytes());
        hasher.update(text.as_bytes());
        Ok(text)
    };

    let mut diag = Diagnostics::default();
    // The register first: every basis of the other files is checked against it.
    let acts_file = dir.join("acts.toml");
    let text = read(&acts_file)?;
    let acts = acts::parse(&acts_file, &text, &mut diag);
    let mut holidays = Vec::new();
    let mut ids = holidays::IdRegistry::default();
    for file in &holiday_files {
        let text = read(file)?;
        holidays.extend(holidays::parse(file, &text, &mut ids, &acts, &mut diag));
    }
    let transfers = if transfers_file.exists() {
        let text = read(&transfers_file)?;
        transfers::parse(&transfers_file, &text, &acts, &mut diag)
    } else {
        Vec::new()
    };
    let text = read(&namedays_file)?;
    let name_days = namedays::parse(&namedays_file, &text, &mut diag);
    let school_file = dir.join("school_holidays.toml");
    let school_holidays = if school_file.exists() {
        let text = read(&school_file)?;
        school_holidays::parse(&school_file, &text, &mut diag)
    } else {
        SchoolHolidays::default()
    };
    let places_file = dir.join("places.csv");
    let text = read(&places_file)?;
    let places = places::parse(&places_file, &text, &mut diag);

    diag.into_result()?;
    Ok(Sources {
        holidays,
        transfers,
        name_days,
        acts,
        school_holidays,
        places,
        content_sha256: hex::encode(hasher.finalize()),
    })
}
