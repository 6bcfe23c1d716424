//! Every error code of docs/api.md, Errors, with its status and body, and the
//! order in which parameter checks happen.

use crate::helpers::*;

#[tokio::test]
async fn missing_and_empty_parameters_are_missing_param() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    for path in [
        "/api/v1/laisvadienis",
        "/api/v1/laisvadienis?date=",
        "/api/v1/laisvadienis?Date=2024-01-01",
        "/api/v1/days?to=2024-01-01",
        "/api/v1/days?from=2024-01-01",
        "/api/v1/days?from=&to=",
    ] {
        let msg = assert_error(app.get(path).await, 400, "missing_param").await;
        assert!(msg.contains("YYYY-MM-DD"), "{msg}");
    }
    for path in [
        "/api/v1/holidays",
        "/api/v1/holidays?date=&year=",
        "/api/v1/name-days?lang=en",
        "/api/v1/day",
    ] {
        assert_error(app.get_keyed(path, &key).await, 400, "missing_param").await;
    }
    // Check order: missing before invalid.
    assert_error(
        app.get("/api/v1/days?from=nonsense").await,
        400,
        "missing_param",
    )
    .await;
}

#[tokio::test]
async fn bad_dates_are_invalid_date_naming_the_parameter_and_range() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    for bad in [
        "2023-02-29",
        "2024-13-01",
        "2024-1-01",
        "24-01-01",
        "2024-01-01T00:00",
        "2024%2F01%2F01",
        "%FF%FE",
        "１２３４-01-01",
        "1582-12-31",
        "2101-01-01",
        "2008-12-31",
        "2025-01-01",
        "99999-01-01",
    ] {
        let msg = assert_error(
            app.get(&format!("/api/v1/laisvadienis?date={bad}")).await,
            400,
            "invalid_date",
        )
        .await;
        assert!(msg.contains("'date'"), "{msg}");
        assert!(
            msg.contains("2009-01-01") && msg.contains("2024-12-31"),
            "names the range served: {msg}"
        );
        assert_error(
            app.get_keyed(&format!("/api/v1/day?date={bad}"), &key)
                .await,
            400,
            "invalid_date",
        )
        .await;
    }
    let msg = assert_error(
        app.get("/api/v1/days?from=2024-01-01&to=2024-02-30").await,
        400,
        "invalid_date",
    )
    .await;
    assert!(msg.contains("'to'"), "{msg}");
    // Check order: invalid_date before invalid_range.
    assert_error(
        app.get("/api/v1/days?from=2024-02-30&to=2023-01-01").await,
        400,
        "invalid_date",
    )
    .await;
}

#[tokio::test]
async fn days_ranges_are_checked() {
    let app = spawn_app().await;
    assert_error(
        app.get("/api/v1/days?from=2024-01-02&to=2024-01-01").await,
        400,
        "invalid_range",
    )
    .await;
    // 366 days is the maximum; 367 is too many; invalid_range is reported first.
    let ok = app.json("/api/v1/days?from=2023-03-01&to=2024-02-29").await;
    assert_eq!(ok["count"], 366);
    assert_error(
        app.get("/api/v1/days?from=2023-03-01&to=2024-03-01").await,
        400,
        "range_too_large",
    )
    .await;
    assert_error(
        app.get("/api/v1/days?from=2024-03-01&to=2009-01-01").await,
        400,
        "invalid_range",
    )
    .await;
}

