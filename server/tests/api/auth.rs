//! API keys (docs/api.md, Keys): the three ways, which one wins, and the failures.

use crate::helpers::*;

const PATH: &str = "/api/v1/day?date=2024-01-01";

/// Request headers of a case.
type Headers<'a> = Vec<(&'a str, &'a str)>;

async fn send(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = app.client.get(format!("{}{path}", app.base));
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.send().await.unwrap()
}

on_both_stores! {
#[tokio::test]
async fn a_key_works_in_each_of_the_three_ways(store) {
    let app = spawn_app_with(store.options()).await;
    let (key, _) = app.key(None, None);
    let bearer = format!("Bearer {key}");
    let ways = [
        send(&app, PATH, &[("X-API-Key", &key)]).await,
        send(&app, PATH, &[("Authorization", &bearer)]).await,
        send(&app, &format!("{PATH}&api_key={key}"), &[]).await,
    ];
    for resp in ways {
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.json_body().await["date"], "2024-01-01");
    }
}
}

on_both_stores! {
#[tokio::test]
async fn missing_invalid_revoked_and_expired_keys_are_refused(store) {
    let app = spawn_app_with(store.options()).await;
    for path in [
        "/api/v1/holidays?year=2024",
        "/api/v1/name-days?date=2024-01-01",
        PATH,
    ] {
        assert_error(send(&app, path, &[]).await, 401, "missing_key").await;
    }
    // Empty values and other schemes count as absent.
    assert_error(
        send(&app, PATH, &[("X-API-Key", "")]).await,
        401,
        "missing_key",
    )
    .await;
    assert_error(
        send(&app, &format!("{PATH}&api_key="), &[]).await,
        401,
        "missing_key",
    )
    .await;
    assert_error(
        send(&app, PATH, &[("Authorization", "Basic dXNlcjpwYXNz")]).await,
        401,
        "missing_key",
    )
    .await;
    assert_error(
        send(
            &app,
            PATH,
            &[(
                "X-API-Key",
                "ltk_0000000000000000000000000000000000000000000000000000000000000000",
            )],
        )
        .await,
        401,
        "invalid_key",
    )
    .await;
    assert_error(
        send(&app, PATH, &[("X-API-Key", "nonsense")]).await,
        401,
        "invalid_key",
    )
    .await;

    let (revoked, record) = app.key(None, None);
    assert_eq!(
        send(&app, PATH, &[("X-API-Key", &revoked)]).await.status(),
        200
    );
    app.revoke(&record.id).await;
    assert_error(
        send(&app, PATH, &[("X-API-Key", &revoked)]).await,
        401,
        "invalid_key",
    )
    .await;

    let expired = app.expired_key().await;
    assert_error(
        send(&app, PATH, &[("X-API-Key", &expired)]).await,
        401,
        "expired_key",
    )
    .await;
}
}

#[tokio::test]
async fn the_first_present_way_wins_and_the_rest_are_ignored() {
    let app = spawn_app().await;
    let (good, _) = app.key(None, None);
    let bad = "ltk_bad";
    let bearer_good = format!("Bearer {good}");
    let bearer_bad = format!("Bearer {bad}");
    // Header beats Bearer beats query, whatever the others hold.
    let cases: Vec<(String, Headers, u16)> = vec![
        (
            format!("{PATH}&api_key={bad}"),
            vec![("X-API-Key", &good)],
            200,
        ),
        (
            format!("{PATH}&api_key={good}"),
            vec![("X-API-Key", bad)],
            401,
        ),
        (
            PATH.to_string(),
            vec![("X-API-Key", &good), ("Authorization", &bearer_bad)],
            200,
        ),
        (
            PATH.to_string(),
            vec![("X-API-Key", bad), ("Authorization", &bearer_good)],
            401,
        ),
        (
            format!("{PATH}&api_key={bad}"),
            vec![("Authorization", &bearer_good)],
            200,
        ),
        (
            format!("{PATH}&api_key={good}"),
            vec![("Authorization", &bearer_bad)],
            401,
        ),
        // Empty or non-Bearer earlier ways are absent: the next one is used.
        (
            format!("{PATH}&api_key={good}"),
            vec![("X-API-Key", ""), ("Authorization", "Basic eDp5")],
            200,
        ),
        (
            PATH.to_string(),
            vec![("X-API-Key", ""), ("Authorization", &bearer_good)],
            200,
        ),
        // A header sent twice counts by its first non-empty value.
        (
            PATH.to_string(),
            vec![("X-API-Key", ""), ("X-API-Key", &good)],
            200,
        ),
        (
            PATH.to_string(),
            vec![("X-API-Key", &good), ("X-API-Key", bad)],
            200,
        ),
        (
            PATH.to_string(),
            vec![
                ("Authorization", "Basic eDp5"),
                ("Authorization", &bearer_good),
            ],
            200,
        ),
        (
            PATH.to_string(),
            vec![
                ("Authorization", &bearer_bad),
                ("Authorization", &bearer_good),
            ],
            401,
        ),
    ];
    for (path, headers, status) in cases {
        let resp = send(&app, &path, &headers).await;
        assert_eq!(resp.status(), status, "{path} {headers:?}");
        if status == 401 {
            assert_error(resp, 401, "invalid_key").await;
        }
    }
}

#[tokio::test]
async fn authentication_comes_before_parameters() {
    let app = spawn_app().await;
    assert_error(
        send(&app, "/api/v1/day?date=bad&lang=xx", &[]).await,
        401,
        "missing_key",
    )
    .await;
    assert_error(
        send(
            &app,
            "/api/v1/holidays?date=1&year=2",
            &[("X-API-Key", "wrong")],
        )
        .await,
        401,
        "invalid_key",
    )
    .await;
}

#[tokio::test]
async fn an_authorization_header_without_bearer_is_told_the_scheme() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let wrong = [
        key.clone(),
        format!("Basic {key}"),
        "Basic dXNlcjpwYXNz".to_owned(),
        format!("Token {key}"),
    ];
    for value in &wrong {
        for path in [PATH.to_owned(), format!("{PATH}&api_key=")] {
            let message = assert_error(
                send(&app, &path, &[("Authorization", value)]).await,
                401,
                "missing_key",
            )
            .await;
            assert_eq!(
                message,
                "Authorization header must use the Bearer scheme: `Authorization: Bearer <key>` \
                 (or send the key in the X-API-Key header)",
                "{value}"
            );
        }
    }
    // The order of the ways stands: a key elsewhere is used, the header ignored.
    let query = format!("{PATH}&api_key={key}");
    let basic = format!("Basic {key}");
    for (path, headers) in [
        (
            PATH,
            vec![("X-API-Key", key.as_str()), ("Authorization", &key)],
        ),
        (&query, vec![("Authorization", basic.as_str())]),
    ] {
        assert_eq!(
            send(&app, path, &headers).await.status(),
            200,
            "{headers:?}"
        );
    }
    // A wrong key in an earlier way is still invalid, whatever the header.
    assert_error(
        send(
            &app,
            PATH,
            &[("X-API-Key", "wrong"), ("Authorization", &key)],
        )
        .await,
        401,
        "invalid_key",
    )
    .await;
    // Without an Authorization header, or with an empty Bearer one, the usual message.
    for headers in [vec![], vec![("Authorization", "Bearer ")]] {
        let message = assert_error(send(&app, PATH, &headers).await, 401, "missing_key").await;
        assert!(!message.contains("must use the Bearer scheme"), "{message}");
    }
}
