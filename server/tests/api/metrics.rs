//! `GET /metrics` (docs/operations.md#metrics): the real output, parsed as the Prometheus text format by
//! `prometheus-parse`, after a known sequence of requests; every counter moves by exactly
//! what was sent. Only the client addresses of `metrics_allow` see it; any other gets the
//! JSON 404 of an unknown path.

use kalendorius_server::http::connections::ConnectionSettings;
use kalendorius_server::limits::LimitsConfig;
use prometheus_parse::{Scrape, Value as Sampled};
use tokio::io::AsyncReadExt;

use crate::connections::{addr_of, connect_from};
use crate::helpers::*;

/// The content type of the Prometheus text format.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The metrics of `app` now, parsed.
async fn scrape(app: &TestApp) -> Scrape {
    let resp = app.get("/metrics").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(header(&resp, "content-type"), Some(TEXT_FORMAT));
    assert_eq!(header(&resp, "cache-control"), Some("no-store"));
    let text = resp.text().await.unwrap();
    assert!(
        !text.contains("# EOF"),
        "OpenMetrics' end marker is not in 0.0.4"
    );
    Scrape::parse(text.lines().map(|line| Ok(line.to_owned()))).expect("the text format parses")
}

/// The value of the sample `name` with exactly `labels`; 0 when there is none (a counter
/// shows up on its first use).
fn value(scrape: &Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    let matching: Vec<f64> = scrape
        .samples
        .iter()
        .filter(|s| s.metric == name && s.labels.len() == labels.len())
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match s.value {
            Sampled::Counter(v) | Sampled::Gauge(v) | Sampled::Untyped(v) => v,
            ref other => panic!("{name}: not a single value: {other:?}"),
        })
        .collect();
    assert!(matching.len() <= 1, "{name} {labels:?}: {matching:?}");
    matching.first().copied().unwrap_or(0.0)
}

/// The sample type `name` was declared with.
fn is_counter(scrape: &Scrape, name: &str) -> bool {
    scrape
        .samples
        .iter()
        .any(|s| s.metric == name && matches!(s.value, Sampled::Counter(_)))
}

const REQUESTS: &str = "kalendorius_http_requests_total";
const LATENCY_COUNT: &str = "kalendorius_http_request_duration_seconds_count";

#[tokio::test]
async fn requests_are_counted_by_route_template_and_status_class() {
    let app = spawn_app().await;
    let before = scrape(&app).await;
    for _ in 0..3 {
        assert_eq!(
            app.get("/api/v1/laisvadienis?date=2024-01-01")
                .await
                .status(),
            200
        );
    }
    // A 400, an unknown API path, a page and a probe.
    assert_eq!(app.get("/api/v1/days").await.status(), 400);
    assert_eq!(app.get("/api/v2/days?x=1").await.status(), 404);
    assert_eq!(app.get("/2024/01").await.status(), 200);
    assert_eq!(app.get("/health").await.status(), 200);
    let after = scrape(&app).await;

    let moved = |route: &str, status: &str| {
        let labels = [("route", route), ("status", status)];
        value(&after, REQUESTS, &labels) - value(&before, REQUESTS, &labels)
    };
    assert_eq!(moved("/api/v1/laisvadienis", "2xx"), 3.0);
    assert_eq!(moved("/api/v1/laisvadienis", "4xx"), 0.0);
    assert_eq!(moved("/api/v1/days", "4xx"), 1.0);
    assert_eq!(moved("other", "4xx"), 1.0);
    assert_eq!(moved("page", "2xx"), 1.0);
    assert_eq!(moved("health", "2xx"), 1.0);
    // The first scrape, counted once it was answered.
    assert_eq!(moved("metrics", "2xx"), 1.0);
    assert!(is_counter(&after, REQUESTS));
    let latencies =
        |scrape: &Scrape| value(scrape, LATENCY_COUNT, &[("route", "/api/v1/laisvadienis")]);
    assert_eq!(latencies(&after) - latencies(&before), 3.0);
    // No raw path is a label value.
    for sample in after.samples.iter().filter(|s| s.metric == REQUESTS) {
        let route = sample.labels.get("route").unwrap();
        assert!(!route.contains('?') && !route.contains("v2"), "{route}");
    }
}

