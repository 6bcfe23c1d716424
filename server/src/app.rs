//! The application endpoint: every request passes through [`App::call`], which applies the
//! HTTP policy of docs/api.md in one order. A missing or repeated `Host` is a 400 on any path.
//! To a known path but `/docs`, OPTIONS is a CORS preflight and a method other than GET or
//! HEAD a 405. The operations, `/data` and the pages pass [`App::gate`] (no spelling of a path
//! skips it): a public one is limited per IP, a keyed one authenticated (401) then limited per
//! key (429); only then are parameters checked (400); HEAD runs and counts as GET. The probes
//! and `/metrics` (to `metrics_allow` only) answer without key, limits or count; then the
//! OpenAPI document and `/docs`; anything else is a JSON 404. Every response gets the common
//! headers, one access line, a count by route template ([`route_of`]), and compression from
//! 1 KiB.

pub mod auth;
pub mod openapi;

use std::future::{ready, Future, Ready};
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::SystemTime;

use chrono::DateTime;
use futures_util::future::{BoxFuture, Either, FutureExt};
use poem::http::{header, HeaderName, HeaderValue, Method, StatusCode, Uri, Version};
use poem::{Endpoint, IntoResponse, Request, Response};

use crate::api;
use crate::api::endpoint::{Access, Context, Endpoint as Operation};
use crate::api::today::{Today, TodayClock};
use crate::catalog::Catalog;
use crate::clock::{Instant, Reading};
use crate::data::DataHandle;
use crate::feeds::Feeds;
use crate::health::{self, Probe};
use crate::http::caching;
use crate::http::client_ip::{IpNet, TrustedProxies};
use crate::http::compression::Compressor;
use crate::http::docs_pages::DocsPages;
use crate::http::errors::{self, ApiError, ErrorCode, ALLOW};
use crate::limits::{Decision, PublicEndpoint, Window};
use crate::metrics::{self, ConnectionMetrics, Metrics};
use crate::published::Published;
use crate::state::keys::{KeyError, KeyRecord};
use crate::state::store::{AuthError, Counted, StateUnavailable, Store};
use crate::telemetry;

/// Parsed once (a `&str` name is parsed on each insert).
const X_DATASET_VERSION: HeaderName = HeaderName::from_static("x-dataset-version");
const RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("ratelimit-limit");
const RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("ratelimit-remaining");
const RATELIMIT_RESET: HeaderName = HeaderName::from_static("ratelimit-reset");
const ANY: HeaderValue = HeaderValue::from_static("*");

/// Headers a proxy adds to name the client it relays for: any of them marks a request as
/// relayed (see [`App::target`]).
const RELAY_HEADERS: [HeaderName; 4] = [
    HeaderName::from_static("x-forwarded-for"),
    header::FORWARDED,
    HeaderName::from_static("x-real-ip"),
    HeaderName::from_static("true-client-ip"),
];

pub const OPENAPI_PATH: &str = "/api/v1/openapi.json";

/// The route table of the API: every operation, in the order of the OpenAPI document.
pub const ROUTES: &[&Operation] = &[
    &api::laisvadienis::ENDPOINT,
    &api::days::ENDPOINT,
    &api::holidays::ENDPOINT,
    &api::holidays_upcoming::ENDPOINT,
    &api::long_weekends::ENDPOINT,
    &api::name_days::ENDPOINT,
    &api::day::ENDPOINT,
    &api::working_time::ENDPOINT,
    &api::working_days::ENDPOINT,
    &api::working_days_add::ENDPOINT,
    &api::leave::ENDPOINT,
    &api::shift_hours::ENDPOINT,
    &api::name_search::ENDPOINT,
    &api::holidays_feed::ENDPOINT,
    &api::name_days_feed::ENDPOINT,
    &api::school_holidays::ENDPOINT,
    &api::school_holidays_feed::ENDPOINT,
    &api::sun::ENDPOINT,
    &api::moon::ENDPOINT,
    &api::moon_feed::ENDPOINT,
];

/// The route labels of the metrics after the operations' paths, in the order of [`route_of`].
const OTHER_ROUTES: [&str; 8] = [
    OPENAPI_PATH,
    "page",
    "data",
    "docs",
    "health",
    "ready",
    "metrics",
    "other",
];

fn route_labels() -> Vec<String> {
    let operations = ROUTES.iter().map(|e| format!("{}{}", api::PREFIX, e.path));
    operations.chain(OTHER_ROUTES.map(String::from)).collect()
}

