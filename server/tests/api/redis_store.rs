//! The Redis store with two real server processes on one real redis-server
//! (`redis_harness`): shared exact limits, keys changed with the tool and honoured by both
//! within a second, counters that survive restarts, and the behaviour while Redis is down.

use std::path::Path;
use std::time::{Duration, Instant, UNIX_EPOCH};

use chrono::Utc;
use kalendorius_server::limits::{LimitsConfig, PublicEndpoint};
use kalendorius_server::state::store::redis::RedisState;
use kalendorius_server::state::store::Counted;
use kalendorius_server::state::State;
use proptest::prelude::*;
use serde_json::Value;

use crate::helpers::*;
use crate::process::{command, start, Proc};
use crate::redis_harness::RedisServer;

/// The per-minute limit of `/laisvadienis` the processes run with (not the default, so a
/// count that matched by accident would show).
const PUBLIC_PER_MINUTE: &str = "37";

/// A public request.
const PUBLIC: &str = "/api/v1/laisvadienis?date=2024-01-01";

/// A keyed request.
const KEYED: &str = "/api/v1/day?date=2024-01-01";

/// Starts a server process on the Redis at `url`.
fn serve(url: &str) -> Proc {
    start(
        dataset(),
        Path::new(url),
        &[(
            "KALENDORIUS_LIMITS_LAISVADIENIS_PER_MINUTE",
            PUBLIC_PER_MINUTE,
        )],
    )
}

