//! The real binary: start-up (printing the bound address), refusing a bad dataset, SIGHUP
//! reload, SIGTERM with a final flush and exit 0, and what the access log shows.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use kalendorius_server::limits::{LimitsConfig, PublicEndpoint};
use kalendorius_server::state::store::Counted;
use kalendorius_server::state::State;

use crate::helpers::*;

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_kalendorius-server");

/// A running `kalendorius-server serve`, with its stdout collected.
pub(crate) struct Proc {
    child: Child,
    pub(crate) base: String,
    out: Arc<Mutex<String>>,
}

pub(crate) fn command() -> Command {
    let mut cmd = Command::new(BIN);
    for (name, _) in std::env::vars() {
        if name.starts_with("KALENDORIUS_") {
            cmd.env_remove(name);
        }
    }
    cmd
}

pub(crate) fn start(data: &Path, state: &Path, extra_env: &[(&str, &str)]) -> Proc {
    let mut cmd = command();
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .arg("--state")
        .arg(state)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the server binary starts");
    let stdout = child.stdout.take().unwrap();
    let out = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    let sink = out.clone();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(addr) = announced_url(&line) {
                if let Some(tx) = tx.take() {
                    let _ = tx.send(addr);
                }
            }
            let mut s = sink.lock().unwrap();
            s.push_str(&line);
            s.push('\n');
        }
    });
    let base = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the server prints its address");
    Proc { child, base, out }
}

/// The URL of the start-up line, `listening on http://ADDR` as text or as the `message` of
/// a JSON line.
fn announced_url(line: &str) -> Option<String> {
    if let Some(url) = line.strip_prefix("listening on ") {
        return Some(url.to_string());
    }
    let json: serde_json::Value = serde_json::from_str(line).ok()?;
    let url = json["message"].as_str()?.strip_prefix("listening on ")?;
    assert_eq!(json["url"], url, "{line}");
    Some(url.to_string())
}

