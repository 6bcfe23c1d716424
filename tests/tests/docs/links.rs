//! Links between the documents: a clone must be complete.

use std::path::{Component, Path, PathBuf};

use crate::markdown;

/// `path` with `.` and `..` resolved lexically; `None` when it climbs above its start.
pub fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Whether `dest` names a scheme (`https:`, `mailto:`, `file:` ...).
pub fn scheme(dest: &str) -> Option<&str> {
    let (scheme, _) = dest.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// What is wrong with the link `dest` of the document `file` (relative to the root).
fn check(root: &Path, file: &Path, dest: &str) -> Option<String> {
    if dest.is_empty() {
        return Some("an empty link".into());
    }
    if let Some(scheme) = scheme(dest) {
        return match scheme {
            "http" | "https" | "mailto" => None,
            other => Some(format!("a {other}: link points outside the repository")),
        };
    }
    if dest.starts_with('/') {
        return Some("an absolute path points outside the repository".into());
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (dest, None),
    };
    let target = if path.is_empty() {
        file.to_path_buf()
    } else {
        let Some(target) = normalize(&file.parent().unwrap().join(path)) else {
            return Some("points outside the repository".into());
        };
        target
    };
    let on_disk = root.join(&target);
    if !on_disk.exists() {
        return Some(format!("{} does not exist", target.display()));
    }
    if let Some(anchor) = anchor {
        if target.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&on_disk).unwrap();
            if !markdown::anchors(&text).iter().any(|a| a == anchor) {
                return Some(format!("{} has no heading #{anchor}", target.display()));
            }
        }
    }
    None
}

