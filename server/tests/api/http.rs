//! HTTP behaviour (docs/api.md): HEAD, OPTIONS preflight, ETag/304, CORS, cache headers,
//! `X-Dataset-Version`, and the documentation routes.

use crate::helpers::*;

#[tokio::test]
async fn head_is_get_without_a_body() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    for path in [
        "/api/v1/laisvadienis?date=2024-01-01",
        "/api/v1/days?from=2024-01-01&to=2024-12-31",
        "/api/v1/day?date=2024-01-01",
        "/api/v1/openapi.json",
    ] {
        let get = app.get_keyed(path, &key).await;
        let head = app
            .client
            .head(format!("{}{path}", app.base))
            .header("X-API-Key", &key)
            .send()
            .await
            .unwrap();
        assert_eq!(head.status(), 200, "{path}");
        for name in ["content-type", "etag", "cache-control", "x-dataset-version"] {
            assert_eq!(header(&head, name), header(&get, name), "{name} of {path}");
        }
        let get_len = get.bytes().await.unwrap().len();
        assert_eq!(
            header(&head, "content-length").map(|v| v.parse::<usize>().unwrap()),
            Some(get_len),
            "{path}"
        );
        assert!(head.bytes().await.unwrap().is_empty());
    }
    // Errors too.
    let head = app
        .client
        .head(format!("{}/api/v1/laisvadienis", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 400);
    let head = app
        .client
        .head(format!("{}/api/v9", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 404);
}

#[tokio::test]
async fn options_is_a_cors_preflight_without_key_or_quota() {
    let app = spawn_app().await;
    for path in [
        "/api/v1/laisvadienis",
        "/api/v1/days",
        "/api/v1/holidays",
        "/api/v1/name-days",
        "/api/v1/day",
    ] {
        let resp = app
            .client
            .request(reqwest::Method::OPTIONS, format!("{}{path}", app.base))
            .header("Origin", "https://example.org")
            .header("Access-Control-Request-Method", "GET")
            .header("Access-Control-Request-Headers", "x-api-key")
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 204, "{path}");
        assert_eq!(header(&resp, "access-control-allow-origin"), Some("*"));
        assert_eq!(
            header(&resp, "access-control-allow-methods"),
            Some("GET, HEAD, OPTIONS")
        );
        assert_eq!(
            header(&resp, "access-control-allow-headers"),
            Some("x-api-key")
        );
        assert_eq!(header(&resp, "allow"), Some("GET, HEAD, OPTIONS"));
        assert!(header(&resp, "ratelimit-limit").is_none());
    }
}

#[tokio::test]
async fn public_responses_are_cacheable_with_strong_etags_and_304() {
    let app = spawn_app().await;
    let path = "/api/v1/laisvadienis?date=2024-01-01";
    let first = app.get(path).await;
    assert_eq!(
        header(&first, "cache-control"),
        Some("public, max-age=3600")
    );
    let etag = header(&first, "etag").unwrap().to_string();
    assert!(
        etag.starts_with('"') && etag.ends_with('"'),
        "strong: {etag}"
    );
    let again = app.get(path).await;
    assert_eq!(header(&again, "etag"), Some(etag.as_str()), "stable");
    let other = app.get("/api/v1/laisvadienis?date=2024-01-02").await;
    assert_ne!(header(&other, "etag"), Some(etag.as_str()));

    let cached = app
        .client
        .get(format!("{}{path}", app.base))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(cached.status(), 304);
    assert_eq!(header(&cached, "etag"), Some(etag.as_str()));
    assert!(
        header(&cached, "ratelimit-remaining").is_some(),
        "a 304 is counted"
    );
    assert!(cached.bytes().await.unwrap().is_empty());
    let stale = app
        .client
        .get(format!("{}{path}", app.base))
        .header("If-None-Match", "\"something-else\"")
        .send()
        .await
        .unwrap();
    assert_eq!(stale.status(), 200);

    let days = "/api/v1/days?from=2024-01-01&to=2024-01-31";
    let resp = app.get(days).await;
    let etag = header(&resp, "etag").unwrap().to_string();
    let cached = app
        .client
        .get(format!("{}{days}", app.base))
        .header("If-None-Match", format!("\"x\", W/{etag}"))
        .send()
        .await
        .unwrap();
    assert_eq!(cached.status(), 304, "weak comparison, lists");
}

