//! The README is the front door and `docs/` the manual: the README stays short enough to
//! read through, and both it and the index of `docs/` lead to every document there.

use std::path::{Path, PathBuf};

use crate::{links, markdown};

/// The README's length, in lines: what it is, the two commands, one example per main use,
/// the diagram and the links; the rest belongs in `docs/`.
const README_MAX_LINES: usize = 350;

/// The Markdown documents of `docs/` (relative to the root), sorted.
fn manual() -> Vec<PathBuf> {
    let docs = crate::markdown_files()
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| path.parent() == Some(Path::new("docs")))
        .collect::<Vec<_>>();
    assert!(
        docs.iter().any(|p| p.ends_with("api.md")),
        "docs/api.md is found"
    );
    docs
}

/// The documents `file` (relative to the root) links to, relative to the root, anchors
/// dropped.
fn linked(file: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(crate::root().join(file)).unwrap();
    let dir = file.parent().unwrap_or(Path::new(""));
    markdown::prose_lines(&text)
        .iter()
        .flat_map(|(_, line)| markdown::links(line))
        .filter(|dest| links::scheme(dest).is_none() && !dest.starts_with('#'))
        .filter_map(|dest| links::normalize(&dir.join(dest.split('#').next().unwrap())))
        .collect()
}

#[test]
fn the_readme_is_a_front_door() {
    let text = std::fs::read_to_string(crate::root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail into docs/ \
         (docs/README.md lists where each subject lives)"
    );
}

#[test]
fn the_readme_and_the_index_lead_to_every_document_of_docs() {
    let manual = manual();
    assert!(manual.len() >= 5, "the manual: {manual:?}");
    let index = Path::new("docs/README.md");
    let from_readme = linked(Path::new("README.md"));
    let from_index = linked(index);
    let mut missing = Vec::new();
    for doc in &manual {
        if !from_readme.contains(doc) {
            missing.push(format!("README.md does not link {}", doc.display()));
        }
        if doc != index && !from_index.contains(doc) {
            missing.push(format!("docs/README.md does not link {}", doc.display()));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn links_are_resolved_against_their_document() {
    let readme = linked(Path::new("README.md"));
    assert!(readme.contains(&PathBuf::from("docs/api.md")));
    let index = linked(Path::new("docs/README.md"));
    assert!(index.contains(&PathBuf::from("docs/api.md")), "{index:?}");
    assert!(index.contains(&PathBuf::from("README.md")), "{index:?}");
}
