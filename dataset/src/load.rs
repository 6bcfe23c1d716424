//! Opening a published dataset with every manifest check.
//!
//! A dataset is trusted only after: its manifest parses; its schema version is ours; every
//! year file of the range is listed (and, when the files are read, matches its size and
//! SHA-256); and, when the database is read, each of its year values matches its size and
//! SHA-256, the database matches its content digest and agrees with the manifest's
//! versions. Every day read, from either form, is checked for sequence and against the
//! working-time rules ([`crate::working_time::Checker`]): its `laisvadienis`, hours and
//! shortened flags must be what its own flags give.
//!
//! The server opens a dataset with [`open_manifest`] and loads the database
//! ([`DatasetDir::read_database`]), so it needs no year file; [`open_dataset`] also checks
//! every year file and `changes.json`, for tools that read or publish them. [`open_days`]
//! reads only the days, of any schema version whose days have this one's shape, to compare
//! two datasets ([`crate::changes`]).

use std::fs;
use std::path::{Path, PathBuf};

use crate::database::read_database;
use crate::digest::sha256_hex;
use crate::layout::{
    year_file, CHANGES_FILE, CURRENT_LINK, DATABASE_DIR, MANIFEST_FILE, PLACES_FILE,
    SCHOOL_HOLIDAYS_FILE,
};
use crate::working_time::Checker;
use crate::{
    DatasetRef, Day, FileEntry, Manifest, PlacesFile, SchoolHolidaysFile, YearFile,
    DAYS_SHAPE_SINCE, SCHEMA_VERSION,
};