/// Runs `kalendorius-server keys --state URL ARGS...`; returns stdout, failing on an error.
fn keys_tool(url: &str, args: &[&str]) -> String {
    let out = command()
        .args(["keys", "--state", url])
        .args(args)
        .output()
        .expect("the key tool runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "keys {args:?}: {stderr}{stdout}");
    assert!(
        stderr.contains(&format!("state: {url}")),
        "the tool names the Redis it uses: {stderr}"
    );
    stdout
}

/// Creates a key with the tool; returns (key, id).
fn create_key(url: &str, per_minute: u64, per_day: u64) -> (String, String) {
    let out = keys_tool(
        url,
        &[
            "create",
            "--owner",
            "redis-test",
            "--per-minute",
            &per_minute.to_string(),
            "--per-day",
            &per_day.to_string(),
        ],
    );
    let key = out.lines().last().expect("the key is printed").to_owned();
    let id = out
        .lines()
        .find_map(|l| l.strip_prefix("id:"))
        .expect("the id is printed")
        .trim()
        .to_owned();
    (key, id)
}

fn request(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    key: Option<&str>,
) -> reqwest::RequestBuilder {
    let req = client.get(format!("{base}{path}"));
    match key {
        Some(key) => req.header("X-API-Key", key),
        None => req,
    }
}

async fn get(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    key: Option<&str>,
) -> reqwest::Response {
    let req = request(client, base, path, key);
    req.send().await.expect("request sent")
}

/// Polls `path` on `base` every 50 ms until it answers `status`; returns how long that
/// took, failing after `limit`.
async fn until_status(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    key: Option<&str>,
    status: u16,
    limit: Duration,
) -> Duration {
    let started = Instant::now();
    loop {
        let got = get(client, base, path, key).await.status().as_u16();
        if got == status {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < limit,
            "{base}{path} still answers {got}, not {status}, after {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits (at most 10 s) until `/ready` of `base` answers `status`.
async fn ready_becomes(client: &reqwest::Client, base: &str, status: u16) {
    until_status(
        client,
        base,
        "/ready",
        None,
        status,
        Duration::from_secs(10),
    )
    .await;
}

/// Starts two server processes on the Redis at `url` and waits until both are ready.
async fn two_processes(client: &reqwest::Client, url: &str) -> (Proc, Proc) {
    let (a, b) = (serve(url), serve(url));
    for p in [&a, &b] {
        ready_becomes(client, &p.base, 200).await;
    }
    (a, b)
}

/// Waits until each of `bases` accepts `key` (each such answer counts one request), for at
/// most a second: a key created with the tool is honoured by every process that soon.
async fn accepted_everywhere(client: &reqwest::Client, bases: &[&str], key: &str) {
    for base in bases {
        until_status(client, base, KEYED, Some(key), 200, Duration::from_secs(1)).await;
    }
}

/// A redis-server, two server processes on it, and a key of the tool accepted by both
/// (one request each).
struct Setup {
    redis: RedisServer,
    url: String,
    client: reqwest::Client,
    a: Proc,
    b: Proc,
    key: String,
}

async fn setup(per_minute: u64) -> Setup {
    let redis = RedisServer::start();
    let url = redis.url();
    let client = reqwest::Client::new();
    let (a, b) = two_processes(&client, &url).await;
    let (key, _) = create_key(&url, per_minute, 1_000);
    accepted_everywhere(&client, &[&a.base, &b.base], &key).await;
    Setup {
        redis,
        url,
        client,
        a,
        b,
        key,
    }
}

/// Sends `n` requests at once, alternately to each of `bases`; returns the statuses and
/// error codes of the answers.
async fn burst(bases: &[&str], n: usize, path: &str, key: Option<&str>) -> Vec<(u16, Value)> {
    let client = reqwest::Client::new();
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let client = client.clone();
            let url = format!("{}{path}", bases[i % bases.len()]);
            let key = key.map(str::to_owned);
            tokio::spawn(async move {
                let mut req = client.get(url);
                if let Some(key) = key {
                    req = req.header("X-API-Key", key);
                }
                let resp = req.send().await.expect("request sent");
                let status = resp.status().as_u16();
                let body = resp.json_body().await;
                (status, body["error"].clone())
            })
        })
        .collect();
    let mut answers = vec![];
    for t in tasks {
        answers.push(t.await.expect("request task"));
    }
    answers
}

/// How many answers had `status`.
fn count(answers: &[(u16, Value)], status: u16) -> usize {
    answers.iter().filter(|(s, _)| *s == status).count()
}

/// The month count of 127.0.0.1 on `/laisvadienis` in the Redis at `url`, read as a
/// server reads it.
async fn month_count(url: &str) -> u64 {
    let store = RedisState::connect(url, LimitsConfig::default()).expect("Redis URL");
    store.refresh().await.expect("Redis answers");
    let ip = "127.0.0.1".parse().unwrap();
    let (_, month) = store
        .public_usage(ip, PublicEndpoint::Laisvadienis, Utc::now())
        .await
        .expect("Redis answers");
    month
}

/// The "used" line of `keys show`.
fn used(url: &str, id: &str) -> String {
    keys_tool(url, &["show", id])
        .lines()
        .find(|l| l.starts_with("used:"))
        .expect("show prints the usage")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_on_one_redis_admit_exactly_the_limit_and_a_refusal_uses_no_quota() {
    let redis = RedisServer::start();
    let url = redis.url();
    let client = reqwest::Client::new();
    let (a, b) = two_processes(&client, &url).await;
    let bases = [a.base.as_str(), b.base.as_str()];

    // One address, 200 requests at once over both processes: exactly the limit passes.
    let answers = burst(&bases, 200, PUBLIC, None).await;
    let limit: usize = PUBLIC_PER_MINUTE.parse().unwrap();
    assert_eq!(count(&answers, 200), limit, "{answers:?}");
    assert_eq!(count(&answers, 429), 200 - limit);
    assert!(answers
        .iter()
        .all(|(s, e)| *s == 200 || e == "rate_limit_minute"));
    // The refused requests used no quota: the month counts only the admitted ones.
    assert_eq!(
        month_count(&url).await.to_string(),
        PUBLIC_PER_MINUTE,
        "the month counts only the admitted requests"
    );

    // One key, the same.
    let (key, id) = create_key(&url, 25, 1_000);
    accepted_everywhere(&client, &bases, &key).await;
    let answers = burst(&bases, 200, KEYED, Some(&key)).await;
    assert_eq!(count(&answers, 200), 23, "25 less the two first requests");
    assert_eq!(count(&answers, 429), 177);
    assert_eq!(
        used(&url, &id),
        "used:       25 in the last minute, 25 in the last 24 h"
    );

    // A refusal on either process used no quota of the other: one more request per minute
    // lets exactly one more through, on whichever process. Each process is asked until it
    // refuses under the new limit (refusals count nothing, so asking again is free).
    keys_tool(&url, &["set-limits", &id, "--per-minute", "26"]);
    let changed = Instant::now();
    let mut admitted = 0;
    for base in bases {
        loop {
            let resp = get(&client, base, KEYED, Some(&key)).await;
            if resp.status() == 200 {
                admitted += 1;
                continue;
            }
            assert_eq!(resp.status(), 429);
            if resp.headers()["ratelimit-limit"] == "26" {
                break;
            }
            assert!(
                changed.elapsed() < Duration::from_secs(1),
                "new limit not seen"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert_eq!(admitted, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_created_and_revoked_with_the_tool_are_honoured_by_both_within_a_second() {
    let redis = RedisServer::start();
    let url = redis.url();
    let client = reqwest::Client::new();
    let (a, b) = two_processes(&client, &url).await;
    let (key, id) = create_key(&url, 60, 1_000);
    let created = Instant::now();
    accepted_everywhere(&client, &[&a.base, &b.base], &key).await;
    assert!(created.elapsed() < Duration::from_secs(1));
    let out = keys_tool(&url, &["list"]);
    assert!(out.contains(&id) && out.contains("redis-test"), "{out}");
    assert!(!out.contains(&key), "list never shows a key");

    keys_tool(&url, &["revoke", &id]);
    let revoked = Instant::now();
    for p in [&a, &b] {
        until_status(
            &client,
            &p.base,
            KEYED,
            Some(&key),
            401,
            Duration::from_secs(1),
        )
        .await;
    }
    assert!(revoked.elapsed() < Duration::from_secs(1));
    let body: Value = get(&client, &a.base, KEYED, Some(&key))
        .await
        .json_body()
        .await;
    assert_eq!(body["error"], "invalid_key");

    // Only hashes are stored.
    let stored = redis
        .command(&["HGET", "kalendorius:keys", &id])
        .expect("the record is in Redis");
    assert!(
        !stored.contains(&key) && stored.contains("\"hash\""),
        "{stored}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counters_survive_a_restart_of_both_processes() {
    let Setup {
        redis: _redis,
        url,
        client,
        mut a,
        mut b,
        key,
    } = setup(5).await;
    assert_eq!(get(&client, &a.base, KEYED, Some(&key)).await.status(), 200);
    for _ in 0..3 {
        assert_eq!(get(&client, &b.base, PUBLIC, None).await.status(), 200);
    }
    for p in [&mut a, &mut b] {
        p.signal("TERM");
        assert_eq!(p.wait_exit().code(), Some(0), "log:\n{}", p.log());
    }

    let (a, b) = two_processes(&client, &url).await;
    let answers = burst(&[&a.base, &b.base], 10, KEYED, Some(&key)).await;
    assert_eq!(
        count(&answers, 200),
        2,
        "3 of the key's 5 were used before the restart"
    );
    let resp = get(&client, &a.base, PUBLIC, None).await;
    assert_eq!(resp.status(), 200);
    let limit: u64 = PUBLIC_PER_MINUTE.parse().unwrap();
    assert_eq!(
        resp.headers()["ratelimit-remaining"],
        (limit - 4).to_string().as_str(),
        "3 public requests were counted before the restart"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_redis_is_down_public_requests_pass_uncounted_and_keyed_ones_get_503() {
    let Setup {
        redis,
        client,
        a,
        b,
        key,
        ..
    } = setup(60).await;

    redis.stop();
    for p in [&a, &b] {
        ready_becomes(&client, &p.base, 503).await;
        let ready: Value = get(&client, &p.base, "/ready", None)
            .await
            .json_body()
            .await;
        assert_eq!(ready["error"], "not_ready");
        assert!(
            ready["message"].as_str().unwrap().contains("Redis"),
            "{ready}"
        );

        let public = get(&client, &p.base, PUBLIC, None).await;
        assert_eq!(public.status(), 200, "public requests fail open");
        assert!(
            public.headers().get("ratelimit-limit").is_none(),
            "and are not counted"
        );

        let keyed = get(&client, &p.base, KEYED, Some(&key)).await;
        assert_eq!(keyed.status(), 503);
        assert_eq!(keyed.headers()["cache-control"], "no-store");
        let body: Value = keyed.json_body().await;
        assert_eq!(body["error"], "state_unavailable");
        assert!(body["message"].is_string());
        assert_eq!(body.as_object().unwrap().len(), 2, "{body}");
    }

    redis.start_again();
    for p in [&a, &b] {
        ready_becomes(&client, &p.base, 200).await;
        let keyed = get(&client, &p.base, KEYED, Some(&key)).await;
        assert_eq!(keyed.status(), 200, "the key survived Redis's restart");
        assert_eq!(keyed.headers()["ratelimit-limit"], "60");
        let public = get(&client, &p.base, PUBLIC, None).await;
        assert_eq!(public.status(), 200);
        assert_eq!(public.headers()["ratelimit-limit"], PUBLIC_PER_MINUTE);
    }
    assert!(
        a.log().contains("without counting") || b.log().contains("without counting"),
        "the uncounted requests were logged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_started_while_redis_is_down_serves_and_catches_up() {
    let redis = RedisServer::start();
    let url = redis.url();
    redis.stop();
    let server = serve(&url);
    let client = reqwest::Client::new();
    let ready = get(&client, &server.base, "/ready", None).await;
    assert_eq!(ready.status(), 503);
    let public = get(&client, &server.base, PUBLIC, None).await;
    assert_eq!(public.status(), 200);
    assert!(public.headers().get("ratelimit-limit").is_none());

    redis.start_again();
    ready_becomes(&client, &server.base, 200).await;
    let public = get(&client, &server.base, PUBLIC, None).await;
    assert_eq!(public.headers()["ratelimit-limit"], PUBLIC_PER_MINUTE);
    assert_eq!(
        month_count(&url).await,
        1,
        "counted from the first request after Redis came up"
    );
}

/// Who a differential run's request is from: one of [`ADDRESSES`] on `/laisvadienis` or
/// `/days`, or one of two keys.
#[derive(Debug, Clone, Copy)]
enum Requester {
    Address(usize, PublicEndpoint),
    Key(usize),
}

/// Addresses with two that share another's quota: the IPv4-mapped form of the first, and
/// the same IPv6 /64 as the fourth.
const ADDRESSES: [&str; 5] = [
    "10.0.0.1",
    "10.0.0.2",
    "::ffff:10.0.0.1",
    "2001:db8:0:1::1",
    "2001:db8:0:1::2",
];

/// A differential run: small limits (so that windows fill up), a start and its requests,
/// each after a clock step (ms; a small step back is a process whose clock is behind).
#[derive(Debug, Clone)]
struct Run {
    limits: LimitsConfig,
    /// (per minute, per day) of each key.
    key_limits: [(u64, u64); 2],
    start_ms: i64,
    requests: Vec<(Requester, i64)>,
}

/// A sled store in a new temporary directory (returned with it) and a Redis store on
/// `redis`, both counting against `limits`.
async fn both_stores(
    redis: &RedisServer,
    limits: LimitsConfig,
) -> (tempfile::TempDir, State, RedisState) {
    let dir = tempfile::tempdir().unwrap();
    let sled = State::open(&dir.path().join("state"), limits.clone()).unwrap();
    let store = RedisState::connect(&redis.url(), limits).unwrap();
    store.refresh().await.unwrap();
    (dir, sled, store)
}

/// 2030-01-01T00:00:00Z: later than the real clock, by which Redis expires the counters'
/// hashes (a synthetic clock in the past would have them expire at once).
const FUTURE_MS: i64 = 1_893_456_000_000;

fn runs() -> impl Strategy<Value = Run> {
    let requester = prop_oneof![
        3 => (0..ADDRESSES.len(), prop_oneof![
            Just(PublicEndpoint::Laisvadienis),
            Just(PublicEndpoint::Days),
        ])
            .prop_map(|(address, endpoint)| Requester::Address(address, endpoint)),
        2 => (0..2usize).prop_map(Requester::Key),
    ];
    // Mostly short steps, so that windows fill; some across a bucket, a window, a month.
    let step = prop_oneof![
        8 => 0..1_500i64,
        1 => -3_000..0i64,
        2 => 1_500..65_000i64,
        1 => 65_000..7_200_000i64,
        1 => 7_200_000..40 * 86_400_000i64,
    ];
    // Anywhere in five years, or in the last minutes of a month.
    let start = prop_oneof![
        FUTURE_MS..FUTURE_MS + 5 * 365 * 86_400_000,
        (0..60i64, 0..600_000i64).prop_map(|(month, before)| {
            let end =
                chrono::NaiveDate::from_ymd_opt(2030 + month as i32 / 12, month as u32 % 12 + 1, 1)
                    .unwrap()
                    .and_hms_opt(0, 0, 0)
                    .unwrap()
                    .and_utc();
            end.timestamp_millis() - before
        }),
    ];
    (
        (1..6u64, 1..40u64, 1..6u64, 1..40u64),
        [(1..6u64, 1..60u64), (1..6u64, 1..60u64)],
        start,
        prop::collection::vec((requester, step), 1..300),
    )
        .prop_map(
            |((l_minute, l_month, d_minute, d_month), key_limits, start_ms, requests)| Run {
                limits: LimitsConfig {
                    laisvadienis_per_minute: l_minute,
                    laisvadienis_per_month: l_month,
                    days_per_minute: d_minute,
                    days_per_month: d_month,
                    ..LimitsConfig::default()
                },
                key_limits,
                start_ms,
                requests,
            },
        )
}

/// The Redis store decides exactly as the sled store (whose windows have their own unit
/// tests) for the same requests at the same instants: random runs of requests from
/// addresses and keys, at random clock steps from a step back to weeks, compared decision
/// by decision (admitted or which window refused, and every number of the `RateLimit-*`
/// headers). Each run starts on an emptied Redis and a new sled database.
#[test]
fn the_redis_store_decides_as_the_sled_store_for_any_run_of_requests() {
    use kalendorius_server::state::keys::KeyRecord;
    use std::cell::Cell;

    let redis = RedisServer::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // 40 runs by default (about 6 000 checks); PROPTEST_CASES=N for a longer search.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok());
    let config = ProptestConfig {
        cases: cases.unwrap_or(40),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    // Kept across runs (the runner calls the body as `Fn`).
    let (admitted, refused) = (Cell::new(0), Cell::new(0));
    proptest!(config, |(run in runs())| {
        assert_eq!(redis.command(&["FLUSHALL"]).as_deref(), Some("+OK"));
        let (_dir, sled, store) = runtime.block_on(both_stores(&redis, run.limits.clone()));
        let keys: [KeyRecord; 2] = std::array::from_fn(|k| KeyRecord {
            id: format!("{k:016x}"),
            hash: "0123456789abcdef".repeat(4),
            owner: "differential".into(),
            per_minute: run.key_limits[k].0,
            per_day: run.key_limits[k].1,
            created: Utc::now(),
            expires: None,
            active: true,
        });
        let mut t_ms = run.start_ms;
        for (i, &(requester, step)) in run.requests.iter().enumerate() {
            t_ms += step;
            let who = match requester {
                Requester::Address(a, endpoint) => Counted::Public(ADDRESSES[a].parse().unwrap(), endpoint),
                Requester::Key(k) => Counted::Key(&keys[k]),
            };
            let now = UNIX_EPOCH + Duration::from_millis(t_ms as u64);
            let expected = sled.check(who, now);
            let got = runtime.block_on(store.check(who, now)).expect("Redis answers");
            prop_assert_eq!(&got, &expected, "request {} of {:?} at {} ms", i, who, t_ms);
            let tally = if expected.refused_by.is_some() { &refused } else { &admitted };
            tally.set(tally.get() + 1);
        }
    });
    // The runs were not all admitted, nor all refused: both paths were compared.
    let (admitted, refused) = (admitted.get(), refused.get());
    assert!(
        admitted > 500 && refused > 500,
        "{admitted} admitted, {refused} refused"
    );
}

/// A process whose clock is behind, just after a month's start, checks a subject in the
/// month of the subject's clock (its latest counted request), as memory does: the request
/// is refused by the new month's limit, not counted in the month that has ended.
#[tokio::test]
async fn a_process_whose_clock_is_behind_counts_in_the_subjects_month() {
    use kalendorius_server::limits::Window;

    let redis = RedisServer::start();
    let limits = LimitsConfig {
        laisvadienis_per_minute: 5,
        laisvadienis_per_month: 1,
        ..LimitsConfig::default()
    };
    let (_dir, sled, store) = both_stores(&redis, limits).await;
    let who = Counted::Public("10.0.0.7".parse().unwrap(), PublicEndpoint::Laisvadienis);
    // FUTURE_MS is a month's start: one request then, one from a clock 2 ms behind.
    for ms in [FUTURE_MS, FUTURE_MS - 2] {
        let at = UNIX_EPOCH + Duration::from_millis(ms as u64);
        assert_eq!(store.check(who, at).await.unwrap(), sled.check(who, at));
    }
    let at = UNIX_EPOCH + Duration::from_millis(FUTURE_MS as u64 - 1);
    let refused = store.check(who, at).await.unwrap();
    assert_eq!(refused.refused_by, Some(Window::Month));
    assert_eq!(refused.retry_after_secs, Some(31 * 86_400), "January ends");
}

/// A subject's hash as a process of the previous release leaves it after dropping its
/// oldest bucket ('m:lo' on the dropped bucket's successor, which holds nothing) is read
/// as the sled store reads the same requests: the `RateLimit-Reset` of the next request is
/// the release of the oldest bucket still there, not of that empty one.
#[tokio::test]
async fn a_hash_left_by_the_previous_release_is_read_as_memory_reads_it() {
    let redis = RedisServer::start();
    let limits = LimitsConfig {
        laisvadienis_per_minute: 5,
        laisvadienis_per_month: 300,
        ..LimitsConfig::default()
    };
    let (_dir, sled, store) = both_stores(&redis, limits).await;
    let who = Counted::Public("10.0.0.9".parse().unwrap(), PublicEndpoint::Laisvadienis);
    let at = |ms: i64| UNIX_EPOCH + Duration::from_millis((FUTURE_MS + ms) as u64);
    for ms in [0, 30_000] {
        assert_eq!(
            store.check(who, at(ms)).await.unwrap(),
            sled.check(who, at(ms))
        );
    }
    // At 61 s the previous release dropped second 0 and moved 'm:lo' to second 1.
    let hash = "kalendorius:s:p:l:10.0.0.9";
    let second = FUTURE_MS / 1_000;
    let dropped = format!("m{second}");
    let next = (second + 1).to_string();
    assert_eq!(
        redis.command(&["HDEL", hash, &dropped]).as_deref(),
        Some(":1")
    );
    redis.command(&["HSET", hash, "m:lo", &next, "m:n", "1"]);
    let expected = sled.check(who, at(61_500));
    assert_eq!(expected.reset_secs, 30, "second 30 is released at 91 s");
    assert_eq!(store.check(who, at(61_500)).await.unwrap(), expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_move_from_sled_to_redis_with_export_and_import() {
    let tmp = tempfile::tempdir().unwrap();
    let sled_dir = tmp.path().join("state");
    let sled = sled_dir.to_str().unwrap();
    let (key, id) = create_key(sled, 7, 1_000);
    let (revoked, revoked_id) = create_key(sled, 60, 1_000);
    keys_tool(sled, &["revoke", &revoked_id]);
    let backup = tmp.path().join("keys.jsonl");
    keys_tool(sled, &["export", "--out", backup.to_str().unwrap()]);

    let redis = RedisServer::start();
    let url = redis.url();
    let out = keys_tool(&url, &["import", backup.to_str().unwrap()]);
    assert!(out.contains("2 added"), "{out}");
    let list = keys_tool(&url, &["list"]);
    assert!(list.contains(&id) && list.contains(&revoked_id), "{list}");
    // Importing the same file again changes nothing.
    let again = keys_tool(&url, &["import", backup.to_str().unwrap()]);
    assert!(again.contains("2 unchanged"), "{again}");

    let client = reqwest::Client::new();
    let (a, b) = two_processes(&client, &url).await;
    let resp = get(&client, &a.base, KEYED, Some(&key)).await;
    assert_eq!(resp.status(), 200, "the moved key works");
    assert_eq!(resp.headers()["ratelimit-limit"], "7", "with its limits");
    let resp = get(&client, &b.base, KEYED, Some(&revoked)).await;
    assert_eq!(resp.status(), 401, "and a revoked one stays revoked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redis_password_comes_from_the_environment_only() {
    let redis = RedisServer::start_with_password("s3cret-for-tests");
    let url = redis.url();
    let client = reqwest::Client::new();

    // Without it, Redis refuses: the server runs, unready, and counts nothing.
    let without = serve(&url);
    assert_eq!(
        get(&client, &without.base, "/ready", None).await.status(),
        503
    );

    let with = start(
        dataset(),
        Path::new(&url),
        &[("KALENDORIUS_REDIS_PASSWORD", "s3cret-for-tests")],
    );
    ready_becomes(&client, &with.base, 200).await;
    let resp = get(&client, &with.base, PUBLIC, None).await;
    assert!(resp.headers().get("ratelimit-limit").is_some(), "counted");

    // In the URL it is refused, with the way to give it.
    let out = command()
        .args(["keys", "--state"])
        .arg(format!(
            "redis://:s3cret-for-tests@127.0.0.1:{}/0",
            url_port(&url)
        ))
        .arg("list")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("KALENDORIUS_REDIS_PASSWORD"), "{stderr}");
    assert!(
        !stderr.contains("s3cret"),
        "the password is not echoed: {stderr}"
    );
}

/// The port of a `redis://127.0.0.1:PORT/0` URL.
fn url_port(url: &str) -> &str {
    url.trim_start_matches("redis://127.0.0.1:")
        .trim_end_matches("/0")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_redis_counts_nothing_and_leaves_the_counts_whole() {
    let Setup {
        redis,
        client,
        a,
        key,
        ..
    } = setup(60).await;
    for _ in 0..3 {
        assert_eq!(get(&client, &a.base, PUBLIC, None).await.status(), 200);
    }
    // Out of memory: Redis refuses every write (maxmemory-policy noeviction).
    let set = |limit: &str| {
        assert_eq!(
            redis
                .command(&["CONFIG", "SET", "maxmemory", limit])
                .as_deref(),
            Some("+OK")
        );
    };
    redis.command(&["CONFIG", "SET", "maxmemory-policy", "noeviction"]);
    set("1");
    let public = get(&client, &a.base, PUBLIC, None).await;
    assert_eq!(public.status(), 200);
    assert!(
        public.headers().get("ratelimit-limit").is_none(),
        "uncounted"
    );
    let keyed = get(&client, &a.base, KEYED, Some(&key)).await;
    assert_eq!(keyed.status(), 503);

    set("0");
    let limit: u64 = PUBLIC_PER_MINUTE.parse().unwrap();
    let started = Instant::now();
    loop {
        let public = get(&client, &a.base, PUBLIC, None).await;
        if let Some(remaining) = public.headers().get("ratelimit-remaining") {
            assert_eq!(
                remaining.to_str().unwrap(),
                (limit - 4).to_string(),
                "the 3 counted before, and this one"
            );
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "not counting again"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Answers that wait for Redis are compressed as under sled: the API, the pages and `/data`
/// (an answer of 1 KiB or more in the encoding asked for, with `Vary`), decompressing to the
/// identity body.
#[tokio::test]
async fn answers_that_wait_for_redis_are_compressed() {
    let redis = RedisServer::start();
    let url = redis.url();
    let client = reqwest::Client::new();
    let server = serve(&url);
    ready_becomes(&client, &server.base, 200).await;
    let (key, _) = create_key(&url, 100, 1_000);
    for (path, key) in [
        ("/api/v1/days?from=2024-01-01&to=2024-12-31", None),
        ("/api/v1/working-time?year=2024", Some(key.as_str())),
        ("/2024/12", None),
        ("/data/years/2024.json", None),
    ] {
        let identity = get(&client, &server.base, path, key).await;
        assert_eq!(identity.status(), 200, "{path}");
        let identity = identity.bytes().await.expect("a body");
        assert!(identity.len() >= 1024, "{path} is large enough to compress");
        let gzipped = request(&client, &server.base, path, key)
            .header("Accept-Encoding", "gzip")
            .send()
            .await
            .expect("request sent");
        assert_eq!(gzipped.status(), 200, "{path}");
        assert_eq!(header(&gzipped, "content-encoding"), Some("gzip"), "{path}");
        assert!(
            header(&gzipped, "vary")
                .is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")),
            "{path}"
        );
        let body = gunzip(&gzipped.bytes().await.expect("a body"));
        assert_eq!(body, identity, "{path} decompresses to the identity body");
    }
}