#[tokio::test]
async fn every_response_names_its_dataset_and_allows_any_origin() {
    let app = spawn_app().await;
    let version = kalendorius_dataset::open_dataset(dataset())
        .unwrap()
        .manifest
        .dataset_version;
    for path in [
        "/api/v1/laisvadienis?date=2024-01-01",
        "/api/v1/laisvadienis",
        "/api/v1/day?date=2024-01-01",
        "/api/v1/openapi.json",
        "/api/v2/anything",
        "/docs",
    ] {
        let resp = app.get(path).await;
        assert_eq!(
            header(&resp, "x-dataset-version"),
            Some(version.as_str()),
            "{path}"
        );
        assert_eq!(
            header(&resp, "access-control-allow-origin"),
            Some("*"),
            "{path}"
        );
        // A script may read ETag, RateLimit-*, Retry-After and X-Dataset-Version.
        assert_eq!(
            header(&resp, "access-control-expose-headers"),
            Some("*"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn browsable_docs_are_served() {
    let app = spawn_app().await;
    let resp = app.get("/docs").await;
    assert_eq!(resp.status(), 200);
    assert!(header(&resp, "content-type")
        .unwrap()
        .starts_with("text/html"));
    let html = resp.text().await.unwrap();
    assert!(html.contains("swagger"), "swagger-ui page");
    assert!(
        html.contains("/api/v1/openapi.json") || html.contains("spec"),
        "points at the document"
    );
    // Our head (what the Nu HTML Checker and axe asked for), not poem-openapi's.
    assert!(
        html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">")
    );
    assert!(html.contains("<title>kalendorius API documentation</title>"));
    assert!(html.contains("<meta name=\"description\" content=\"The kalendorius HTTP API"));
    assert!(html.contains("<main id=\"ui\"></main>"));
    assert!(html.contains("<h1 class=\"vh\">"));
    assert!(html.contains("deepLinking: false"));
    for invalid in [
        "<html charset",
        "<style charset",
        "<script charset",
        "<div id=\"ui\">",
    ] {
        assert!(!html.contains(invalid), "{invalid}");
    }
    // HTML forbids control characters (but tab and line breaks) anywhere in a page.
    assert!(
        !html
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c')),
        "a raw control character"
    );
}

#[tokio::test]
async fn host_is_required_once_in_http_1_1_and_may_be_absent_in_1_0() {
    let app = spawn_app().await;
    let request = |version: &str, hosts: &[&str], path: &str| {
        let mut r = format!("GET {path} HTTP/{version}\r\nConnection: close\r\n");
        for host in hosts {
            r.push_str(&format!("Host: {host}\r\n"));
        }
        r.push_str("\r\n");
        r.into_bytes()
    };
    let date = "/api/v1/laisvadienis?date=2024-01-01";
    for (version, hosts, path) in [
        ("1.1", &[][..], date),
        ("1.1", &["a.example", "b.example"][..], date),
        ("1.1", &["a.example", "a.example"][..], date),
        ("1.0", &["a.example", "b.example"][..], date),
        // Refused before routing: whatever the path.
        ("1.1", &[][..], "/api/v9/nothing"),
        ("1.1", &[][..], "/docs"),
    ] {
        let resp = app.raw(&request(version, hosts, path)).await;
        let what = format!("HTTP/{version} {path} with Host {hosts:?}");
        assert_eq!(resp.status, 400, "{what}");
        assert_eq!(
            resp.header("content-type"),
            Some("application/json; charset=utf-8"),
            "{what}"
        );
        assert_eq!(resp.header("cache-control"), Some("no-store"), "{what}");
        let body: serde_json::Value = serde_json::from_slice(&resp.body).unwrap();
        assert_eq!(body["error"], "invalid_host", "{what}: {body}");
        assert!(body["message"].as_str().unwrap().contains("Host"), "{body}");
    }
    // Not rate-limited: no quota used.
    let (minute, _) = app.state.public_usage(
        "127.0.0.1".parse().unwrap(),
        kalendorius_server::limits::PublicEndpoint::Laisvadienis,
        chrono::Utc::now(),
    );
    assert_eq!(minute, 0);
    for (version, hosts) in [("1.1", &["a.example"][..]), ("1.0", &[][..])] {
        let resp = app.raw(&request(version, hosts, date)).await;
        assert_eq!(resp.status, 200, "HTTP/{version} with Host {hosts:?}");
    }
}

/// docs/api.md, Errors: what hyper answers itself, before the application sees the
/// request. The bodies are empty because hyper writes these answers on its own; this test
/// notices when an upgrade changes that (and docs/api.md has to follow).
#[tokio::test]
async fn requests_hyper_cannot_parse_get_its_empty_answers() {
    let app = spawn_app().await;
    let long_target = format!(
        "GET /api/v1/laisvadienis?date={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "9".repeat(65_535)
    );
    let many_headers: String = (0..101).map(|i| format!("X-H{i}: v\r\n")).collect();
    let many_headers = format!("GET /api/v1/days HTTP/1.1\r\nHost: x\r\n{many_headers}\r\n");
    for (request, status) in [
        (
            b"GET /api/v1/day s HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            b"GET /api/v1/day HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n".to_vec(),
            400,
        ),
        (long_target.into_bytes(), 414),
        (many_headers.into_bytes(), 431),
    ] {
        let resp = app.raw(&request).await;
        assert_eq!(resp.status, status);
        assert_eq!(resp.header("content-length"), Some("0"));
        assert_eq!(resp.header("connection"), Some("close"));
        assert!(resp.body.is_empty());
    }
}