#[test]
fn every_relative_link_resolves_inside_the_repository() {
    let root = crate::root();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (file, text) in crate::markdown_files() {
        for (n, line) in markdown::prose_lines(&text) {
            for dest in markdown::links(&line) {
                checked += 1;
                if let Some(problem) = check(&root, &file, &dest) {
                    problems.push(format!("{}:{}: ({dest}) {problem}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser broken?"
    );
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

/// How the project's working notes are cited: they live outside the repository, and what
/// they settle is written in docs/ (the API in docs/api.md, the data in docs/data.md). Spelled
/// in pieces so that this file does not cite them itself.
const NOTES: [&str; 3] = [
    concat!("DECI", "SIONS"),
    concat!("shared", "/spec"),
    concat!("shared", "/reference"),
];

/// Whether `line` cites a numbered section of the working notes' interface document: the word
/// `spec`, a space and a digit.
fn cites_spec_section(line: &str) -> bool {
    line.match_indices("spec ")
        .any(|(i, _)| line[i + 5..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Documents a reader of a clone cannot open or look up: the project's working notes live
/// outside the repository, and what they settle is written in docs/.
#[test]
fn no_document_refers_to_notes_outside_the_repository() {
    let mut problems = Vec::new();
    for (file, text) in crate::markdown_files() {
        for (n, line) in text.lines().enumerate() {
            for needle in std::iter::once("../shared").chain(NOTES) {
                if line.contains(needle) {
                    problems.push(format!("{}:{}: {needle}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The same for the code, the sources and the scripts: a comment, doc comment, test message
/// or TOML comment states the rule it follows, or points to the section of docs/ that does,
/// never to a note a clone does not have.
#[test]
fn no_source_cites_the_working_notes() {
    let files = crate::repo_files(|name| {
        name == "Makefile"
            || [".rs", ".md", ".toml", ".sh"]
                .iter()
                .any(|ext| name.ends_with(ext))
    });
    for expected in [
        "Makefile",
        "server/src/lib.rs",
        "sources/holidays/red.toml",
        "bench/run.sh",
        "docs/api.md",
    ] {
        assert!(
            files.iter().any(|(p, _)| p == Path::new(expected)),
            "{expected} is searched"
        );
    }
    let mut problems = Vec::new();
    for (file, text) in &files {
        for (n, line) in text.lines().enumerate() {
            let mut cited: Vec<&str> = NOTES
                .into_iter()
                .filter(|note| line.contains(note))
                .collect();
            if cites_spec_section(line) {
                cited.push("a spec section");
            }
            for what in cited {
                problems.push(format!(
                    "{}:{}: {what}: {}",
                    file.display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "cites notes outside the repository (state the rule, or point to docs/):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_citation_check_catches_what_it_must() {
    let section = format!("`GET /api/v1/days` (spec {}.2): the status", 4);
    assert!(cites_spec_section(&section));
    assert!(cites_spec_section(&format!("spec {}", 7)));
    assert!(!cites_spec_section("the spec's numbers"));
    assert!(!cites_spec_section("spec"));
    assert!(!cites_spec_section("(docs/api.md, `/days`)"));
    let decision = format!("(DECI{}S)", "SION");
    assert!(NOTES.iter().any(|n| decision.contains(n)));
    let interface = format!("the API of `shared/{}/interface.md`", "spec");
    assert!(NOTES.iter().any(|n| interface.contains(n)));
}

#[test]
fn the_checker_catches_what_it_must() {
    let root = crate::root();
    let readme = Path::new("README.md");
    let api = Path::new("docs/api.md");
    assert_eq!(check(&root, api, "data.md"), None);
    assert_eq!(check(&root, api, "../sources/README.md"), None);
    assert_eq!(check(&root, readme, "docs/api.md#keys"), None);
    assert_eq!(check(&root, readme, "https://example.org/x"), None);
    assert!(check(&root, readme, "../notes/interface.md").is_some());
    assert!(check(&root, api, "../../elsewhere.md").is_some());
    assert!(check(&root, readme, "docs/nothing.md").is_some());
    assert!(check(&root, readme, "docs/api.md#no-such-heading").is_some());
    assert!(check(&root, readme, "#no-such-heading").is_some());
    assert!(check(&root, readme, "/etc/passwd").is_some());
    assert!(check(&root, readme, "file:///etc/passwd").is_some());
}

/// The `file.md#anchor` citations of one line of a source or script: the words ending in
/// `.md#` and an anchor (letters, digits, `-`, `_`).
fn cited_anchors(line: &str) -> Vec<(String, String)> {
    let is_path = |c: char| c.is_alphanumeric() || matches!(c, '.' | '/' | '-' | '_');
    let is_anchor = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_');
    let mut found = Vec::new();
    for (at, _) in line.match_indices(".md#") {
        let start = line[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_path(*c))
            .last()
            .map_or(at, |(i, _)| i);
        let rest = &line[at + 4..];
        let end = rest.find(|c| !is_anchor(c)).unwrap_or(rest.len());
        // A trailing `-` or `_` is the sentence's, not the anchor's.
        let anchor = rest[..end].trim_end_matches(['-', '_']);
        if start < at && !anchor.is_empty() {
            found.push((format!("{}.md", &line[start..at]), anchor.to_string()));
        }
    }
    found
}

/// How the README's sections used to be cited by title (`README "Metrics"`, `(README,
/// Metrics)`): such a section moves, and nothing checks the title.
const README_SECTION_CITATIONS: [&str; 4] = ["README \"", "README '", "README, \"", "(README, "];

/// A source, script or setting that points to a section of a document names it as
/// `docs/file.md#anchor`, so that this test can tell when the section moves or is renamed.
#[test]
fn every_section_a_source_cites_exists() {
    let root = crate::root();
    let files = crate::repo_files(|name| {
        matches!(name, "Makefile" | "Containerfile")
            || [".rs", ".sh", ".toml", ".conf", ".service", ".py", ".mjs"]
                .iter()
                .any(|ext| name.ends_with(ext))
    });
    let mut problems = Vec::new();
    let mut checked = 0;
    for (file, text) in &files {
        // This directory's own tests spell wrong citations on purpose.
        if file.starts_with("tests/tests/docs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.display(), n + 1);
            for (path, anchor) in cited_anchors(line) {
                checked += 1;
                // A path from the root, or from the citing file's directory.
                let target = [
                    Path::new(&path).to_path_buf(),
                    file.parent().unwrap().join(&path),
                ]
                .into_iter()
                .filter_map(|p| normalize(&p))
                .find(|p| root.join(p).is_file());
                match target {
                    None => problems.push(format!("{at}: {path} does not exist")),
                    Some(target) => {
                        let text = std::fs::read_to_string(root.join(&target)).unwrap();
                        if !markdown::anchors(&text).contains(&anchor) {
                            problems.push(format!("{at}: {path} has no heading #{anchor}"));
                        }
                    }
                }
            }
            for old in README_SECTION_CITATIONS {
                if line.contains(old) {
                    problems.push(format!(
                        "{at}: cites a README section by title ({old}...): use docs/FILE.md#anchor"
                    ));
                }
            }
        }
    }
    assert!(
        checked >= 10,
        "only {checked} citations found: is the scan broken?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn citations_are_found_in_code_and_comments() {
    assert_eq!(
        cited_anchors("// see docs/operations.md#backups, or (docs/api.md#keys)."),
        [
            ("docs/operations.md".to_string(), "backups".to_string()),
            ("docs/api.md".to_string(), "keys".to_string())
        ]
    );
    assert_eq!(
        cited_anchors("see ../README.md#a-days-status-"),
        [("../README.md".to_string(), "a-days-status".to_string())]
    );
    assert!(cited_anchors("docs/api.md and #anchor").is_empty());
    assert!(README_SECTION_CITATIONS
        .iter()
        .any(|c| "see README \"Metrics\"".contains(c)));
}
