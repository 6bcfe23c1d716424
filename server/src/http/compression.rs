//! Compression of 200s of [`MIN_SIZE`] or more (docs/api.md, Compression; a few hundred bytes
//! cost more than they save). An answer with a strong ETag is the same bytes while its tag
//! lives, so its compressed body is cached, its tag suffixed (`"abc-gz"`): fast the first
//! time (a distinct request costs little; other bytes, so under the weak `W/"abc-gz"`), at
//! the best level once it is asked for again. A
//! cached body is kept for its request (path and query) and tag, and checked against the
//! length of the body it was made from, so it is never served for another request. An answer
//! without a tag (keyed answers) is compressed per request, fast.

use std::hash::BuildHasher;
use std::io::Write as _;

use bytes::Bytes;
use moka::Equivalent;
use poem::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use poem::{Body, IntoResponse, Response};

use crate::http::cache::{self, ByteCache, Weighed};
use crate::http::{caching, errors};
use crate::metrics::CacheMetrics;

pub const MIN_SIZE: u64 = 1024;

/// Bytes of compressed bodies kept, all encodings together: `/docs` in both (0.8 MB) and
/// about a hundred year files or a thousand `/days` years.
pub const CACHE_BUDGET: usize = 4 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    Gzip,
    Brotli,
}

impl Encoding {
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Gzip => "gzip",
            Encoding::Brotli => "br",
        }
    }

    fn compress(self, body: &[u8], level: Level) -> Vec<u8> {
        let (level, quality) = level.settings();
        let level = flate2::Compression::new(level);
        let mut out = Vec::with_capacity(body.len() / 4 + 64);
        match self {
            Encoding::Gzip => {
                let mut encoder = flate2::write::GzEncoder::new(&mut out, level);
                encoder.write_all(body).and_then(|()| encoder.try_finish())
            }
            Encoding::Brotli => {
                // A window no larger than the body: the encoder's memory grows with it.
                let window = (usize::BITS - body.len().leading_zeros()).clamp(16, 22);
                let mut encoder =
                    brotli::CompressorWriter::new(&mut out, 64 << 10, quality, window);
                // Dropped at the end of the block, which finishes the stream.
                encoder.write_all(body).and_then(|()| encoder.flush())
            }
        }
        .expect("writing to a Vec cannot fail");
        out
    }
}

/// How hard a body is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// Brotli's 1 is about as fast as gzip's fastest: a body asked for once (a keyed
    /// answer, a distinct feed or page) costs little.
    Fast,
    /// For a body asked for again. Brotli on the 1.6 MB `/docs` page: quality 9 takes 0.5 s
    /// and 50 MB (over the 64 MiB budget) for 3% fewer bytes than 5 (0.16 s, 15 MB, still
    /// 10% below gzip's best).
    Best,
}

impl Level {
    /// The gzip level and the brotli quality.
    fn settings(self) -> (u32, u32) {
        match self {
            Level::Fast => (1, 1),
            Level::Best => (9, 4),
        }
    }
}

/// The encoding `Accept-Encoding` asks for, or `None` for the body as it is: weights
/// (`;q=`, default 1, 0 refuses), `*` for codings not named, `x-gzip` as `gzip`; brotli when
/// weighed at least as high as gzip. Identity is always acceptable (never a 406).
pub fn negotiate(headers: &HeaderMap) -> Option<Encoding> {
    let (mut gzip, mut br, mut any) = (None, None, None);
    let items = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','));
    for item in items {
        let mut parts = item.split(';');
        let coding = parts.next().unwrap_or("").trim();
        let slot = if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
            &mut gzip
        } else if coding.eq_ignore_ascii_case("br") {
            &mut br
        } else if coding == "*" {
            &mut any
        } else {
            continue;
        };
        let weight = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok());
        let weight = match weight {
            None => 1.0,
            Some(w) if w.is_finite() => w.clamp(0.0, 1.0),
            Some(_) => 0.0,
        };
        // A coding listed twice keeps its higher weight.
        *slot = Some(slot.map_or(weight, |w: f32| w.max(weight)));
    }
    let gzip = gzip.or(any).unwrap_or(0.0);
    let br = br.or(any).unwrap_or(0.0);
    if br > 0.0 && br >= gzip {
        Some(Encoding::Brotli)
    } else if gzip > 0.0 {
        Some(Encoding::Gzip)
    } else {
        None
    }
}

