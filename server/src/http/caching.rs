//! HTTP caching of the public endpoints (docs/api.md, HTTP behaviour). A public 200 is a
//! pure function of the dataset version and the validated parameters, so its strong ETag is
//! built from exactly those, without hashing the body. Keyed responses carry no ETag.

use bytes::Bytes;
use kalendorius_dataset::Date;
use poem::http::{header, HeaderMap, HeaderValue};

pub const PUBLIC: &str = "public, max-age=3600";

pub const PRIVATE: &str = "private";

/// A strong ETag: `"<dataset tag>-<dates joined by ->"`, written in one allocation.
pub fn etag(dataset_tag: &str, dates: &[Date]) -> HeaderValue {
    let mut tag = Vec::with_capacity(dataset_tag.len() + 2 + dates.len() * 11);
    tag.push(b'"');
    tag.extend_from_slice(dataset_tag.as_bytes());
    for &date in dates {
        tag.push(b'-');
        tag.extend_from_slice(&date.iso_bytes());
    }
    tag.push(b'"');
    HeaderValue::from_maybe_shared(Bytes::from(tag))
        .expect("a hex tag, digits and dashes are valid in a header")
}

/// Whether the request's `If-None-Match` matches `etag` (RFC 9110 13.1.2: weak comparison).
pub fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|candidate| {
            candidate == "*" || candidate.strip_prefix("W/").unwrap_or(candidate).as_bytes() == etag
        })
}

/// The answer of a fixed resource (a stylesheet, an icon, a published file), or its 304.
pub fn fixed(
    request: &HeaderMap,
    etag: &HeaderValue,
    cache_control: &'static str,
    content_type: impl TryInto<HeaderValue>,
    body: Bytes,
) -> poem::Response {
    let builder = poem::Response::builder()
        .header(header::ETAG, etag.clone())
        .header(header::CACHE_CONTROL, cache_control);
    if not_modified(request, etag) {
        return builder
            .status(poem::http::StatusCode::NOT_MODIFIED)
            .finish();
    }
    builder
        .header(header::CONTENT_TYPE, content_type)
        .body(body)
}

/// A strong ETag for a body that is not a function of the dataset and parameters alone:
/// `"<prefix>-<16 hex digits of its SHA-256>"`.
pub fn digest_etag(prefix: &str, body: &[u8]) -> HeaderValue {
    let digest = kalendorius_dataset::digest::short_sha256_hex(body);
    HeaderValue::from_str(&format!("\"{prefix}-{digest}\""))
        .expect("hex digits are a valid header value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_follows_weak_comparison() {
        let date = Date::parse("2024-01-01").unwrap();
        let tag = etag("abc", &[date]);
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
