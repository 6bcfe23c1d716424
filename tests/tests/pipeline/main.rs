//! The whole pipeline on the real data: `sources/` -> generator -> `output/` -> server ->
//! HTTP. What a payroll client sees for a year whose law differs from today's (2008: days in
//! lieu, bridge days, working Saturdays), and for today.

mod published;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use kalendorius_server::config::Settings;
use kalendorius_server::limits::LimitsConfig;
use kalendorius_server::server::Server;
use kalendorius_server::state::key_admin::{AdminResponse, CreateArgs, KeysCommand};
use kalendorius_server::state::State;
use serde_json::Value;

/// A server over a dataset built from the repository's sources, with limits out of the way.
struct Pipeline {
    base: String,
    key: String,
    client: reqwest::Client,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
    _dirs: tempfile::TempDir,
}

async fn start() -> Pipeline {
    let dirs = tempfile::tempdir().unwrap();
    let out = dirs.path().join("output");
    kalendorius_generator::build(&kalendorius_generator::BuildOptions {
        sources: Path::new(env!("CARGO_MANIFEST_DIR")).join("../sources"),
        out: out.clone(),
        years: None,
        keep: kalendorius_generator::versions::DEFAULT_KEEP,
    })
    .expect("the repository's sources build");
    let big = 1_000_000_000;
    let limits = LimitsConfig::all(big);
    let settings = Settings {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        data: out,
        state: dirs.path().join("state").into(),
        limits,
        ..Settings::default()
    };
    let server = Server::bind(settings).await.expect("the server starts");
    let state: Arc<State> = server.state();
    let create = KeysCommand::Create(CreateArgs {
        owner: "pipeline-test".into(),
        per_minute: None,
        per_day: None,
        expires: None,
    });
    let Ok(AdminResponse::Created { key, .. }) = state.execute(create, chrono::Utc::now()) else {
        panic!("no key");
    };
    let base = format!("http://{}", server.local_addr());
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let stopped = async move {
        let _ = rx.await;
    };
    let task = tokio::spawn(server.run(stopped, |_| {}));
    Pipeline {
        base,
        key,
        client: reqwest::Client::new(),
        stop,
        task,
        _dirs: dirs,
    }
}

impl Pipeline {
    async fn get(&self, path: &str) -> Value {
        let resp = self
            .client
            .get(format!("{}{path}", self.base))
            .header("X-API-Key", &self.key)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200, "GET {path}");
        serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap()
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn the_real_data_over_http() {
    let app = start().await;

    // 2008, day by day: the non-working weekdays are the red holidays on weekdays plus the
    // days in lieu (Labour Code art. 162-1) and the government's bridge days; the three
    // compensating Saturdays are working days.
    let year = app.get("/api/v1/days?from=2008-01-01&to=2008-12-31").await;
    assert_eq!(year["count"], 366);
    let days = year["days"].as_array().unwrap();
    let weekday_off: Vec<&str> = days
        .iter()
        .filter(|d| d["laisvadienis"] == true)
        .map(|d| d["date"].as_str().unwrap())
        .filter(|date| {
            let d = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap();
            !matches!(
                chrono::Datelike::weekday(&d),
                chrono::Weekday::Sat | chrono::Weekday::Sun
            )
        })
        .collect();
    assert_eq!(
        weekday_off,
        [
            "2008-01-01", // New Year's Day
            "2008-02-18", // in lieu of Sat Feb 16
            "2008-03-10", // bridge to Tue Mar 11
            "2008-03-11", // Restoration of Independence
            "2008-03-24", // Easter Monday
            "2008-03-25", // in lieu of Easter Sunday
            "2008-05-01", // Labour Day
            "2008-05-02", // bridge after Thu May 1
            "2008-05-05", // in lieu of Mother's Day
            "2008-06-23", // bridge to Tue Jun 24 (resolution No. 1405)
            "2008-06-24", // Midsummer
            "2008-07-07", // in lieu of Sun Jul 6
            "2008-08-15", // Assumption
            "2008-11-03", // in lieu of Sat Nov 1
            "2008-12-25", // Christmas
            "2008-12-26",
        ]
    );
    let working_saturdays: Vec<&str> = days
        .iter()
        .filter(|d| d["laisvadienis"] == false)
        .map(|d| d["date"].as_str().unwrap())
        .filter(|date| {
            let d = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap();
            chrono::Datelike::weekday(&d) == chrono::Weekday::Sat
        })
        .collect();
    assert_eq!(
        working_saturdays,
        ["2008-03-15", "2008-05-10", "2008-06-28"]
    );
    let working = days.iter().filter(|d| d["laisvadienis"] == false).count();
    assert_eq!(working, 249, "working days in 2008");

    // Christmas Eve: a working eve in 2009, a transferred day off in 2010, red since 2011.
    for (date, off, reason, shorter) in [
        ("2009-12-24", false, Value::Null, true),
        ("2010-12-24", true, Value::from("public_holiday"), false),
        ("2011-12-23", false, Value::Null, true),
        ("2026-12-24", true, Value::from("public_holiday"), false),
        ("2026-12-23", false, Value::Null, true),
    ] {
        let d = app.get(&format!("/api/v1/laisvadienis?date={date}")).await;
        assert_eq!(
            (
                d["laisvadienis"].as_bool(),
                &d["reason"],
                d["shorter_workday"].as_bool()
            ),
            (Some(off), &reason, Some(shorter)),
            "{date}"
        );
    }

    // Today's law: 16 red holiday records in 2026, with names in the requested language.
    let holidays = app.get("/api/v1/holidays?year=2026&lang=pl").await;
    let red: Vec<&Value> = holidays["holidays"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["is_red"] == true)
        .collect();
    assert_eq!(red.len(), 16);
    assert!(red
        .iter()
        .all(|h| h["name"] == h["name_pl"] && !h["name_ru"].as_str().unwrap().is_empty()));

    // Name days, Feb 29 rule included.
    let leap = app.get("/api/v1/name-days?date=2024-02-29").await;
    let common = app.get("/api/v1/name-days?date=2026-02-28").await;
    let names = |v: &Value| -> Vec<String> {
        v["name_days"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(!names(&leap).is_empty());
    assert!(
        names(&leap).iter().all(|n| names(&common).contains(n)),
        "Feb 29 names on Feb 28 2026"
    );

    // The day view agrees with the status view.
    let day = app.get("/api/v1/day?date=2022-05-01&lang=en").await;
    assert_eq!(day["day_of_week"], 0);
    let red_names: Vec<&str> = day["holidays"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["is_red"] == true)
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(red_names, ["International Labour Day", "Mother's Day"]);

    app.stop().await;
}
