//! The kalendorius generator: compiles the curated sources into a versioned dataset.
//!
//! The flow is `sources` (load and validate everything, collecting every problem with its
//! file and line) -> `calendar` (decide every date 1583..2100 by the rules of the
//! decisions) -> `output` (write year files, database, `changes.json` and manifest into a
//! staging directory and publish it atomically) -> `versions` (keep the previous versions,
//! so `rollback` can repoint `current` to one). Nothing is written unless the sources are
//! entirely valid. While the days are computed, `diff` compares them with the version in
//! service, which gives the new version's `changes.json`.

pub mod calendar;
pub mod diff;
pub mod easter;
pub mod error;
pub mod output;
pub mod rule;
pub mod sources;
pub mod versions;

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kalendorius_dataset::changes::Baseline;
use kalendorius_dataset::layout::CHANGES_FILE;
use kalendorius_dataset::{
    open_days, Changes, Counts, DatasetRef, LoadError, FIRST_YEAR, LAST_YEAR, SCHEMA_VERSION,
};
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
    /// What the build changes against the version in service before it (its
    /// `changes.json`); `None` for a check.
    pub changes: Option<Changes>,
    /// The build rebuilt the version already in service (unchanged sources and years): it
    /// changes nothing, and `changes` is what that version changed when first built.
    pub already_in_service: bool,
    /// Wall time.
    pub elapsed: Duration,
}

