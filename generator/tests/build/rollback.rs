//! Keeping previous dataset versions, so an operator can go back after a bad regeneration
//! (`build --keep`).

use std::fs;
use std::path::Path;
use std::process::Output;

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
        .filter(|name| name.starts_with("v1-"))
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