/// The index in [`route_labels`] of a request to `path` that went to `target` (unknown: `other`).
fn route_of(target: Option<Target>, path: &str) -> usize {
    let other = match target {
        Some(Target::Op(index)) => return index,
        Some(Target::OpenApi) => 0,
        Some(Target::Page) => 1,
        Some(Target::Data) => 2,
        None if path == "/docs" || path.starts_with("/docs/") => 3,
        Some(Target::Probe(probe)) if probe.path == health::HEALTH_PATH => 4,
        Some(Target::Probe(_)) => 5,
        Some(Target::Metrics) => 6,
        None => 7,
    };
    ROUTES.len() + other
}

/// What an exact path answers, when it is not `/docs` (see the module docs).
#[derive(Clone, Copy)]
enum Target {
    Op(usize),
    OpenApi,
    Probe(&'static Probe),
    Metrics,
    Page,
    Data,
}

impl Target {
    fn from_path(path: &str) -> Option<Target> {
        match path {
            OPENAPI_PATH => Some(Target::OpenApi),
            metrics::PATH => Some(Target::Metrics),
            _ if path.starts_with("/data/") => Some(Target::Data),
            _ => path
                .strip_prefix(api::PREFIX)
                .and_then(|path| ROUTES.iter().position(|e| e.path == path))
                .map(Target::Op)
                .or_else(|| Probe::from_path(path).map(Target::Probe))
                .or_else(|| crate::pages::is_page_path(path).then_some(Target::Page)),
        }
    }
}

/// The application. Built once at start-up; cheap to share.
pub struct App {
    data: Arc<DataHandle>,
    store: Store,
    proxies: TrustedProxies,
    spec: bytes::Bytes,
    /// A shifted clock for `today` (tests); `None` reads the request's arrival time.
    today_clock: Option<TodayClock>,
    pages: crate::pages::Pages,
    spec_etag: HeaderValue,
    docs_pages: DocsPages,
    compressor: Compressor,
    published: Published,
    feeds: Feeds,
    metrics: Metrics,
    metrics_allow: Vec<IpNet>,
}

/// What every response's common headers and access line need to know about its request.
struct Exchange {
    /// Its wall-clock time serves rate limits, key expiry and the log.
    arrival: Reading,
    catalog: arc_swap::Guard<Arc<Catalog>>,
    client_ip: IpAddr,
    route: usize,
    /// As received (a HEAD is answered as a GET, then stripped).
    method: Method,
    decision: Option<Decision>,
    /// The key that authenticated (its owner is logged, never the key).
    key: Option<KeyRecord>,
}

/// An answer now (every GET of the API), or its future (HEAD, a store that must be awaited).
type Answered<'a> = Either<Ready<Response>, BoxFuture<'a, Response>>;

impl App {
    pub fn new(
        data: Arc<DataHandle>,
        store: Store,
        proxies: TrustedProxies,
        metrics_allow: Vec<IpNet>,
        today_clock: Option<TodayClock>,
    ) -> App {
        let spec = App::openapi_json();
        let metrics = Metrics::new(route_labels(), &data.reload_metrics, store.redis_metrics());
        metrics.show_cache("answers", &data.answers_metrics);
        metrics.start_at_zero(
            &[Window::Minute, Window::Day, Window::Month].map(Window::name),
            &KEY_FAILURES.map(|(_, label)| label),
        );
        App {
            docs_pages: DocsPages::new(&spec),
            spec_etag: caching::digest_etag("openapi", spec.as_bytes()),
            spec: spec.into(),
            published: Published::new(&data.root, metrics.cache("published")),
            data,
            store,
            proxies,
            today_clock,
            pages: crate::pages::Pages::new(metrics.cache("pages")),
            compressor: Compressor::new(metrics.cache("compressed")),
            feeds: Feeds::new(metrics.cache("feeds")),
            metrics,
            metrics_allow,
        }
    }

    /// The handles the accept loop counts connections in (`crate::http::connections`).
    pub fn connection_metrics(&self) -> ConnectionMetrics {
        self.metrics.connections.clone()
    }

    /// What `path` answers for a request from `client_ip`. `/metrics` is no target outside
    /// `metrics_allow`, nor for a request `relayed` by an untrusted proxy: behind a proxy on
    /// the same host, every client would otherwise be the proxy's loopback address.
    fn target(&self, path: &str, client_ip: IpAddr, relayed: bool) -> Option<Target> {
        Target::from_path(path).filter(|target| {
            !matches!(target, Target::Metrics)
                || (!relayed && self.metrics_allow.iter().any(|net| net.contains(client_ip)))
        })
    }

