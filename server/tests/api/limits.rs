//! Rate limits (docs/api.md): each 429 code, the headers, that a 429 uses no quota, bursts,
//! what counts (HEAD and 400s do, OPTIONS and 401s do not), and counters across a restart.

use std::net::IpAddr;

use chrono::Utc;
use kalendorius_server::api::endpoint::Access;
use kalendorius_server::api::params::Kind;
use kalendorius_server::api::PREFIX;
use kalendorius_server::app::ROUTES;
use kalendorius_server::limits::{LimitsConfig, PublicEndpoint};

use crate::helpers::*;

fn limits(f: impl FnOnce(&mut LimitsConfig)) -> Option<LimitsConfig> {
    let mut l = LimitsConfig::default();
    f(&mut l);
    Some(l)
}

fn localhost() -> IpAddr {
    "127.0.0.1".parse().unwrap()
}

on_both_stores! {
#[tokio::test]
async fn public_minute_limit_gives_rate_limit_minute_and_uses_no_quota(store) {
    let app = spawn_app_with(AppOptions {
        limits: limits(|l| l.days_per_minute = 3),
        ..store.options()
    })
    .await;
    let path = "/api/v1/days?from=2024-01-01&to=2024-01-31";
    for remaining in [2, 1, 0] {
        let resp = app.get(path).await;
        assert_eq!(resp.status(), 200);
        assert_eq!(header_u64(&resp, "ratelimit-limit"), 3);
        assert_eq!(header_u64(&resp, "ratelimit-remaining"), remaining);
        let reset = header_u64(&resp, "ratelimit-reset");
        assert!((1..=61).contains(&reset), "reset {reset}");
    }
    for _ in 0..3 {
        let resp = app.get(path).await;
        assert_eq!(header_u64(&resp, "ratelimit-remaining"), 0);
        let retry = header_u64(&resp, "retry-after");
        assert!((1..=61).contains(&retry), "retry-after {retry}");
        assert_error(resp, 429, "rate_limit_minute").await;
    }
    // The refusals were not counted.
    let (minute, month) = app.public_usage(localhost(), PublicEndpoint::Days).await;
    assert_eq!((minute, month), (3, 3));
    // Other endpoints and other clients have their own counters.
    assert_eq!(
        app.get("/api/v1/laisvadienis?date=2024-01-01")
            .await
            .status(),
        200
    );
}
}

on_both_stores! {
#[tokio::test]
async fn public_month_limit_gives_rate_limit_month(store) {
    let app = spawn_app_with(AppOptions {
        limits: limits(|l| l.laisvadienis_per_month = 2),
        ..store.options()
    })
    .await;
    let path = "/api/v1/laisvadienis?date=2024-01-01";
    for _ in 0..2 {
        assert_eq!(app.get(path).await.status(), 200);
    }
    let resp = app.get(path).await;
    assert_eq!(header_u64(&resp, "ratelimit-limit"), 2);
    assert!(header_u64(&resp, "retry-after") >= 1);
    assert_error(resp, 429, "rate_limit_month").await;
}
}

on_both_stores! {
#[tokio::test]
async fn key_minute_and_day_limits(store) {
    let app = spawn_app_with(store.options()).await;
    let (minute_key, _) = app.key(Some(2), Some(100));
    let (day_key, day_record) = app.key(Some(100), Some(2));
    let path = "/api/v1/day?date=2024-01-01";
    for key in [&minute_key, &day_key] {
        for _ in 0..2 {
            let resp = app.get_keyed(path, key).await;
            assert_eq!(resp.status(), 200);
        }
    }
    let resp = app.get_keyed(path, &minute_key).await;
    assert_eq!(header_u64(&resp, "ratelimit-limit"), 2);
    assert_eq!(header_u64(&resp, "ratelimit-remaining"), 0);
    assert!(header(&resp, "retry-after").is_some());
    assert_error(resp, 429, "rate_limit_minute").await;

    let resp = app.get_keyed(path, &day_key).await;
    assert_eq!(header_u64(&resp, "ratelimit-limit"), 2);
    let retry = header_u64(&resp, "retry-after");
    assert!(
        retry > 60,
        "a day window frees later than a minute: {retry}"
    );
    assert_error(resp, 429, "rate_limit_day").await;
    // The three keyed endpoints share the key's quota.
    assert_error(
        app.get_keyed("/api/v1/holidays?year=2024", &day_key).await,
        429,
        "rate_limit_day",
    )
    .await;
    assert_eq!(app.key_usage(&day_record.id).await, (2, 2));
}
}

