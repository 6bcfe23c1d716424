//! The sled database: one compact value per year that decodes to exactly the days of the
//! year files, each value checksummed in the manifest, and smaller than the JSON it mirrors.

use std::fs;
use std::path::{Path, PathBuf};

use kalendorius_dataset::database::write_database;
use kalendorius_dataset::encoding::Encoder;
use kalendorius_dataset::layout::{year_key, DATABASE_DIR, MANIFEST_FILE, TREE_YEARS, YEARS_DIR};
use kalendorius_dataset::{open_dataset, Day, Gender, Manifest, YearFile};
use kalendorius_generator::verify;

use crate::helpers::{build_into, fixture_sources};

/// Bytes of the files under `dir`.
fn size_of(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                size_of(&entry.path())
            } else {
                entry.metadata().unwrap().len()
            }
        })
        .sum()
}

/// The dataset directory `current` names in `out`.
fn dataset_dir(out: &Path) -> PathBuf {
    fs::canonicalize(out.join("current")).unwrap()
}

#[test]
fn the_database_decodes_to_exactly_the_days_of_the_year_files() {
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), Some((1990, 2030))).unwrap();
    let dataset = open_dataset(out.path()).unwrap();
    let (mut from_files, mut from_database) = (Vec::new(), Vec::new());
    dataset.read_days(|day| from_files.push(day)).unwrap();
    dataset
        .read_database(|day| from_database.push(day))
        .unwrap();
    assert_eq!(from_files.len(), 14_975);
    assert!(from_files == from_database, "the two forms differ");
    // One checksummed value per year.
    let years: Vec<i32> = dataset
        .manifest
        .database
        .values
        .iter()
        .map(|v| v.year)
        .collect();
    assert_eq!(years, (1990..=2030).collect::<Vec<_>>());
}

#[test]
fn the_database_of_the_whole_range_is_smaller_than_its_json_and_verifies() {
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), None).unwrap();
    let dir = dataset_dir(out.path());
    let (json, db) = (
        size_of(&dir.join(YEARS_DIR)),
        size_of(&dir.join(DATABASE_DIR)),
    );
    assert!(db <= json, "database {db} bytes, year files {json} bytes");
    let days = verify(out.path()).unwrap().days;
    assert_eq!(days, 189_196);
}

#[test]
fn verify_refuses_a_tampered_database_value_naming_the_year() {
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), Some((2024, 2025))).unwrap();
    let db = sled::open(dataset_dir(out.path()).join(DATABASE_DIR)).unwrap();
    let tree = db.open_tree(TREE_YEARS).unwrap();
    let mut value = tree.get(year_key(2025)).unwrap().unwrap().to_vec();
    value[10] ^= 1;
    tree.insert(year_key(2025), value).unwrap();
    db.flush().unwrap();
    drop((tree, db));
    let err = verify(out.path()).unwrap_err().to_string();
    assert!(
        err.contains("kalendorius.sled")
            && err.contains("year 2025")
            && err.contains("SHA-256")
            && err.contains("kalendorius-generator build"),
        "{err}"
    );
}

#[test]
fn verify_refuses_a_database_that_disagrees_with_the_year_files() {
    // A database rebuilt with one changed day and a manifest that agrees with it: every
    // checksum passes, only the comparison with the year files can catch it.
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), Some((2024, 2025))).unwrap();
    let dir = dataset_dir(out.path());
    let dataset = open_dataset(&dir).unwrap();
    let mut days: Vec<Day> = Vec::new();
    dataset.read_database(|day| days.push(day)).unwrap();
    let changed = days
        .iter_mut()
        .find(|d| d.date.year() == 2025 && !d.name_days.is_empty())
        .unwrap();
    let changed_date = changed.date;
    let name = &mut changed.name_days[0];
    name.gender = match name.gender {
        Gender::Male => Gender::Female,
        Gender::Female => Gender::Male,
    };

    let mut encoder = Encoder::new();
    let values: Vec<(i32, Vec<u8>)> = [2024, 2025]
        .into_iter()
        .map(|year| {
            let file = YearFile {
                schema_version: dataset.manifest.schema_version,
                year,
                days: days
                    .iter()
                    .filter(|d| d.date.year() == year)
                    .cloned()
                    .collect(),
            };
            (year, encoder.year(&file))
        })
        .collect();
    let db_dir = dir.join(DATABASE_DIR);
    fs::remove_dir_all(&db_dir).unwrap();
    let mut entry = write_database(
        &db_dir,
        &dataset.manifest.dataset_version,
        &encoder.string_table(),
        &values,
    )
    .unwrap();
    entry.path = DATABASE_DIR.to_string();
    let manifest = Manifest {
        database: entry,
        ..dataset.manifest.clone()
    };
    fs::write(
        dir.join(MANIFEST_FILE),
        serde_json::to_vec_pretty(&manifest).unwrap(),
    )
    .unwrap();

    let reread = open_dataset(&dir).unwrap();
    reread.read_database(|_| ()).unwrap();
    let err = verify(out.path()).unwrap_err().to_string();
    assert!(
        err.contains(&format!("differ on {changed_date}"))
            && err.contains("kalendorius-generator build"),
        "{err}"
    );
}
