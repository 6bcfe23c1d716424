//! `/health` and `/ready`: no key, never counted or limited, never cached; `/ready` turns 503
//! when the state database goes away. And the hints of the 404.

use kalendorius_server::limits::LimitsConfig;

use crate::helpers::*;

#[tokio::test]
async fn probes_answer_ok_without_key_count_or_cache() {
    // Limits of 1: a probe that counted against anything would soon be refused.
    let app = spawn_app_with(AppOptions {
        limits: Some(LimitsConfig::all(1)),
        ..AppOptions::default()
    })
    .await;
    for path in ["/health", "/ready"] {
        for _ in 0..20 {
            let resp = app.get(path).await;
            assert_eq!(resp.status(), 200, "{path}");
            assert_eq!(header(&resp, "cache-control"), Some("no-store"), "{path}");
            assert!(header(&resp, "ratelimit-limit").is_none(), "{path}");
            assert!(header(&resp, "x-dataset-version").is_some(), "{path}");
            assert_eq!(
                resp.json_body().await,
                serde_json::json!({"status": "ok"}),
                "{path}"
            );
        }
        let url = format!("{}{path}", app.base);
        let head = app.client.head(&url).send().await.unwrap();
        assert_eq!(head.status(), 200);
        assert!(head.bytes().await.unwrap().is_empty());
        let post = app.client.post(&url).send().await.unwrap();
        assert_error(post, 405, "method_not_allowed").await;
    }
    // The public endpoint's one request of the minute is still there.
    let resp = app.get("/api/v1/laisvadienis?date=2024-01-01").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(header_u64(&resp, "ratelimit-remaining"), 0);
}

#[tokio::test]
async fn ready_is_503_when_the_state_database_is_gone() {
    let app = spawn_app().await;
    assert_eq!(app.get("/ready").await.status(), 200);
    std::fs::remove_dir_all(app.state.dir()).unwrap();
    let msg = assert_error(app.get("/ready").await, 503, "not_ready").await;
    assert!(msg.contains("state database"), "{msg}");
    // Alive all the same.
    assert_eq!(app.get("/health").await.status(), 200);
}

#[tokio::test]
async fn a_404_points_to_the_docs_and_a_trailing_slash_gets_a_hint() {
    let app = spawn_app().await;
    let msg = assert_error(app.get("/api/v1/nothing").await, 404, "not_found").await;
    assert!(msg.contains("/docs"), "{msg}");
    for (path, known) in [
        (
            "/api/v1/days/?from=2024-01-01&to=2024-01-02",
            "/api/v1/days",
        ),
        ("/api/v1/laisvadienis/", "/api/v1/laisvadienis"),
        ("/api/v1/openapi.json/", "/api/v1/openapi.json"),
        ("/health/", "/health"),
    ] {
        let msg = assert_error(app.get(path).await, 404, "not_found").await;
        assert!(
            msg.contains(&format!("did you mean {known}?")),
            "{path}: {msg}"
        );
    }
    let msg = assert_error(app.get("/api/v1/days//").await, 404, "not_found").await;
    assert!(!msg.contains("did you mean"), "{msg}");
}
