//! Opening a published dataset with every manifest check.
//!
//! A dataset is trusted only after: its manifest parses; its schema version is ours; every
//! year file of the range is listed and matches its size and SHA-256; and (when read) the
//! sled database matches its content digest and agrees with the manifest's versions. Every
//! day read is checked against the working-time rules ([`crate::working_time::Checker`]):
//! its `laisvadienis`, hours and shortened flags must be what its own flags give.

use std::fs;
use std::path::{Path, PathBuf};

use crate::database::read_database;
use crate::digest::sha256_hex;
use crate::layout::{year_file, CURRENT_LINK, DATABASE_DIR, MANIFEST_FILE};
use crate::working_time::Checker;
use crate::{Day, Manifest, YearFile, SCHEMA_VERSION};

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
    #[error("database {path} fails its manifest check: {reason}")]
    DatabaseMismatch {
        /// The database directory.
        path: PathBuf,
        /// What does not match.
        reason: String,
    },
}

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
/// `current` link names one. Checks the schema version and every listed file.
pub fn open_dataset(root: &Path) -> Result<DatasetDir, LoadError> {
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
    // Check the version before the shape: an older or newer manifest may not parse.
    #[derive(serde::Deserialize)]
    struct VersionOnly {
        schema_version: u32,
    }
    let version: VersionOnly =
        serde_json::from_slice(&bytes).map_err(|source| LoadError::BadManifest {
            path: manifest_path.clone(),
            source,
        })?;
    if version.schema_version != SCHEMA_VERSION {
        return Err(LoadError::SchemaVersion {
            path,
            found: version.schema_version,
            expected: SCHEMA_VERSION,
        });
    }
    let manifest: Manifest =
        serde_json::from_slice(&bytes).map_err(|source| LoadError::BadManifest {
            path: manifest_path,
            source,
        })?;
    verify_files(&path, &manifest)?;
    Ok(DatasetDir { path, manifest })
}

fn verify_files(dir: &Path, manifest: &Manifest) -> Result<(), LoadError> {
    let mismatch = |file: &str, reason: String| LoadError::FileMismatch {
        path: dir.join(file),
        reason,
    };
    if manifest.first_year > manifest.last_year
        || manifest.first_year < crate::FIRST_YEAR
        || manifest.last_year > crate::LAST_YEAR
    {
        return Err(mismatch(
            MANIFEST_FILE,
            format!(
                "year range {}..{} is not within {}..{}",
                manifest.first_year,
                manifest.last_year,
                crate::FIRST_YEAR,
                crate::LAST_YEAR
            ),
        ));
    }
    for year in manifest.first_year..=manifest.last_year {
        let name = year_file(year);
        if !manifest.files.iter().any(|f| f.path == name) {
            return Err(mismatch(&name, "not listed in the manifest".into()));
        }
    }
    for entry in &manifest.files {
        if entry.path.contains("..") || entry.path.starts_with('/') {
            return Err(mismatch(&entry.path, "path leaves the dataset".into()));
        }
        let path = dir.join(&entry.path);
        let bytes = fs::read(&path).map_err(|source| LoadError::Io {
            path: path.clone(),
            source,
        })?;
        if bytes.len() as u64 != entry.bytes {
            return Err(mismatch(
                &entry.path,
                format!("{} bytes, manifest says {}", bytes.len(), entry.bytes),
            ));
        }
        let sha = sha256_hex(&bytes);
        if sha != entry.sha256 {
            return Err(mismatch(
                &entry.path,
                format!("SHA-256 {sha}, manifest says {}", entry.sha256),
            ));
        }
    }
    Ok(())
}

