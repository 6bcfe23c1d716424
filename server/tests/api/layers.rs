//! The shape of `server/src` and of `state/src` (the crate of keys and limits the server
//! uses): the layers each crate's documentation names, top to bottom, and no two files that
//! import each other, directly or around a circle.
//!
//! An import is any `crate::a::b` path in a file (doc comments included: a comment that
//! points up is a dependency a reader follows), outside its `#[cfg(test)] mod tests`, and
//! belongs to the file that defines the longest matching module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module by layer, top first (the crate's `//!` documentation). A module
/// may import from its own layer only within itself (that is what makes them siblings).
const LAYERS: &[&[&str]] = &[
    &["main", "lib"],
    &["server", "shutdown"],
    &["app"],
    &["api", "pages", "published", "health"],
    &["feeds"],
    &["i18n"],
    &["data"],
    &["catalog"],
    &["name_index"],
    &["config"],
    &["http", "telemetry"],
    &["clock", "metrics", "memory"],
];

/// The same for the crate `kalendorius-state` (`state/src/lib.rs`).
const STATE_LAYERS: &[&[&str]] = &[
    &["lib"],
    &["state"],
    &["limits"],
    &["key_format", "network", "metrics"],
];

/// Each checked crate's source folder (relative to the workspace) and its layers.
const CRATES: &[(&str, &[&[&str]])] = &[("server/src", LAYERS), ("state/src", STATE_LAYERS)];

/// The module path of every `.rs` file under `dir` (`a/mod.rs` and `a.rs` are both `a`).
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).unwrap().with_extension("");
                let mut parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(parts.last().map(String::as_str), Some("mod")) {
                    parts.pop();
                }
                out.insert(parts.join("::"), path);
            }
        }
    }
    out
}

/// The `crate::` paths of `text` (the segments after `crate::`), `use crate::{a, b::c}`
/// groups expanded one level.
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        if at > 0 && text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for part in inner.split(',') {
                let part = part.split(" as ").next().unwrap().trim();
                if !part.is_empty() {
                    paths.push(segments(part));
                }
            }
        } else {
            paths.push(segments(rest));
        }
    }
    paths
}

fn segments(text: &str) -> Vec<String> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    text[..end]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// File-to-file imports of the crate whose sources are in `dir`, by module path.
fn imports(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let modules = modules(&src);
    let mut graph = BTreeMap::new();
    for (module, path) in &modules {
        let text = std::fs::read_to_string(path).unwrap();
        let text = text.split("\n#[cfg(test)]\nmod tests").next().unwrap();
        let mut targets = BTreeSet::new();
        for segs in crate_paths(text) {
            for k in (1..=segs.len()).rev() {
                let key = segs[..k].join("::");
                if modules.contains_key(&key) {
                    if &key != module {
                        targets.insert(key);
                    }
                    break;
                }
            }
        }
        graph.insert(module.clone(), targets);
    }
    graph
}

fn layer_of(layers: &[&[&str]], module: &str) -> usize {
    let top = module.split("::").next().unwrap();
    let top = if top.is_empty() { "lib" } else { top };
    layers
        .iter()
        .position(|layer| layer.contains(&top))
        .unwrap_or_else(|| panic!("module {module} is in no layer of LAYERS"))
}

#[test]
fn every_import_points_down_a_layer_or_within_its_module() {
    let mut wrong = Vec::new();
    for &(dir, layers) in CRATES {
        for (from, targets) in imports(dir) {
            for to in targets {
                let (top_from, top_to) = (
                    from.split("::").next().unwrap(),
                    to.split("::").next().unwrap(),
                );
                if top_from != top_to && layer_of(layers, &from) >= layer_of(layers, &to) {
                    wrong.push(format!("{dir}: {from} -> {to}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that do not point down:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_files_import_each_other() {
    for &(dir, _) in CRATES {
        let circles = circles(&imports(dir));
        assert!(
            circles.is_empty(),
            "files of {dir} that import each other:\n{}",
            circles.join("\n")
        );
    }
}

/// The circles of `graph`: its strongly connected components of more than one file (Tarjan).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let names: Vec<&String> = graph.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|n| graph[*n].iter().map(|t| index_of[t]).collect())
        .collect();
    struct Tarjan<'a> {
        edges: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        circles: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.edges[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.circles.push(component);
                }
            }
        }
    }
    let n = names.len();
    let mut t = Tarjan {
        edges: &edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        circles: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    let circles: Vec<String> = t
        .circles
        .iter()
        .map(|c| {
            c.iter()
                .map(|&i| names[i].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    circles
}
