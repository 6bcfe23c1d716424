//! Each endpoint's parameters as declared (`Params::DECLARED`, listed by `app::ROUTES`) are
//! what the document says, what the server parses and what tells its answers apart: every
//! declared parameter with a bad value of its kind gets that kind's code, listed among the
//! endpoint's 400 codes, which are exactly the codes its requests get; two requests that
//! differ in any one parameter never share an ETag or a cached body. Valid and bad values
//! are written here by kind, not taken from the code.

use std::collections::BTreeSet;
use std::time::SystemTime;

use kalendorius_server::api::endpoint::Endpoint;
use kalendorius_server::api::params::{Kind, Param};
use kalendorius_server::app::ROUTES;
use kalendorius_server::limits::LimitsConfig;
use serde_json::Value;

use crate::helpers::*;

/// Pairs of parameters that exclude each other (docs/api.md).
const EXCLUSIVE: [(&str, &str); 4] = [
    ("date", "year"),
    ("date", "from"),
    ("date", "to"),
    ("hours_per_week", "schedule"),
];

fn excludes(a: &str, b: &str) -> bool {
    EXCLUSIVE.contains(&(a, b)) || EXCLUSIVE.contains(&(b, a))
}

/// Queries an endpoint answers with 200, by operation (the first that fits is used); absent:
/// its required parameters, each with its first valid value.
fn bases(endpoint: &Endpoint) -> Vec<Vec<(&'static str, String)>> {
    let pair = |name: &'static str, value: &str| (name, value.to_string());
    match endpoint.operation_id {
        "holidays" => vec![vec![pair("date", "2024-12-25")], vec![pair("year", "2024")]],
        // In the fixture's one Christmas break.
        "school_holidays" => vec![vec![pair("date", "2021-12-28")], vec![pair("year", "2022")]],
        "sun" => vec![
            vec![pair("date", "2024-12-25")],
            vec![pair("from", "2024-12-24"), pair("to", "2024-12-25")],
        ],
        _ => {
            let required = endpoint.params.iter().filter(|p| p.required);
            vec![required.map(|p| (p.name, valid(p)[0].clone())).collect()]
        }
    }
}

/// Two valid values of a parameter, giving different answers.
fn valid(param: &Param) -> [String; 2] {
    let two = |a: &str, b: &str| [a.to_string(), b.to_string()];
    match (&param.kind, param.name) {
        // `from` stays before `to` either way; Christmas has names to translate.
        (Kind::Date, "from") => two("2024-12-23", "2024-12-24"),
        (Kind::Date, "to") => two("2024-12-25", "2024-12-26"),
        (Kind::Date, _) => two("2024-12-25", "2024-12-26"),
        (Kind::LocalTime, "start") => two("2024-06-03T08:00", "2024-06-03T09:00"),
        (Kind::LocalTime, _) => two("2024-06-03T16:00", "2024-06-03T17:00"),
        (Kind::Year, "to_year") => two("2024", "2023"),
        (Kind::Year, _) => two("2023", "2024"),
        (Kind::Lang, _) => two("lt", "en"),
        (Kind::Week, _) => two("5", "6"),
        // Pre-school has no holidays in the fixture, grade 1 has.
        (Kind::Integer { .. }, "grade") => two("0", "1"),
        (Kind::Integer { range, .. }, _) => {
            let low = (*range.start()).max(1).min(*range.end() - 1);
            two(&low.to_string(), &(low + 1).to_string())
        }
        (Kind::Text { .. }, _) => two("jonas", "ona"),
        (Kind::Place, _) => two("vilnius", "klaipeda"),
        (Kind::Choice { values, .. }, _) => two(values[0], values[1]),
        (Kind::HoursPerWeek, _) => two("40", "39"),
        (Kind::Schedule, _) => two("8:00,8:00,8:00,8:00,8:00", "8:00,8:00,8:00,8:00,7:00"),
    }
}