on_both_stores! {
#[tokio::test]
async fn when_several_windows_are_exhausted_the_longest_is_named(store) {
    let app = spawn_app_with(AppOptions {
        limits: limits(|l| {
            l.days_per_minute = 2;
            l.days_per_month = 2;
        }),
        ..store.options()
    })
    .await;
    let path = "/api/v1/days?from=2024-01-01&to=2024-01-01";
    use_up(&app, path, 2, "rate_limit_month").await;
}
}

on_both_stores! {
#[tokio::test]
async fn head_and_400s_count_options_and_401s_do_not(store) {
    let app = spawn_app_with(AppOptions {
        limits: limits(|l| l.laisvadienis_per_minute = 10),
        ..store.options()
    })
    .await;
    let url = format!("{}/api/v1/laisvadienis?date=2024-01-01", app.base);
    let r = app.client.get(&url).send().await.unwrap();
    assert_eq!(header_u64(&r, "ratelimit-remaining"), 9);
    let r = app.client.head(&url).send().await.unwrap();
    assert_eq!(
        header_u64(&r, "ratelimit-remaining"),
        8,
        "HEAD counts like GET"
    );
    let r = app
        .client
        .request(reqwest::Method::OPTIONS, &url)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    assert!(
        header(&r, "ratelimit-remaining").is_none(),
        "OPTIONS is not limited"
    );
    let r = app.get("/api/v1/laisvadienis?date=bad").await;
    assert_eq!(header_u64(&r, "ratelimit-remaining"), 7, "a 400 counts");
    assert_error(r, 400, "invalid_date").await;
    let r = app.client.get(&url).send().await.unwrap();
    assert_eq!(header_u64(&r, "ratelimit-remaining"), 6);

    let (key, record) = app.key(Some(10), None);
    let r = app.get("/api/v1/day?date=2024-01-01").await;
    assert!(
        header(&r, "ratelimit-remaining").is_none(),
        "a 401 is not limited"
    );
    let r = app.get_keyed("/api/v1/day?date=bad", &key).await;
    assert_eq!(
        header_u64(&r, "ratelimit-remaining"),
        9,
        "a keyed 400 counts"
    );
    assert_eq!(app.key_usage(&record.id).await.0, 1);
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_64_concurrent_clients_never_exceeds_a_limit(store) {
    let app = spawn_app_with(AppOptions {
        limits: limits(|l| l.days_per_minute = 10),
        ..store.options()
    })
    .await;
    let (key, _) = app.key(Some(7), None);
    let public = format!("{}/api/v1/days?from=2024-01-01&to=2024-12-31", app.base);
    let keyed = format!("{}/api/v1/day?date=2024-01-01", app.base);
    let mut tasks = Vec::new();
    for i in 0..64 {
        // A fresh client per task: 64 separate connections.
        let client = reqwest::Client::new();
        let url = if i % 2 == 0 {
            public.clone()
        } else {
            keyed.clone()
        };
        let key = key.clone();
        tasks.push(tokio::spawn(async move {
            let resp = client
                .get(&url)
                .header("X-API-Key", key)
                .send()
                .await
                .unwrap();
            (i % 2 == 0, resp.status().as_u16())
        }));
    }
    let mut ok = [0, 0];
    for t in tasks {
        let (is_public, status) = t.await.unwrap();
        assert!(status == 200 || status == 429, "{status}");
        if status == 200 {
            ok[usize::from(is_public)] += 1;
        }
    }
    assert_eq!(ok[1], 10, "public: exactly the limit admitted");
    assert_eq!(ok[0], 7, "keyed: exactly the limit admitted");
}
}

on_both_stores! {
#[tokio::test]
async fn counters_survive_a_restart(store) {
    let tmp = tempfile::tempdir().unwrap();
    let state_dir = tmp.path().join("state");
    let options = AppOptions {
        limits: limits(|l| {
            l.laisvadienis_per_minute = 1000;
            l.laisvadienis_per_month = 10;
        }),
        state_dir: Some(state_dir),
        ..store.options()
    };
    let app = spawn_app_with(options.clone()).await;
    let (key, _) = app.key(Some(1000), Some(50));
    for _ in 0..3 {
        assert_eq!(
            app.get("/api/v1/laisvadienis?date=2024-01-01")
                .await
                .status(),
            200
        );
        assert_eq!(
            app.get_keyed("/api/v1/day?date=2024-01-01", &key)
                .await
                .status(),
            200
        );
    }
    app.stop().await;

    let app = spawn_app_with(options).await;
    let r = app.get("/api/v1/laisvadienis?date=2024-01-01").await;
    assert_eq!(header_u64(&r, "ratelimit-limit"), 10);
    assert_eq!(
        header_u64(&r, "ratelimit-remaining"),
        6,
        "3 before the restart + this one"
    );
    let r = app.get_keyed("/api/v1/day?date=2024-01-01", &key).await;
    assert_eq!(r.status(), 200, "the key survives too");
    assert_eq!(header_u64(&r, "ratelimit-remaining"), 46);
    app.stop().await;
}
}

/// A request each public counter counts, in the order of [`PublicEndpoint::ALL`]: the first
/// operation it counts (its required dates given), else a page or a dataset file.
fn a_request_of_every_public_counter() -> Vec<(PublicEndpoint, String)> {
    let operation = |counter| {
        let counted = ROUTES
            .iter()
            .find(|e| e.access == Access::Public(counter))?;
        let required = counted.params.iter().filter(|p| p.required);
        let query: Vec<String> = required
            .map(|p| match p.kind {
                Kind::Date => format!("{}=2024-01-05", p.name),
                _ => panic!(
                    "{}: give its parameter {} a value here",
                    counted.path, p.name
                ),
            })
            .collect();
        Some(format!("{PREFIX}{}?{}", counted.path, query.join("&")))
    };
    let other = |counter| match counter {
        PublicEndpoint::Pages => Some("/2024/01".to_string()),
        PublicEndpoint::Data => Some("/data/manifest.json".to_string()),
        _ => None,
    };
    let request = |counter| {
        let path = operation(counter).or_else(|| other(counter));
        (
            counter,
            path.unwrap_or_else(|| panic!("{counter:?} counts nothing: give a request here")),
        )
    };
    PublicEndpoint::ALL.iter().copied().map(request).collect()
}

on_both_stores! {
#[tokio::test]
async fn every_public_counter_continues_after_a_restart(store) {
    let tmp = tempfile::tempdir().unwrap();
    // Each counter from its settings keys: 10 a month, so the month is the tightest window.
    let mut limits = toml::Table::try_from(LimitsConfig::default()).unwrap();
    for counter in PublicEndpoint::ALL {
        let [per_minute, per_month] = counter.settings_keys();
        limits.insert(per_minute.into(), 1000.into());
        limits.insert(per_month.into(), 10.into());
    }
    let options = AppOptions {
        limits: Some(limits.try_into().unwrap()),
        state_dir: Some(tmp.path().join("state")),
        ..store.options()
    };
    let requests = a_request_of_every_public_counter();
    let app = spawn_app_with(options.clone()).await;
    for (counter, path) in &requests {
        for _ in 0..3 {
            assert_eq!(app.get(path).await.status(), 200, "{counter:?}: {path}");
        }
    }
    app.stop().await;

    let app = spawn_app_with(options).await;
    for (counter, path) in &requests {
        let resp = app.get(path).await;
        assert_eq!(resp.status(), 200, "{counter:?}: {path}");
        assert_eq!(header_u64(&resp, "ratelimit-limit"), 10, "{counter:?}: {path}");
        assert_eq!(
            header_u64(&resp, "ratelimit-remaining"),
            6,
            "{counter:?} ({path}): 3 before the restart + this one"
        );
    }
    app.stop().await;
}
}

#[tokio::test]
async fn forwarded_for_is_believed_only_from_trusted_proxies() {
    let untrusted = spawn_app_with(AppOptions {
        limits: limits(|l| l.laisvadienis_per_minute = 2),
        ..AppOptions::default()
    })
    .await;
    let send = |app: &TestApp, xff: &'static str| {
        app.client
            .get(format!("{}/api/v1/laisvadienis?date=2024-01-01", app.base))
            .header("X-Forwarded-For", xff)
            .send()
    };
    assert_eq!(
        send(&untrusted, "198.51.100.1").await.unwrap().status(),
        200
    );
    assert_eq!(
        send(&untrusted, "198.51.100.2").await.unwrap().status(),
        200
    );
    // A spoofed header does not give an untrusted peer a new quota.
    assert_eq!(
        send(&untrusted, "198.51.100.3").await.unwrap().status(),
        429
    );

    let trusted = spawn_app_with(AppOptions {
        limits: limits(|l| l.laisvadienis_per_minute = 2),
        trusted_proxies: vec!["127.0.0.0/8"],
        ..AppOptions::default()
    })
    .await;
    for _ in 0..2 {
        assert_eq!(
            send(&trusted, "6.6.6.6, 198.51.100.1")
                .await
                .unwrap()
                .status(),
            200
        );
    }
    // The right-most untrusted entry is the client: 198.51.100.1 is used up...
    assert_eq!(send(&trusted, "198.51.100.1").await.unwrap().status(), 429);
    // ...and a different client behind the proxy is not.
    assert_eq!(
        send(&trusted, "198.51.100.2, 127.0.0.1")
            .await
            .unwrap()
            .status(),
        200
    );
    let (minute, _) = trusted.state.public_usage(
        "198.51.100.1".parse().unwrap(),
        PublicEndpoint::Laisvadienis,
        Utc::now(),
    );
    assert_eq!(minute, 2);
}

