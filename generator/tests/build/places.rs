//! `places.csv` (issue 37, E18): the real table loads with its 60 municipalities; each
//! class of mistake is rejected with its file, line and column; the build publishes
//! `places.json`, which the dataset reader checks.

use std::fs;
use std::path::Path;

use kalendorius_dataset::{open_dataset, Confidence};
use kalendorius_generator::sources;
use kalendorius_generator::SourceErrorKind;

use crate::helpers::{build_into, copy_tree, fixture_sources};

/// The fixture sources with `places.csv` replaced by `text`, loaded.
fn load(text: &str) -> Result<sources::Sources, kalendorius_generator::BuildError> {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), dir.path());
    fs::write(dir.path().join("places.csv"), text).unwrap();
    sources::load(dir.path())
}

fn fixture_text() -> String {
    fs::read_to_string(fixture_sources().join("places.csv")).unwrap()
}

/// Replaces `find` by `replace` in the fixture table and expects one error of `kind` at the
/// line of the replacement, naming `column`.
fn rejects(find: &str, replace: &str, kind: SourceErrorKind, column: &str) -> String {
    let good = fixture_text();
    assert!(good.contains(find), "{find:?} not in the fixture");
    let line = good[..good.find(find).unwrap()].matches('\n').count() + 1;
    let err = load(&good.replacen(find, replace, 1)).unwrap_err();
    let hit = err
        .source_errors()
        .iter()
        .find(|e| e.kind == kind)
        .unwrap_or_else(|| panic!("no {kind:?} error in: {err}"))
        .to_string();
    assert!(
        hit.contains(&format!("places.csv:{line}: {column}: ")),
        "expected places.csv:{line}: {column} in {hit:?}"
    );
    hit
}

#[test]
fn the_real_table_has_the_60_municipalities() {
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sources");
    let places = sources::load(&real).unwrap().places.places;
    assert_eq!(places.len(), 60);
    let count = |suffix: &str| {
        places
            .iter()
            .filter(|p| p.municipality.ends_with(suffix))
            .count()
    };
    assert_eq!(count(" miesto savivaldybė"), 7);
    assert_eq!(count(" rajono savivaldybė"), 43);
    let vilnius = places.iter().find(|p| p.slug == "vilnius").unwrap();
    assert_eq!(
        (vilnius.name.pl.as_str(), vilnius.name.ru.as_str()),
        ("Wilno", "Вильнюс")
    );
    assert_eq!(vilnius.confidence, Confidence::Confirmed);
    assert!(places.iter().all(|p| !p.source.is_empty()));
}

#[test]
fn a_slug_twice_is_rejected() {
    let hit = rejects(
        "kaunas,Kauno",
        "vilnius,Kauno",
        SourceErrorKind::DuplicateId,
        "slug",
    );
    assert!(hit.contains("'vilnius' is listed twice"), "{hit}");
}

#[test]
fn a_place_outside_lithuania_is_rejected() {
    // Riga.
    let hit = rejects(
        "55.7068,21.1391",
        "56.9496,24.1052",
        SourceErrorKind::OutOfRange,
        "latitude",
    );
    assert!(hit.contains("outside Lithuania"), "{hit}");
    rejects(
        "25.2798",
        "2.3522",
        SourceErrorKind::OutOfRange,
        "longitude",
    );
    rejects("54.9016", "north", SourceErrorKind::BadValue, "latitude");
}

#[test]
fn a_missing_name_or_source_is_rejected() {
    rejects(",Kowno,", ",,", SourceErrorKind::MissingTranslation, "pl");
    rejects(
        "[S100] geonameid 598316; names [S101]",
        "",
        SourceErrorKind::BadValue,
        "source",
    );
    rejects(
        "Jeziorosy,Зарасай,55.7323,26.2511,[S100] geonameid 592891; names [S101],confirmed",
        "Jeziorosy,Зарасай,55.7323,26.2511,[S100],sure",
        SourceErrorKind::BadValue,
        "confidence",
    );
    rejects("nida,", "Nida,", SourceErrorKind::BadValue, "slug");
}

#[test]
fn the_default_place_is_required() {
    let text: String = fixture_text()
        .lines()
        .filter(|l| !l.starts_with("vilnius,"))
        .map(|l| format!("{l}\n"))
        .collect();
    let err = load(&text).unwrap_err().to_string();
    assert!(
        err.contains("the default place 'vilnius' is missing"),
        "{err}"
    );
}

#[test]
fn the_build_publishes_places_json() {
    let out = tempfile::tempdir().unwrap();
    build_into(&fixture_sources(), out.path(), Some((2026, 2026))).unwrap();
    let dataset = open_dataset(out.path()).unwrap();
    let places = dataset.read_places().unwrap();
    assert_eq!(places.places.len(), 7);
    assert_eq!(places.get("nida").unwrap().name.lt, "Nida");
    // A changed byte is caught by the manifest's checksum.
    let path = dataset.path.join("places.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replacen("Nida", "Nidą", 1)).unwrap();
    let err = dataset.read_places().unwrap_err().to_string();
    assert!(err.contains("places.json"), "{err}");
}