#[tokio::test]
async fn the_dataset_the_state_store_and_the_caches_are_shown() {
    let app = spawn_app().await;
    let version = header(&app.get("/health").await, "x-dataset-version")
        .unwrap()
        .to_string();
    let before = scrape(&app).await;
    for _ in 0..2 {
        assert_eq!(app.get("/2024/01").await.status(), 200);
    }
    let after = scrape(&app).await;
    let info = [("version", version.as_str())];
    assert_eq!(value(&after, "kalendorius_dataset_info", &info), 1.0);
    assert_eq!(value(&after, "kalendorius_state_store_up", &[]), 1.0);
    let loaded = value(
        &after,
        "kalendorius_dataset_last_reload_timestamp_seconds",
        &[],
    );
    assert!(loaded > 1.7e9, "{loaded}");
    for result in ["success", "failure"] {
        let labels = [("result", result)];
        assert_eq!(
            value(&after, "kalendorius_dataset_reloads_total", &labels),
            0.0
        );
    }
    // The month page: built once, then served from the cache.
    let pages = [("cache", "pages")];
    let moved = |name: &str| value(&after, name, &pages) - value(&before, name, &pages);
    assert_eq!(moved("kalendorius_cache_misses_total"), 1.0);
    assert_eq!(moved("kalendorius_cache_hits_total"), 1.0);
    assert!(value(&after, "kalendorius_cache_bytes", &pages) > 0.0);
    for cache in ["compressed", "feeds", "published"] {
        let labels = [("cache", cache)];
        assert_eq!(value(&after, "kalendorius_cache_bytes", &labels), 0.0);
    }
}

/// The dataset's answers cache (keyed answers built once per dataset) is shown with the
/// others; a server of its own, since every other test server shares one dataset.
#[tokio::test]
async fn the_answers_cache_is_shown() {
    let app = spawn_app_with(AppOptions {
        data: Some(dataset().to_path_buf()),
        ..AppOptions::default()
    })
    .await;
    let (key, _) = app.key(None, None);
    let before = scrape(&app).await;
    let mut sizes = Vec::new();
    for _ in 0..2 {
        let resp = app
            .get_keyed("/api/v1/holidays/upcoming?from=2024-01-01&count=20", &key)
            .await;
        assert_eq!(resp.status(), 200);
        sizes.push(resp.bytes().await.unwrap().len());
    }
    // Kept: answers of 512 bytes and more are.
    assert!(sizes[0] >= 512, "{sizes:?}");
    let after = scrape(&app).await;
    let answers = [("cache", "answers")];
    let moved = |name: &str| value(&after, name, &answers) - value(&before, name, &answers);
    assert_eq!(moved("kalendorius_cache_misses_total"), 1.0);
    assert_eq!(moved("kalendorius_cache_hits_total"), 1.0);
    assert!(value(&after, "kalendorius_cache_bytes", &answers) >= sizes[0] as f64);
}

on_both_stores! {
#[tokio::test]
async fn a_429_is_counted_by_its_window(store) {
    let limits = LimitsConfig {
        laisvadienis_per_minute: 2,
        ..LimitsConfig::default()
    };
    let app = spawn_app_with(AppOptions {
        limits: Some(limits),
        ..store.options()
    })
    .await;
    use_up(&app, "/api/v1/laisvadienis?date=2024-01-01", 2, "rate_limit_minute").await;
    let after = scrape(&app).await;
    let refusals = "kalendorius_rate_limit_refusals_total";
    // Every window is shown from the start.
    let shown = |name: &str| after.samples.iter().filter(|s| s.metric == name).count();
    assert_eq!(shown(refusals), 3);
    assert_eq!(shown("kalendorius_key_failures_total"), 3);
    assert_eq!(value(&after, refusals, &[("window", "minute")]), 1.0);
    assert_eq!(value(&after, refusals, &[("window", "month")]), 0.0);
    let route = |status| [("route", "/api/v1/laisvadienis"), ("status", status)];
    assert_eq!(value(&after, REQUESTS, &route("2xx")), 2.0);
    assert_eq!(value(&after, REQUESTS, &route("4xx")), 1.0);
    assert_eq!(value(&after, "kalendorius_state_store_up", &[]), 1.0);
    let redis_checks = value(
        &after,
        "kalendorius_redis_command_duration_seconds_count",
        &[("command", "check")],
    );
    if store == StoreKind::Redis {
        // One check script per counted request, the refused one included.
        assert_eq!(redis_checks, 3.0);
        app.stop_redis().await;
        let down = scrape(&app).await;
        assert_eq!(value(&down, "kalendorius_state_store_up", &[]), 0.0);
    } else {
        assert_eq!(redis_checks, 0.0);
    }
}
}