/// Bad values of a parameter's kind, each with the code docs/api.md gives it.
fn bad(param: &Param) -> Vec<(String, &'static str)> {
    let one = |value: &str, code| vec![(value.to_string(), code)];
    match &param.kind {
        Kind::Date => one("2024-02-30", "invalid_date"),
        Kind::Year => one("20x4", "invalid_year"),
        Kind::Lang => one("xx", "invalid_lang"),
        Kind::Integer { range, .. } => one(&(range.end() + 1).to_string(), "invalid_param"),
        Kind::Text { max_chars } => one(&"a".repeat(max_chars + 1), "invalid_param"),
        // Malformed; well-formed on a date not answered.
        Kind::LocalTime => vec![
            ("2024-06-03T25:00".into(), "invalid_param"),
            ("2030-06-03T08:00".into(), "invalid_date"),
        ],
        Kind::Week => one("7", "invalid_param"),
        Kind::Place => one("nowhere", "invalid_param"),
        Kind::Choice { .. } => one("neither", "invalid_param"),
        Kind::HoursPerWeek => one("41", "invalid_param"),
        Kind::Schedule => one("8:00", "invalid_param"),
    }
}

/// Queries refused by a check across an endpoint's parameters (with the fixture's dates,
/// 2009 to 2024), by operation, each with its code.
fn across(operation_id: &str) -> Vec<(String, &'static str)> {
    let contract = |base: &str| {
        [
            (
                "hours_per_week=36&schedule=8:00,8:00,8:00,8:00,4:00",
                "conflicting_params",
            ),
            (
                "week=5&schedule=8:00,8:00,8:00,8:00,4:00,4:00",
                "conflicting_params",
            ),
            ("hours_per_week=36", "missing_param"),
            ("hours_per_week=36&norm=full", "invalid_param"),
        ]
        .map(|(contract, code)| (format!("{base}&{contract}"), code))
    };
    let fixed = match operation_id {
        "days" => vec![
            ("from=2024-01-02&to=2024-01-01", "invalid_range"),
            ("from=2023-03-01&to=2024-03-01", "range_too_large"),
        ],
        "holidays" | "school_holidays" => vec![
            ("lang=en", "missing_param"),
            ("date=2024-12-25&year=2024", "conflicting_params"),
        ],
        "holidays_feed" => vec![("from_year=2024&to_year=2023", "invalid_year")],
        "sun" => vec![
            ("place=vilnius", "missing_param"),
            ("from=2024-12-24", "missing_param"),
            ("date=2024-12-25&to=2024-12-26", "conflicting_params"),
            ("from=2024-12-25&to=2024-12-24", "invalid_range"),
            ("from=2023-01-01&to=2024-03-01", "range_too_large"),
        ],
        "shift_hours" => vec![
            (
                "start=2024-06-03T10:00&end=2024-06-03T08:00",
                "invalid_range",
            ),
            (
                "start=2024-06-03T10:00&end=2024-06-06T10:01",
                "range_too_large",
            ),
        ],
        "leave" => vec![("start=2024-12-20&days=30", "out_of_range")],
        "working_days_add" => vec![("date=2024-12-20&days=100", "out_of_range")],
        "working_days" => vec![("from=2024-01-02&to=2024-01-01", "invalid_range")],
        _ => vec![],
    };
    let mut cases: Vec<(String, &str)> =
        fixed.into_iter().map(|(q, c)| (q.to_string(), c)).collect();
    match operation_id {
        "working_time" => cases.extend(contract("year=2024")),
        "working_days" => cases.extend(contract("from=2024-01-01&to=2024-12-31")),
        _ => {}
    }
    cases
}

/// The first base query that can carry `name`, with `name` set to `value`.
fn with(endpoint: &Endpoint, name: &'static str, value: &str) -> String {
    let base = bases(endpoint)
        .into_iter()
        .find(|base| base.iter().all(|(n, _)| *n == name || !excludes(n, name)))
        .expect("a base query without a parameter excluding it");
    let mut pairs: Vec<(&str, String)> = base.into_iter().filter(|(n, _)| *n != name).collect();
    pairs.push((name, value.to_string()));
    let query: Vec<String> = pairs
        .iter()
        .map(|(n, v)| format!("{n}={}", v.replace('+', "%2B")))
        .collect();
    format!("/api/v1{}?{}", endpoint.path, query.join("&"))
}

async fn app() -> (TestApp, String) {
    let app = spawn_app_with(AppOptions {
        limits: Some(LimitsConfig::all(1_000_000)),
        // `today` inside the test dataset's years.
        today_at: Some(SystemTime::from(
            chrono::DateTime::parse_from_rfc3339("2024-06-03T10:00:00Z").unwrap(),
        )),
        ..AppOptions::default()
    })
    .await;
    let (key, _) = app.key(Some(1_000_000), Some(1_000_000));
    (app, key)
}