#[tokio::test]
async fn holidays_parameters_follow_d2() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let get = |path: &'static str| app.get_keyed(path, &key);
    assert_error(
        get("/api/v1/holidays?date=2024-01-01&year=2024").await,
        400,
        "conflicting_params",
    )
    .await;
    // Both present counts, even when one is malformed.
    assert_error(
        get("/api/v1/holidays?date=bad&year=bad").await,
        400,
        "conflicting_params",
    )
    .await;
    for bad in [
        "abc",
        "2024.0",
        "1582",
        "2101",
        "2008",
        "2025",
        "99999999999999999999",
        "+",
        "-2024",
        // A sign or leading zeros are not the plain form, as for dates.
        "%2B2024",
        "+2024",
        "02024",
        "0002024",
    ] {
        let msg = assert_error(
            app.get_keyed(&format!("/api/v1/holidays?year={bad}"), &key)
                .await,
            400,
            "invalid_year",
        )
        .await;
        assert!(msg.contains("'year'"), "{msg}");
    }
    assert_error(
        get("/api/v1/holidays?date=2024-02-30").await,
        400,
        "invalid_date",
    )
    .await;
}

#[tokio::test]
async fn lang_is_checked() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    for path in [
        "/api/v1/holidays?year=2024&lang=de",
        "/api/v1/holidays?date=2024-01-01&lang=lt-LT",
        "/api/v1/name-days?date=2024-01-01&lang=xx",
        "/api/v1/day?date=2024-01-01&lang=%00",
    ] {
        let msg = assert_error(app.get_keyed(path, &key).await, 400, "invalid_lang").await;
        assert!(msg.contains("lt, en, pl, ru"), "{msg}");
    }
    // An empty lang is absent: the default applies.
    let body = app
        .json_keyed("/api/v1/day?date=2024-01-01&lang=", &key)
        .await;
    assert_eq!(body["lang"], "lt");
}

#[tokio::test]
async fn repeated_parameters_are_invalid_param_and_unknown_ones_are_ignored() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let msg = assert_error(
        app.get("/api/v1/laisvadienis?date=2024-01-01&date=2024-01-01")
            .await,
        400,
        "invalid_param",
    )
    .await;
    assert!(msg.contains("'date'"), "{msg}");
    assert_error(
        app.get("/api/v1/days?from=2024-01-01&to=2024-01-02&to=2024-01-03")
            .await,
        400,
        "invalid_param",
    )
    .await;
    assert_error(
        app.get_keyed("/api/v1/day?date=2024-01-01&lang=en&lang=en", &key)
            .await,
        400,
        "invalid_param",
    )
    .await;
    assert_error(
        app.get_keyed("/api/v1/holidays?year=2024&api_key=a&api_key=b", &key)
            .await,
        400,
        "invalid_param",
    )
    .await;
    // Unknown parameters (and api_key on public endpoints) are ignored.
    let body = app
        .json("/api/v1/laisvadienis?date=2024-01-01&foo=1&foo=2&api_key=x&api_key=y")
        .await;
    assert_eq!(body["date"], "2024-01-01");
}

#[tokio::test]
async fn unknown_paths_are_json_404() {
    let app = spawn_app().await;
    // Paths outside the API, the data, the docs and the probes are the HTML pages, whose
    // 404 is a page (`pages`).
    for path in [
        "/api",
        "/api/v1",
        "/api/v1/",
        "/api/v1/unknown",
        "/api/v1/days/",
        "/api/v1/Days?from=2024-01-01&to=2024-01-01",
        "/api/v2/laisvadienis?date=2024-01-01",
        "/api/v0/days",
        "/api/v1/%6Caisvadienis?date=2024-01-01",
        "/api/v1/laisvadienis/2024-01-01",
        "/api/../api/v9",
        "/docs/nothing",
        "/healthz",
    ] {
        let resp = app.get(path).await;
        assert!(header(&resp, "x-dataset-version").is_some(), "{path}");
        assert_error(resp, 404, "not_found").await;
    }
}