on_both_stores! {
#[tokio::test]
async fn key_failures_are_counted_by_code(store) {
    let app = spawn_app_with(store.options()).await;
    let path = "/api/v1/day?date=2024-01-01";
    let expired = app.expired_key().await;
    let (key, _) = app.key(None, None);
    assert_error(app.get(path).await, 401, "missing_key").await;
    assert_error(app.get_keyed(path, "not-a-key").await, 401, "invalid_key").await;
    assert_error(app.get_keyed(path, "kal_nonsense").await, 401, "invalid_key").await;
    assert_error(app.get_keyed(path, &expired).await, 401, "expired_key").await;
    assert_eq!(app.get_keyed(path, &key).await.status(), 200);
    let after = scrape(&app).await;
    let failures = "kalendorius_key_failures_total";
    assert_eq!(value(&after, failures, &[("code", "missing_key")]), 1.0);
    assert_eq!(value(&after, failures, &[("code", "invalid_key")]), 2.0);
    assert_eq!(value(&after, failures, &[("code", "expired_key")]), 1.0);
    let day = |status| [("route", "/api/v1/day"), ("status", status)];
    assert_eq!(value(&after, REQUESTS, &day("4xx")), 4.0);
    assert_eq!(value(&after, REQUESTS, &day("2xx")), 1.0);
}
}

/// The error code and message of a JSON error answer.
async fn error_of(resp: reqwest::Response) -> (u16, String, String) {
    let status = resp.status().as_u16();
    let body = resp.json_body().await;
    let field = |name: &str| body[name].as_str().unwrap_or_default().to_string();
    (status, field("error"), field("message"))
}

#[tokio::test]
async fn an_address_outside_metrics_allow_gets_the_404_of_an_unknown_path() {
    let app = spawn_app_with(AppOptions {
        metrics_allow: Some(vec!["192.0.2.0/24", "2001:db8::/32"]),
        ..AppOptions::default()
    })
    .await;
    let unknown = error_of(app.get("/api/v1/no-such-thing").await).await;
    assert_eq!((unknown.0, unknown.1.as_str()), (404, "not_found"));
    for path in ["/metrics", "/metrics/", "/metrics?x=1"] {
        assert_eq!(error_of(app.get(path).await).await, unknown, "{path}");
    }
    // Whatever the method: as an unknown path answers it.
    for method in [reqwest::Method::HEAD, reqwest::Method::OPTIONS] {
        let status = |path| {
            let method = method.clone();
            let app = &app;
            async move { app.send(method, path, &[]).await.status() }
        };
        assert_eq!(
            status("/metrics").await,
            status("/api/v1/no-such-thing").await
        );
    }
}

#[tokio::test]
async fn a_request_relayed_by_an_untrusted_proxy_is_refused_even_from_loopback() {
    // No trusted proxies: a proxy on this host would make every client 127.0.0.1, which
    // `metrics_allow` lets in by default; a forwarded request says it is such a client.
    let app = spawn_app().await;
    for header in [
        "X-Forwarded-For",
        "Forwarded",
        "X-Real-IP",
        "True-Client-IP",
    ] {
        let value = if header == "Forwarded" {
            "for=203.0.113.7"
        } else {
            "203.0.113.7"
        };
        let resp = app
            .send(reqwest::Method::GET, "/metrics", &[(header, value)])
            .await;
        assert_error(resp, 404, "not_found").await;
    }
    // Asked directly, the same address is answered.
    assert_eq!(app.get("/metrics").await.status(), 200);
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_address_decides() {
    let app = spawn_app_with(AppOptions {
        trusted_proxies: vec!["127.0.0.1"],
        ..AppOptions::default()
    })
    .await;
    let forwarded = [("X-Forwarded-For", "203.0.113.7")];
    let resp = app.send(reqwest::Method::GET, "/metrics", &forwarded).await;
    assert_error(resp, 404, "not_found").await;
    // The proxy itself (loopback) is let in; the refusal was counted as an unknown path.
    let after = scrape(&app).await;
    assert_eq!(
        value(&after, REQUESTS, &[("route", "other"), ("status", "4xx")]),
        1.0
    );
    assert_eq!(
        value(&after, REQUESTS, &[("route", "metrics"), ("status", "4xx")]),
        0.0
    );
    let local = [("X-Forwarded-For", "127.0.0.5")];
    let resp = app.send(reqwest::Method::GET, "/metrics", &local).await;
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn connections_open_and_refused_are_shown() {
    let app = spawn_app_with(AppOptions {
        connections: Some(ConnectionSettings {
            max_connections_per_ip: 1,
            ..ConnectionSettings::default()
        }),
        ..AppOptions::default()
    })
    .await;
    let server = addr_of(&app.base);
    let _held = connect_from([127, 0, 0, 2], server).await;
    let mut refused = connect_from([127, 0, 0, 2], server).await;
    // Closed before anything is read: the accept loop has seen both by now.
    let mut buf = [0u8; 16];
    let read = refused.read(&mut buf).await;
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    let after = scrape(&app).await;
    let refusals = "kalendorius_connections_refused_total";
    assert_eq!(
        value(&after, refusals, &[("reason", "max_connections_per_ip")]),
        1.0
    );
    assert_eq!(
        value(&after, refusals, &[("reason", "max_connections")]),
        0.0
    );
    // The held connection and the scrape's own.
    assert_eq!(value(&after, "kalendorius_connections_open", &[]), 2.0);
}