    /// Authenticates (401), checks and counts (429), then answers. A check that cannot be made
    /// passes a public request uncounted and refuses a keyed one (503).
    async fn gate(&self, target: Target, req: &Request, ex: &mut Exchange) -> Response {
        let counted = match target {
            Target::Op(index) => match ROUTES[index].access {
                Access::Public(endpoint) => Some(Counted::Public(ex.client_ip, endpoint)),
                Access::Keyed => match self.authenticate(req, ex.arrival.wall).await {
                    Ok(record) => Some(Counted::Key(ex.key.insert(record))),
                    Err(refusal) => return refusal,
                },
            },
            // The stylesheet and the icon are fetched once per browser: not counted.
            Target::Page if self.pages.is_asset(req.uri().path()) => None,
            Target::Page => Some(Counted::Public(ex.client_ip, PublicEndpoint::Pages)),
            Target::Data => Some(Counted::Public(ex.client_ip, PublicEndpoint::Data)),
            _ => None,
        };
        if let Some(counted) = counted {
            let keyed = matches!(counted, Counted::Key(_));
            match self.store.check(counted, ex.arrival.wall).await {
                Ok(decision) => {
                    if let Some(window) = ex.decision.insert(decision).refused_by {
                        self.metrics.limiter_refusal(window.name());
                        return rate_limited(window, keyed).into_response();
                    }
                }
                Err(StateUnavailable) if keyed => {
                    return errors::state_unavailable().into_response()
                }
                Err(StateUnavailable) => self.store.warn_uncounted(ex.arrival.wall),
            }
        }
        let today = Today::at(ex.arrival.wall, self.today_clock);
        match target {
            Target::Op(index) => {
                let context = Context {
                    catalog: &ex.catalog,
                    today: &today,
                    feeds: &self.feeds,
                };
                // A panic (a bug) still gets a JSON 500, the common headers and its log line.
                let run = || {
                    ROUTES[index]
                        .answer(req, &context)
                        .unwrap_or_else(IntoResponse::into_response)
                };
                std::panic::catch_unwind(AssertUnwindSafe(run))
                    .unwrap_or_else(errors::panic_response)
            }
            Target::Data => self.published.answer(req, &ex.catalog),
            _ => self.pages.answer(req, &ex.catalog, today.current()),
        }
    }

    /// The record of the key `req` presents, or the refusal: a 401 (counted by its code), or
    /// a 503 when keys cannot be read.
    async fn authenticate(&self, req: &Request, now: SystemTime) -> Result<KeyRecord, Response> {
        let refusal = match auth::presented_key(req) {
            // The key may well be there, sent wrongly.
            None if auth::has_other_scheme(req) => ApiError::new(
                ErrorCode::MissingKey,
                "Authorization header must use the Bearer scheme: `Authorization: Bearer <key>` (or \
                 send the key in the X-API-Key header)",
            ),
            None => ApiError::new(
                ErrorCode::MissingKey,
                "an API key is required: send it in the X-API-Key header (or as Authorization: Bearer <key>)",
            ),
            Some(key) => match self.store.authenticate(&key, DateTime::from(now)).await {
                Ok(record) => return Ok(record),
                Err(AuthError::Key(KeyError::Invalid)) => ApiError::new(
                    ErrorCode::InvalidKey,
                    "the API key is not valid or has been revoked",
                ),
                Err(AuthError::Key(KeyError::Expired)) => {
                    ApiError::new(ErrorCode::ExpiredKey, "the API key has expired")
                }
                Err(AuthError::Unavailable(_)) => errors::state_unavailable(),
            },
        };
        let failure = KEY_FAILURES.iter().find(|(code, _)| *code == refusal.code);
        if let Some(&(_, label)) = failure {
            self.metrics.key_failure(label);
        }
        Err(refusal.into_response())
    }

