//! The same sources give byte-identical JSON and manifest; the database agrees by content.

use std::fs;

use kalendorius_dataset::open_dataset;

use crate::helpers::{build_into, copy_tree, fixture_sources, rewrite_manifest, snapshot};

#[test]
fn two_builds_give_identical_json_and_manifest() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    build_into(&fixture_sources(), a.path(), None).unwrap();
    build_into(&fixture_sources(), b.path(), None).unwrap();
    let keep = |s: std::collections::BTreeMap<String, Vec<u8>>| {
        s.into_iter()
            .filter(|(path, _)| !path.contains("kalendorius.sled"))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let (sa, sb) = (keep(snapshot(a.path())), keep(snapshot(b.path())));
    assert!(sa.keys().any(|p| p.ends_with("years/1583.json")));
    assert!(sa.keys().any(|p| p.ends_with("years/2100.json")));
    assert!(sa.keys().any(|p| p.ends_with("manifest.json")));
    assert_eq!(sa.len(), sb.len());
    for (path, bytes) in &sa {
        assert!(
            sb.get(path) == Some(bytes),
            "{path} differs between two builds"
        );
    }
    // The databases differ as files but must agree by content: both pass their manifest.
    for dir in [a.path(), b.path()] {
        let dataset = open_dataset(dir).unwrap();
        let mut count = 0;
        dataset.read_database(|_| count += 1).unwrap();
        assert_eq!(count, 189_196);
    }
}

#[test]
fn any_change_to_a_source_gives_a_new_dataset_version() {
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let out = tempfile::tempdir().unwrap();
    build_into(sources.path(), out.path(), Some((2020, 2021))).unwrap();
    let first = open_dataset(out.path()).unwrap().manifest.dataset_version;
    // Rebuilding unchanged sources keeps the version.
    build_into(sources.path(), out.path(), Some((2020, 2021))).unwrap();
    assert_eq!(
        open_dataset(out.path()).unwrap().manifest.dataset_version,
        first
    );
    let csv = sources.path().join("namedays.csv");
    let text = fs::read_to_string(&csv).unwrap() + "3,4,Kazimieras,m,MK MN AB\n";
    fs::write(&csv, text).unwrap();
    build_into(sources.path(), out.path(), Some((2020, 2021))).unwrap();
    let second = open_dataset(out.path()).unwrap();
    assert_ne!(second.manifest.dataset_version, first);
}

#[test]
fn a_tampered_year_file_fails_the_manifest_check() {
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), Some((2024, 2025))).unwrap();
    let file = out.path().join("current/years/2025.json");
    let text = fs::read_to_string(&file).unwrap().replacen(
        "\"laisvadienis\":false",
        "\"laisvadienis\":FALSE",
        1,
    );
    fs::write(&file, text).unwrap();
    let err = open_dataset(out.path()).unwrap_err().to_string();
    assert!(
        err.contains("years/2025.json") && err.contains("SHA-256"),
        "{err}"
    );
}

#[test]
fn a_manifest_of_another_schema_version_is_refused() {
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), Some((2024, 2024))).unwrap();
    let file = out.path().join("current/manifest.json");
    let text = fs::read_to_string(&file).unwrap().replacen(
        &format!(
            "\"schema_version\": {}",
            kalendorius_dataset::SCHEMA_VERSION
        ),
        "\"schema_version\": 99",
        1,
    );
    fs::write(&file, text).unwrap();
    let err = open_dataset(out.path()).unwrap_err().to_string();
    assert!(err.contains("schema version 99"), "{err}");
}

#[test]
fn working_hours_that_break_the_rule_are_refused_even_with_a_matching_manifest() {
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), Some((2024, 2025))).unwrap();
    let dir = fs::canonicalize(out.path().join("current")).unwrap();
    // Sat 2025-07-05 precedes the red Sunday 2025-07-06: 4 hours in the 6-day week. Write 5
    // and make the manifest agree, so only the rule can catch it.
    let file = dir.join("years/2025.json");
    let text = fs::read_to_string(&file).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("\"date\":\"2025-07-05\""))
        .unwrap();
    assert!(line.contains("\"working_hours_6\":4,"), "{line}");
    let tampered = text.replacen(
        line,
        &line
            .replace("\"working_hours_6\":4,", "\"working_hours_6\":5,")
            .replace("\"shorter_workday_6\":true", "\"shorter_workday_6\":false"),
        1,
    );
    fs::write(&file, &tampered).unwrap();
    rewrite_manifest(&dir, |manifest| {
        let entry = manifest
            .files
            .iter_mut()
            .find(|f| f.path == "years/2025.json")
            .unwrap();
        entry.bytes = tampered.len() as u64;
        entry.sha256 = kalendorius_dataset::digest::sha256_hex(tampered.as_bytes());
    });

    let err = kalendorius_generator::verify(out.path())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("2025-07-05") && err.contains("working time"),
        "{err}"
    );
}
