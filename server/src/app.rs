//! The application endpoint: every request passes through [`App::call`], which applies the
//! HTTP policy of docs/api.md in one order. A missing or repeated `Host` is a 400 on any path.
//! The route table ([`routes`]) names each path's route. To a known route but the docs,
//! OPTIONS is a CORS preflight and a method other than GET or HEAD a 405. The operations,
//! `/data` and the pages pass the gate (no spelling of a path skips it): a public one is
//! limited per IP, a keyed one authenticated (401) then limited per key (429); only then are
//! parameters checked (400); HEAD runs and counts as GET. On the sled store the gate is plain
//! calls ([`App::admit_sled`]); only Redis is awaited ([`App::admit_redis`]). The probes and
//! `/metrics` (to `metrics_allow` only) answer without key, limits or count; then the OpenAPI
//! document and the docs; anything else is a JSON 404. Every response gets the common headers,
//! one access line, a count by its route's label, and compression from 1 KiB.

pub mod auth;
pub mod openapi;
pub mod routes;

use std::future::{ready, Future, Ready};
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use chrono::DateTime;
use futures_util::future::{BoxFuture, Either, FutureExt};
use poem::http::{header, HeaderName, HeaderValue, Method, StatusCode, Uri, Version};
use poem::{Endpoint, IntoResponse, Request, Response};

use crate::api::endpoint::Context;
use crate::api::today::{Today, TodayClock};
use crate::catalog::Catalog;
use crate::clock::{Instant, Reading};
use crate::data::DataHandle;
use crate::feeds::Feeds;
use crate::health;
use crate::http::caching;
use crate::http::client_ip::{IpNet, TrustedProxies};
use crate::http::compression::Compressor;
use crate::http::docs_pages::DocsPages;
use crate::http::errors::{self, ApiError, ErrorCode, ALLOW};
use crate::limits::{Decision, PublicEndpoint, Window};
use crate::metrics::{self, ConnectionMetrics, Metrics};
use crate::published::Published;
use crate::state::keys::{KeyError, KeyRecord, PresentedKey};
use crate::state::store::redis::RedisState;
use crate::state::store::{AuthError, Counted, StateUnavailable, Store};
use crate::state::State;
use crate::telemetry;
use routes::{Answer, Route, RouteAccess, RouteTable};
pub use routes::{OPENAPI_PATH, ROUTES};

/// Parsed once (a `&str` name is parsed on each insert).
const X_DATASET_VERSION: HeaderName = HeaderName::from_static("x-dataset-version");
const RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("ratelimit-limit");
const RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("ratelimit-remaining");
const RATELIMIT_RESET: HeaderName = HeaderName::from_static("ratelimit-reset");
const ANY: HeaderValue = HeaderValue::from_static("*");

/// Headers a proxy adds to name the client it relays for: any of them marks a request as
/// relayed (see [`App::route`]).
const RELAY_HEADERS: [HeaderName; 4] = [
    HeaderName::from_static("x-forwarded-for"),
    header::FORWARDED,
    HeaderName::from_static("x-real-ip"),
    HeaderName::from_static("true-client-ip"),
];

/// The application. Built once at start-up; cheap to share.
pub struct App {
    data: Arc<DataHandle>,
    store: Store,
    proxies: TrustedProxies,
    routes: RouteTable,
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
    /// The index of its route's label in the metrics.
    route: usize,
    /// As received (a HEAD is answered as a GET, then stripped).
    method: Method,
    decision: Option<Decision>,
    /// The key that authenticated (its owner is logged, never the key).
    key: Option<KeyRecord>,
}

/// What the gate knows of a request before it asks the store.
enum Gate {
    /// Not counted: let through.
    Free,
    /// Counted per client address on a public counter.
    Public(PublicEndpoint),
    /// Counted per key, once the store has found the key the request presents.
    Key(PresentedKey),
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
        let routes = RouteTable::new(ROUTES);
        let metrics = Metrics::new(routes.labels(), &data.reload_metrics, store.redis_metrics());
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
            routes,
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

