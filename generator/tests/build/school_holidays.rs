//! `school_holidays.toml` (issue 21, E13): a good file loads; each class of mistake is
//! rejected with its file and line. The fixture file is written into a copy of the fixture
//! sources, so the shared fixtures (and their dataset version) stay as they are.

use std::fs;

use kalendorius_generator::sources::{self, SchoolHolidayKind};
use kalendorius_generator::SourceErrorKind;

use crate::helpers::{build_into, copy_tree, fixture_sources};

const GOOD: &str = r#"
[[school_year]]
id = "2025-2026"
start = "2025-09-01"
end = "2026-08-31"
grades = [{ from = 1, to = 12 }]
source = "V-559 of 2025-05-21"

[[period]]
school_year = "2025-2026"
kind = "christmas"
start = "2025-12-24"
end = "2026-01-04"
grades = [{ from = 1, to = 12 }]
source = "V-559"

[[period]]
school_year = "2025-2026"
kind = "spring"
start = "2026-03-30"
end = "2026-04-06"
ordered_end = "2026-04-05"
grades = [{ from = 1, to = 10 }]
source = "V-559"
confidence = "confirmed"

[[period]]
school_year = "2025-2026"
kind = "spring"
start = "2026-04-06"
end = "2026-04-12"
grades = [{ from = 11, to = 12 }]
source = "V-559"
note = "secondary programme"
"#;

/// Writes `text` as the school holidays file of a fixture copy and loads the sources.
fn load(
    text: &str,
) -> (
    tempfile::TempDir,
    Result<sources::Sources, kalendorius_generator::BuildError>,
) {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), dir.path());
    fs::write(dir.path().join("school_holidays.toml"), text).unwrap();
    let loaded = sources::load(dir.path());
    (dir, loaded)
}

/// Replaces `find` in the good file by `replace` and checks the rejection: an error of
/// `kind` at `school_holidays.toml:<line of the last occurrence of at>`; `build` refuses too.
fn rejects(find: &str, replace: &str, at: &str, kind: SourceErrorKind) -> String {
    assert!(GOOD.contains(find), "{find:?} not in the fixture");
    let broken = GOOD.replacen(find, replace, 1);
    let line = broken[..broken.rfind(at).unwrap()].matches('\n').count() + 1;
    let (dir, loaded) = load(&broken);
    let err = loaded.unwrap_err();
    let hit = err
        .source_errors()
        .iter()
        .find(|e| e.kind == kind)
        .unwrap_or_else(|| panic!("no {kind:?} error in: {err}"))
        .to_string();
    assert!(
        hit.contains(&format!("school_holidays.toml:{line}")),
        "expected school_holidays.toml:{line} in {hit:?}"
    );
    let out = tempfile::tempdir().unwrap();
    assert!(build_into(dir.path(), out.path(), Some((2024, 2024))).is_err());
    hit
}

#[test]
fn good_file_loads_in_order() {
    let (_dir, loaded) = load(GOOD);
    let s = loaded.unwrap().school_holidays;
    assert_eq!(s.years.len(), 1);
    assert_eq!(s.periods.len(), 3);
    assert_eq!(s.periods[0].kind, SchoolHolidayKind::Christmas);
    // The two spring breaks share Easter Monday, but for different grades.
    assert!(s.periods[1].grades[0].contains(10) && !s.periods[1].grades[0].contains(11));
    assert!(s.periods[2].grades[0].contains(12));
}

#[test]
fn the_real_file_is_valid() {
    let real =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sources/school_holidays.toml");
    let text = fs::read_to_string(real).unwrap();
    let (_dir, loaded) = load(&text);
    let s = loaded.unwrap().school_holidays;
    assert!(s.years.iter().any(|y| y.id == "2019-2020"));
    assert!(s.years.iter().any(|y| y.id == "2025-2026"));
    // 2026-2027's plan is published (V-559): in the data, each period with its confidence.
    assert!(s.years.iter().any(|y| y.id == "2026-2027"));
    let christmas = s
        .periods
        .iter()
        .find(|p| p.school_year == "2026-2027" && p.kind == SchoolHolidayKind::Christmas)
        .unwrap();
    assert_eq!(
        christmas.confidence,
        kalendorius_dataset::Confidence::Uncertain
    );
}