/// `etag` (strong) with `encoding`'s suffix inside the quotes, in one allocation.
fn encoded_etag(etag: &HeaderValue, encoding: Encoding) -> Option<HeaderValue> {
    let inner = etag.as_bytes().strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let suffix: &[u8] = match encoding {
        Encoding::Gzip => b"-gz",
        Encoding::Brotli => b"-br",
    };
    let out = [&b"\""[..], inner, suffix, b"\""].concat();
    HeaderValue::from_maybe_shared(Bytes::from(out)).ok()
}

/// `tag` (strong) as a weak validator: `W/"abc-gz"`.
fn weak(tag: &HeaderValue) -> HeaderValue {
    let out = [&b"W/"[..], tag.as_bytes()].concat();
    HeaderValue::from_maybe_shared(Bytes::from(out)).expect("a valid tag stays valid")
}

/// A compressed body's request (its path and query, hashed with the process's own key: the
/// query may hold an API key, which is kept nowhere) and encoded tag.
#[derive(PartialEq, Eq, Hash)]
struct BodyKey {
    request: u64,
    tag: HeaderValue,
}

/// A [`BodyKey`] borrowed, so a lookup allocates nothing; its fields hash as the key's do.
#[derive(Hash)]
struct BodyKeyRef<'a> {
    request: u64,
    tag: &'a HeaderValue,
}

impl Equivalent<BodyKey> for BodyKeyRef<'_> {
    fn equivalent(&self, key: &BodyKey) -> bool {
        self.request == key.request && *self.tag == key.tag
    }
}

#[derive(Clone)]
struct CompressedBody {
    body: Bytes,
    /// The length of the body it was made from: a cached body of another length was made
    /// for another answer and is never served.
    identity_len: usize,
    level: Level,
}

impl Weighed for CompressedBody {
    fn bytes(&self) -> usize {
        self.body.len()
    }
}

pub struct Compressor {
    cache: ByteCache<BodyKey, CompressedBody>,
    request_hasher: std::hash::RandomState,
}

impl Compressor {
    pub fn new(cache_metrics: CacheMetrics) -> Compressor {
        Compressor {
            cache: ByteCache::new(CACHE_BUDGET, cache_metrics),
            request_hasher: std::hash::RandomState::new(),
        }
    }

