//! Every class of source mistake is rejected with its file and line, and the output root is
//! left exactly as it was.

use std::fs;
use std::path::Path;

use kalendorius_generator::{BuildError, SourceErrorKind};

use crate::helpers::{build_into, copy_tree, fixture_sources, snapshot};

/// Copies the fixture, replaces the first `find` in `file` by `replace`, builds into an output
/// root that already holds a good dataset, and checks the rejection: the error of `kind`
/// names `file` at the line where `replace` now stands, and nothing in the output changed.
fn rejects(file: &str, find: &str, replace: &str, kind: SourceErrorKind) -> String {
    rejects_at(file, find, replace, replace, kind)
}

/// Like [`rejects`], but the expected line is that of the last occurrence of `at`.
fn rejects_at(file: &str, find: &str, replace: &str, at: &str, kind: SourceErrorKind) -> String {
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let out = tempfile::tempdir().unwrap();
    build_into(sources.path(), out.path(), Some((2024, 2024))).unwrap();
    let before = snapshot(out.path());

    let path = sources.path().join(file);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(find), "{find:?} not in {file}");
    let broken = text.replacen(find, replace, 1);
    let line = broken[..broken.rfind(at).unwrap()].matches('\n').count() + 1;
    fs::write(&path, &broken).unwrap();

    let err = build_into(sources.path(), out.path(), Some((2024, 2024))).unwrap_err();
    let errors = err.source_errors();
    let hit = errors
        .iter()
        .find(|e| e.kind == kind)
        .unwrap_or_else(|| panic!("no {kind:?} error in: {err}"));
    let shown = hit.to_string();
    assert!(
        shown.contains(&format!("{file}:{line}")),
        "expected {file}:{line} in {shown:?}"
    );
    assert!(matches!(err, BuildError::Invalid(_)));
    assert_eq!(
        before,
        snapshot(out.path()),
        "output changed after a rejected build"
    );
    // `check` finds the same problem.
    assert!(kalendorius_generator::check(sources.path()).is_err());
    shown
}

#[test]
fn unknown_type() {
    let msg = rejects(
        "holidays/red.toml",
        "type = \"religious\"",
        "type = \"bank\"",
        SourceErrorKind::UnknownType,
    );
    assert!(
        msg.contains("unknown type 'bank'") && msg.contains("holiday[1]"),
        "{msg}"
    );
}

#[test]
fn unknown_language() {
    rejects(
        "holidays/other.toml",
        "pl = \"Ostatki\"",
        "pl = \"Ostatki\", de = \"Fastnacht\"",
        SourceErrorKind::UnknownLanguage,
    );
}

#[test]
fn missing_translation() {
    let msg = rejects(
        "transfers.toml",
        "pl = \"Przeniesiony dzień wolny\", ru = \"Перенесённый выходной\"",
        "pl = \"Przeniesiony dzień wolny\"",
        SourceErrorKind::MissingTranslation,
    );
    assert!(msg.contains("ru"), "{msg}");
}

#[test]
fn empty_translation() {
    rejects(
        "holidays/other.toml",
        "en = \"Epiphany\"",
        "en = \" \"",
        SourceErrorKind::MissingTranslation,
    );
}

#[test]
fn malformed_rule() {
    let msg = rejects(
        "holidays/other.toml",
        "rule = \"easter-47\"",
        "rule = \"easter minus 47\"",
        SourceErrorKind::MalformedRule,
    );
    assert!(msg.contains("easter minus 47"), "{msg}");
}

#[test]
fn impossible_date_in_a_rule() {
    let msg = rejects(
        "holidays/other.toml",
        "rule = \"01-06\"",
        "rule = \"02-30\"",
        SourceErrorKind::ImpossibleDate,
    );
    assert!(msg.contains("02-30"), "{msg}");
}

#[test]
fn impossible_date_in_a_red_period() {
    rejects(
        "holidays/red.toml",
        "from = \"2011-01-01\"",
        "from = \"2011-02-30\"",
        SourceErrorKind::ImpossibleDate,
    );
}

#[test]
fn overlapping_red_periods() {
    let msg = rejects(
        "holidays/red.toml",
        "from = \"2001-05-23\"",
        "from = \"1997-01-01\"",
        SourceErrorKind::OverlappingPeriods,
    );
    assert!(msg.contains("overlap"), "{msg}");
}

#[test]
fn red_period_ending_before_it_starts() {
    rejects(
        "holidays/red.toml",
        "to = \"1997-07-15\"",
        "to = \"1995-07-15\"",
        SourceErrorKind::OutOfRange,
    );
}

#[test]
fn duplicate_id() {
    // other.toml is read before red.toml, so the red.toml record is the duplicate.
    let msg = rejects(
        "holidays/red.toml",
        "id = \"kaledos\"",
        "id = \"uzgavenes\"",
        SourceErrorKind::DuplicateId,
    );
    assert!(
        msg.contains("other.toml:"),
        "the message names the first definition: {msg}"
    );
}

#[test]
fn unknown_field() {
    rejects_at(
        "holidays/other.toml",
        "rule = \"09-01\"",
        "rule = \"09-01\"\ncolour = \"red\"",
        "colour",
        SourceErrorKind::UnknownField,
    );
}

#[test]
fn toml_syntax_error() {
    rejects(
        "holidays/other.toml",
        "rule = \"01-13\"",
        "rule = \"01-13",
        SourceErrorKind::Syntax,
    );
}

#[test]
fn gender_not_m_or_f() {
    let msg = rejects(
        "namedays.csv",
        "1,1,Arvaidė,f,",
        "1,1,Arvaidė,x,",
        SourceErrorKind::BadGender,
    );
    assert!(msg.contains("gender 'x'"), "{msg}");
}