/// The `error` codes the document lists for an operation's 400.
fn documented_400_codes(doc: &Value, endpoint: &Endpoint) -> Vec<String> {
    let operation = &doc["paths"][format!("/api/v1{}", endpoint.path)]["get"];
    let content = operation["responses"]["400"]["content"]
        .as_object()
        .unwrap();
    let schema = &content.values().next().unwrap()["schema"];
    let codes = schema["properties"]["error"]["enum"].as_array().unwrap();
    codes
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn every_declared_bad_value_gets_its_kinds_code_listed_for_the_endpoint() {
    let (app, key) = app().await;
    let doc = app.json("/api/v1/openapi.json").await;
    let mut checked = 0;
    for endpoint in ROUTES {
        let documented = documented_400_codes(&doc, endpoint);
        for base in bases(endpoint) {
            let query: Vec<String> = base.iter().map(|(n, v)| format!("{n}={v}")).collect();
            let path = format!("/api/v1{}?{}", endpoint.path, query.join("&"));
            assert_eq!(app.get_keyed(&path, &key).await.status(), 200, "{path}");
        }
        for param in endpoint.params {
            for (value, code) in bad(param) {
                let path = with(endpoint, param.name, &value);
                assert_eq!(code_of(&app, &key, &path).await, code, "{path}");
                assert!(
                    documented.iter().any(|c| c == code),
                    "{path}: {documented:?}"
                );
                checked += 1;
            }
        }
    }
    // Every endpoint's, about 60.
    assert!(checked >= 50, "{checked} parameters checked");
}

/// The `error` code of a 400 answer to `path`.
async fn code_of(app: &TestApp, key: &str, path: &str) -> String {
    let resp = app.get_keyed(path, key).await;
    assert_eq!(resp.status(), 400, "{path}");
    let body: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    body["error"].as_str().unwrap().to_string()
}

/// The document's 400 codes of an endpoint (made from its declarations) are the codes its
/// requests get: a bad value of each parameter, each required one left out, a parameter
/// sent twice, and the checks across parameters ([`across`]). A declaration that gives a
/// code the server never sends, or a check whose code the document lacks, fails here.
#[tokio::test]
async fn the_documented_400_codes_are_exactly_those_requests_get() {
    let (app, key) = app().await;
    let doc = app.json("/api/v1/openapi.json").await;
    for endpoint in ROUTES {
        let mut got = BTreeSet::new();
        for param in endpoint.params {
            for (value, _) in bad(param) {
                let path = with(endpoint, param.name, &value);
                got.insert(code_of(&app, &key, &path).await);
            }
            if param.required {
                let base = &bases(endpoint)[0];
                let rest: Vec<String> = base
                    .iter()
                    .filter(|(n, _)| *n != param.name)
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect();
                let path = format!("/api/v1{}?{}", endpoint.path, rest.join("&"));
                got.insert(code_of(&app, &key, &path).await);
            }
        }
        let first = &endpoint.params[0];
        let value = &valid(first)[0];
        let twice = format!(
            "{}&{}={value}",
            with(endpoint, first.name, value),
            first.name
        );
        got.insert(code_of(&app, &key, &twice).await);
        for (query, code) in across(endpoint.operation_id) {
            let path = format!("/api/v1{}?{query}", endpoint.path);
            assert_eq!(code_of(&app, &key, &path).await, code, "{path}");
            got.insert(code.to_string());
        }
        // `invalid_host` is the gate's, listed for every endpoint (two `Host` headers).
        let documented: BTreeSet<String> = documented_400_codes(&doc, endpoint)
            .into_iter()
            .filter(|c| c != "invalid_host")
            .collect();
        assert_eq!(documented, got, "{}: documented, then got", endpoint.path);
    }
}

#[tokio::test]
async fn every_documented_parameter_is_the_declared_one() {
    let (app, _) = app().await;
    let doc = app.json("/api/v1/openapi.json").await;
    for endpoint in ROUTES {
        let operation = &doc["paths"][format!("/api/v1{}", endpoint.path)]["get"];
        let documented = operation["parameters"].as_array().unwrap();
        let declared: Vec<(&str, bool, &str)> = endpoint
            .params
            .iter()
            .map(|p| (p.name, p.required, p.description))
            .collect();
        let seen: Vec<(&str, bool, &str)> = documented
            .iter()
            .map(|p| {
                assert_eq!(p["in"], "query");
                let name = p["name"].as_str().unwrap();
                let description = p["description"].as_str().unwrap();
                (name, p["required"].as_bool().unwrap(), description)
            })
            .collect();
        assert_eq!(seen, declared, "{}", endpoint.path);
        for (param, documented) in endpoint.params.iter().zip(documented) {
            if let Kind::Integer { range, .. } = &param.kind {
                let schema = &documented["schema"];
                assert_eq!(schema["minimum"], *range.start(), "{}", param.name);
                assert_eq!(schema["maximum"], *range.end(), "{}", param.name);
            }
        }
    }
}

/// An ETag when the answer has one (public answers, and keyed ones that used `today`).
async fn answer(app: &TestApp, key: &str, path: &str) -> (Option<String>, String) {
    let resp = app.get_keyed(path, key).await;
    assert_eq!(resp.status(), 200, "{path}");
    let etag = header(&resp, "etag").map(str::to_string);
    (etag, resp.text().await.unwrap())
}

#[tokio::test]
async fn requests_differing_in_one_parameter_share_no_etag_and_no_cached_body() {
    let (app, key) = app().await;
    let mut etags_compared = 0;
    for endpoint in ROUTES {
        for param in endpoint.params {
            // The contract's parameters depend on each other: varied together below.
            if ["hours_per_week", "norm", "schedule"].contains(&param.name) {
                continue;
            }
            let [one, other] = valid(param);
            let (a, b) = (
                with(endpoint, param.name, &one),
                with(endpoint, param.name, &other),
            );
            let first = answer(&app, &key, &a).await;
            let second = answer(&app, &key, &b).await;
            assert_ne!(first.1, second.1, "{a} and {b} answer alike");
            if let (Some(x), Some(y)) = (&first.0, &second.0) {
                assert_ne!(x, y, "{a} and {b} share an ETag");
                etags_compared += 1;
            }
            // Asked again, each is its own answer: no cached body stands in for the other.
            assert_eq!(answer(&app, &key, &a).await, first, "{a}");
            assert_eq!(answer(&app, &key, &b).await, second, "{b}");
        }
    }
    assert!(etags_compared >= 10, "{etags_compared} ETag pairs");
    for path in [
        "/api/v1/working-time?year=2024",
        "/api/v1/working-days?from=2024-01-01&to=2024-12-31",
    ] {
        let contracts = [
            "",
            "&hours_per_week=36&norm=reduced",
            "&hours_per_week=36&norm=part_time",
            "&hours_per_week=35&norm=reduced",
            "&schedule=8:00,8:00,8:00,8:00,7:00&norm=part_time",
        ];
        let mut bodies = Vec::new();
        for contract in contracts {
            bodies.push(answer(&app, &key, &format!("{path}{contract}")).await.1);
        }
        for (i, contract) in contracts.iter().enumerate() {
            let again = answer(&app, &key, &format!("{path}{contract}")).await.1;
            assert_eq!(again, bodies[i], "{path}{contract}");
            assert!(!bodies[..i].contains(&bodies[i]), "{path}{contract}");
        }
    }
}

/// An answer that used `today` has the ETag of what was asked: the same parameters in
/// another spelling share it, another value of any parameter does not.
#[tokio::test]
async fn the_etag_of_a_today_answer_is_that_of_its_parsed_parameters() {
    let (app, key) = app().await;
    let etag = |path: &'static str| {
        let (app, key) = (&app, &key);
        async move {
            answer(app, key, path)
                .await
                .0
                .expect("a today answer's ETag")
        }
    };
    let day = etag("/api/v1/day?date=today&lang=EN").await;
    assert_eq!(etag("/api/v1/day?date=today&lang=en").await, day);
    assert_ne!(etag("/api/v1/day?date=today&lang=lt").await, day);
    assert_ne!(etag("/api/v1/name-days?date=today&lang=en").await, day);
    let upcoming = etag("/api/v1/holidays/upcoming?count=3").await;
    assert_eq!(
        etag("/api/v1/holidays/upcoming?from=today&count=3").await,
        upcoming
    );
    assert_ne!(etag("/api/v1/holidays/upcoming?count=4").await, upcoming);
}
