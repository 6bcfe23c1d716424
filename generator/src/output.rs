//! Writing a dataset: build everything in a temporary directory inside the output root,
//! then publish it with two renames, so a failed or interrupted build leaves the previous
//! dataset exactly as it was. Which older versions stay afterwards is decided in
//! [`crate::versions`].

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use kalendorius_dataset::database::write_database;
use kalendorius_dataset::digest::sha256_hex;
use kalendorius_dataset::encoding::Encoder;
use kalendorius_dataset::layout::{
    year_file, year_file_bytes, CHANGES_FILE, DATABASE_DIR, MANIFEST_FILE, PLACES_FILE,
    SCHOOL_HOLIDAYS_FILE, YEARS_DIR,
};
use kalendorius_dataset::{
    Counts, Date, Day, FileEntry, Manifest, PlacesFile, SchoolHoliday, SchoolHolidaysFile,
    YearFile, SCHEMA_VERSION,
};

use crate::error::BuildError;
use crate::versions;

/// One year of the dataset in both its forms.
pub struct YearOutput {
    /// The year.
    pub year: i32,
    /// The bytes of `years/YYYY.json`, the published form.
    pub json: Vec<u8>,
    /// The year's value in the sled database ([`Encoder::year`]), the form the server loads.
    pub value: Vec<u8>,
}

/// Every year in both forms, and the string table the encoded years refer to.
pub struct Years {
    /// In year order.
    pub years: Vec<YearOutput>,
    /// [`Encoder::string_table`].
    pub strings: Vec<u8>,
}

/// Year files assembled from days fed in date order.
#[derive(Default)]
pub struct YearFiles {
    /// Finished years, in year order.
    done: Vec<YearOutput>,
    /// Encodes the years, collecting their strings.
    encoder: Encoder,
    /// The year being filled: its days and their JSON.
    open: Option<(i32, Vec<Day>, Vec<Vec<u8>>)>,
    /// The pupils' holidays; each year file carries those overlapping its year.
    school_holidays: Vec<SchoolHoliday>,
}

impl YearFiles {
    /// Year files whose `school_holidays` are taken from `periods`.
    pub fn new(periods: &[SchoolHoliday]) -> Self {
        YearFiles {
            school_holidays: periods.to_vec(),
            ..YearFiles::default()
        }
    }

    /// Adds the next day (dates must come in order).
    pub fn push(&mut self, day: Day) {
        let year = day.date.year();
        if self.open.as_ref().is_some_and(|(y, _, _)| *y != year) {
            self.close();
        }
        let json = serde_json::to_vec(&day).expect("a day serializes");
        let (_, days, jsons) = self
            .open
            .get_or_insert_with(|| (year, Vec::with_capacity(366), Vec::with_capacity(366)));
        days.push(day);
        jsons.push(json);
    }

    fn close(&mut self) {
        if let Some((year, days, jsons)) = self.open.take() {
            let of_year: Vec<&SchoolHoliday> =
                match (Date::from_ymd(year, 1, 1), Date::from_ymd(year, 12, 31)) {
                    (Ok(first), Ok(last)) => self
                        .school_holidays
                        .iter()
                        .filter(|p| p.overlaps(first, last))
                        .collect(),
                    _ => Vec::new(),
                };
            let school = serde_json::to_vec(&of_year).expect("periods serialize");
            let json = year_file_bytes(year, &school, jsons.iter().map(Vec::as_slice));
            let value = self.encoder.year(&YearFile {
                schema_version: SCHEMA_VERSION,
                year,
                days,
            });
            self.done.push(YearOutput { year, json, value });
        }
    }

    /// Every year in both forms, in year order, with the string table.
    pub fn finish(mut self) -> Years {
        self.close();
        Years {
            strings: self.encoder.string_table(),
            years: self.done,
        }
    }
}

/// The files of a dataset beside its years and its database.
pub struct OtherFiles<'a> {
    /// What `places.json` holds.
    pub places: &'a PlacesFile,
    /// What `school_holidays.json` holds.
    pub school_holidays: &'a SchoolHolidaysFile,
    /// The bytes of `changes.json`.
    pub changes: &'a [u8],
}