    /// The index of the route `path` takes for a request from `client_ip`. `/metrics` is no
    /// route outside `metrics_allow`, nor for a request `relayed` by an untrusted proxy: behind
    /// a proxy on the same host, every client would otherwise be the proxy's loopback address.
    /// `relayed` is asked only for such a route: four header look-ups on every request were
    /// a measurable share of a small answer.
    fn route(&self, path: &str, client_ip: IpAddr, relayed: impl Fn() -> bool) -> Option<usize> {
        self.routes.find(path).filter(|&index| {
            self.routes[index].access != RouteAccess::AllowListed
                || (!relayed() && self.metrics_allow.iter().any(|net| net.contains(client_ip)))
        })
    }

    /// How the gate treats a request to `route`, or the 401 of a keyed request that presents
    /// no key.
    fn gate(&self, route: &Route, req: &Request) -> Result<Gate, ApiError> {
        match route.access {
            // The stylesheet and the icon are fetched once per browser: not counted.
            _ if matches!(route.answer, Answer::Page) && self.pages.is_asset(req.uri().path()) => {
                Ok(Gate::Free)
            }
            RouteAccess::Public(counter) => Ok(Gate::Public(counter)),
            RouteAccess::Keyed => self.presented_key(req).map(Gate::Key),
            RouteAccess::Open | RouteAccess::AllowListed => Ok(Gate::Free),
        }
    }

    /// Admits a request the `gate` let on to the sled store, which keeps keys and counters in
    /// this process: its look-up and its check are plain calls, so nothing here can wait.
    /// Authenticates (401), then checks and counts (429).
    fn admit_sled(&self, state: &State, gate: Gate, ex: &mut Exchange) -> Result<(), ApiError> {
        let now = ex.arrival.wall;
        let counted = match gate {
            Gate::Free => return Ok(()),
            Gate::Public(counter) => Counted::Public(ex.client_ip, counter),
            Gate::Key(key) => {
                let looked_up = state.authenticate(&key, DateTime::from(now));
                self.count_key(looked_up.map_err(AuthError::Key), &mut ex.key)?
            }
        };
        self.judge(state.check(counted, now), counted, &mut ex.decision)
    }

    /// Admits a request the `gate` let on to Redis, shared by several processes: as
    /// [`App::admit_sled`], awaiting the store. A check that cannot be made refuses a keyed
    /// request (503) and lets a public one through uncounted.
    async fn admit_redis(
        &self,
        redis: &RedisState,
        gate: Gate,
        ex: &mut Exchange,
    ) -> Result<(), ApiError> {
        let now = ex.arrival.wall;
        let counted = match gate {
            Gate::Free => return Ok(()),
            Gate::Public(counter) => Counted::Public(ex.client_ip, counter),
            Gate::Key(key) => {
                let looked_up = redis.authenticate(&key, DateTime::from(now)).await;
                self.count_key(looked_up, &mut ex.key)?
            }
        };
        match redis.check(counted, now).await {
            Ok(decision) => self.judge(decision, counted, &mut ex.decision),
            Err(StateUnavailable) if matches!(counted, Counted::Key(_)) => {
                Err(errors::state_unavailable())
            }
            Err(StateUnavailable) => {
                redis.warn_uncounted(now);
                Ok(())
            }
        }
    }