    /// `resp` in the encoding `request` accepts, if it is a textual 200 not yet encoded.
    pub fn encode(&self, uri: &Uri, request: &HeaderMap, mut resp: Response) -> Response {
        if resp.status() == StatusCode::NOT_MODIFIED {
            // A 304 carries its 200's `Vary` (RFC 9110, 15.4.5). Its size is not known, so
            // every 304 gets it: on a small answer's it only costs a cache a copy per coding.
            resp.headers_mut()
                .entry(header::VARY)
                .or_insert(HeaderValue::from_static("accept-encoding"));
            return resp;
        }
        if resp.status() != StatusCode::OK {
            return resp;
        }
        let body: http_body_util::combinators::BoxBody<Bytes, std::io::Error> =
            resp.take_body().into();
        let size = hyper::body::Body::size_hint(&body).exact();
        let body = Body::from(body);
        let compressible = size.is_some_and(|size| size >= MIN_SIZE)
            && !resp.headers().contains_key(header::CONTENT_ENCODING)
            && is_textual(resp.headers());
        if compressible {
            resp.headers_mut()
                .append(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        let Some(encoding) = compressible.then(|| negotiate(request)).flatten() else {
            resp.set_body(body);
            return resp;
        };
        // A body of exact size is in memory: its only frame is ready at once.
        let Some(Ok(identity)) = futures_util::FutureExt::now_or_never(body.into_bytes()) else {
            tracing::error!(
                path = uri.path(),
                "an answer of exact size did not have its body ready"
            );
            return errors::internal().into_response();
        };
        let tag = resp
            .headers()
            .get(header::ETAG)
            .and_then(|etag| encoded_etag(etag, encoding));
        let encoded = match tag {
            Some(tag) => {
                if caching::not_modified(request, &tag) {
                    resp.set_status(StatusCode::NOT_MODIFIED);
                    resp.set_body(Body::empty());
                    resp.headers_mut().remove(header::CONTENT_TYPE);
                    resp.headers_mut().insert(header::ETAG, tag);
                    return resp;
                }
                let request = self.request_hasher.hash_one(uri_text(uri));
                let (compressed, level) = self.cached(request, &tag, encoding, &identity);
                // Other bytes than the best form's: the same content, so a weak validator
                // (it still revalidates, as `If-None-Match` compares weakly).
                let tag = match level {
                    Level::Best => tag,
                    Level::Fast => weak(&tag),
                };
                resp.headers_mut().insert(header::ETAG, tag);
                compressed
            }
            None => cache::exact(encoding.compress(&identity, Level::Fast)),
        };
        resp.headers_mut().insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static(encoding.token()),
        );
        resp.set_body(encoded);
        resp
    }

    /// The compressed `identity` for `request` and its encoded `tag`: from the cache, or
    /// compressed now (fast the first time, at the best level when asked for again) and kept.
    fn cached(
        &self,
        request: u64,
        tag: &HeaderValue,
        encoding: Encoding,
        identity: &[u8],
    ) -> (Bytes, Level) {
        let level = match self.cache.get(&BodyKeyRef { request, tag }) {
            Some(kept) if kept.identity_len != identity.len() => {
                // A tag that does not cover everything its answer depends on (a bug).
                tracing::error!(
                    "a cached compressed body was made from another answer; compressed anew"
                );
                Level::Fast
            }
            Some(kept) if kept.level == Level::Best => return (kept.body, Level::Best),
            Some(_) => Level::Best,
            None => Level::Fast,
        };
        let body = cache::exact(encoding.compress(identity, level));
        let key = BodyKey {
            request,
            tag: tag.clone(),
        };
        let kept = CompressedBody {
            body: body.clone(),
            identity_len: identity.len(),
            level,
        };
        self.cache.insert(key, kept);
        (body, level)
    }
}

/// The path and query of `uri` (as received: an absolute-form request's scheme and host
/// are left out, as the answer does not depend on them).
fn uri_text(uri: &Uri) -> &str {
    uri.path_and_query().map_or("/", |pq| pq.as_str())
}

fn is_textual(headers: &HeaderMap) -> bool {
    headers.get(header::CONTENT_TYPE).is_some_and(|kind| {
        let kind = kind.as_bytes();
        kind.starts_with(b"text/")
            || kind.starts_with(b"application/json")
            || kind.starts_with(b"application/javascript")
            || kind.starts_with(b"application/schema+json")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, value.parse().unwrap());
        h
    }

    #[test]
    fn negotiation_follows_the_weights() {
        assert_eq!(negotiate(&HeaderMap::new()), None);
        assert_eq!(negotiate(&accept("gzip")), Some(Encoding::Gzip));
        assert_eq!(
            negotiate(&accept("gzip, deflate, br")),
            Some(Encoding::Brotli)
        );
        assert_eq!(negotiate(&accept("br;q=0.5, gzip")), Some(Encoding::Gzip));
        assert_eq!(
            negotiate(&accept("br;q=0, gzip;q=0.1")),
            Some(Encoding::Gzip)
        );
        assert_eq!(negotiate(&accept("gzip;q=0, br;q=0")), None);
        assert_eq!(negotiate(&accept("*")), Some(Encoding::Brotli));
        assert_eq!(negotiate(&accept("*;q=0.5, br;q=0")), Some(Encoding::Gzip));
        assert_eq!(negotiate(&accept("identity")), None);
        assert_eq!(negotiate(&accept("x-gzip;q=0.8")), Some(Encoding::Gzip));
        assert_eq!(negotiate(&accept("GZIP ; Q=0.3")), Some(Encoding::Gzip));
        assert_eq!(negotiate(&accept("gzip;q=nonsense")), Some(Encoding::Gzip));
    }

    #[test]
    fn encoded_tags_keep_their_quotes() {
        let tag = HeaderValue::from_static("\"abc\"");
        assert_eq!(encoded_etag(&tag, Encoding::Gzip).unwrap(), "\"abc-gz\"");
        assert_eq!(encoded_etag(&tag, Encoding::Brotli).unwrap(), "\"abc-br\"");
        assert!(encoded_etag(&HeaderValue::from_static("W/\"abc\""), Encoding::Gzip).is_none());
    }

    #[test]
    fn the_cache_stays_within_its_budget() {
        let compressor = Compressor {
            cache: ByteCache::new(1024, CacheMetrics::default()),
            request_hasher: std::hash::RandomState::new(),
        };
        let mut kept = 0;
        for i in 0..50 {
            let body = format!("{i} kalendorius ").repeat(300);
            let tag = HeaderValue::from_str(&format!("\"t{i}\"")).unwrap();
            let (compressed, _) = compressor.cached(7, &tag, Encoding::Gzip, body.as_bytes());
            kept += compressed.len();
            assert!(compressor.cache.bytes() <= 1024);
        }
        // More was compressed than fits: the budget evicted some.
        assert!(kept > 1024 && compressor.cache.bytes() > 0);
    }

    fn gunzip(body: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(body), &mut out).unwrap();
        out
    }