impl DatasetDir {
    /// Streams every day of the dataset's range in date order from its year files, one year
    /// at a time. Guarantees the caller every day from Jan 1 of `first_year` to Dec 31 of
    /// `last_year`, each exactly once: a file of the wrong size, schema or year, or a day out
    /// of sequence or missing, is an error. The files' SHA-256 were checked by
    /// [`open_dataset`]; a dataset directory is written once and never modified, so they are
    /// not hashed a second time here.
    ///
    /// This is how the server loads a dataset: a year file is 130 KiB, whereas iterating the
    /// sled copy of the same bytes ([`DatasetDir::read_database`]) makes sled 0.34 hold
    /// 60-80 MB of resident memory whatever its `cache_capacity` (measured), more than the
    /// server's whole budget.
    pub fn read_days(&self, mut each_day: impl FnMut(Day)) -> Result<(), LoadError> {
        let manifest = &self.manifest;
        let mut previous: Option<crate::Date> = None;
        let mut checker = Checker::new();
        for year in manifest.first_year..=manifest.last_year {
            let name = year_file(year);
            let path = self.path.join(&name);
            let mismatch = |reason: String| LoadError::FileMismatch {
                path: path.clone(),
                reason,
            };
            let entry = manifest
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
            let file: YearFile =
                serde_json::from_slice(&bytes).map_err(|e| mismatch(e.to_string()))?;
            drop(bytes);
            if file.schema_version != manifest.schema_version || file.year != year {
                return Err(mismatch(format!(
                    "holds year {} of schema {}, expected year {year} of schema {}",
                    file.year, file.schema_version, manifest.schema_version
                )));
            }
            for day in file.days {
                let expected = match previous {
                    Some(prev) => prev.succ(),
                    None => crate::Date::from_ymd(year, 1, 1).ok(),
                };
                if Some(day.date) != expected || day.date.year() != year {
                    return Err(mismatch(format!(
                        "day {} out of sequence (expected {expected:?})",
                        day.date
                    )));
                }
                previous = Some(day.date);
                checker.push(&day).map_err(&mismatch)?;
                each_day(day);
            }
        }
        let last_file = self.path.join(year_file(manifest.last_year));
        let last = crate::Date::from_ymd(manifest.last_year, 12, 31).ok();
        if previous != last {
            return Err(LoadError::FileMismatch {
                path: last_file,
                reason: format!("the days end at {previous:?}, not at {last:?}"),
            });
        }
        checker.finish().map_err(|reason| LoadError::FileMismatch {
            path: last_file,
            reason,
        })
    }

    /// Streams every day of the dataset's sled database in date order and checks the
    /// database against the manifest (content digest, versions, and the day count of the
    /// range) and every day against the working-time rules ([`Checker`]). For tools and
    /// tests: see [`DatasetDir::read_days`] on memory.
    pub fn read_database(&self, mut each_day: impl FnMut(Day)) -> Result<(), LoadError> {
        let db_dir = self.path.join(if self.manifest.database.path.is_empty() {
            DATABASE_DIR
        } else {
            &self.manifest.database.path
        });
        let mut count = 0u64;
        let mut first = None;
        let mut checker = Checker::new();
        let mut broken = None;
        let meta = read_database(&db_dir, &self.manifest.database, |day| {
            count += 1;
            first.get_or_insert(day.date);
            if broken.is_none() {
                broken = checker.push(&day).err();
            }
            each_day(day)
        })?;
        let mismatch = |reason: String| LoadError::DatabaseMismatch {
            path: db_dir.clone(),
            reason,
        };
        if let Some(reason) = broken.map_or_else(|| checker.finish().err(), Some) {
            return Err(mismatch(reason));
        }
        if meta.schema_version != self.manifest.schema_version
            || meta.dataset_version != self.manifest.dataset_version
        {
            return Err(mismatch(format!(
                "database is {} (schema {}), manifest is {} (schema {})",
                meta.dataset_version,
                meta.schema_version,
                self.manifest.dataset_version,
                self.manifest.schema_version
            )));
        }
        let expected_first = format!("{}-01-01", self.manifest.first_year);
        if count != self.manifest.counts.days
            || first.map(|d| d.to_string()) != Some(expected_first.clone())
        {
            return Err(mismatch(format!(
                "{count} days from {first:?}, manifest says {} from {expected_first}",
                self.manifest.counts.days
            )));
        }
        Ok(())
    }
}