/// Why a dataset cannot be used. Every variant names the path concerned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// Neither `DIR/manifest.json` nor `DIR/current/manifest.json` exists.
    #[error("no dataset at {path} (no {MANIFEST_FILE}, no {CURRENT_LINK}/{MANIFEST_FILE}); build one with `kalendorius-generator build`")]
    NotFound {
        /// The directory looked in.
        path: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The manifest is not valid JSON of the expected shape.
    #[error("invalid manifest {path}: {source}")]
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// The dataset was written with another schema version.
    #[error("dataset at {path} has schema version {found}, this program reads version {expected}; rebuild it with a matching generator")]
    SchemaVersion {
        /// The dataset directory.
        path: PathBuf,
        /// Version in the manifest.
        found: u32,
        /// [`SCHEMA_VERSION`].
        expected: u32,
    },
    /// A file is missing from the manifest or does not match its entry.
    #[error("dataset file {path} fails its manifest check: {reason}")]
    FileMismatch {
        /// The file.
        path: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// sled could not open or read the database.
    #[error("cannot read database {path}: {source}")]
    Database {
        /// The database directory.
        path: PathBuf,
        /// The cause.
        source: sled::Error,
    },
    /// The database's content disagrees with the manifest.
    #[error("database {path} fails its manifest check: {reason}; {REGENERATE}")]
    DatabaseMismatch {
        /// The database directory.
        path: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// One year's value in the database is damaged, altered or missing.
    #[error("database {path}, year {year}: {reason}; {REGENERATE}")]
    DatabaseValue {
        /// The database directory.
        path: PathBuf,
        /// The year whose value fails.
        year: i32,
        /// What does not match.
        reason: String,
    },
}

/// How to mend a database that fails its checks: it is derived data, so build it again.
const REGENERATE: &str = "the database was damaged or changed after it was built: rebuild \
     the dataset with `kalendorius-generator build` (or go back to a kept version with \
     `kalendorius-generator rollback`)";

/// A dataset directory whose manifest and files have been checked.
#[derive(Debug, Clone)]
pub struct DatasetDir {
    /// Canonical path of the dataset directory (symlinks resolved, so a concurrent swap of
    /// `current` cannot mix two datasets in one load).
    pub path: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
}

/// Opens the dataset at `root`: either a dataset directory itself, or an output root whose
/// `current` link names one. Checks the schema version, the manifest and every listed file.
pub fn open_dataset(root: &Path) -> Result<DatasetDir, LoadError> {
    let dataset = open_manifest(root)?;
    verify_files(&dataset.path, &dataset.manifest)?;
    Ok(dataset)
}

/// Opens the dataset at `root` as [`open_dataset`] does, checking the manifest (schema
/// version, year range, every year listed) but reading no year file: for a reader of the
/// database, which checks each value it reads ([`DatasetDir::read_database`]).
pub fn open_manifest(root: &Path) -> Result<DatasetDir, LoadError> {
    let (path, bytes) = read_manifest(root)?;
    let manifest_path = path.join(MANIFEST_FILE);
    // Check the version before the shape: an older or newer manifest may not parse.
    let version = schema_version_of(&manifest_path, &bytes)?;
    if version != SCHEMA_VERSION {
        return Err(LoadError::SchemaVersion {
            path,
            found: version,
            expected: SCHEMA_VERSION,
        });
    }
    let manifest: Manifest =
        serde_json::from_slice(&bytes).map_err(|source| LoadError::BadManifest {
            path: manifest_path,
            source,
        })?;
    verify_listing(
        &path,
        manifest.first_year,
        manifest.last_year,
        &manifest.files,
    )?;
    for required in [PLACES_FILE, SCHOOL_HOLIDAYS_FILE] {
        if !manifest.files.iter().any(|f| f.path == required) {
            return Err(LoadError::FileMismatch {
                path: path.join(required),
                reason: "not listed in the manifest".into(),
            });
        }
    }
    Ok(DatasetDir { path, manifest })
}

/// Opens the dataset at `root` (a dataset directory, or an output root whose `current` link
/// names one) for its days only, accepting every schema version from [`DAYS_SHAPE_SINCE`]
/// to [`SCHEMA_VERSION`]: the days of those versions have one shape, only their manifests
/// differ. Checks the year range and that every year file is listed; each year file is
/// checked against its size and SHA-256 as it is read ([`DaysDir::years`]). For comparing
/// datasets (`kalendorius-generator diff`, and a build against the version it replaces).
pub fn open_days(root: &Path) -> Result<DaysDir, LoadError> {
    let (path, bytes) = read_manifest(root)?;
    let manifest_path = path.join(MANIFEST_FILE);
    let version = schema_version_of(&manifest_path, &bytes)?;
    if !(DAYS_SHAPE_SINCE..=SCHEMA_VERSION).contains(&version) {
        return Err(LoadError::SchemaVersion {
            path,
            found: version,
            expected: SCHEMA_VERSION,
        });
    }
    // Only the fields every version since DAYS_SHAPE_SINCE has; the others are ignored.
    #[derive(serde::Deserialize)]
    struct Listing {
        dataset_version: String,
        first_year: i32,
        last_year: i32,
        files: Vec<FileEntry>,
    }
    let listing: Listing =
        serde_json::from_slice(&bytes).map_err(|source| LoadError::BadManifest {
            path: manifest_path,
            source,
        })?;
    verify_listing(&path, listing.first_year, listing.last_year, &listing.files)?;
    Ok(DaysDir {
        path,
        schema_version: version,
        dataset_version: listing.dataset_version,
        first_year: listing.first_year,
        last_year: listing.last_year,
        files: listing.files,
        hash: true,
        rules: false,
    })
}

/// The canonical dataset directory at `root` (itself, or its `current`) and its manifest's
/// bytes.
fn read_manifest(root: &Path) -> Result<(PathBuf, Vec<u8>), LoadError> {
    let dir = if root.join(MANIFEST_FILE).is_file() {
        root.to_path_buf()
    } else if root.join(CURRENT_LINK).join(MANIFEST_FILE).is_file() {
        root.join(CURRENT_LINK)
    } else {
        return Err(LoadError::NotFound {
            path: root.to_path_buf(),
        });
    };
    let path = fs::canonicalize(&dir).map_err(|source| LoadError::Io {
        path: dir.clone(),
        source,
    })?;
    let manifest_path = path.join(MANIFEST_FILE);
    let bytes = fs::read(&manifest_path).map_err(|source| LoadError::Io {
        path: manifest_path.clone(),
        source,
    })?;
    Ok((path, bytes))
}

/// The `schema_version` of a manifest, whatever the rest of its shape.
fn schema_version_of(manifest_path: &Path, bytes: &[u8]) -> Result<u32, LoadError> {
    #[derive(serde::Deserialize)]
    struct VersionOnly {
        schema_version: u32,
    }
    serde_json::from_slice::<VersionOnly>(bytes)
        .map(|v| v.schema_version)
        .map_err(|source| LoadError::BadManifest {
            path: manifest_path.to_path_buf(),
            source,
        })
}

/// The manifest's year range is served and lists a file for each year.
fn verify_listing(
    dir: &Path,
    first_year: i32,
    last_year: i32,
    files: &[FileEntry],
) -> Result<(), LoadError> {
    let mismatch = |file: &str, reason: String| LoadError::FileMismatch {
        path: dir.join(file),
        reason,
    };
    if first_year > last_year || first_year < crate::FIRST_YEAR || last_year > crate::LAST_YEAR {
        return Err(mismatch(
            MANIFEST_FILE,
            format!(
                "year range {first_year}..{last_year} is not within {}..{}",
                crate::FIRST_YEAR,
                crate::LAST_YEAR
            ),
        ));
    }
    for year in first_year..=last_year {
        let name = year_file(year);
        if !files.iter().any(|f| f.path == name) {
            return Err(mismatch(&name, "not listed in the manifest".into()));
        }
    }
    Ok(())
}

/// Every listed file (the year files and `changes.json`) matches its size and SHA-256.
fn verify_files(dir: &Path, manifest: &Manifest) -> Result<(), LoadError> {
    let mismatch = |file: &str, reason: String| LoadError::FileMismatch {
        path: dir.join(file),
        reason,
    };
    if manifest.changes.path != CHANGES_FILE {
        return Err(mismatch(
            MANIFEST_FILE,
            format!(
                "the changes entry names {}, not {CHANGES_FILE}",
                manifest.changes.path
            ),
        ));
    }
    for entry in manifest.files.iter().chain([&manifest.changes]) {
        if entry.path.contains("..") || entry.path.starts_with('/') {
            return Err(mismatch(&entry.path, "path leaves the dataset".into()));
        }
        read_checked(dir, entry)?;
    }
    Ok(())
}

/// The bytes of the file of `entry`, which must match its size and SHA-256.
fn read_checked(dir: &Path, entry: &FileEntry) -> Result<Vec<u8>, LoadError> {
    let path = dir.join(&entry.path);
    let bytes = fs::read(&path).map_err(|source| LoadError::Io {
        path: path.clone(),
        source,
    })?;
    let reason = if bytes.len() as u64 != entry.bytes {
        format!("{} bytes, manifest says {}", bytes.len(), entry.bytes)
    } else {
        let sha = sha256_hex(&bytes);
        if sha == entry.sha256 {
            return Ok(bytes);
        }
        format!("SHA-256 {sha}, manifest says {}", entry.sha256)
    };
    Err(LoadError::FileMismatch { path, reason })
}

impl DatasetDir {
    /// Streams every day of the dataset's range in date order from its year files, one year
    /// at a time. Guarantees the caller every day from Jan 1 of `first_year` to Dec 31 of
    /// `last_year`, each exactly once: a file of the wrong size, schema or year, or a day out
    /// of sequence or missing, is an error. The files' SHA-256 were checked by
    /// [`open_dataset`]; a dataset directory is written once and never modified, so they are
    /// not hashed a second time here.
    ///
    /// For tools and tests that read the published form; the server reads the database
    /// ([`DatasetDir::read_database`]).
    pub fn read_days(&self, mut each_day: impl FnMut(Day)) -> Result<(), LoadError> {
        let days = self.days();
        for file in days.years() {
            file?.days.into_iter().for_each(&mut each_day);
        }
        Ok(())
    }

    /// The days of this dataset as [`open_days`] gives them, without hashing the year files
    /// a second time ([`open_dataset`] did).
    pub fn days(&self) -> DaysDir {
        let manifest = &self.manifest;
        DaysDir {
            path: self.path.clone(),
            schema_version: manifest.schema_version,
            dataset_version: manifest.dataset_version.clone(),
            first_year: manifest.first_year,
            last_year: manifest.last_year,
            files: manifest.files.clone(),
            hash: false,
            rules: true,
        }
    }

    /// Reads `school_holidays.json` (the pupils' holidays), checked like every file of the
    /// dataset: its size and SHA-256 against its manifest entry, then its shape and
    /// [`SchoolHolidaysFile::check`]. The server reads it beside the database, at start and
    /// on every reload.
    pub fn read_school_holidays(&self) -> Result<SchoolHolidaysFile, LoadError> {
        self.read_listed(SCHOOL_HOLIDAYS_FILE, SchoolHolidaysFile::check)
    }

    /// Reads `places.json` (the places whose sun is computed), checked like
    /// `school_holidays.json` ([`PlacesFile::check`]).
    pub fn read_places(&self) -> Result<PlacesFile, LoadError> {
        self.read_listed(PLACES_FILE, PlacesFile::check)
    }

    /// Reads the listed JSON file `name`: its size and SHA-256 against its manifest entry,
    /// then its shape and `check`.
    fn read_listed<T: serde::de::DeserializeOwned>(
        &self,
        name: &str,
        check: impl FnOnce(&T) -> Result<(), String>,
    ) -> Result<T, LoadError> {
        let path = self.path.join(name);
        let mismatch = |reason: String| LoadError::FileMismatch {
            path: path.clone(),
            reason,
        };
        let entry = self
            .manifest
            .files
            .iter()
            .find(|f| f.path == name)
            .ok_or_else(|| mismatch("not listed in the manifest".into()))?;
        let bytes = read_checked(&self.path, entry)?;
        let file: T = serde_json::from_slice(&bytes).map_err(|e| mismatch(e.to_string()))?;
        check(&file).map_err(mismatch)?;
        Ok(file)
    }

    /// Streams every day of the dataset's range in date order from its sled database, with
    /// the same guarantees as [`DatasetDir::read_days`]: every value's size and SHA-256 are
    /// checked against the manifest before it is decoded, then the database's content
    /// digest and versions, and every day's sequence and working time ([`Checker`]). Needs
    /// no year file. This is how the server loads a dataset.
    pub fn read_database(&self, mut each_day: impl FnMut(Day)) -> Result<(), LoadError> {
        let manifest = &self.manifest;
        let db_dir = self.path.join(if manifest.database.path.is_empty() {
            DATABASE_DIR
        } else {
            &manifest.database.path
        });
        if manifest.database.path.contains("..") || manifest.database.path.starts_with('/') {
            return Err(LoadError::FileMismatch {
                path: self.path.join(MANIFEST_FILE),
                reason: "the database path leaves the dataset".into(),
            });
        }
        let mut sequence = DaySequence::new(manifest.first_year);
        let mut expected_year = manifest.first_year;
        let meta = read_database(&db_dir, &manifest.database, |file| {
            let year = file.year;
            let year_err = |reason: String| LoadError::DatabaseValue {
                path: db_dir.clone(),
                year,
                reason,
            };
            if year != expected_year {
                return Err(year_err(format!(
                    "found where the range {}..{} needs year {expected_year}",
                    manifest.first_year, manifest.last_year
                )));
            }
            expected_year += 1;
            sequence
                .year(&file, manifest.schema_version, year)
                .map_err(year_err)?;
            file.days.into_iter().for_each(&mut each_day);
            Ok(())
        })?;
        let mismatch = |reason: String| LoadError::DatabaseMismatch {
            path: db_dir.clone(),
            reason,
        };
        sequence.finish(manifest.last_year).map_err(mismatch)?;
        if meta.schema_version != manifest.schema_version
            || meta.dataset_version != manifest.dataset_version
        {
            return Err(mismatch(format!(
                "database is {} (schema {}), manifest is {} (schema {})",
                meta.dataset_version,
                meta.schema_version,
                manifest.dataset_version,
                manifest.schema_version
            )));
        }
        Ok(())
    }
}

/// A dataset opened for its days ([`open_days`], [`DatasetDir::days`]).
#[derive(Debug, Clone)]
pub struct DaysDir {
    /// Canonical path of the dataset directory.
    pub path: PathBuf,
    /// Its manifest's schema version (from [`DAYS_SHAPE_SINCE`] to [`SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// Its dataset version.
    pub dataset_version: String,
    /// First year covered.
    pub first_year: i32,
    /// Last year covered.
    pub last_year: i32,
    /// The year files as the manifest lists them.
    files: Vec<FileEntry>,
    /// Whether [`DaysDir::years`] hashes each file (not when [`open_dataset`] already did).
    hash: bool,
    /// Whether [`DaysDir::years`] checks the days by this program's working-time rules:
    /// not for a dataset opened only to be compared ([`open_days`]), which an older
    /// program wrote by the rules of its time (a rule changed is what a comparison shows).
    rules: bool,
}

impl DaysDir {
    /// The dataset's version and years, as a [`crate::Changes`] names it.
    pub fn reference(&self) -> DatasetRef {
        DatasetRef {
            dataset_version: self.dataset_version.clone(),
            first_year: self.first_year,
            last_year: self.last_year,
        }
    }

    /// Every year file of the range in year order, one at a time, each checked: its size
    /// and SHA-256 against the manifest, its schema and year, its days in sequence from
    /// January 1 of the first year and (for a dataset of this schema, not one opened by
    /// [`open_days`]) by the working-time rules. After the last year, the check that the
    /// days end on December 31. The first error ends the iteration.
    pub fn years(&self) -> YearFiles {
        let mut sequence = DaySequence::new(self.first_year);
        if !self.rules {
            sequence.checker = None;
        }
        YearFiles {
            dir: self.clone(),
            next_year: self.first_year,
            sequence: Some(sequence),
        }
    }

    fn read_year(&self, year: i32, sequence: &mut DaySequence) -> Result<YearFile, LoadError> {
        let name = year_file(year);
        let path = self.path.join(&name);
        let mismatch = |reason: String| LoadError::FileMismatch {
            path: path.clone(),
            reason,
        };
        let entry = self
            .files
            .iter()
            .find(|f| f.path == name)
            .ok_or_else(|| mismatch("not listed in the manifest".into()))?;
        let bytes = fs::read(&path).map_err(|source| LoadError::Io {
            path: path.clone(),
            source,
        })?;
        if bytes.len() as u64 != entry.bytes {
            return Err(mismatch(format!(
                "{} bytes, manifest says {}",
                bytes.len(),
                entry.bytes
            )));
        }
        if self.hash {
            let sha = sha256_hex(&bytes);
            if sha != entry.sha256 {
                return Err(mismatch(format!(
                    "SHA-256 {sha}, manifest says {}",
                    entry.sha256
                )));
            }
        }
        let file: YearFile = serde_json::from_slice(&bytes).map_err(|e| mismatch(e.to_string()))?;
        drop(bytes);
        sequence
            .year(&file, self.schema_version, year)
            .map_err(mismatch)?;
        Ok(file)
    }
}

/// The year files of a dataset, checked one by one ([`DaysDir::years`]).
pub struct YearFiles {
    dir: DaysDir,
    next_year: i32,
    /// `None` once finished or failed.
    sequence: Option<DaySequence>,
}

impl Iterator for YearFiles {
    type Item = Result<YearFile, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        let dir = &self.dir;
        if self.next_year > dir.last_year {
            let sequence = self.sequence.take()?;
            return sequence.finish(dir.last_year).err().map(|reason| {
                Err(LoadError::FileMismatch {
                    path: dir.path.join(year_file(dir.last_year)),
                    reason,
                })
            });
        }
        let sequence = self.sequence.as_mut()?;
        let year = self.next_year;
        self.next_year += 1;
        let file = dir.read_year(year, sequence);
        if file.is_err() {
            self.sequence = None;
        }
        Some(file)
    }
}

/// The checks every day read goes through, from the files or the database: each year of
/// the right schema, days in sequence from January 1 of the first year, working time by
/// the rules.
struct DaySequence {
    previous: Option<crate::Date>,
    first_year: i32,
    /// `None`: the working-time rules are not checked ([`DaysDir::years`]).
    checker: Option<Checker>,
}

impl DaySequence {
    fn new(first_year: i32) -> Self {
        DaySequence {
            previous: None,
            first_year,
            checker: Some(Checker::new()),
        }
    }

    /// Checks the days of `file`, which must be `year` of schema `schema_version`.
    fn year(&mut self, file: &YearFile, schema_version: u32, year: i32) -> Result<(), String> {
        if file.schema_version != schema_version || file.year != year {
            return Err(format!(
                "holds year {} of schema {}, expected year {year} of schema {schema_version}",
                file.year, file.schema_version
            ));
        }
        for day in &file.days {
            let expected = match self.previous {
                Some(prev) => prev.succ(),
                None => crate::Date::from_ymd(self.first_year, 1, 1).ok(),
            };
            if Some(day.date) != expected || day.date.year() != year {
                return Err(format!(
                    "day {} out of sequence (expected {expected:?})",
                    day.date
                ));
            }
            self.previous = Some(day.date);
            if let Some(checker) = &mut self.checker {
                checker.push(day)?;
            }
        }
        Ok(())
    }

    /// Checks that the days ended on December 31 of `last_year`.
    fn finish(self, last_year: i32) -> Result<(), String> {
        let last = crate::Date::from_ymd(last_year, 12, 31).ok();
        if self.previous != last {
            return Err(format!(
                "the days end at {:?}, not at {last:?}",
                self.previous
            ));
        }
        self.checker.map_or(Ok(()), Checker::finish)
    }
}
