//! Shared helpers: fixture copies, builds, and reading a built dataset back.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use kalendorius_dataset::{open_dataset, Day, Manifest};
use kalendorius_generator::{build, BuildError, BuildOptions};

/// The fixture sources of the workspace.
pub fn fixture_sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sources")
}

/// The `kalendorius-generator` binary.
pub fn generator() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kalendorius-generator"))
}

/// Copies a directory tree.
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Builds `sources` into `out` for the given years.
pub fn build_into(sources: &Path, out: &Path, years: Option<(i32, i32)>) -> Result<(), BuildError> {
    build(&BuildOptions {
        sources: sources.to_path_buf(),
        out: out.to_path_buf(),
        years: years.map(|(a, b)| a..=b),
        keep: kalendorius_generator::versions::DEFAULT_KEEP,
    })
    .map(|_| ())
}

/// Every day of the fixture dataset for 1985..2030, built once per test binary and read back
/// through the dataset crate (so the manifest and database checks run too).
pub fn fixture_days() -> &'static BTreeMap<String, Day> {
    static DAYS: OnceLock<BTreeMap<String, Day>> = OnceLock::new();
    DAYS.get_or_init(|| {
        let out = tempfile::tempdir().unwrap();
        build_into(&fixture_sources(), out.path(), Some((1985, 2030))).unwrap();
        let dataset = open_dataset(out.path()).unwrap();
        let mut days = BTreeMap::new();
        dataset
            .read_days(|day| {
                days.insert(day.date.to_string(), day);
            })
            .unwrap();
        days
    })
}

/// The day of a date in the fixture dataset.
pub fn day(date: &str) -> &'static Day {
    fixture_days()
        .get(date)
        .unwrap_or_else(|| panic!("{date} not in the fixture dataset"))
}

/// Every file under `dir` with its bytes, keyed by relative path (symlinks as their target).
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let entry = entry.unwrap();
            let path = entry.path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let kind = entry.file_type().unwrap();
            if kind.is_symlink() {
                let target = fs::read_link(&path).unwrap();
                out.insert(relative, target.to_string_lossy().as_bytes().to_vec());
            } else if kind.is_dir() {
                out.insert(relative.clone() + "/", Vec::new());
                walk(root, &path, out);
            } else {
                out.insert(relative, fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Rewrites the manifest of the dataset directory `dir` after `change`, as someone mending
/// it by hand would (so only the checks beyond the manifest can catch what they did).
pub fn rewrite_manifest(dir: &Path, change: impl FnOnce(&mut Manifest)) {
    let path = dir.join("manifest.json");
    let mut manifest: Manifest = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    change(&mut manifest);
    fs::write(&path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
}

/// Replaces the first `from` in the file at `path` by `to`, which must be there.
pub fn replace_in(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}
