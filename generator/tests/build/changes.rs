//! What changed between two builds: `diff`, the `changes.json` of each build and its check
//! in `verify`, on the fixture sources with one holiday renamed and one transfer moved.

use std::fs;
use std::path::Path;
use std::process::Output;

use kalendorius_dataset::changes::{Baseline, HolidayAspect, HolidayChangeKind};
use kalendorius_dataset::{Changes, Date, Manifest};

use crate::helpers::{copy_tree, fixture_sources, generator, replace_in, rewrite_manifest};

fn run(args: &[&std::ffi::OsStr]) -> Output {
    let out = generator().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn build(sources: &Path, out: &Path) -> String {
    let done = run(&[
        "build".as_ref(),
        "--years".as_ref(),
        "2010..2011".as_ref(),
        "--sources".as_ref(),
        sources.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    String::from_utf8(done.stdout).unwrap()
}

fn current(out: &Path) -> String {
    fs::read_link(out.join("current"))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

fn changes_of(dir: &Path) -> Changes {
    serde_json::from_slice(&fs::read(dir.join("changes.json")).unwrap()).unwrap()
}

/// Renames New Year's Day in English and moves the working Saturday of 2011-02-19 to
/// 2011-02-26.
fn edit(sources: &Path) {
    replace_in(
        &sources.join("holidays/red.toml"),
        "en = \"New Year's Day\"",
        "en = \"New Year\"",
    );
    replace_in(
        &sources.join("transfers.toml"),
        "date = \"2011-02-19\"",
        "date = \"2011-02-26\"",
    );
}

fn dates<'a>(list: impl IntoIterator<Item = &'a Date>) -> Vec<String> {
    list.into_iter().map(Date::to_string).collect()
}

#[test]
fn diff_of_two_builds_lists_exactly_the_changed_dates_and_each_build_records_them() {
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let out = tempfile::tempdir().unwrap();

    // The first build compares nothing, and says so.
    let printed = build(sources.path(), out.path());
    let old = current(out.path());
    assert!(printed.contains("nothing compared (none)"), "{printed}");
    let first = changes_of(&out.path().join(&old));
    assert_eq!(first.baseline, Baseline::None);
    assert!(first.old.is_none() && first.status.is_empty());

    edit(sources.path());
    let printed = build(sources.path(), out.path());
    let new = current(out.path());
    assert_ne!(old, new);
    assert!(
        printed.contains(&format!("{old} -> {new}: 4 dates differ")),
        "{printed}"
    );

    let (old_dir, new_dir) = (out.path().join(&old), out.path().join(&new));
    let json = run(&[
        "diff".as_ref(),
        old_dir.as_os_str(),
        // An output root stands for its current version.
        out.path().as_os_str(),
        "--json".as_ref(),
    ]);
    let changes: Changes = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(changes.baseline, Baseline::Compared);
    assert_eq!(changes.old.as_ref().unwrap().dataset_version, old);
    assert_eq!(changes.new.dataset_version, new);
    assert_eq!(changes.summary.dates, 4);

    // The renamed holiday: changed on each of its dates, renamed only; its Lithuanian name
    // (the status's holiday name) is unchanged, so no status change there.
    let renamed: Vec<_> = changes.holidays.iter().collect();
    assert_eq!(
        dates(renamed.iter().map(|c| &c.date)),
        ["2010-01-01", "2011-01-01"]
    );
    for change in &renamed {
        assert_eq!(change.id, "naujieji-metai");
        assert_eq!(change.change, HolidayChangeKind::Changed);
        assert_eq!(change.aspects, [HolidayAspect::Renamed]);
        assert_eq!(change.new.as_ref().unwrap().name_en, "New Year");
    }
    // The moved transfer: off one Saturday, onto the other, which changes their status and
    // their hours.
    assert_eq!(
        dates(changes.transfers.iter().map(|c| &c.date)),
        ["2011-02-19", "2011-02-26"]
    );
    assert!(changes.transfers[0].old.is_some() && changes.transfers[0].new.is_none());
    assert!(changes.transfers[1].old.is_none() && changes.transfers[1].new.is_some());
    assert_eq!(
        dates(changes.status.iter().map(|c| &c.date)),
        ["2011-02-19", "2011-02-26"]
    );
    assert!(!changes.status[0].old.laisvadienis && changes.status[0].new.laisvadienis);
    assert_eq!(
        dates(changes.working_hours.iter().map(|c| &c.date)),
        ["2011-02-19", "2011-02-26"]
    );
    assert!(changes.name_days.is_empty() && changes.shortened.is_empty());

    // The build recorded the same thing, listed in the manifest with its checksum.
    assert_eq!(changes_of(&new_dir), changes);
    let manifest: Manifest =
        serde_json::from_slice(&fs::read(new_dir.join("manifest.json")).unwrap()).unwrap();
    let bytes = fs::read(new_dir.join("changes.json")).unwrap();
    assert_eq!(manifest.changes.path, "changes.json");
    assert_eq!(manifest.changes.bytes, bytes.len() as u64);
    assert_eq!(
        manifest.changes.sha256,
        kalendorius_dataset::digest::sha256_hex(&bytes)
    );

    // Both files follow their published JSON Schemas.
    for (schema, file) in [
        (
            kalendorius_dataset::schema::changes_schema(),
            "changes.json",
        ),
        (
            kalendorius_dataset::schema::manifest_schema(),
            "manifest.json",
        ),
    ] {
        let validator = jsonschema::validator_for(&schema).unwrap();
        let value: serde_json::Value =
            serde_json::from_slice(&fs::read(new_dir.join(file)).unwrap()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{file}: {errors:?}");
    }
    assert!(
        jsonschema::validator_for(&kalendorius_dataset::schema::changes_schema())
            .unwrap()
            .is_valid(&serde_json::to_value(&first).unwrap())
    );

    // The text form: one group per kind, one line per entry.
    let text = run(&["diff".as_ref(), old_dir.as_os_str(), new_dir.as_os_str()]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with(&format!("{old} -> {new}: 4 dates differ")));
    for expected in [
        "status (2):",
        "2011-02-19  working day -> laisvadienis (saturday)",
        "holidays (2):",
        "2010-01-01  ~ naujieji-metai renamed: en \"New Year's Day\" -> \"New Year\"",
        "transfers (2):",
        "2011-02-26  none -> working day \"Perkelta darbo diena\"",
    ] {
        assert!(text.contains(expected), "{expected} not in:\n{text}");
    }

    // verify compares again with the kept old version.
    let verified = run(&["verify".as_ref(), "--out".as_ref(), out.path().as_os_str()]);
    let verified = String::from_utf8(verified.stdout).unwrap();
    assert!(
        verified.contains(&format!("equal to a new comparison with {old}")),
        "{verified}"
    );

    // Rebuilding the same sources replaces the version with the same bytes: its changes
    // are still those against the version it first replaced.
    let rebuilt = build(sources.path(), out.path());
    assert_eq!(current(out.path()), new);
    assert_eq!(fs::read(new_dir.join("changes.json")).unwrap(), bytes);
    assert!(
        rebuilt.contains(&format!(
            "unchanged: this version was already in service, so nothing changes; what it \
             changed when it was first built: {old} -> {new}: 4 dates differ"
        )),
        "{rebuilt}"
    );

    // Comparing a dataset with itself finds nothing.
    let same = run(&["diff".as_ref(), new_dir.as_os_str(), new_dir.as_os_str()]);
    assert_eq!(
        String::from_utf8(same.stdout).unwrap().trim(),
        format!("{new} -> {new}: no date differs")
    );
}

#[test]
fn verify_refuses_changes_that_do_not_match_a_new_comparison() {
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let out = tempfile::tempdir().unwrap();
    build(sources.path(), out.path());
    edit(sources.path());
    build(sources.path(), out.path());
    let dir = fs::canonicalize(out.path().join("current")).unwrap();

    // Drop one entry, keep the file consistent and the manifest's checksum right: only a
    // new comparison can tell.
    let mut changes = changes_of(&dir);
    changes.transfers.pop();
    changes.summary = changes.count();
    changes.check_consistency().unwrap();
    let bytes = serde_json::to_vec_pretty(&changes).unwrap();
    fs::write(dir.join("changes.json"), &bytes).unwrap();
    rewrite_manifest(&dir, |manifest| {
        manifest.changes.bytes = bytes.len() as u64;
        manifest.changes.sha256 = kalendorius_dataset::digest::sha256_hex(&bytes);
    });

    let err = kalendorius_generator::verify(out.path())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("changes.json") && err.contains("differs from a new comparison"),
        "{err}"
    );

    // Altered without mending the manifest: the checksum catches it first.
    fs::write(dir.join("changes.json"), b"{}").unwrap();
    let err = kalendorius_generator::verify(out.path())
        .unwrap_err()
        .to_string();
    assert!(err.contains("changes.json"), "{err}");
}

#[test]
fn diff_reads_neither_a_missing_dataset_nor_another_days_shape() {
    let out = tempfile::tempdir().unwrap();
    let missing = generator()
        .arg("diff")
        .arg(out.path())
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no dataset at"));

    build(&fixture_sources(), out.path());
    let manifest_path = fs::canonicalize(out.path().join("current/manifest.json")).unwrap();
    let text = fs::read_to_string(&manifest_path).unwrap().replacen(
        &format!(
            "\"schema_version\": {}",
            kalendorius_dataset::SCHEMA_VERSION
        ),
        &format!(
            "\"schema_version\": {}",
            kalendorius_dataset::DAYS_SHAPE_SINCE - 1
        ),
        1,
    );
    fs::write(&manifest_path, text).unwrap();
    let old = generator()
        .arg("diff")
        .arg(out.path())
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(old.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&old.stderr).contains("schema version"),
        "{}",
        String::from_utf8_lossy(&old.stderr)
    );
}

/// Makes the dataset at `dir` look as schema version 5 wrote it: files of schema 5, days
/// without the legal bases of schema 6, no `changes` in the manifest.
fn make_schema_5(dir: &Path) {
    let manifest_path = dir.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&fs::read(&manifest_path).unwrap()).unwrap();
    for entry in manifest["files"].as_array_mut().unwrap() {
        let path = dir.join(entry["path"].as_str().unwrap());
        let mut file: serde_json::Value =
            serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        file["schema_version"] = 5.into();
        for day in file["days"].as_array_mut().into_iter().flatten() {
            let day = day.as_object_mut().unwrap();
            day.remove("shorter_workday_basis");
            for h in day["holidays"].as_array_mut().unwrap() {
                h.as_object_mut().unwrap().remove("confidence");
                h.as_object_mut().unwrap().remove("basis");
            }
            if let Some(t) = day["transfer"].as_object_mut() {
                t.remove("confidence");
                t.remove("basis");
            }
        }
        let text = serde_json::to_vec(&file).unwrap();
        fs::write(&path, &text).unwrap();
        entry["bytes"] = text.len().into();
        entry["sha256"] = kalendorius_dataset::digest::sha256_hex(&text).into();
    }
    manifest["schema_version"] = 5.into();
    manifest.as_object_mut().unwrap().remove("changes");
    fs::remove_file(dir.join("changes.json")).unwrap();
    fs::write(
        &manifest_path,
        serde_json::to_vec_pretty(&manifest).unwrap(),
    )
    .unwrap();
}

#[test]
fn a_build_compares_with_a_version_in_service_of_schema_5_and_survives_a_damaged_one() {
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let out = tempfile::tempdir().unwrap();
    build(sources.path(), out.path());
    let old = current(out.path());
    make_schema_5(&out.path().join(&old));
    // The schema 5 dataset is refused as a dataset, read for its days (the bases it lacks
    // are not compared).
    assert!(kalendorius_dataset::open_dataset(out.path()).is_err());

    edit(sources.path());
    let printed = build(sources.path(), out.path());
    assert!(printed.contains(&format!("{old} -> ")), "{printed}");
    let changes = changes_of(&out.path().join(current(out.path())));
    assert_eq!(changes.baseline, Baseline::Compared);
    assert_eq!(changes.summary.dates, 4);

    // A damaged version in service: the build still publishes, and says why nothing was
    // compared.
    let dir = out.path().join(current(out.path()));
    replace_in(&dir.join("years/2011.json"), "Jonas", "Jonaz");
    let mut more = fs::read_to_string(sources.path().join("namedays.csv")).unwrap();
    more += "3,4,Kazimieras,m,MK MN AB\n";
    fs::write(sources.path().join("namedays.csv"), more).unwrap();
    let printed = build(sources.path(), out.path());
    assert!(
        printed.contains("nothing compared (unreadable)"),
        "{printed}"
    );
    let changes = changes_of(&out.path().join(current(out.path())));
    assert_eq!(changes.baseline, Baseline::Unreadable);
    let note = changes.note.unwrap();
    assert!(
        note.contains("years/2011.json") && note.contains("SHA-256"),
        "{note}"
    );
    run(&["verify".as_ref(), "--out".as_ref(), out.path().as_os_str()]);
}

/// A first build says nothing was in service; rebuilding the same sources into the same
/// root says the version is already in service, not that nothing was.
#[test]
fn a_rebuild_of_the_first_version_says_it_is_already_in_service() {
    let out = tempfile::tempdir().unwrap();
    let first = build(&fixture_sources(), out.path());
    assert!(
        first.contains("changes against the version in service before this build: ")
            && first.contains("no dataset was in service"),
        "{first}"
    );
    let again = build(&fixture_sources(), out.path());
    let (_, after_counts) = again.split_once('\n').expect("a summary, then the changes");
    assert!(
        after_counts.starts_with("unchanged: this version was already in service"),
        "{again}"
    );
    assert!(!again.contains("changes against the version in service before this build"));
}