    /// The key the store `looked_up`, kept for the log, as whose requests the check counts;
    /// or the refusal: a 401, or a 503 when keys cannot be read.
    fn count_key<'a>(
        &self,
        looked_up: Result<KeyRecord, AuthError>,
        kept: &'a mut Option<KeyRecord>,
    ) -> Result<Counted<'a>, ApiError> {
        let refusal = match looked_up {
            Ok(record) => return Ok(Counted::Key(kept.insert(record))),
            Err(AuthError::Key(KeyError::Invalid)) => ApiError::new(
                ErrorCode::InvalidKey,
                "the API key is not valid or has been revoked",
            ),
            Err(AuthError::Key(KeyError::Expired)) => {
                ApiError::new(ErrorCode::ExpiredKey, "the API key has expired")
            }
            Err(AuthError::Unavailable(_)) => errors::state_unavailable(),
        };
        Err(self.refuse_key(refusal))
    }

    /// Keeps the store's decision on a request of `counted` for the `RateLimit-*` headers; a
    /// refused request gets its 429.
    fn judge(
        &self,
        decision: Decision,
        counted: Counted,
        kept: &mut Option<Decision>,
    ) -> Result<(), ApiError> {
        match kept.insert(decision).refused_by {
            None => Ok(()),
            Some(window) => {
                self.metrics.limiter_refusal(window.name());
                Err(rate_limited(window, matches!(counted, Counted::Key(_))))
            }
        }
    }

    /// The answer to a request the gate `admitted`, or its refusal.
    fn answer_gated(
        &self,
        admitted: Result<(), ApiError>,
        route: &Route,
        req: &Request,
        ex: &Exchange,
    ) -> Response {
        if let Err(refusal) = admitted {
            return refusal.into_response();
        }
        let today = Today::at(ex.arrival.wall, self.today_clock);
        match route.answer {
            Answer::Operation(operation) => {
                let context = Context {
                    catalog: &ex.catalog,
                    today: &today,
                    feeds: &self.feeds,
                };
                // A panic (a bug) still gets a JSON 500, the common headers and its log line.
                let run = || {
                    operation
                        .answer(req, &context)
                        .unwrap_or_else(IntoResponse::into_response)
                };
                std::panic::catch_unwind(AssertUnwindSafe(run))
                    .unwrap_or_else(errors::panic_response)
            }
            Answer::Data => self.published.answer(req, &ex.catalog),
            _ => self.pages.answer(req, &ex.catalog, today.current()),
        }
    }

    /// The key `req` presents, or the 401 of a request that presents none.
    fn presented_key(&self, req: &Request) -> Result<PresentedKey, ApiError> {
        match auth::presented_key(req) {
            Some(key) => Ok(key),
            // The key may well be there, sent wrongly.
            None if auth::has_other_scheme(req) => Err(self.refuse_key(ApiError::new(
                ErrorCode::MissingKey,
                "Authorization header must use the Bearer scheme: `Authorization: Bearer <key>` (or \
                 send the key in the X-API-Key header)",
            ))),
            None => Err(self.refuse_key(ApiError::new(
                ErrorCode::MissingKey,
                "an API key is required: send it in the X-API-Key header (or as Authorization: Bearer <key>)",
            ))),
        }
    }

    /// A key refusal, counted by its code when it is a 401.
    fn refuse_key(&self, refusal: ApiError) -> ApiError {
        let failure = KEY_FAILURES.iter().find(|(code, _)| *code == refusal.code);
        if let Some(&(_, label)) = failure {
            self.metrics.key_failure(label);
        }
        refusal
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
        let relayed = || {
            RELAY_HEADERS
                .iter()
                .any(|name| req.headers().contains_key(name))
                && peer.is_some_and(|p| p.ip().to_canonical() == client_ip)
        };
        let found = self.route(req.uri().path(), client_ip, relayed);
        let mut ex = Exchange {
            arrival,
            catalog: self.data.current(),
            client_ip,
            route: found.unwrap_or(self.routes.other()),
            method: req.method().clone(),
            decision: None,
            key: None,
        };
        let read = ex.method == Method::GET || ex.method == Method::HEAD;
        let resp = match (host_refusal(&req), found.map(|index| &self.routes[index])) {
            (Some(refusal), _) => refusal.into_response(),
            (None, None) => self.not_found(&req, client_ip, relayed),
            (None, Some(route)) => match route.answer {
                Answer::Docs => self
                    .docs_pages
                    .answer(&req)
                    .unwrap_or_else(|| no_such_path().into_response()),
                _ if ex.method == Method::OPTIONS => preflight(&req),
                _ if !read => errors::method_not_allowed().into_response(),
                // A keyed request without a key is refused before any store is asked.
                Answer::Operation(_) | Answer::Page | Answer::Data => {
                    match (self.gate(route, &req), &self.store) {
                        (Err(refusal), _) => refusal.into_response(),
                        (Ok(gate), Store::Sled(state)) => {
                            let admitted = self.admit_sled(state, gate, &mut ex);
                            self.answer_gated(admitted, route, &req, &ex)
                        }
                        // Only Redis is awaited: its gate runs in a boxed future.
                        (Ok(gate), Store::Redis(redis)) => {
                            return Either::Right(Box::pin(async move {
                                let admitted = self.admit_redis(redis, gate, &mut ex).await;
                                let resp = self.answer_gated(admitted, route, &req, &ex);
                                self.conclude(resp, req, ex).await
                            }))
                        }
                    }
                }
                Answer::OpenApi => caching::fixed(
                    req.headers(),
                    &self.spec_etag,
                    caching::PUBLIC,
                    errors::JSON_CONTENT_TYPE,
                    self.spec.clone(),
                ),
                Answer::Probe(probe) => health::answer(probe, &self.store),
                Answer::Metrics => Response::builder()
                    .header(header::CONTENT_TYPE, metrics::CONTENT_TYPE)
                    .header(header::CACHE_CONTROL, "no-store")
                    .body(
                        self.metrics
                            .scrape(ex.catalog.version, self.store.unready_reason().is_none()),
                    ),
            },
        };
        self.conclude(resp, req, ex)
    }

    /// The 404 of a path no route takes; one that does but for a trailing slash gets a hint
    /// (paths match exactly).
    fn not_found(&self, req: &Request, client_ip: IpAddr, relayed: impl Fn() -> bool) -> Response {
        let path = req.uri().path();
        let known = path
            .strip_suffix('/')
            .filter(|known| self.route(known, client_ip, &relayed).is_some());
        let error = match known {
            Some(known) => ApiError::new(
                ErrorCode::NotFound,
                format!(
                    "no such path; did you mean {known}? (paths take no trailing slash; see /docs)"
                ),
            ),
            None => no_such_path(),
        };
        error.into_response()
    }
}