    /// Answers a request to a target by its method; a HEAD exactly as a GET (same checks, count).
    fn answer_api(&self, target: Target, read: bool, req: &Request, ex: &mut Exchange) -> Response {
        match target {
            _ if ex.method == Method::OPTIONS => preflight(req),
            _ if !read => errors::method_not_allowed().into_response(),
            // Only a store that answers at once gets here (see `respond`): polled once.
            Target::Op(_) | Target::Page | Target::Data => self
                .gate(target, req, ex)
                .now_or_never()
                .unwrap_or_else(|| errors::state_unavailable().into_response()),
            Target::OpenApi => caching::fixed(
                req.headers(),
                &self.spec_etag,
                caching::PUBLIC,
                errors::JSON_CONTENT_TYPE,
                self.spec.clone(),
            ),
            Target::Probe(probe) => health::answer(probe, &self.store),
            Target::Metrics => Response::builder()
                .header(header::CONTENT_TYPE, metrics::CONTENT_TYPE)
                .header(header::CACHE_CONTROL, "no-store")
                .body(
                    self.metrics
                        .scrape(ex.catalog.version, self.store.unready_reason().is_none()),
                ),
        }
    }

    /// Compresses an answer as the request allows, then finishes it: at once, or for a HEAD
    /// after its body is dropped (keeping its length). Every answer passes here.
    fn conclude(&self, resp: Response, req: Request, ex: Exchange) -> Answered<'_> {
        // Nothing beyond a length check for an answer under 1 KiB.
        let mut resp = self.compressor.encode(req.uri(), req.headers(), resp);
        if ex.method != Method::HEAD {
            return Either::Left(ready(self.finish(resp, req.uri(), ex)));
        }
        Either::Right(Box::pin(async move {
            let len = resp.take_body().into_bytes().await.map_or(0, |b| b.len());
            if !matches!(
                resp.status(),
                StatusCode::NOT_MODIFIED | StatusCode::NO_CONTENT
            ) {
                resp.headers_mut()
                    .insert(header::CONTENT_LENGTH, HeaderValue::from(len));
            }
            self.finish(resp, req.uri(), ex)
        }))
    }

    /// Adds the common headers, logs and counts.
    fn finish(&self, mut resp: Response, uri: &Uri, ex: Exchange) -> Response {
        finish_headers(&mut resp, &ex.catalog, ex.decision.as_ref());
        let latency = Instant::now().saturating_duration_since(ex.arrival.instant);
        self.metrics
            .request(ex.route, resp.status().as_u16(), latency);
        telemetry::access(
            ex.arrival.wall,
            &ex.method,
            uri,
            resp.status(),
            latency,
            ex.client_ip,
            ex.key.as_ref().map(|k| k.owner.as_str()),
        );
        resp
    }

    fn respond(&self, req: Request) -> Answered<'_> {
        let arrival = crate::clock::now();
        let peer = req.remote_addr().as_socket_addr().copied();
        let client_ip = self.proxies.client_ip(peer, req.headers());
        // Forwarded, and not resolved to another client by a trusted proxy.
        let relayed = RELAY_HEADERS
            .iter()
            .any(|name| req.headers().contains_key(name))
            && peer.is_some_and(|p| p.ip().to_canonical() == client_ip);
        let target = self.target(req.uri().path(), client_ip, relayed);
        let mut ex = Exchange {
            arrival,
            catalog: self.data.current(),
            client_ip,
            route: route_of(target, req.uri().path()),
            method: req.method().clone(),
            decision: None,
            key: None,
        };
        let host_refused = host_refusal(&req);
        let read = ex.method == Method::GET || ex.method == Method::HEAD;
        // A store that must be awaited (Redis): the gate runs in a boxed future.
        let awaits_store = read && host_refused.is_none() && !self.store.answers_at_once();
        let awaited = target.filter(|_| awaits_store);
        if let Some(target @ (Target::Op(_) | Target::Page | Target::Data)) = awaited {
            return Either::Right(Box::pin(async move {
                let resp = self.gate(target, &req, &mut ex).await;
                self.conclude(resp, req, ex).await
            }));
        }
        // Paths match exactly: a known one with a trailing slash is a 404 with a hint.
        let mistyped = || {
            let known = req.uri().path().strip_suffix('/')?;
            self.target(known, client_ip, relayed).map(|_| {
                ApiError::new(
                    ErrorCode::NotFound,
                    format!("no such path; did you mean {known}? (paths take no trailing slash; see /docs)"),
                )
            })
        };
        let resp = match host_refused {
            Some(refusal) => refusal.into_response(),
            None => target
                .map(|target| self.answer_api(target, read, &req, &mut ex))
                .or_else(|| mistyped().map(IntoResponse::into_response))
                .or_else(|| self.docs_pages.answer(&req))
                .unwrap_or_else(|| {
                    ApiError::new(
                        ErrorCode::NotFound,
                        "no such path; the API is under /api/v1, see /docs (or /api/v1/openapi.json)",
                    )
                    .into_response()
                }),
        };
        self.conclude(resp, req, ex)
    }
}