    #[test]
    fn a_body_is_served_only_for_the_request_and_answer_it_was_made_from() {
        let compressor = Compressor::new(CacheMetrics::default());
        let tag = HeaderValue::from_static("\"same-tag-gz\"");
        let english = "Christmas ".repeat(200);
        let russian = "Рождество ".repeat(200);
        let (first, _) = compressor.cached(1, &tag, Encoding::Gzip, english.as_bytes());
        assert_eq!(gunzip(&first), english.as_bytes());
        // Another request under the same tag: its own body.
        let (other, _) = compressor.cached(2, &tag, Encoding::Gzip, russian.as_bytes());
        assert_eq!(gunzip(&other), russian.as_bytes());
        // The same request and tag but another answer (a tag that misses a parameter).
        let (wrong, _) = compressor.cached(1, &tag, Encoding::Gzip, russian.as_bytes());
        assert_eq!(gunzip(&wrong), russian.as_bytes());
    }

    #[test]
    fn a_body_asked_for_again_is_compressed_at_the_best_level() {
        let compressor = Compressor::new(CacheMetrics::default());
        let tag = HeaderValue::from_static("\"t-br\"");
        let body: String = (0..4000).map(|i| format!("{} ", i % 97)).collect();
        let first = compressor.cached(1, &tag, Encoding::Brotli, body.as_bytes());
        let again = compressor.cached(1, &tag, Encoding::Brotli, body.as_bytes());
        let kept = compressor.cached(1, &tag, Encoding::Brotli, body.as_bytes());
        assert_eq!(
            (first.1, again.1, kept.1),
            (Level::Fast, Level::Best, Level::Best)
        );
        assert!(
            again.0.len() < first.0.len(),
            "{} < {}",
            again.0.len(),
            first.0.len()
        );
        assert_eq!(kept.0, again.0, "kept at the best level");
    }
}
