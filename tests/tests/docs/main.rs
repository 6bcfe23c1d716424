//! The documentation held to the code and to the repository:
//!
//! - `links`: every relative link of every Markdown file resolves inside the repository
//!   (and its `#anchor` to a heading), no document points outside the clone, no source,
//!   script or document cites the project's working notes, which a clone does not have, and
//!   every `file.md#anchor` a source or script cites names a heading of that document;
//! - `samples`: every sample answer in the Markdown files is what the real server, over the
//!   dataset built from `sources/`, answers to the sample's command; the documents show one
//!   for each endpoint;
//! - `front_door`: the README stays within its length, and it and `docs/README.md` link
//!   every document of `docs/`;
//! - `settings`: `kalendorius.example.toml` is the server's defaults with every key, and
//!   the systemd files in `deploy/` agree with each other;
//! - `limits`: the rate-limit table of `docs/api.md` gives every public counter's routes
//!   and default limits.

mod changelog;
mod front_door;
mod limits;
mod links;
mod markdown;
mod samples;
mod settings;

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is inside the repository")
        .to_path_buf()
}

/// Every Markdown file of the repository, as (path relative to the root, text), sorted.
/// Skips what is not part of a clone: build output, local state, generated datasets.
pub fn markdown_files() -> Vec<(PathBuf, String)> {
    let files = repo_files(|name| name.ends_with(".md"));
    assert!(
        files.iter().any(|(p, _)| p == Path::new("README.md")),
        "the README is found"
    );
    files
}

/// Every file of the repository whose name `keep` accepts, as (path relative to the root,
/// text), sorted. Skips what is not part of a clone: build output, local state, generated
/// datasets.
pub fn repo_files(keep: impl Fn(&str) -> bool) -> Vec<(PathBuf, String)> {
    fn walk(
        root: &Path,
        dir: &Path,
        keep: &dyn Fn(&str) -> bool,
        out: &mut Vec<(PathBuf, String)>,
    ) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy();
            if path.is_dir() {
                let generated = dir.ends_with("output") && name != "README.md";
                if !matches!(name.as_ref(), ".git" | "target" | "var") && !generated {
                    walk(root, &path, keep, out);
                }
            } else if keep(&name) {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.push((path.strip_prefix(root).unwrap().to_path_buf(), text));
            }
        }
    }
    let root = root();
    let mut files = Vec::new();
    walk(&root, &root, &keep, &mut files);
    files
}
