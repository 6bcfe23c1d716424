//! Keeping previous dataset versions and going back to one: what an operator does after a
//! bad regeneration (`build --keep`, `rollback`, `versions`).

use std::fs;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, SystemTime};

use kalendorius_dataset::open_dataset;

use crate::helpers::{fixture_sources, generator, snapshot};

/// Runs the generator with `args` then `--out out`.
fn run(args: &[&str], out: &Path) -> Output {
    generator()
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Builds the fixture for `years` (each range gives its own version) and returns the version.
fn build(out: &Path, years: &str, extra: &[&str]) -> String {
    let sources = fixture_sources();
    let mut args = vec!["build", "--years", years, "--sources"];
    args.push(sources.to_str().unwrap());
    args.extend(extra);
    let done = run(&args, out);
    assert!(done.status.success(), "{}", stderr(&done));
    current(out)
}

/// The version `out/current` names.
fn current(out: &Path) -> String {
    fs::read_link(out.join("current"))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// The version directories in `out`, sorted by name.
fn kept(out: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| kalendorius_generator::versions::is_version_name(name))
        .collect();
    names.sort();
    names
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Asserts a refusal: exit code 1, one line on stderr containing `expected`, stdout empty.
fn assert_refused(output: &Output, expected: &str) -> String {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains(expected),
        "{err}"
    );
    assert!(output.stdout.is_empty(), "{}", stdout(output));
    err
}

#[test]
fn a_second_build_keeps_the_previous_version() {
    let out = tempfile::tempdir().unwrap();
    let a = build(out.path(), "2020..2020", &[]);
    let b = build(out.path(), "2020..2021", &[]);
    assert_ne!(a, b);
    assert_eq!(current(out.path()), b);
    assert_eq!(kept(out.path()), sorted(vec![a.clone(), b]));
    // The kept one is whole, not just a directory name.
    let kept_a = open_dataset(&out.path().join(&a)).unwrap();
    assert_eq!(kept_a.manifest.dataset_version, a);
}

#[test]
fn builds_keep_only_the_n_previous_versions_and_nothing_else_is_touched() {
    let out = tempfile::tempdir().unwrap();
    // Things in the output root that are not dataset versions, or only look like one.
    fs::write(out.path().join("notes.txt"), "operator notes").unwrap();
    fs::create_dir(out.path().join("v1-0123456789ab")).unwrap(); // no manifest
    fs::create_dir(out.path().join("backup")).unwrap();
    fs::write(out.path().join("backup/manifest.json"), "{}").unwrap();
    let foreign = snapshot(out.path());

    let versions: Vec<String> = ["2020..2020", "2020..2021", "2020..2022", "2020..2023"]
        .iter()
        .map(|years| build(out.path(), years, &[]))
        .collect();
    // The default keeps two previous versions besides the current one.
    let expected = |newest: &[String]| {
        let mut names = newest.to_vec();
        names.push("v1-0123456789ab".to_string());
        sorted(names)
    };
    assert_eq!(kept(out.path()), expected(&versions[1..]));
    assert_eq!(current(out.path()), versions[3]);

    let fifth = build(out.path(), "2021..2021", &["--keep", "1"]);
    assert_eq!(
        kept(out.path()),
        expected(&[versions[3].clone(), fifth.clone()])
    );
    let sixth = build(out.path(), "2022..2022", &["--keep", "0"]);
    assert_eq!(kept(out.path()), expected(&[sixth]));

    let after = snapshot(out.path());
    for (path, bytes) in &foreign {
        assert_eq!(after.get(path), Some(bytes), "{path} was touched");
    }
}

#[test]
fn rollback_repoints_current_to_the_previous_version_and_keeps_everything() {
    let out = tempfile::tempdir().unwrap();
    let a = build(out.path(), "2020..2020", &[]);
    let b = build(out.path(), "2020..2021", &[]);
    let c = build(out.path(), "2020..2022", &[]);

    let done = run(&["rollback"], out.path());
    assert!(done.status.success(), "{}", stderr(&done));
    let text = stdout(&done);
    assert!(
        text.contains(&format!("from {c} to {b}"))
            && text.contains("731 days verified")
            && text.contains("kill -HUP"),
        "{text}"
    );
    assert_eq!(current(out.path()), b);
    // A reader (the server's loader) now gets the previous version, whole.
    let loaded = open_dataset(out.path()).unwrap();
    assert_eq!(loaded.manifest.dataset_version, b);
    let mut days = 0;
    loaded.read_days(|_| days += 1).unwrap();
    assert_eq!(days, 731);

    // Again: one further back. Nothing was removed on the way.
    let done = run(&["rollback"], out.path());
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(current(out.path()), a);
    assert_eq!(kept(out.path()), sorted(vec![a.clone(), b, c.clone()]));

    // And forward to a named version.
    let done = run(&["rollback", "--to", &c], out.path());
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(
        open_dataset(out.path()).unwrap().manifest.dataset_version,
        c
    );
}

#[test]
fn rollback_with_nothing_to_roll_back_to_fails_and_leaves_current() {
    let out = tempfile::tempdir().unwrap();
    let refused = run(&["rollback"], out.path());
    assert_refused(&refused, "nothing to roll back from");

    let only = build(out.path(), "2020..2020", &[]);
    let before = snapshot(out.path());
    let refused = run(&["rollback"], out.path());
    assert_refused(&refused, &format!("nothing to roll back to: {only}"));
    assert_eq!(current(out.path()), only);
    assert_eq!(snapshot(out.path()), before);
}

#[test]
fn rollback_to_a_damaged_or_missing_version_refuses_and_leaves_current() {
    let out = tempfile::tempdir().unwrap();
    let a = build(out.path(), "2020..2020", &[]);
    let b = build(out.path(), "2020..2021", &[]);
    let year_file = out.path().join(&a).join("years/2020.json");
    let original = fs::read_to_string(&year_file).unwrap();
    let text = original.replacen("\"laisvadienis\":false", "\"laisvadienis\":FALSE", 1);
    fs::write(&year_file, text).unwrap();

    let refused = run(&["rollback"], out.path());
    let err = assert_refused(&refused, "is damaged");
    assert!(
        err.contains(&format!("{a}/years/2020.json")) && err.contains("SHA-256"),
        "{err}"
    );
    assert_eq!(current(out.path()), b);

    // A database that no longer matches its manifest: the check `verify` does.
    fs::write(&year_file, original).unwrap();
    let db = out.path().join(&a).join("kalendorius.sled");
    fs::remove_dir_all(&db).unwrap();
    kalendorius_dataset::database::write_database(&db, &a, b"", &[]).unwrap();
    let refused = run(&["rollback", "--to", &a], out.path());
    assert_refused(&refused, "is damaged");
    assert_eq!(current(out.path()), b);

    let refused = run(&["rollback", "--to", "v1-000000000000"], out.path());
    assert_refused(&refused, "no dataset version at");
    let refused = run(&["rollback", "--to", "../elsewhere"], out.path());
    assert_refused(&refused, "'../elsewhere' is not a dataset version");
    assert_eq!(current(out.path()), b);
}

#[test]
fn a_build_after_a_rollback_keeps_the_version_that_was_in_service() {
    let out = tempfile::tempdir().unwrap();
    let a = build(out.path(), "2020..2020", &[]);
    build(out.path(), "2020..2021", &[]);
    build(out.path(), "2020..2022", &[]);
    let done = run(&["rollback", "--to", &a], out.path());
    assert!(done.status.success(), "{}", stderr(&done));
    // The two newer ones were bad; the next build keeps the one in service, not them.
    let d = build(out.path(), "2021..2021", &["--keep", "1"]);
    assert_eq!(kept(out.path()), sorted(vec![a.clone(), d]));
    let done = run(&["rollback"], out.path());
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(current(out.path()), a);
}

#[test]
fn build_order_holds_when_the_clock_disagrees() {
    let out = tempfile::tempdir().unwrap();
    let a = build(out.path(), "2020..2020", &[]);
    // As if the clock stepped back after the first build.
    let hour_ahead = SystemTime::now() + Duration::from_secs(3600);
    fs::File::open(out.path().join(&a))
        .unwrap()
        .set_modified(hour_ahead)
        .unwrap();
    let b = build(out.path(), "2020..2021", &[]);
    let listed = run(&["versions"], out.path());
    assert!(listed.status.success(), "{}", stderr(&listed));
    let text = stdout(&listed);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with(&format!("* {b} "))
            && lines[0].contains("years 2020..2021")
            && lines[0].ends_with("(current)"),
        "{text}"
    );
    assert!(lines[1].starts_with(&format!("  {a} ")), "{text}");
    let done = run(&["rollback"], out.path());
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(current(out.path()), a);
}
