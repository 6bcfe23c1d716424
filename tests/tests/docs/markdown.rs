//! Just enough Markdown: fenced blocks, links, headings and their GitHub anchors.

/// A fenced code block.
#[derive(Debug, Clone)]
pub struct Fence {
    /// The info string (`sh`, `json`, ...).
    pub lang: String,
    /// Line number (0-based) of the opening fence.
    pub line: usize,
    /// The lines between the fences.
    pub text: String,
}

/// The fenced blocks of a document, in order.
pub fn fences(text: &str) -> Vec<Fence> {
    let mut fences = Vec::new();
    let mut open: Option<Fence> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some(Fence {
                        lang: info.trim().to_string(),
                        line: n,
                        text: String::new(),
                    });
                }
            }
            Some(fence) => {
                if trimmed.starts_with("```") {
                    fences.push(open.take().unwrap());
                } else {
                    fence.text.push_str(line);
                    fence.text.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "an unclosed code fence");
    fences
}

/// The lines of a document outside fenced blocks, with their numbers (0-based), and with
/// inline code spans blanked out.
pub fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            out.push((n, without_code_spans(line)));
        }
    }
    out
}

/// `line` with every `` `code` `` span replaced by spaces.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else if in_code {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// The link destinations of one prose line: inline links and images `[text](dest)`,
/// and reference definitions `[label]: dest`.
pub fn links(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') {
        if let Some((_, rest)) = trimmed.split_once("]:") {
            if let Some(dest) = rest.split_whitespace().next() {
                found.push(dest.trim_matches(['<', '>']).to_string());
            }
        }
    }
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let dest = after[..end].split_whitespace().next().unwrap_or("");
        found.push(dest.trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    found
}

/// The GitHub anchors of a document's headings (`## Two commands` -> `two-commands`), with
/// `-1`, `-2` ... for repeated ones.
pub fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let base = slug(title);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.push(anchor);
    }
    seen
}

/// GitHub's heading slug: link targets reduced to their text, lower case, punctuation
/// dropped (letters, digits, `-` and `_` kept), spaces to `-`.
fn slug(title: &str) -> String {
    // `[text](dest)` -> `text`
    let mut text = String::new();
    let mut rest = title.trim();
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(close) = rest[open + mid..].find(')') else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + close + 1..];
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("Two commands"), "two-commands");
    assert_eq!(
        slug("Day status: `laisvadienis` and `days`"),
        "day-status-laisvadienis-and-days"
    );
    assert_eq!(
        slug("`GET /api/v1/days?from=YYYY-MM-DD&to=YYYY-MM-DD` (public)"),
        "get-apiv1daysfromyyyy-mm-ddtoyyyy-mm-dd-public"
    );
    assert_eq!(slug("The dataset (`output/`)"), "the-dataset-output");
    assert_eq!(slug("See [Data](#data) now"), "see-data-now");
}

#[test]
fn links_are_found_outside_code() {
    let line = without_code_spans("a [x](b.md#c) and `[y](z)` and ![i](img.png \"t\")");
    assert_eq!(links(&line), ["b.md#c", "img.png"]);
    assert_eq!(links("[ref]: <docs/api.md>"), ["docs/api.md"]);
}
