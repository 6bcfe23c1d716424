//! The kalendorius generator: compiles the curated sources into a versioned dataset.
//!
//! The flow is `sources` (load and validate everything, collecting every problem with its
//! file and line) -> `calendar` (decide every date 1583..2100 by the rules of the
//! decisions) -> `output` (write year files, database and manifest into a staging directory
//! and publish it atomically) -> `versions` (keep the previous versions, so `rollback` can
//! repoint `current` to one). Nothing is written unless the sources are entirely valid.

pub mod calendar;
pub mod easter;
pub mod error;
pub mod output;
pub mod rule;
pub mod sources;
pub mod versions;

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kalendorius_dataset::{Counts, FIRST_YEAR, LAST_YEAR, SCHEMA_VERSION};
use sha2::{Digest, Sha256};

pub use error::{BuildError, SourceError, SourceErrorKind};

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The sources directory (`sources/`).
    pub sources: PathBuf,
    /// The output root (`output/`); the dataset goes to `out/<version>`, linked as `out/current`.
    pub out: PathBuf,
    /// Years to build; `None` = 1583..=2100.
    pub years: Option<RangeInclusive<i32>>,
    /// Previous versions to keep besides the new one ([`versions::DEFAULT_KEEP`]; see
    /// [`versions::prune`] for which).
    pub keep: usize,
}

/// What a build or check produced.
#[derive(Debug, Clone)]
pub struct BuildSummary {
    /// Dataset version (derived from the sources' content and the year range).
    pub dataset_version: String,
    /// Where the dataset was written; `None` for a check.
    pub dataset_dir: Option<PathBuf>,
    /// First year.
    pub first_year: i32,
    /// Last year.
    pub last_year: i32,
    /// Totals.
    pub counts: Counts,
    /// Wall time.
    pub elapsed: Duration,
}

impl std::fmt::Display for BuildSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.counts;
        write!(
            f,
            "{} {}: years {}..{}, {} days, {} holidays ({} holiday records, {} red), {} transfers, {} names ({} name-day records) in {:.2} s",
            if self.dataset_dir.is_some() { "built" } else { "checked" },
            self.dataset_version,
            self.first_year,
            self.last_year,
            c.days,
            c.source_holidays,
            c.holiday_records,
            c.red_holiday_records,
            c.source_transfers,
            c.source_name_days,
            c.name_day_records,
            self.elapsed.as_secs_f64()
        )?;
        if let Some(dir) = &self.dataset_dir {
            write!(f, " -> {}", dir.display())?;
        }
        Ok(())
    }
}

/// Validates the sources and writes a dataset. On any error nothing in `out` changes.
pub fn build(options: &BuildOptions) -> Result<BuildSummary, BuildError> {
    run(
        &options.sources,
        options.years.clone(),
        Some((&options.out, options.keep)),
    )
}

/// Validates the sources and computes every day without writing anything.
pub fn check(sources: &Path) -> Result<BuildSummary, BuildError> {
    run(sources, None, None)
}

/// Checks a published dataset (an output root or a dataset directory) the way a reader
/// would, and more: the manifest and schema version, every year file's size and SHA-256 and
/// day sequence, `school_holidays.json` (size, SHA-256, shape and periods within their school
/// years), every sled value's size and SHA-256 and the database's content digest, and
/// that the database decodes to exactly the days of the year files. Returns the dataset
/// version and the number of days.
pub fn verify(root: &Path) -> Result<(String, u64), kalendorius_dataset::LoadError> {
    let dataset = kalendorius_dataset::open_dataset(root)?;
    dataset.read_school_holidays()?;
    // One SHA-256 per day of the files (6 MB for 1583..2100), not the days themselves.
    let mut from_files: Vec<(kalendorius_dataset::Date, [u8; 32])> = Vec::new();
    dataset.read_days(|day| from_files.push((day.date, day_digest(&day))))?;
    let mut from_database = 0usize;
    let mut first_difference = None;
    dataset.read_database(|day| {
        let same = from_files
            .get(from_database)
            .is_some_and(|&(date, digest)| date == day.date && digest == day_digest(&day));
        if !same && first_difference.is_none() {
            first_difference = Some(day.date);
        }
        from_database += 1;
    })?;
    if first_difference.is_some() || from_database != from_files.len() {
        let db = &dataset.manifest.database.path;
        return Err(kalendorius_dataset::LoadError::DatabaseMismatch {
            path: dataset.path.join(db),
            reason: match first_difference {
                Some(date) => format!("the database and the year files differ on {date}"),
                None => format!(
                    "the database holds {from_database} days, the year files {}",
                    from_files.len()
                ),
            },
        });
    }
    Ok((dataset.manifest.dataset_version, from_files.len() as u64))
}

/// SHA-256 of a day's JSON: equal exactly when the days are.
fn day_digest(day: &kalendorius_dataset::Day) -> [u8; 32] {
    Sha256::digest(serde_json::to_vec(day).expect("a day serializes")).into()
}

/// Parses `A..B` (inclusive) within 1583..2100.
pub fn parse_years(text: &str) -> Result<RangeInclusive<i32>, BuildError> {
    let bad = || BuildError::YearRange(text.to_string());
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: i32 = a.trim().parse().map_err(|_| bad())?;
    let b: i32 = b.trim().parse().map_err(|_| bad())?;
    if FIRST_YEAR <= a && a <= b && b <= LAST_YEAR {
        Ok(a..=b)
    } else {
        Err(bad())
    }
}

fn run(
    sources_dir: &Path,
    years: Option<RangeInclusive<i32>>,
    out: Option<(&Path, usize)>,
) -> Result<BuildSummary, BuildError> {
    let started = Instant::now();
    let years = years.unwrap_or(FIRST_YEAR..=LAST_YEAR);
    let (first_year, last_year) = (*years.start(), *years.end());
    let sources = sources::load(sources_dir)?;
    let dataset_version = dataset_version(&sources.content_sha256, first_year, last_year);

    // Days stream out of the computation; each year's file is assembled as soon as its
    // last day arrives, so only the finished files are held.
    let school_holidays = sources.school_holidays.published();
    let mut year_files = output::YearFiles::new(&school_holidays.periods);
    let counts = calendar::compute(&sources, years, |day| {
        if out.is_some() {
            year_files.push(day);
        }
    })?;
    let dataset_dir = match out {
        Some((out, keep)) => Some(output::publish(
            out,
            &dataset_version,
            (first_year, last_year),
            year_files.finish(),
            &school_holidays,
            counts.clone(),
            keep,
        )?),
        None => None,
    };
    Ok(BuildSummary {
        dataset_version,
        dataset_dir,
        first_year,
        last_year,
        counts,
        elapsed: started.elapsed(),
    })
}

/// `v<schema>-<12 hex>`: a hash of the sources' content, the year range and this
/// generator's version, so any change to what the dataset says gives a new version.
fn dataset_version(sources_sha256: &str, first_year: i32, last_year: i32) -> String {
    let mut hasher = Sha256::new();
    hasher.update(format!(
        "schema {SCHEMA_VERSION}\ngenerator {}\nyears {first_year}..{last_year}\nsources {sources_sha256}\n",
        env!("CARGO_PKG_VERSION")
    ));
    let hash = hex::encode(hasher.finalize());
    format!("v{SCHEMA_VERSION}-{}", &hash[..12])
}