impl Endpoint for App {
    type Output = Response;

    /// Answers synchronously whenever it can: poem boxes a small ready future then, not the
    /// state machine of every path (over 2 KiB, copied into the box per request).
    fn call(&self, req: Request) -> impl Future<Output = poem::Result<Response>> + Send {
        // Caught here, before any future is polled (poem's `CatchPanic` only guards polling).
        std::panic::catch_unwind(AssertUnwindSafe(|| self.respond(req)))
            .unwrap_or_else(|panic| Either::Left(ready(errors::panic_response(panic))))
            .map(Ok)
    }
}

/// The error codes of a key failure (a 401), each with its `code` label as the body writes it.
const KEY_FAILURES: [(ErrorCode, &str); 3] = [
    (ErrorCode::MissingKey, "missing_key"),
    (ErrorCode::InvalidKey, "invalid_key"),
    (ErrorCode::ExpiredKey, "expired_key"),
];

/// The 400 RFC 9112 (3.2) requires: an HTTP/1.1 request without `Host`, or any with more
/// than one (servers on the way could each read another); HTTP/2 uses `:authority`.
fn host_refusal(req: &Request) -> Option<ApiError> {
    let mut hosts = req.headers().get_all(header::HOST).iter();
    let problem = match (hosts.next(), hosts.next()) {
        (Some(_), Some(_)) => "the request has more than one Host header; send exactly one",
        (None, _) if req.version() == Version::HTTP_11 => {
            "an HTTP/1.1 request needs a Host header naming the server"
        }
        _ => return None,
    };
    Some(ApiError::new(ErrorCode::InvalidHost, problem))
}

/// The 429 of an exhausted window of a key or of an address.
fn rate_limited(window: Window, keyed: bool) -> ApiError {
    let whose = if keyed {
        "requests with this API key"
    } else {
        "requests from this address to this endpoint"
    };
    let code = match window {
        Window::Minute => ErrorCode::RateLimitMinute,
        Window::Day => ErrorCode::RateLimitDay,
        Window::Month => ErrorCode::RateLimitMonth,
    };
    ApiError::new(
        code,
        format!("the per-{} limit of {whose} is used up; retry after the number of seconds in the Retry-After header", window.name()),
    )
}

fn preflight(req: &Request) -> Response {
    let allow_headers = req
        .headers()
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned()
        .unwrap_or(HeaderValue::from_static(
            "X-API-Key, Authorization, If-None-Match",
        ));
    Response::builder()
        .status(StatusCode::NO_CONTENT)
        .header(header::ALLOW, ALLOW)
        .header(header::ACCESS_CONTROL_ALLOW_METHODS, ALLOW)
        .header(header::ACCESS_CONTROL_ALLOW_HEADERS, allow_headers)
        .header(header::ACCESS_CONTROL_MAX_AGE, "86400") // a day
        .finish()
}

fn finish_headers(resp: &mut Response, catalog: &Catalog, decision: Option<&Decision>) {
    let status = resp.status();
    let headers = resp.headers_mut();
    headers.insert(X_DATASET_VERSION, catalog.version_header.clone());
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, ANY);
    if status != StatusCode::NO_CONTENT {
        // `*` exposes every header without credentials (which `Allow-Origin: *` rules out
        // anyway), 118 bytes shorter on every response than naming them.
        headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, ANY);
    }
    if let Some(d) = decision {
        let [limit, remaining, reset] = numeric_values([d.limit, d.remaining, d.reset_secs]);
        headers.insert(RATELIMIT_LIMIT, limit);
        headers.insert(RATELIMIT_REMAINING, remaining);
        headers.insert(RATELIMIT_RESET, reset);
        if d.refused_by.is_some() {
            let retry = d.retry_after_secs.unwrap_or(d.reset_secs).max(1);
            headers.insert(header::RETRY_AFTER, HeaderValue::from(retry));
        }
    }
    if !status.is_success() && status != StatusCode::NOT_MODIFIED {
        headers
            .entry(header::CACHE_CONTROL)
            .or_insert(HeaderValue::from_static("no-store"));
    }
}