impl Proc {
    pub(crate) fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub(crate) fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub(crate) fn log(&self) -> String {
        self.out.lock().unwrap().clone()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn get(client: &reqwest::Client, url: String) -> reqwest::Response {
    client.get(url).send().await.unwrap()
}

#[tokio::test]
async fn sighup_swaps_the_dataset_and_a_failed_reload_keeps_the_old_one() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let old_version = build_dataset(&out, 2020..=2021);
    let server = start(&out, &tmp.path().join("state"), &[]);
    let client = reqwest::Client::new();
    let url = format!("{}/api/v1/laisvadienis?date=2022-05-01", server.base);
    let resp = get(&client, url.clone()).await;
    assert_eq!(
        header(&resp, "x-dataset-version"),
        Some(old_version.as_str())
    );
    let msg = assert_error(resp, 400, "invalid_date").await;
    assert!(msg.contains("2021-12-31"), "{msg}");

    let new_version = build_dataset(&out, 2020..=2022);
    assert_ne!(old_version, new_version);
    server.signal("HUP");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let resp = get(&client, url.clone()).await;
        if resp.status() == 200 {
            assert_eq!(
                header(&resp, "x-dataset-version"),
                Some(new_version.as_str())
            );
            break;
        }
        assert!(Instant::now() < deadline, "the reload did not happen");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Break the dataset in place: the reload fails and the loaded one stays in service.
    crate::database::tamper_with_year(&out.join("current"), 2022);
    server.signal("HUP");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !server.log().contains("reload failed") {
        assert!(
            Instant::now() < deadline,
            "no failure logged:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let resp = get(&client, url).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        header(&resp, "x-dataset-version"),
        Some(new_version.as_str())
    );
}

#[tokio::test]
async fn sigterm_finishes_flushes_and_exits_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let state_dir = tmp.path().join("state");
    let mut server = start(dataset(), &state_dir, &[]);
    let client = reqwest::Client::new();
    for _ in 0..3 {
        let resp = get(
            &client,
            format!("{}/api/v1/laisvadienis?date=2024-01-01", server.base),
        )
        .await;
        assert_eq!(resp.status(), 200);
    }
    server.signal("TERM");
    let status = server.wait_exit();
    assert_eq!(status.code(), Some(0), "log:\n{}", server.log());
    let state = State::open(&state_dir, LimitsConfig::default()).unwrap();
    let localhost = "127.0.0.1".parse().unwrap();
    let stored = state.stored_usage(
        Counted::Public(localhost, PublicEndpoint::Laisvadienis),
        Utc::now(),
    );
    assert_eq!(stored.1, 3, "every request of the month is on disk");
}

#[tokio::test]
async fn sigint_stops_too() {
    let tmp = tempfile::tempdir().unwrap();
    let mut server = start(dataset(), &tmp.path().join("state"), &[]);
    server.signal("INT");
    assert_eq!(server.wait_exit().code(), Some(0));
}

/// Starts a server logging in `format`, makes three requests (a key in the query, a key in
/// a header, a wrong key in the query) and returns the server and the key.
async fn three_logged_requests(format: &str) -> (tempfile::TempDir, Proc, String) {
    let tmp = tempfile::tempdir().unwrap();
    let state_dir = tmp.path().join("state");
    let server = start(dataset(), &state_dir, &[("KALENDORIUS_LOG_FORMAT", format)]);
    let created = command()
        .args(["keys", "--state"])
        .arg(&state_dir)
        .args(["create", "--owner", "log-test-owner"])
        .output()
        .unwrap();
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let key = String::from_utf8(created.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    assert!(key.starts_with("ltk_"), "{key}");
    let client = reqwest::Client::new();
    let resp = get(
        &client,
        format!("{}/api/v1/day?date=2024-01-01&api_key={key}", server.base),
    )
    .await;
    assert_eq!(resp.status(), 200);
    let resp = client
        .get(format!("{}/api/v1/name-days?date=2024-01-01", server.base))
        .header("X-API-Key", &key)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let resp = get(
        &client,
        format!(
            "{}/api/v1/day?date=2024-01-01&api_key=ltk_wrong_secret",
            server.base
        ),
    )
    .await;
    assert_eq!(resp.status(), 401);
    (tmp, server, key)
}

/// The log lines of `server` that `is_access` picks, once there are `count` (or after 10 s).
async fn access_lines(server: &Proc, count: usize, is_access: impl Fn(&str) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.log().lines().filter(|l| is_access(l)).count() < count && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The JSON lines of `log` that pass `keep`, in the order of their timestamps: each worker
/// thread has its own log buffer, so lines of requests served by different threads may be
/// written out in either order.
fn in_time_order(log: &str, keep: impl Fn(&str) -> bool) -> Vec<serde_json::Value> {
    let mut lines: Vec<serde_json::Value> = log
        .lines()
        .filter(|l| keep(l))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.sort_by_key(|v| v["timestamp"].as_str().expect("a timestamp").to_string());
    lines
}

#[tokio::test]
async fn the_access_log_has_one_line_per_request_and_never_a_key() {
    let (_tmp, server, key) = three_logged_requests("json").await;
    let is_access = |l: &str| {
        serde_json::from_str::<serde_json::Value>(l).is_ok_and(|v| v["target"] == "access")
    };
    access_lines(&server, 3, is_access).await;
    let log = server.log();
    let lines = in_time_order(&log, is_access);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(!log.contains(&key), "a key in the log:\n{log}");
    assert!(
        !log.contains("ltk_wrong_secret"),
        "a key in the log:\n{log}"
    );
    assert_eq!(lines[0]["method"], "GET");
    assert_eq!(
        lines[0]["path"],
        "/api/v1/day?date=2024-01-01&api_key=REDACTED"
    );
    assert_eq!(lines[0]["status"], 200);
    assert_eq!(lines[0]["client_ip"], "127.0.0.1");
    assert_eq!(lines[0]["key_owner"], "log-test-owner");
    assert!(lines[0]["latency_us"].is_u64());
    assert_eq!(lines[1]["key_owner"], "log-test-owner");
    assert_eq!(lines[2]["status"], 401);
    assert!(lines[2].get("key_owner").is_none());
}

#[tokio::test]
async fn the_text_access_log_has_the_same_lines() {
    let (_tmp, server, key) = three_logged_requests("text").await;
    let is_access = |l: &str| l.contains(" INFO access: ");
    access_lines(&server, 3, is_access).await;
    let log = server.log();
    let mut lines: Vec<&str> = log.lines().filter(|l| is_access(l)).collect();
    // By their timestamp (the first 27 bytes), as in `in_time_order`.
    lines.sort_by_key(|l| l.get(..27).unwrap_or(l).to_string());
    assert_eq!(lines.len(), 3, "{log}");
    assert!(!log.contains(&key), "a key in the log:\n{log}");
    assert!(
        !log.contains("ltk_wrong_secret"),
        "a key in the log:\n{log}"
    );
    // `2024-01-01T12:00:00.000000Z  INFO access: method="GET" ...`
    for line in &lines {
        let stamp = &line[..27];
        assert!(
            chrono::DateTime::parse_from_rfc3339(stamp).is_ok(),
            "timestamp: {line}"
        );
        assert!(
            line[27..].starts_with("  INFO access: method=\"GET\" path="),
            "{line}"
        );
    }
    assert!(
        lines[0].contains(
            r#" path="/api/v1/day?date=2024-01-01&api_key=REDACTED" status=200 latency_us="#
        ),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].ends_with(r#" client_ip="127.0.0.1" key_owner="log-test-owner""#),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with(r#" key_owner="log-test-owner""#),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains(" status=401 "), "{}", lines[2]);
    assert!(!lines[2].contains("key_owner"), "{}", lines[2]);
}

#[tokio::test]
async fn a_key_under_a_wrong_parameter_name_is_not_logged_either() {
    let tmp = tempfile::tempdir().unwrap();
    let server = start(
        dataset(),
        &tmp.path().join("state"),
        &[("KALENDORIUS_LOG_FORMAT", "json")],
    );
    let key = format!("ltk_{}", "5e".repeat(32));
    let client = reqwest::Client::new();
    let queries = [
        format!("apikey={key}&date=2024-01-01"),
        format!("date=2024-01-01&API_KEY={key}"),
        format!("date={key}"),
    ];
    for query in &queries {
        let resp = get(&client, format!("{}/api/v1/day?{query}", server.base)).await;
        assert_eq!(resp.status(), 401, "{query}");
    }
    let is_access = |l: &str| {
        serde_json::from_str::<serde_json::Value>(l).is_ok_and(|v| v["target"] == "access")
    };
    access_lines(&server, queries.len(), is_access).await;
    let log = server.log();
    assert!(!log.contains(&key[4..]), "a key in the log:\n{log}");
    let paths: Vec<String> = in_time_order(&log, is_access)
        .iter()
        .map(|v| v["path"].to_string())
        .collect();
    assert_eq!(
        paths,
        [
            r#""/api/v1/day?apikey=REDACTED&date=2024-01-01""#,
            r#""/api/v1/day?date=2024-01-01&API_KEY=REDACTED""#,
            r#""/api/v1/day?date=REDACTED""#,
        ]
    );
}

#[tokio::test]
async fn in_the_json_format_every_line_on_stdout_is_json() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    build_dataset(&out, 2020..=2021);
    let mut server = start(
        &out,
        &tmp.path().join("state"),
        &[("KALENDORIUS_LOG_FORMAT", "json")],
    );
    let client = reqwest::Client::new();
    for path in [
        "/api/v1/laisvadienis?date=2021-05-01",
        "/api/v1/day?date=2021-05-01",
        "/api/v1/days/",
        "/health",
        "/ready",
    ] {
        get(&client, format!("{}{path}", server.base)).await;
    }
    // A reload and a stop log lines of their own.
    build_dataset(&out, 2020..=2022);
    server.signal("HUP");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !server.log().contains("dataset reloaded") {
        assert!(Instant::now() < deadline, "no reload:\n{}", server.log());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.signal("TERM");
    assert_eq!(server.wait_exit().code(), Some(0));
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server.log().contains("state flushed") {
        assert!(Instant::now() < deadline, "no last line:\n{}", server.log());
        std::thread::sleep(Duration::from_millis(20));
    }
    let log = server.log();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {line}\nlog:\n{log}"));
            assert!(value["timestamp"].is_string(), "{line}");
            assert!(value["level"].is_string(), "{line}");
            value
        })
        .collect();
    assert!(
        lines.iter().any(|l| l["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("listening on http://"))),
        "{log}"
    );
    let access = lines.iter().filter(|l| l["target"] == "access").count();
    assert_eq!(access, 5, "{log}");
}

fn refuse(data: &Path) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let output = command()
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .arg("--state")
        .arg(tmp.path().join("state"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "refuses to start");
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn a_missing_or_damaged_dataset_is_refused_with_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let err = refuse(&tmp.path().join("nothing-here"));
    assert!(err.contains("no dataset"), "{err}");

    let out = tmp.path().join("out");
    build_dataset(&out, 2020..=2020);
    let manifest_path = out.join("current/manifest.json");
    let manifest = std::fs::read_to_string(&manifest_path).unwrap();

    let mut wrong_schema: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    wrong_schema["schema_version"] = 999.into();
    std::fs::write(&manifest_path, wrong_schema.to_string()).unwrap();
    let err = refuse(&out);
    assert!(err.contains("schema version 999"), "{err}");

    // The server loads the sled database: a damaged year value is refused by name.
    std::fs::write(&manifest_path, &manifest).unwrap();
    crate::database::tamper_with_year(&out.join("current"), 2020);
    let err = refuse(&out);
    assert!(
        err.contains("year 2020") && err.contains("kalendorius-generator build"),
        "{err}"
    );
}

#[test]
fn every_subcommand_has_help() {
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["keys", "--help"],
        vec!["keys", "create", "--help"],
    ] {
        let out = command().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Usage"),
            "{args:?}"
        );
    }
    let out = command().args(["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--listen",
        "--data",
        "--state",
        "--config",
        "--trusted-proxy",
        "--log-format",
    ] {
        assert!(help.contains(flag), "{flag} in serve --help");
    }
}