/// Writes the dataset, with `other` beside its years, and makes `out/current` point
/// to it, then keeps `keep` previous versions and removes older ones ([`versions::prune`]).
/// Returns its directory.
pub fn publish(
    out: &Path,
    dataset_version: &str,
    years: (i32, i32),
    years_out: Years,
    other: OtherFiles,
    counts: Counts,
    keep: usize,
) -> Result<PathBuf, BuildError> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source: io::Error| BuildError::Write { path, source }
    };
    fs::create_dir_all(out).map_err(write_err(out))?;
    let staging = tempfile::Builder::new()
        .prefix(".build-")
        .tempdir_in(out)
        .map_err(write_err(out))?;
    let dir = staging.path();

    // The places and the pupils' holidays, first in path order.
    let mut files = Vec::new();
    let OtherFiles {
        places,
        school_holidays,
        changes,
    } = other;
    for (name, mut bytes) in [
        (PLACES_FILE, serde_json::to_vec_pretty(places)),
        (
            SCHOOL_HOLIDAYS_FILE,
            serde_json::to_vec_pretty(school_holidays),
        ),
    ] {
        let bytes = bytes.as_mut().expect("the files serialize");
        bytes.push(b'\n');
        let path = dir.join(name);
        fs::write(&path, &*bytes).map_err(write_err(&path))?;
        files.push(FileEntry {
            path: name.to_string(),
            bytes: bytes.len() as u64,
            sha256: sha256_hex(bytes),
        });
    }

    // Year files.
    let years_dir = dir.join(YEARS_DIR);
    fs::create_dir(&years_dir).map_err(write_err(&years_dir))?;
    let Years {
        years: outputs,
        strings,
    } = years_out;
    let mut values = Vec::with_capacity(outputs.len());
    for YearOutput { year, json, value } in outputs {
        let relative = year_file(year);
        let path = dir.join(&relative);
        fs::write(&path, &json).map_err(write_err(&path))?;
        files.push(FileEntry {
            path: relative,
            bytes: json.len() as u64,
            sha256: sha256_hex(&json),
        });
        values.push((year, value));
    }
    debug_assert_eq!(files.len() as i32, years.1 - years.0 + 3);

    // Database.
    let db_dir = dir.join(DATABASE_DIR);
    let mut database =
        write_database(&db_dir, dataset_version, &strings, &values).map_err(|source| {
            BuildError::Database {
                path: db_dir.clone(),
                source,
            }
        })?;
    database.path = DATABASE_DIR.to_string();

    // What this version changes against the one it replaces.
    let changes_path = dir.join(CHANGES_FILE);
    fs::write(&changes_path, changes).map_err(write_err(&changes_path))?;
    let changes = FileEntry {
        path: CHANGES_FILE.to_string(),
        bytes: changes.len() as u64,
        sha256: sha256_hex(changes),
    };

    // Manifest last: a directory with a manifest is complete.
    let manifest = Manifest {
        schema_version: SCHEMA_VERSION,
        dataset_version: dataset_version.to_string(),
        first_year: years.0,
        last_year: years.1,
        files,
        changes,
        database,
        counts,
    };
    let mut bytes = serde_json::to_vec_pretty(&manifest).expect("manifest serializes");
    bytes.push(b'\n');
    let manifest_path = dir.join(MANIFEST_FILE);
    fs::write(&manifest_path, bytes).map_err(write_err(&manifest_path))?;

    // Publish: move the staging directory to its versioned name, then swap the link.
    let final_dir = out.join(dataset_version);
    if final_dir.exists() {
        // Same sources rebuilt: replace it. The link still points to it by name, so move it
        // aside first; between the two renames `current` dangles for an instant only when it
        // named this very version, and readers retry the manifest.
        let aside = out.join(format!(".old-{dataset_version}-{}", std::process::id()));
        fs::rename(&final_dir, &aside).map_err(write_err(&final_dir))?;
        fs::rename(staging.keep(), &final_dir).map_err(write_err(&final_dir))?;
        let _ = fs::remove_dir_all(&aside);
    } else {
        fs::rename(staging.keep(), &final_dir).map_err(write_err(&final_dir))?;
    }
    // Build order only guides rollback's default (which names what it picks): not worth
    // failing a build that is already published.
    let _ = versions::stamp_newest(out, dataset_version);
    let previous = versions::current(out).ok().flatten();
    versions::point_current(out, dataset_version)
        .map_err(|(path, source)| BuildError::Write { path, source })?;
    versions::prune(out, keep, previous.as_deref());
    Ok(final_dir)
}