/// Header values of `numbers`, each in an allocation of exactly its size: a shared or roomy
/// buffer costs `bytes` a second allocation and reference counting on every clone and drop.
fn numeric_values<const N: usize>(numbers: [u64; N]) -> [HeaderValue; N] {
    let mut digits = itoa::Buffer::new();
    numbers.map(|n| {
        let text = bytes::Bytes::copy_from_slice(digits.format(n).as_bytes());
        HeaderValue::from_maybe_shared(text).expect("decimal digits are a valid header value")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusal_codes_match_the_limiter_windows() {
        for window in [Window::Minute, Window::Day, Window::Month] {
            let resp = rate_limited(window, false).into_response();
            assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
            let code = match window {
                Window::Minute => ErrorCode::RateLimitMinute,
                Window::Day => ErrorCode::RateLimitDay,
                Window::Month => ErrorCode::RateLimitMonth,
            };
            assert_eq!(serde_json::to_value(code).unwrap(), window.code());
        }
    }

    #[test]
    fn numeric_values_are_the_decimal_numbers() {
        let values = numeric_values([0, 60, u64::MAX]);
        let shown: Vec<&[u8]> = values.iter().map(HeaderValue::as_bytes).collect();
        assert_eq!(shown, [&b"0"[..], b"60", b"18446744073709551615"]);
    }

    #[test]
    fn probes_and_the_document_are_targets_too() {
        let target = Target::from_path;
        assert!(matches!(target("/health"), Some(Target::Probe(p)) if p.path == "/health"));
        assert!(matches!(target("/ready"), Some(Target::Probe(p)) if p.path == "/ready"));
        assert!(matches!(target(OPENAPI_PATH), Some(Target::OpenApi)));
        assert!(target("/docs").is_none());
        assert!(target("/health/").is_none());
        assert!(target("/api/v1/health").is_none());
        assert!(matches!(target("/2026/12"), Some(Target::Page)));
        assert!(matches!(target("/abc"), Some(Target::Page)));
        assert!(matches!(target("/metrics"), Some(Target::Metrics)));
        assert!(target("/metrics/").is_none());
    }

    #[test]
    fn route_labels_are_bounded_whatever_the_path() {
        let labels = route_labels();
        let label = |path: &str| labels[route_of(Target::from_path(path), path)].as_str();
        assert_eq!(label("/api/v1/day"), "/api/v1/day");
        assert_eq!(label("/api/v1/laisvadienis"), "/api/v1/laisvadienis");
        assert_eq!(label(OPENAPI_PATH), OPENAPI_PATH);
        assert_eq!(label("/2026/12/24"), "page");
        assert_eq!(label("/no-such-page-at-all"), "page");
        assert_eq!(label("/data/years/2026.json"), "data");
        assert_eq!(label("/docs"), "docs");
        assert_eq!(label("/docs/swagger.js"), "docs");
        assert_eq!(label("/health"), "health");
        assert_eq!(label("/ready"), "ready");
        assert_eq!(label("/metrics"), "metrics");
        for unknown in [
            "/api/v2/days",
            "/api/v1/days/",
            "/api/v1/nonsense?x=1",
            "/api/\u{1F600}",
            "/docsx",
            "/metrics/",
            "/health/",
        ] {
            assert_eq!(label(unknown), "other", "{unknown}");
        }
        // One label per operation and per other route, no two alike.
        let distinct: std::collections::BTreeSet<_> = labels.iter().collect();
        assert_eq!(distinct.len(), ROUTES.len() + OTHER_ROUTES.len());
        assert_eq!(labels.last().map(String::as_str), Some("other"));
    }

    #[test]
    fn key_failure_codes_are_the_error_codes_of_the_body() {
        for (code, label) in KEY_FAILURES {
            assert_eq!(serde_json::to_value(code).unwrap(), label);
            assert_eq!(code.status(), StatusCode::UNAUTHORIZED);
        }
        assert!(!KEY_FAILURES
            .iter()
            .any(|(code, _)| *code == ErrorCode::NotFound));
    }

    #[test]
    fn only_exact_api_paths_are_operations() {
        let id = |path| match Target::from_path(path) {
            Some(Target::Op(i)) => Some(ROUTES[i].operation_id),
            _ => None,
        };
        assert_eq!(id("/api/v1/days"), Some("days"));
        assert_eq!(id("/api/v1/name-days"), Some("name_days"));
        assert_eq!(id("/api/v1/name-days/search"), Some("name_days_search"));
        assert_eq!(id("/api/v1/days/"), None);
        assert_eq!(id("/api/v2/days"), None);
        assert_eq!(id("/api/v1/openapi.json"), None);
    }
}