#[tokio::test]
async fn other_methods_are_json_405_with_allow() {
    let app = spawn_app().await;
    for method in ["POST", "PUT", "DELETE", "PATCH", "TRACE"] {
        for path in [
            "/api/v1/laisvadienis?date=2024-01-01",
            "/api/v1/days",
            "/api/v1/holidays",
            "/api/v1/name-days",
            "/api/v1/day",
            "/api/v1/openapi.json",
        ] {
            let resp = app
                .client
                .request(method.parse().unwrap(), format!("{}{path}", app.base))
                .body("x")
                .send()
                .await
                .unwrap();
            assert_eq!(
                header(&resp, "allow"),
                Some("GET, HEAD, OPTIONS"),
                "{method} {path}"
            );
            assert!(
                header(&resp, "ratelimit-limit").is_none(),
                "a 405 is not rate-limited"
            );
            assert_error(resp, 405, "method_not_allowed").await;
        }
    }
}

#[tokio::test]
async fn hostile_input_never_produces_a_5xx() {
    let app = spawn_app().await;
    let (key, _) = app.key(Some(10_000), Some(100_000));
    let long = "9".repeat(4000);
    let values = [
        "",
        "%",
        "%%",
        "%zz",
        "%00",
        "%C0%AF",
        "2024-01-01%00",
        "🙂",
        "2024-01-01&",
        "=",
        "0000-00-00",
        "2024-00-10",
        "2024-01-00",
        "-001-01-01",
        long.as_str(),
    ];
    for v in values {
        for path in [
            format!("/api/v1/laisvadienis?date={v}"),
            format!("/api/v1/days?from={v}&to={v}"),
            format!("/api/v1/holidays?year={v}&lang={v}"),
            format!("/api/v1/holidays?date={v}"),
            format!("/api/v1/name-days?date={v}"),
            format!("/api/v1/day?date=2024-01-01&lang={v}"),
            format!("/api/v1/day?{v}"),
        ] {
            let resp = app.get_keyed(&path, &key).await;
            let status = resp.status().as_u16();
            assert!(status < 500, "{path} gave {status}");
            if status != 200 {
                assert_eq!(
                    header(&resp, "content-type"),
                    Some("application/json; charset=utf-8"),
                    "{path}"
                );
            }
        }
    }
}

/// One spelling per integer (docs/api.md, Conventions): plain digits, no leading zero, no
/// `+`, no `-0`, on every endpoint; the same numbers in plain digits are answered.
#[tokio::test]
async fn every_integer_parameter_refuses_leading_zeros() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let cases = [
        (
            "/api/v1/holidays/upcoming?from=2020-01-01&count=",
            "5",
            "050",
            "invalid_param",
        ),
        (
            "/api/v1/long-weekends?year=2020&max_leave_days=",
            "1",
            "01",
            "invalid_param",
        ),
        (
            "/api/v1/school-holidays?year=2020&grade=",
            "5",
            "05",
            "invalid_param",
        ),
        (
            "/api/v1/school-holidays?year=2020&grade=",
            "0",
            "-0",
            "invalid_param",
        ),
        (
            "/api/v1/school-holidays?year=2020&grade=",
            "0",
            "00",
            "invalid_param",
        ),
        (
            "/api/v1/working-days/add?date=2020-12-01&days=",
            "10",
            "010",
            "invalid_param",
        ),
        (
            "/api/v1/working-days/add?date=2020-12-01&days=",
            "-5",
            "-05",
            "invalid_param",
        ),
        (
            "/api/v1/working-time?year=",
            "2020",
            "02020",
            "invalid_year",
        ),
        ("/api/v1/holidays?year=", "2020", "002020", "invalid_year"),
        (
            "/api/v1/feeds/holidays.ics?from_year=",
            "2020",
            "02020",
            "invalid_year",
        ),
    ];
    for (path, plain, padded, code) in cases {
        let resp = app.get_keyed(&format!("{path}{plain}"), &key).await;
        assert_eq!(resp.status(), 200, "{path}{plain}");
        let resp = app.get_keyed(&format!("{path}{padded}"), &key).await;
        let message = assert_error(resp, 400, code).await;
        assert!(message.contains(padded), "{path}{padded}: {message}");
    }
}