/// Entries of each kind a build prints; `changes.json` and `diff` have them all.
pub const BUILD_SUMMARY_LIMIT: usize = 5;

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
        if let Some(changes) = &self.changes {
            // A rebuild's kept changes describe the build that first made this version;
            // printed as this build's, a first version's would say nothing was in service.
            let heading = if self.already_in_service {
                "unchanged: this version was already in service, so nothing changes; \
                 what it changed when it was first built"
            } else {
                "changes against the version in service before this build"
            };
            write!(
                f,
                "\n{heading}: {}",
                diff::text(changes, Some(BUILD_SUMMARY_LIMIT))
            )?;
            if let Some(dir) = &self.dataset_dir {
                write!(f, "\n(all of them: {})", dir.join(CHANGES_FILE).display())?;
            }
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

/// What [`verify`] checked.
#[derive(Debug, Clone)]
pub struct Verified {
    /// The dataset version.
    pub dataset_version: String,
    /// Days in it.
    pub days: u64,
    /// What was checked of `changes.json`, in words.
    pub changes: String,
}

/// Checks a published dataset (an output root or a dataset directory) the way a reader
/// would, and more: the manifest and schema version, every year file's size and SHA-256 and
/// day sequence, `school_holidays.json` (size, SHA-256, shape and periods within their school
/// years), every sled value's size and SHA-256 and the database's content digest, and
/// that the database decodes to exactly the days of the year files. Then `changes.json`:
/// its size and SHA-256, its shape, that it names this dataset, that its lists are ordered
/// and counted, and, when the dataset it was compared against is kept beside this one,
/// that comparing them again gives exactly the same changes.
pub fn verify(root: &Path) -> Result<Verified, LoadError> {
    let dataset = kalendorius_dataset::open_dataset(root)?;
    dataset.read_school_holidays()?;
    let changes_path = dataset.path.join(CHANGES_FILE);
    let bad_changes = |reason: String| LoadError::FileMismatch {
        path: changes_path.clone(),
        reason,
    };
    let bytes = std::fs::read(&changes_path).map_err(|source| LoadError::Io {
        path: changes_path.clone(),
        source,
    })?;
    let recorded: Changes =
        serde_json::from_slice(&bytes).map_err(|e| bad_changes(e.to_string()))?;
    let manifest = &dataset.manifest;
    let this = DatasetRef {
        dataset_version: manifest.dataset_version.clone(),
        first_year: manifest.first_year,
        last_year: manifest.last_year,
    };
    if recorded.schema_version != manifest.schema_version || recorded.new != this {
        return Err(bad_changes(format!(
            "it describes {} ({}..{}, schema {}), not this dataset",
            recorded.new.dataset_version,
            recorded.new.first_year,
            recorded.new.last_year,
            recorded.schema_version
        )));
    }
    recorded.check_consistency().map_err(bad_changes)?;
    // The dataset compared against, when it is kept beside this one: compare again while
    // the days are read below.
    let mut again = None;
    let mut changes_checked = match (&recorded.old, recorded.baseline) {
        (Some(old), _) if old.dataset_version != this.dataset_version => {
            let sibling = dataset
                .path
                .parent()
                .map(|parent| parent.join(&old.dataset_version));
            match sibling.as_deref().map(open_days) {
                Some(Ok(old_days)) if old_days.reference() == *old => {
                    again = Some(diff::Lockstep::new(&old_days, this.clone()));
                    format!("equal to a new comparison with {}", old.dataset_version)
                }
                Some(Err(e)) if sibling.as_deref().is_some_and(|s| s.exists()) => format!(
                    "consistent; not compared again: {} is kept but unreadable ({e})",
                    old.dataset_version
                ),
                _ => format!(
                    "consistent; not compared again: {} is not kept beside it",
                    old.dataset_version
                ),
            }
        }
        (Some(_), _) => "consistent (compared with itself)".to_string(),
        (None, Baseline::None) => "consistent (first build: nothing compared)".to_string(),
        (None, _) => "consistent (nothing compared: the version replaced was unreadable)".into(),
    };

    // One SHA-256 per day of the files (6 MB for 1583..2100), not the days themselves.
    let mut from_files: Vec<(kalendorius_dataset::Date, [u8; 32])> = Vec::new();
    dataset.read_days(|day| {
        if let Some(again) = again.as_mut() {
            again.push(&day);
        }
        from_files.push((day.date, day_digest(&day)));
    })?;
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
    if let Some(again) = again {
        match again.finish() {
            Ok(fresh) if fresh == recorded => {}
            Ok(fresh) => {
                return Err(bad_changes(format!(
                    "it differs from a new comparison with {}: recorded {}; found {}",
                    fresh.old.as_ref().map_or("", |o| &o.dataset_version),
                    diff::headline(&recorded),
                    diff::headline(&fresh)
                )))
            }
            Err(e) => changes_checked = format!("consistent; not compared again ({e})"),
        }
    }
    Ok(Verified {
        dataset_version: dataset.manifest.dataset_version,
        days: from_files.len() as u64,
        changes: changes_checked,
    })
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
    let this = DatasetRef {
        dataset_version: dataset_version.clone(),
        first_year,
        last_year,
    };
    let mut baseline = out.map(|(out, _)| BuildBaseline::of(out, &this));
    let already_in_service = matches!(baseline, Some(BuildBaseline::Rebuild(..)));

    // Days stream out of the computation; each year's file is assembled as soon as its
    // last day arrives, so only the finished files are held. Each day is compared with the
    // version in service as it passes.
    let school_holidays = sources.school_holidays.published();
    let mut year_files = output::YearFiles::new(&school_holidays.periods);
    let counts = calendar::compute(&sources, years, |day| {
        if out.is_some() {
            if let Some(BuildBaseline::Compare(lockstep)) = baseline.as_mut() {
                lockstep.push(&day);
            }
            year_files.push(day);
        }
    })?;
    let (dataset_dir, changes) = match (out, baseline) {
        (Some((out, keep)), Some(baseline)) => {
            let (changes, bytes) = baseline.finish(out, this);
            let dir = output::publish(
                out,
                &dataset_version,
                (first_year, last_year),
                year_files.finish(),
                output::OtherFiles {
                    school_holidays: &school_holidays,
                    changes: &bytes,
                },
                counts.clone(),
                keep,
            )?;
            (Some(dir), Some(changes))
        }
        _ => (None, None),
    };
    Ok(BuildSummary {
        dataset_version,
        dataset_dir,
        first_year,
        last_year,
        counts,
        changes,
        already_in_service,
        elapsed: started.elapsed(),
    })
}

/// Why a build compared nothing, naming paths relative to the output root: the note is
/// published, and where the output root lives is nobody's business.
fn unreadable_note(out: &Path, what: &str, error: &dyn std::fmt::Display) -> String {
    let mut note = format!(
        "the dataset in service ({what}) could not be read, so nothing was compared: {error}"
    );
    let roots = [std::fs::canonicalize(out).ok(), Some(out.to_path_buf())];
    for root in roots.into_iter().flatten() {
        note = note.replace(&format!("{}/", root.display()), "");
    }
    note
}

/// What a build compares its days with: the version in service (`out/current`) before it.
enum BuildBaseline {
    /// The version in service, read a year at a time as the new days reach it.
    Compare(Box<diff::Lockstep>),
    /// The same version is being rebuilt: its changes stay what they were (the bytes of its
    /// `changes.json`), so a rebuild gives the same files.
    Rebuild(Box<Changes>, Vec<u8>),
    /// Nothing compared: [`Baseline::None`] or [`Baseline::Unreadable`], and why.
    Nothing(Baseline, String),
}

impl BuildBaseline {
    fn of(out: &Path, this: &DatasetRef) -> BuildBaseline {
        let unreadable = |what: &str, e: &dyn std::fmt::Display| {
            BuildBaseline::Nothing(Baseline::Unreadable, unreadable_note(out, what, e))
        };
        let previous = match versions::current(out) {
            Ok(Some(previous)) => previous,
            Ok(None) => {
                return BuildBaseline::Nothing(
                    Baseline::None,
                    format!(
                        "nothing to compare with: no dataset was in service (no `{}` link in the output root)",
                        kalendorius_dataset::layout::CURRENT_LINK
                    ),
                )
            }
            Err(e) => return unreadable(kalendorius_dataset::layout::CURRENT_LINK, &e),
        };
        let dir = out.join(&previous);
        if previous == this.dataset_version {
            let recorded = std::fs::read(dir.join(CHANGES_FILE))
                .ok()
                .and_then(|bytes| {
                    let changes: Changes = serde_json::from_slice(&bytes).ok()?;
                    (changes.new == *this && changes.schema_version == SCHEMA_VERSION)
                        .then_some((changes, bytes))
                });
            if let Some((changes, bytes)) = recorded {
                return BuildBaseline::Rebuild(Box::new(changes), bytes);
            }
        }
        match open_days(&dir) {
            Ok(old) => BuildBaseline::Compare(Box::new(diff::Lockstep::new(&old, this.clone()))),
            Err(e) => unreadable(&previous, &e),
        }
    }

    /// The changes and the bytes of `changes.json`.
    fn finish(self, out: &Path, this: DatasetRef) -> (Changes, Vec<u8>) {
        let changes = match self {
            BuildBaseline::Rebuild(changes, bytes) => return (*changes, bytes),
            BuildBaseline::Compare(lockstep) => {
                let old = lockstep.old_version().to_string();
                lockstep.finish().unwrap_or_else(|e| {
                    Changes::uncompared(this, Baseline::Unreadable, unreadable_note(out, &old, &e))
                })
            }
            BuildBaseline::Nothing(baseline, note) => Changes::uncompared(this, baseline, note),
        };
        let mut bytes = serde_json::to_vec_pretty(&changes).expect("changes serialize");
        bytes.push(b'\n');
        (changes, bytes)
    }
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