#[tokio::test]
async fn a_garbage_forwarded_for_entry_spoils_only_itself() {
    let app = spawn_app_with(AppOptions {
        trusted_proxies: vec!["127.0.0.0/8"],
        ..AppOptions::default()
    })
    .await;
    let send = |xff: &'static [u8]| {
        app.client
            .get(format!("{}/api/v1/laisvadienis?date=2024-01-01", app.base))
            .header(
                "X-Forwarded-For",
                reqwest::header::HeaderValue::from_bytes(xff).unwrap(),
            )
            .send()
    };
    let usage = |ip: &str| {
        app.state
            .public_usage(
                ip.parse().unwrap(),
                PublicEndpoint::Laisvadienis,
                Utc::now(),
            )
            .0
    };
    // A non-ASCII byte in what the client wrote, then the address the proxy appended, in
    // one combined header: the appended address is still the client.
    let resp = send(b"\xff\xfe, 198.51.100.1").await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(usage("198.51.100.1"), 1);
    assert_eq!(usage("127.0.0.1"), 0, "not the proxy's bucket");
    // Garbage as the right-most entry: the proxy's own address stands in for it alone.
    let resp = send(b"198.51.100.2, caf\xc3\xa9").await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(usage("127.0.0.1"), 1);
    assert_eq!(
        usage("198.51.100.2"),
        0,
        "left of the garbage is not believed"
    );
}

/// An IPv6 client holds a whole /64: rotating its addresses behind a trusted proxy does not
/// give it a new quota, while another /64 has its own.
#[tokio::test]
async fn an_ipv6_client_is_counted_by_its_64() {
    let app = spawn_app_with(AppOptions {
        limits: limits(|l| l.laisvadienis_per_minute = 3),
        trusted_proxies: vec!["127.0.0.0/8"],
        ..AppOptions::default()
    })
    .await;
    let send = |xff: &'static str| {
        app.client
            .get(format!("{}/api/v1/laisvadienis?date=2024-01-01", app.base))
            .header("X-Forwarded-For", xff)
            .send()
    };
    for xff in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff::3"] {
        assert_eq!(send(xff).await.unwrap().status(), 200, "{xff}");
    }
    assert_eq!(send("2001:db8:1:2::4").await.unwrap().status(), 429);
    assert_eq!(send("2001:db8:1:3::1").await.unwrap().status(), 200);
}