fn no_such_path() -> ApiError {
    ApiError::new(
        ErrorCode::NotFound,
        "no such path; the API is under /api/v1, see /docs (or /api/v1/openapi.json)",
    )
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
    fn probes_docs_and_the_document_are_routes_too() {
        let routes = RouteTable::new(ROUTES);
        let answer = |path| routes.find(path).map(|index| routes[index].answer);
        assert!(matches!(answer("/health"), Some(Answer::Probe(p)) if p.path == "/health"));
        assert!(matches!(answer("/ready"), Some(Answer::Probe(p)) if p.path == "/ready"));
        assert!(matches!(answer(OPENAPI_PATH), Some(Answer::OpenApi)));
        assert!(matches!(answer("/docs"), Some(Answer::Docs)));
        assert!(matches!(answer("/docs/"), Some(Answer::Docs)));
        assert!(answer("/docsx").is_none());
        assert!(answer("/health/").is_none());
        assert!(answer("/api/v1/health").is_none());
        assert!(matches!(answer("/2026/12"), Some(Answer::Page)));
        assert!(matches!(answer("/abc"), Some(Answer::Page)));
        assert!(matches!(
            answer("/data/years/2026.json"),
            Some(Answer::Data)
        ));
        assert!(matches!(answer("/metrics"), Some(Answer::Metrics)));
        assert!(answer("/metrics/").is_none());
    }

    #[test]
    fn route_labels_are_bounded_whatever_the_path() {
        let routes = RouteTable::new(ROUTES);
        let labels: Vec<&str> = routes.labels().collect();
        let label = |path: &str| labels[routes.find(path).unwrap_or(routes.other())];
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
        // One label per route, no two alike, `other` last.
        let distinct: std::collections::BTreeSet<_> = labels.iter().collect();
        assert_eq!(distinct.len(), routes.other() + 1);
        assert_eq!(labels.last(), Some(&"other"));
    }

    #[test]
    fn every_route_says_who_counts_it() {
        let routes = RouteTable::new(ROUTES);
        let access = |path| routes.find(path).map(|index| routes[index].access);
        let public = |counter| Some(RouteAccess::Public(counter));
        assert_eq!(access("/api/v1/days"), public(PublicEndpoint::Days));
        assert_eq!(
            access("/api/v1/feeds/moon.ics"),
            public(PublicEndpoint::Feeds)
        );
        assert_eq!(access("/api/v1/day"), Some(RouteAccess::Keyed));
        assert_eq!(access("/2026"), public(PublicEndpoint::Pages));
        assert_eq!(access("/data/manifest.json"), public(PublicEndpoint::Data));
        assert_eq!(access("/metrics"), Some(RouteAccess::AllowListed));
        for open in ["/health", "/ready", "/docs", OPENAPI_PATH] {
            assert_eq!(access(open), Some(RouteAccess::Open), "{open}");
        }
        // Every public counter counts some route.
        for &counter in PublicEndpoint::ALL {
            let counts = |index| routes[index].access == RouteAccess::Public(counter);
            assert!(
                (0..routes.other()).any(counts),
                "{counter:?} counts no route"
            );
        }
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
        let routes = RouteTable::new(ROUTES);
        let id = |path| match routes.find(path).map(|index| routes[index].answer) {
            Some(Answer::Operation(operation)) => Some(operation.operation_id),
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
