//! HTTP caching of the public endpoints (DECISIONS D11).
//!
//! A public 200 is a pure function of the dataset version and the (validated) parameters, so
//! its strong ETag is built from exactly those, without hashing the body: equal tags mean
//! byte-equal bodies, and a new dataset gives every response a new tag. Keyed responses are
//! `Cache-Control: private` and carry no ETag.

use poem::http::{header, HeaderMap};

/// `Cache-Control` of a successful public response.
pub const PUBLIC: &str = "public, max-age=3600";

/// `Cache-Control` of a successful keyed response.
pub const PRIVATE: &str = "private";

/// A strong ETag: `"<dataset tag>-<parts joined by ->"`.
pub fn etag(dataset_tag: &str, parts: &[&str]) -> String {
    let mut tag = String::with_capacity(dataset_tag.len() + 2 + parts.len() * 11);
    tag.push('"');
    tag.push_str(dataset_tag);
    for part in parts {
        tag.push('-');
        tag.push_str(part);
    }
    tag.push('"');
    tag
}

/// Whether the request's `If-None-Match` matches `etag` (RFC 9110 13.1.2: weak comparison,
/// `*` matches any current representation).
pub fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|candidate| {
            candidate == "*" || candidate.strip_prefix("W/").unwrap_or(candidate) == etag
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_follows_weak_comparison() {
        let tag = etag("abc", &["2024-01-01"]);
        assert_eq!(tag, "\"abc-2024-01-01\"");
        let mut h = HeaderMap::new();
        assert!(!not_modified(&h, &tag));
        h.insert(
            header::IF_NONE_MATCH,
            "\"x\", W/\"abc-2024-01-01\"".parse().unwrap(),
        );
        assert!(not_modified(&h, &tag));
        h.insert(header::IF_NONE_MATCH, "\"abc-2024-01-02\"".parse().unwrap());
        assert!(!not_modified(&h, &tag));
        h.insert(header::IF_NONE_MATCH, "*".parse().unwrap());
        assert!(not_modified(&h, &tag));
    }
}