#[test]
fn unknown_column() {
    let msg = rejects(
        "namedays.csv",
        "month,day,name,gender,source",
        "month,day,name,gender,sourse",
        SourceErrorKind::UnknownField,
    );
    assert!(msg.contains("sourse"), "{msg}");
}

#[test]
fn impossible_name_day_date() {
    rejects(
        "namedays.csv",
        "2,28,Romanas",
        "2,30,Romanas",
        SourceErrorKind::ImpossibleDate,
    );
}

#[test]
fn malformed_name() {
    rejects(
        "namedays.csv",
        "6,24,Jonas",
        "6,24,Jonas Petras",
        SourceErrorKind::BadName,
    );
}

#[test]
fn duplicate_name_on_a_day() {
    rejects(
        "namedays.csv",
        "12,24,Ieva,f",
        "12,24,Adomas,m",
        SourceErrorKind::Duplicate,
    );
}

#[test]
fn a_day_off_on_a_weekend() {
    let msg = rejects(
        "transfers.toml",
        "date = \"2008-05-02\"",
        "date = \"2008-05-03\"",
        SourceErrorKind::TransferConflict,
    );
    assert!(msg.contains("weekend"), "{msg}");
}

#[test]
fn a_working_day_on_a_weekday() {
    rejects(
        "transfers.toml",
        "date = \"2011-02-19\"",
        "date = \"2011-02-18\"",
        SourceErrorKind::TransferConflict,
    );
}

#[test]
fn the_six_day_week_flag_on_a_working_day() {
    // A working Saturday is a working day of the 6-day week anyway: the flag means nothing.
    let msg = rejects_at(
        "transfers.toml",
        "date = \"2011-02-19\"\nkind = \"working_day\"\n",
        "date = \"2011-02-19\"\nkind = \"working_day\"\nsix_day_week = true\n",
        "six_day_week = true",
        SourceErrorKind::BadValue,
    );
    assert!(msg.contains("six_day_week"), "{msg}");
}

#[test]
fn two_transfers_on_one_date() {
    rejects(
        "transfers.toml",
        "date = \"2008-05-10\"",
        "date = \"2008-05-02\"",
        SourceErrorKind::Duplicate,
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let csv = sources.path().join("namedays.csv");
    let text = fs::read_to_string(&csv).unwrap().replace(",m,", ",male,");
    fs::write(&csv, text).unwrap();
    let err = kalendorius_generator::check(sources.path()).unwrap_err();
    assert!(err.source_errors().len() >= 5, "{err}");
}

#[test]
fn a_missing_sources_directory_is_an_error_not_a_panic() {
    let err = kalendorius_generator::check(Path::new("/nonexistent/sources")).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/sources"), "{err}");
}

#[test]
fn former_name_ending_before_it_starts() {
    rejects_at(
        "holidays/red.toml",
        "until = \"1997-07-15\"",
        "from = \"1990-10-25\"\nuntil = \"1989-07-15\"",
        "until = \"1989",
        SourceErrorKind::OutOfRange,
    );
}

#[test]
fn overlapping_former_names() {
    // A second wording ending in 1998 without a `from` overlaps the one ending in 1997.
    rejects_at(
        "holidays/red.toml",
        "source = \"Law I-712, 1990 wording [S1][S2]\"\n",
        "source = \"Law I-712, 1990 wording [S1][S2]\"\n\n[[holiday.former_name]]\nuntil = \"1998-01-01\"\nlt = \"X\"\nsource = \"test\"\n",
        "until = \"1998-01-01\"",
        SourceErrorKind::OverlappingPeriods,
    );
}

#[test]
fn a_basis_naming_an_act_not_in_the_register() {
    let msg = rejects(
        "holidays/red.toml",
        "basis = [{ act = \"I-1291\" }]",
        "basis = [{ act = \"I-9999\" }]",
        SourceErrorKind::UnknownAct,
    );
    assert!(msg.contains("no act 'I-9999' in acts.toml"), "{msg}");
}

#[test]
fn bases_with_a_gap_between_them() {
    let msg = rejects(
        "holidays/red.toml",
        "item = 1, from = \"2017-07-01\" }",
        "item = 1, from = \"2017-07-02\" }",
        SourceErrorKind::OverlappingPeriods,
    );
    assert!(msg.contains("without gap or overlap"), "{msg}");
}

#[test]
fn bases_ending_before_their_red_period() {
    let msg = rejects(
        "holidays/red.toml",
        "item = 1, from = \"2017-07-01\" }",
        "item = 1, from = \"2017-07-01\", to = \"2030-12-31\" }",
        SourceErrorKind::OutOfRange,
    );
    assert!(msg.contains("the bases end 2030-12-31"), "{msg}");
}

#[test]
fn a_transfer_without_a_basis() {
    let msg = rejects(
        "transfers.toml",
        "basis = [{ act = \"gov-transfer-2010\" }]",
        "basis = []",
        SourceErrorKind::MissingField,
    );
    assert!(msg.contains("a basis is required"), "{msg}");
}

#[test]
fn eve_rule_periods_with_a_gap() {
    let msg = rejects(
        "acts.toml",
        "from = \"2017-07-01\"\nbasis",
        "from = \"2017-08-01\"\nbasis",
        SourceErrorKind::OverlappingPeriods,
    );
    assert!(msg.contains("eve rule periods"), "{msg}");
}

#[test]
fn a_basis_with_an_item_but_no_article() {
    let msg = rejects(
        "holidays/red.toml",
        "basis = [{ act = \"I-1291\" }]",
        "basis = [{ act = \"I-1291\", item = 3 }]",
        SourceErrorKind::BadValue,
    );
    assert!(msg.contains("needs its article"), "{msg}");
}