#[test]
fn overlap_within_one_grade() {
    let msg = rejects(
        "grades = [{ from = 11, to = 12 }]",
        "grades = [{ from = 10, to = 12 }]",
        "start = \"2026-04-06\"",
        SourceErrorKind::OverlappingPeriods,
    );
    assert!(msg.contains("for grade 10"), "{msg}");
}

#[test]
fn grade_out_of_range() {
    let msg = rejects(
        "grades = [{ from = 11, to = 12 }]",
        "grades = [{ from = 11, to = 13 }]",
        "grades = [{ from = 11, to = 13 }]",
        SourceErrorKind::OutOfRange,
    );
    assert!(msg.contains("0..12"), "{msg}");
}

#[test]
fn period_outside_its_school_year() {
    let msg = rejects(
        "start = \"2025-12-24\"",
        "start = \"2025-08-25\"",
        "start = \"2025-08-25\"",
        SourceErrorKind::OutOfRange,
    );
    assert!(msg.contains("not inside school year 2025-2026"), "{msg}");
}

#[test]
fn start_after_end() {
    rejects(
        "end = \"2026-01-04\"",
        "end = \"2025-12-20\"",
        "end = \"2025-12-20\"",
        SourceErrorKind::OutOfRange,
    );
}

#[test]
fn unknown_kind() {
    let msg = rejects(
        "kind = \"christmas\"",
        "kind = \"easter\"",
        "kind = \"easter\"",
        SourceErrorKind::BadValue,
    );
    assert!(msg.contains("unknown kind 'easter'"), "{msg}");
}

#[test]
fn unknown_school_year() {
    rejects(
        "school_year = \"2025-2026\"\nkind = \"christmas\"",
        "school_year = \"2024-2025\"\nkind = \"christmas\"",
        "school_year = \"2024-2025\"",
        SourceErrorKind::BadValue,
    );
}

#[test]
fn school_year_bounds() {
    rejects(
        "start = \"2025-09-01\"",
        "start = \"2025-09-02\"",
        "start = \"2025-09-02\"",
        SourceErrorKind::OutOfRange,
    );
}

#[test]
fn unknown_field() {
    rejects(
        "note = \"secondary programme\"",
        "remark = \"secondary programme\"",
        "remark = ",
        SourceErrorKind::UnknownField,
    );
}

#[test]
fn the_dataset_publishes_the_periods_checked_by_verify() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), dir.path());
    fs::write(dir.path().join("school_holidays.toml"), GOOD).unwrap();
    let out = tempfile::tempdir().unwrap();
    build_into(dir.path(), out.path(), Some((2025, 2026))).unwrap();
    kalendorius_generator::verify(out.path()).unwrap();
    let dataset = kalendorius_dataset::open_dataset(out.path()).unwrap();
    // Listed in the manifest, first in path order, and read back whole.
    assert_eq!(dataset.manifest.files[0].path, "school_holidays.json");
    let file = dataset.read_school_holidays().unwrap();
    assert_eq!(file.school_years.len(), 1);
    assert_eq!(file.periods.len(), 3);
    assert_eq!(file.periods[1].grades, (1..=10).collect::<Vec<u8>>());
    // Each year file carries the periods sharing a day with its year: the Christmas break
    // is in both.
    let year = |y: i32| -> kalendorius_dataset::PublishedYearFile {
        let path = dataset.path.join(format!("years/{y}.json"));
        serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
    };
    let kinds = |y: i32| -> Vec<&'static str> {
        year(y)
            .school_holidays
            .iter()
            .map(|p| p.kind.as_str())
            .collect()
    };
    assert_eq!(kinds(2025), ["christmas"]);
    assert_eq!(kinds(2026), ["christmas", "spring", "spring"]);
    // A changed file fails its manifest check, in `verify` and for a reader.
    let path = dataset.path.join("school_holidays.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("2026-04-12", "2026-04-13")).unwrap();
    let err = kalendorius_generator::verify(out.path()).unwrap_err();
    assert!(err.to_string().contains("school_holidays.json"), "{err}");
    assert!(dataset.read_school_holidays().is_err());
}
