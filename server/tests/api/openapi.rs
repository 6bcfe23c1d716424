//! The OpenAPI document and the behaviour held together: every path, parameter, status and
//! security scheme of `/api/v1/openapi.json` is exercised, and every real response body is
//! validated against the schema the document declares for it (types, required and nullable
//! fields, enums, formats, and no undeclared fields) by a JSON Schema validator.

use std::collections::{BTreeMap, BTreeSet};

use kalendorius_dataset::{Date, FIRST_YEAR, LAST_YEAR};
use serde_json::Value;

use crate::helpers::*;

const JSON: &str = "application/json; charset=utf-8";
const CALENDAR: &str = "text/calendar; charset=utf-8";

/// The media type of `/metrics`.
const METRICS: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A 12-hour night shift of the fixture dataset's years, from Christmas Eve.
const SHIFT: &str = "/api/v1/shift-hours?start=2022-12-24T20:00&end=2022-12-25T08:00";

/// Parameters of an operation: (name, required), in order.
type Params = Vec<(&'static str, bool)>;

/// Validates `value` against `schema`, a schema of the document, with the `jsonschema`
/// crate (JSON Schema 2020-12, the dialect of OpenAPI 3.1), its `$ref`s resolved in the
/// document's components, formats checked.
fn validate(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let root = serde_json::json!({
        "allOf": [schema],
        "components": doc["components"],
    });
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&root)
        .map_err(|e| format!("{at}: the schema does not compile: {e}"))?;
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("at '{}': {e}", e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{at}: {}", errors.join("; ")))
    }
}

async fn document(app: &TestApp) -> Value {
    let resp = app.get("/api/v1/openapi.json").await;
    assert_eq!(resp.status(), 200);
    resp.json_body().await
}

#[tokio::test]
async fn the_document_lists_the_api_exactly() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    let expected: BTreeMap<&str, (Params, bool)> = BTreeMap::from([
        ("/api/v1/laisvadienis", (vec![("date", true)], false)),
        ("/api/v1/days", (vec![("from", true), ("to", true)], false)),
        (
            "/api/v1/holidays",
            (
                vec![("date", false), ("year", false), ("lang", false)],
                true,
            ),
        ),
        (
            "/api/v1/name-days",
            (vec![("date", true), ("lang", false)], true),
        ),
        ("/api/v1/day", (vec![("date", true), ("lang", false)], true)),
        (
            "/api/v1/holidays/upcoming",
            (
                vec![
                    ("from", false),
                    ("count", false),
                    ("scope", false),
                    ("lang", false),
                ],
                true,
            ),
        ),
        (
            "/api/v1/long-weekends",
            (
                vec![("year", true), ("max_leave_days", false), ("lang", false)],
                true,
            ),
        ),
        (
            "/api/v1/working-time",
            (
                vec![
                    ("year", true),
                    ("week", false),
                    ("hours_per_week", false),
                    ("norm", false),
                    ("schedule", false),
                ],
                true,
            ),
        ),
        (
            "/api/v1/working-days",
            (
                vec![
                    ("from", true),
                    ("to", true),
                    ("week", false),
                    ("hours_per_week", false),
                    ("norm", false),
                    ("schedule", false),
                ],
                true,
            ),
        ),
        (
            "/api/v1/leave",
            (
                vec![
                    ("start", true),
                    ("days", true),
                    ("week", false),
                    ("lang", false),
                ],
                true,
            ),
        ),
        (
            "/api/v1/working-days/add",
            (vec![("date", true), ("days", true), ("week", false)], true),
        ),
        (
            "/api/v1/shift-hours",
            (
                vec![
                    ("start", true),
                    ("end", true),
                    ("week", false),
                    ("lang", false),
                ],
                true,
            ),
        ),
        ("/api/v1/name-days/search", (vec![("name", true)], true)),
        (
            "/api/v1/feeds/holidays.ics",
            (
                vec![
                    ("lang", false),
                    ("scope", false),
                    ("shortened", false),
                    ("from_year", false),
                    ("to_year", false),
                ],
                false,
            ),
        ),
        (
            "/api/v1/feeds/name-days.ics",
            (vec![("lang", false)], false),
        ),
        (
            "/api/v1/school-holidays",
            (
                vec![
                    ("date", false),
                    ("year", false),
                    ("grade", false),
                    ("lang", false),
                ],
                true,
            ),
        ),
        (
            "/api/v1/feeds/school-holidays.ics",
            (vec![("grade", false), ("lang", false)], false),
        ),
        (
            "/api/v1/sun",
            (
                vec![
                    ("date", false),
                    ("from", false),
                    ("to", false),
                    ("place", false),
                ],
                true,
            ),
        ),
        (
            "/api/v1/moon",
            (vec![("year", true), ("lang", false)], true),
        ),
        ("/api/v1/feeds/moon.ics", (vec![("lang", false)], false)),
        ("/data/manifest.json", (vec![], false)),
        ("/data/school_holidays.json", (vec![], false)),
        ("/data/places.json", (vec![], false)),
        ("/data/changes.json", (vec![], false)),
        ("/data/years/{year}.json", (vec![("year", true)], false)),
        ("/data/schema/{name}", (vec![("name", true)], false)),
        ("/health", (vec![], false)),
        ("/ready", (vec![], false)),
        ("/metrics", (vec![], false)),
    ]);
    assert_eq!(
        paths.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        expected.keys().copied().collect::<BTreeSet<_>>()
    );
    for (path, (params, keyed)) in &expected {
        let ops = paths[*path].as_object().unwrap();
        assert_eq!(ops.keys().collect::<Vec<_>>(), ["get"], "{path}");
        let op = &ops["get"];
        let declared: Vec<(&str, bool)> = op["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let name = p["name"].as_str().unwrap();
                let place = if path.contains(&format!("{{{name}}}")) {
                    "path"
                } else {
                    "query"
                };
                assert_eq!(p["in"], place, "{path} {name}");
                (name, p["required"] == true)
            })
            .collect();
        assert_eq!(&declared, params, "{path}");
        let security = op.get("security").and_then(Value::as_array);
        if *keyed {
            let schemes: BTreeSet<String> = security
                .unwrap()
                .iter()
                .map(|alt| alt.as_object().unwrap().keys().next().unwrap().clone())
                .collect();
            assert_eq!(schemes.len(), 3, "three alternatives on {path}");
        } else {
            assert!(security.is_none_or(|s| s.is_empty()), "{path} is public");
        }
    }
    let schemes = doc["components"]["securitySchemes"].as_object().unwrap();
    let mut kinds: Vec<String> = schemes
        .values()
        .map(|s| match s["type"].as_str().unwrap() {
            "apiKey" => format!(
                "apiKey:{}:{}",
                s["in"].as_str().unwrap(),
                s["name"].as_str().unwrap()
            ),
            "http" => format!("http:{}", s["scheme"].as_str().unwrap()),
            other => other.to_string(),
        })
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            "apiKey:header:X-API-Key",
            "apiKey:query:api_key",
            "http:bearer"
        ]
    );
    // The document served is the one the code builds.
    let built: Value = serde_json::from_str(&kalendorius_server::app::App::openapi_json()).unwrap();
    assert_eq!(doc, built);
}

#[tokio::test]
async fn every_documented_status_happens_and_matches_its_schema() {
    // `today` is in the fixture dataset: a keyed answer that used it can be a 304.
    let app = spawn_app_with(AppOptions {
        today_at: Some(
            chrono::DateTime::parse_from_rfc3339("2022-05-02T09:00:00Z")
                .unwrap()
                .into(),
        ),
        ..AppOptions::default()
    })
    .await;
    // More keyed requests than a default key's minute allows: every endpoint's cases.
    let (key, _) = app.key(Some(1_000_000), Some(1_000_000));
    let tight = spawn_app_with(AppOptions {
        limits: Some(kalendorius_server::limits::LimitsConfig {
            laisvadienis_per_minute: 1,
            days_per_minute: 1,
            feeds_per_minute: 1,
            data_per_minute: 1,
            ..Default::default()
        }),
        // On Redis, stopped for the 503 cases (the last ones).
        ..StoreKind::Redis.options()
    })
    .await;
    let (tight_key, _) = tight.key(Some(1), None);
    let doc = document(&app).await;

    // (path, status) -> requests: (app, path+query, key, If-None-Match).
    struct Case {
        tight: bool,
        url: &'static str,
        key: bool,
        etag_of_previous: bool,
        /// Sent with two `Host` headers (a raw request).
        two_hosts: bool,
    }
    let c = |tight, url, key, etag_of_previous| Case {
        tight,
        url,
        key,
        etag_of_previous,
        two_hosts: false,
    };
    let two_hosts = |url| Case {
        tight: false,
        url,
        key: false,
        etag_of_previous: false,
        two_hosts: true,
    };
    let mut cases: Vec<(&str, u16, Vec<Case>)> = vec![
        (
            "/api/v1/laisvadienis",
            200,
            vec![
                c(false, "/api/v1/laisvadienis?date=2022-05-01", false, false),
                c(false, "/api/v1/laisvadienis?date=2022-04-29", false, false),
                c(false, "/api/v1/laisvadienis?date=2022-04-30", false, false),
            ],
        ),
        (
            "/api/v1/laisvadienis",
            304,
            vec![
                c(false, "/api/v1/laisvadienis?date=2022-05-02", false, false),
                c(false, "/api/v1/laisvadienis?date=2022-05-02", false, true),
            ],
        ),
        (
            "/api/v1/laisvadienis",
            400,
            vec![c(false, "/api/v1/laisvadienis?date=x", false, false)],
        ),
        (
            "/api/v1/laisvadienis",
            429,
            vec![
                c(true, "/api/v1/laisvadienis?date=2022-05-01", false, false),
                c(true, "/api/v1/laisvadienis?date=2022-05-01", false, false),
            ],
        ),
        (
            "/api/v1/days",
            200,
            vec![c(
                false,
                "/api/v1/days?from=2021-12-01&to=2022-11-30",
                false,
                false,
            )],
        ),
        (
            "/api/v1/days",
            304,
            vec![
                c(
                    false,
                    "/api/v1/days?from=2022-01-01&to=2022-01-02",
                    false,
                    false,
                ),
                c(
                    false,
                    "/api/v1/days?from=2022-01-01&to=2022-01-02",
                    false,
                    true,
                ),
            ],
        ),
        (
            "/api/v1/days",
            400,
            vec![c(
                false,
                "/api/v1/days?from=2022-01-02&to=2022-01-01",
                false,
                false,
            )],
        ),
        (
            "/api/v1/days",
            429,
            vec![
                c(
                    true,
                    "/api/v1/days?from=2022-01-01&to=2022-01-01",
                    false,
                    false,
                ),
                c(
                    true,
                    "/api/v1/days?from=2022-01-01&to=2022-01-01",
                    false,
                    false,
                ),
            ],
        ),
        (
            "/api/v1/holidays",
            200,
            vec![
                c(false, "/api/v1/holidays?year=2022&lang=en", true, false),
                c(false, "/api/v1/holidays?date=2022-05-01", true, false),
                c(false, "/api/v1/holidays?date=2022-05-03", true, false),
            ],
        ),
        (
            "/api/v1/holidays",
            400,
            vec![c(false, "/api/v1/holidays?year=1", true, false)],
        ),
        (
            "/api/v1/holidays",
            401,
            vec![c(false, "/api/v1/holidays?year=2022", false, false)],
        ),
        (
            "/api/v1/holidays",
            429,
            vec![
                c(true, "/api/v1/holidays?year=2022", true, false),
                c(true, "/api/v1/holidays?year=2022", true, false),
            ],
        ),
        (
            "/api/v1/name-days",
            200,
            vec![c(
                false,
                "/api/v1/name-days?date=2024-02-29&lang=pl",
                true,
                false,
            )],
        ),
        (
            "/api/v1/name-days",
            400,
            vec![c(
                false,
                "/api/v1/name-days?date=2024-02-29&lang=de",
                true,
                false,
            )],
        ),
        (
            "/api/v1/name-days",
            401,
            vec![c(false, "/api/v1/name-days?date=2024-02-29", false, false)],
        ),
        (
            "/api/v1/name-days",
            429,
            vec![c(true, "/api/v1/name-days?date=2024-02-29", true, false)],
        ),
        (
            "/api/v1/day",
            200,
            vec![
                c(false, "/api/v1/day?date=2022-05-01&lang=ru", true, false),
                c(false, "/api/v1/day?date=2022-05-03", true, false),
            ],
        ),
        (
            "/api/v1/day",
            304,
            vec![
                c(false, "/api/v1/day?date=today", true, false),
                c(false, "/api/v1/day?date=today", true, true),
            ],
        ),
        (
            "/api/v1/holidays",
            304,
            vec![
                c(false, "/api/v1/holidays?date=today", true, false),
                c(false, "/api/v1/holidays?date=today", true, true),
            ],
        ),
        (
            "/api/v1/name-days",
            304,
            vec![
                c(false, "/api/v1/name-days?date=today&lang=en", true, false),
                c(false, "/api/v1/name-days?date=today&lang=en", true, true),
            ],
        ),
        (
            "/api/v1/working-time",
            200,
            vec![
                c(false, "/api/v1/working-time?year=2011", true, false),
                c(false, "/api/v1/working-time?year=2022&week=6", true, false),
                c(
                    false,
                    "/api/v1/working-time?year=2022&hours_per_week=36&norm=reduced",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/working-time?year=2022&hours_per_week=17.35&norm=part_time&week=6",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/working-time?year=2023&schedule=8:15,8:15,8:15,8:15,7:00",
                    true,
                    false,
                ),
            ],
        ),
        (
            "/api/v1/working-time",
            400,
            vec![c(
                false,
                "/api/v1/working-time?year=2022&week=7",
                true,
                false,
            )],
        ),
        (
            "/api/v1/working-time",
            401,
            vec![c(false, "/api/v1/working-time?year=2022", false, false)],
        ),
        (
            "/api/v1/working-time",
            429,
            vec![c(true, "/api/v1/working-time?year=2022", true, false)],
        ),
        (
            "/api/v1/working-days",
            200,
            vec![c(
                false,
                "/api/v1/working-days?from=2010-12-20&to=2024-01-10&week=6",
                true,
                false,
            )],
        ),
        (
            "/api/v1/working-days",
            304,
            vec![
                c(
                    false,
                    "/api/v1/working-days?from=2022-01-01&to=today",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/working-days?from=2022-01-01&to=today",
                    true,
                    true,
                ),
            ],
        ),
        (
            "/api/v1/working-days",
            400,
            vec![c(
                false,
                "/api/v1/working-days?from=2022-01-02&to=2022-01-01",
                true,
                false,
            )],
        ),
        (
            "/api/v1/working-days",
            401,
            vec![c(
                false,
                "/api/v1/working-days?from=2022-01-01&to=2022-01-02",
                false,
                false,
            )],
        ),
        (
            "/api/v1/working-days",
            429,
            vec![c(
                true,
                "/api/v1/working-days?from=2022-01-01&to=2022-01-02",
                true,
                false,
            )],
        ),
        (
            "/api/v1/working-days/add",
            200,
            vec![
                c(
                    false,
                    "/api/v1/working-days/add?date=2010-12-20&days=10",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/working-days/add?date=today&days=-3&week=6",
                    true,
                    false,
                ),
            ],
        ),
        (
            "/api/v1/working-days/add",
            304,
            vec![
                c(
                    false,
                    "/api/v1/working-days/add?date=today&days=0",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/working-days/add?date=today&days=0",
                    true,
                    true,
                ),
            ],
        ),
        (
            "/api/v1/working-days/add",
            400,
            vec![c(
                false,
                "/api/v1/working-days/add?date=2024-12-20&days=100",
                true,
                false,
            )],
        ),
        (
            "/api/v1/working-days/add",
            401,
            vec![c(
                false,
                "/api/v1/working-days/add?date=2022-01-01&days=1",
                false,
                false,
            )],
        ),
        (
            "/api/v1/working-days/add",
            429,
            vec![c(
                true,
                "/api/v1/working-days/add?date=2022-01-01&days=1",
                true,
                false,
            )],
        ),
        (
            "/api/v1/shift-hours",
            200,
            vec![
                // Christmas night; 72 hours in the 6-day week; the autumn change, with Z.
                c(false, SHIFT, true, false),
                c(
                    false,
                    "/api/v1/shift-hours?start=2022-12-23T12:00&end=2022-12-26T12:00&week=6&lang=ru",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/shift-hours?start=2022-10-29T22:00Z&end=2022-10-30T06:00&lang=en",
                    true,
                    false,
                ),
            ],
        ),
        (
            "/api/v1/shift-hours",
            400,
            vec![
                c(
                    false,
                    "/api/v1/shift-hours?start=2022-03-27T03:30&end=2022-03-27T08:00",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/shift-hours?start=2022-12-24T20:00&end=2022-12-27T20:01",
                    true,
                    false,
                ),
            ],
        ),
        ("/api/v1/shift-hours", 401, vec![c(false, SHIFT, false, false)]),
        ("/api/v1/shift-hours", 429, vec![c(true, SHIFT, true, false)]),
        (
            "/api/v1/day",
            400,
            vec![c(
                false,
                "/api/v1/day?date=2022-05-01&date=2022-05-01",
                true,
                false,
            )],
        ),
        (
            "/api/v1/day",
            401,
            vec![c(false, "/api/v1/day?date=2022-05-01", false, false)],
        ),
        (
            "/api/v1/day",
            429,
            vec![c(true, "/api/v1/day?date=2022-05-01", true, false)],
        ),
        (
            "/api/v1/name-days/search",
            200,
            vec![c(false, "/api/v1/name-days/search?name=jon", true, false)],
        ),
        (
            "/api/v1/name-days/search",
            400,
            vec![c(false, "/api/v1/name-days/search?name=", true, false)],
        ),
        (
            "/api/v1/name-days/search",
            401,
            vec![c(false, "/api/v1/name-days/search?name=jon", false, false)],
        ),
        (
            "/api/v1/name-days/search",
            429,
            vec![c(true, "/api/v1/name-days/search?name=jon", true, false)],
        ),
        (
            "/api/v1/school-holidays",
            200,
            vec![
                c(
                    false,
                    "/api/v1/school-holidays?year=2022&lang=en",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/school-holidays?date=2022-04-20",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/school-holidays?date=2022-05-03&grade=0",
                    true,
                    false,
                ),
            ],
        ),
        (
            "/api/v1/school-holidays",
            304,
            vec![
                c(false, "/api/v1/school-holidays?date=today", true, false),
                c(false, "/api/v1/school-holidays?date=today", true, true),
            ],
        ),
        (
            "/api/v1/school-holidays",
            400,
            vec![c(
                false,
                "/api/v1/school-holidays?year=2022&grade=13",
                true,
                false,
            )],
        ),
        (
            "/api/v1/school-holidays",
            401,
            vec![c(false, "/api/v1/school-holidays?year=2022", false, false)],
        ),
        (
            "/api/v1/school-holidays",
            429,
            vec![c(true, "/api/v1/school-holidays?year=2022", true, false)],
        ),
        (
            "/api/v1/school-holidays",
            503,
            vec![c(true, "/api/v1/school-holidays?year=2022", true, false)],
        ),
        (
            "/api/v1/sun",
            200,
            vec![
                c(
                    false,
                    "/api/v1/sun?date=2022-03-27&place=klaipeda",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/sun?from=2022-01-01&to=2022-12-31",
                    true,
                    false,
                ),
            ],
        ),
        (
            "/api/v1/sun",
            304,
            vec![
                c(false, "/api/v1/sun?date=today", true, false),
                c(false, "/api/v1/sun?date=today", true, true),
            ],
        ),
        (
            "/api/v1/sun",
            400,
            vec![c(
                false,
                "/api/v1/sun?date=2022-01-01&place=riga",
                true,
                false,
            )],
        ),
        (
            "/api/v1/sun",
            401,
            vec![c(false, "/api/v1/sun?date=2022-01-01", false, false)],
        ),
        (
            "/api/v1/sun",
            429,
            vec![c(true, "/api/v1/sun?date=2022-01-01", true, false)],
        ),
        (
            "/api/v1/sun",
            503,
            vec![c(true, "/api/v1/sun?date=2022-01-01", true, false)],
        ),
        (
            "/api/v1/moon",
            200,
            vec![c(false, "/api/v1/moon?year=2022&lang=en", true, false)],
        ),
        (
            "/api/v1/moon",
            400,
            vec![c(false, "/api/v1/moon?year=2022&lang=xx", true, false)],
        ),
        (
            "/api/v1/moon",
            401,
            vec![c(false, "/api/v1/moon?year=2022", false, false)],
        ),
        (
            "/api/v1/moon",
            429,
            vec![c(true, "/api/v1/moon?year=2022", true, false)],
        ),
        (
            "/api/v1/moon",
            503,
            vec![c(true, "/api/v1/moon?year=2022", true, false)],
        ),
        // Last: the tight server's Redis is stopped before them.
        (
            "/api/v1/holidays",
            503,
            vec![c(true, "/api/v1/holidays?year=2022", true, false)],
        ),
        (
            "/api/v1/name-days",
            503,
            vec![c(true, "/api/v1/name-days?date=2024-02-29", true, false)],
        ),
        (
            "/api/v1/day",
            503,
            vec![c(true, "/api/v1/day?date=2022-05-01", true, false)],
        ),
        (
            "/api/v1/name-days/search",
            503,
            vec![c(true, "/api/v1/name-days/search?name=jon", true, false)],
        ),
        (
            "/api/v1/working-time",
            503,
            vec![c(true, "/api/v1/working-time?year=2022", true, false)],
        ),
        (
            "/api/v1/working-days",
            503,
            vec![c(
                true,
                "/api/v1/working-days?from=2022-01-01&to=2022-01-31",
                true,
                false,
            )],
        ),
        ("/api/v1/shift-hours", 503, vec![c(true, SHIFT, true, false)]),
        (
            "/api/v1/working-days/add",
            503,
            vec![c(
                true,
                "/api/v1/working-days/add?date=2022-01-01&days=1",
                true,
                false,
            )],
        ),
    ];

    for (path, url, bad) in [
        (
            "/api/v1/feeds/holidays.ics",
            "/api/v1/feeds/holidays.ics?from_year=2022&to_year=2022",
            "/api/v1/feeds/holidays.ics?scope=x",
        ),
        (
            "/api/v1/feeds/name-days.ics",
            "/api/v1/feeds/name-days.ics?lang=en",
            "/api/v1/feeds/name-days.ics?lang=x",
        ),
        (
            "/api/v1/feeds/school-holidays.ics",
            "/api/v1/feeds/school-holidays.ics?grade=5&lang=en",
            "/api/v1/feeds/school-holidays.ics?grade=13",
        ),
        (
            "/api/v1/feeds/moon.ics",
            "/api/v1/feeds/moon.ics?lang=en",
            "/api/v1/feeds/moon.ics?lang=x",
        ),
    ] {
        cases.push((path, 200, vec![c(false, url, false, false)]));
        cases.push((
            path,
            304,
            vec![c(false, url, false, false), c(false, url, false, true)],
        ));
        cases.push((path, 400, vec![c(false, bad, false, false)]));
        cases.push((
            path,
            429,
            vec![c(true, url, false, false), c(true, url, false, false)],
        ));
    }

    // Contracts of `/working-days`, and `/leave`.
    cases.push((
        "/api/v1/working-days",
        200,
        vec![
            c(
                false,
                "/api/v1/working-days?from=2010-12-20&to=2024-01-10&hours_per_week=37&norm=reduced",
                true,
                false,
            ),
            c(
                false,
                "/api/v1/working-days?from=2022-12-01&to=2022-12-31&schedule=4:00,4:00,0:00,4:00,4:00,2:30&norm=part_time",
                true,
                false,
            ),
        ],
    ));
    let leave = "/api/v1/leave";
    cases.extend([
        (
            leave,
            200,
            vec![
                c(
                    false,
                    "/api/v1/leave?start=2022-12-21&days=10&lang=en",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/leave?start=2022-12-24&days=24&week=6",
                    true,
                    false,
                ),
            ],
        ),
        (
            leave,
            304,
            vec![
                c(false, "/api/v1/leave?start=today&days=20", true, false),
                c(false, "/api/v1/leave?start=today&days=20", true, true),
            ],
        ),
        (
            leave,
            400,
            vec![
                c(false, "/api/v1/leave?start=2022-12-21&days=0", true, false),
                c(false, "/api/v1/leave?start=2024-12-30&days=30", true, false),
            ],
        ),
        (
            leave,
            401,
            vec![c(
                false,
                "/api/v1/leave?start=2022-12-21&days=1",
                false,
                false,
            )],
        ),
        (
            leave,
            429,
            vec![c(
                true,
                "/api/v1/leave?start=2022-12-21&days=1",
                true,
                false,
            )],
        ),
        (
            leave,
            503,
            vec![c(
                true,
                "/api/v1/leave?start=2022-12-21&days=1",
                true,
                false,
            )],
        ),
    ]);

    // The planning endpoints (the fixture dataset: 2009-2024).
    let upcoming = "/api/v1/holidays/upcoming";
    cases.extend([
        (
            upcoming,
            200,
            vec![
                c(
                    false,
                    "/api/v1/holidays/upcoming?from=2010-12-01&count=50&scope=all&lang=en",
                    true,
                    false,
                ),
                c(
                    false,
                    "/api/v1/holidays/upcoming?from=2024-12-20&count=50",
                    true,
                    false,
                ),
            ],
        ),
        (
            upcoming,
            304,
            vec![
                c(false, "/api/v1/holidays/upcoming", true, false),
                c(false, "/api/v1/holidays/upcoming", true, true),
            ],
        ),
        (
            upcoming,
            400,
            vec![c(false, "/api/v1/holidays/upcoming?count=51", true, false)],
        ),
        (
            upcoming,
            401,
            vec![c(false, "/api/v1/holidays/upcoming", false, false)],
        ),
        (
            upcoming,
            429,
            vec![c(true, "/api/v1/holidays/upcoming", true, false)],
        ),
        (
            upcoming,
            503,
            vec![c(true, "/api/v1/holidays/upcoming", true, false)],
        ),
    ]);
    let long_weekends = "/api/v1/long-weekends";
    cases.extend([
        (
            long_weekends,
            200,
            vec![
                c(
                    false,
                    "/api/v1/long-weekends?year=2011&max_leave_days=10&lang=ru",
                    true,
                    false,
                ),
                c(false, "/api/v1/long-weekends?year=2024", true, false),
            ],
        ),
        (
            long_weekends,
            400,
            vec![c(
                false,
                "/api/v1/long-weekends?year=2011&max_leave_days=11",
                true,
                false,
            )],
        ),
        (
            long_weekends,
            401,
            vec![c(false, "/api/v1/long-weekends?year=2011", false, false)],
        ),
        (
            long_weekends,
            429,
            vec![c(true, "/api/v1/long-weekends?year=2011", true, false)],
        ),
        (
            long_weekends,
            503,
            vec![c(true, "/api/v1/long-weekends?year=2011", true, false)],
        ),
    ]);

    // The published files and the probes.
    for (path, url, missing) in [
        ("/data/manifest.json", "/data/manifest.json", None),
        (
            "/data/school_holidays.json",
            "/data/school_holidays.json",
            None,
        ),
        ("/data/places.json", "/data/places.json", None),
        ("/data/changes.json", "/data/changes.json", None),
        (
            "/data/years/{year}.json",
            "/data/years/2022.json",
            Some("/data/years/1600.json"),
        ),
        (
            "/data/schema/{name}",
            "/data/schema/year.schema.json",
            Some("/data/schema/day.schema.json"),
        ),
    ] {
        cases.push((path, 200, vec![c(false, url, false, false)]));
        cases.push((
            path,
            304,
            vec![c(false, url, false, false), c(false, url, false, true)],
        ));
        cases.push((path, 400, vec![two_hosts(url)]));
        if let Some(missing) = missing {
            cases.push((path, 404, vec![c(false, missing, false, false)]));
        }
        cases.push((
            path,
            429,
            vec![c(true, url, false, false), c(true, url, false, false)],
        ));
    }
    for url in [
        "/data/schema/manifest.schema.json",
        "/data/schema/school_holidays.schema.json",
        "/data/schema/places.schema.json",
        "/data/schema/changes.schema.json",
    ] {
        cases.push((
            "/data/schema/{name}",
            200,
            vec![c(false, url, false, false)],
        ));
    }
    for probe in ["/health", "/ready", "/metrics"] {
        cases.push((probe, 200, vec![c(false, probe, false, false)]));
        cases.push((probe, 400, vec![two_hosts(probe)]));
    }
    cases.push(("/ready", 503, vec![c(true, "/ready", false, false)]));

    // The 503 cases stop the tight server's Redis: they go last (a stable sort keeps the
    // order of the others).
    cases.sort_by_key(|(_, status, _)| *status == 503);

    let declared: BTreeSet<(String, u16)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops["get"]["responses"]
                .as_object()
                .unwrap()
                .keys()
                .map(move |status| (path.clone(), status.parse::<u16>().unwrap()))
        })
        .collect();
    let exercised: BTreeSet<(String, u16)> =
        cases.iter().map(|(p, s, _)| (p.to_string(), *s)).collect();
    assert_eq!(
        declared, exercised,
        "every documented status is exercised, and only those"
    );

    for (path, status, requests) in &cases {
        if *status == 503 && tight.get("/ready").await.status() == 200 {
            tight.stop_redis().await;
        }
        let declared = &doc["paths"][*path]["get"]["responses"][status.to_string()];
        let mut last_etag: Option<String> = None;
        let mut last = None;
        for case in requests {
            let target = if case.tight { &tight } else { &app };
            let key = if case.tight { &tight_key } else { &key };
            if case.two_hosts {
                let request = format!(
                    "GET {} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n",
                    case.url
                );
                last = Some(target.raw(request.as_bytes()).await);
                continue;
            }
            let mut req = target.client.get(format!("{}{}", target.base, case.url));
            if case.key {
                req = req.header("X-API-Key", key);
            }
            if case.etag_of_previous {
                let etag = last_etag.clone();
                let etag = etag.unwrap_or_else(|| panic!("{}: no ETag to revalidate", case.url));
                req = req.header("If-None-Match", etag);
            }
            let resp = req.send().await.unwrap();
            last_etag = header(&resp, "etag").map(str::to_string);
            last = Some(RawResponse {
                status: resp.status().as_u16(),
                headers: resp
                    .headers()
                    .iter()
                    .map(|(n, v)| (n.as_str().to_string(), v.to_str().unwrap().to_string()))
                    .collect(),
                body: resp.bytes().await.unwrap().to_vec(),
            });
        }
        let resp = last.unwrap();
        assert_eq!(resp.status, *status, "{path} {status}");
        for (name, spec) in declared["headers"].as_object().into_iter().flatten() {
            if spec["required"] != true {
                continue;
            }
            assert!(
                resp.header(&name.to_lowercase()).is_some(),
                "{path} {status}: documented header {name} missing"
            );
        }
        let content = &declared["content"];
        if *status == 304 {
            assert!(content.is_null());
            continue;
        }
        // The body is documented under the media type it is sent as.
        let media_type = resp.header("content-type").expect("a content type");
        let schema = &content[media_type]["schema"];
        assert!(
            !schema.is_null(),
            "{path} {status}: no {media_type} body documented"
        );
        if media_type == CALENDAR {
            let body = String::from_utf8(resp.body).unwrap();
            assert!(body.starts_with("BEGIN:VCALENDAR\r\n"), "{path}");
            continue;
        }
        if media_type == METRICS {
            let body = String::from_utf8(resp.body).unwrap();
            assert!(body.starts_with("# HELP kalendorius_"), "{path}");
            continue;
        }
        let body: Value = serde_json::from_slice(&resp.body)
            .unwrap_or_else(|e| panic!("{path} {status}: not JSON: {e}"));
        validate(&doc, schema, &body, &format!("{path} {status}"))
            .unwrap_or_else(|e| panic!("{e}\nbody: {body}"));
    }
}

/// The query parameter `name` of the GET operation at `path`.
fn param<'a>(doc: &'a Value, path: &str, name: &str) -> &'a Value {
    doc["paths"][path]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{path} has no parameter {name}"))
}

/// A text of the document with its line breaks as spaces.
fn words(text: &Value) -> String {
    let text = text.as_str().expect("a text");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The status of an error code (docs/api.md, Errors).
fn status_of(code: &str) -> u16 {
    match code {
        "missing_key" | "invalid_key" | "expired_key" => 401,
        "not_found" => 404,
        "method_not_allowed" => 405,
        "internal" => 500,
        "not_ready" | "state_unavailable" => 503,
        c if c.starts_with("rate_limit_") => 429,
        _ => 400,
    }
}

/// Every `description` in `v`, with where it is.
fn descriptions<'a>(v: &'a Value, at: &str, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("description", Value::String(s)) => out.push((at.to_string(), s)),
                    _ => descriptions(v, &format!("{at}/{k}"), out),
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                descriptions(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn the_document_states_the_rules_a_client_must_follow() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    let paths = doc["paths"].as_object().unwrap();

    // Every date parameter: the form as a pattern (a date or `today`), the range served in
    // words (a string schema has no minimum or maximum).
    let (first, last) = (Date::first().to_string(), Date::last().to_string());
    let mut date_params = 0;
    for (path, ops) in paths {
        for p in ops["get"]["parameters"].as_array().unwrap() {
            if !matches!(p["name"].as_str(), Some("date" | "from" | "to")) {
                continue;
            }
            date_params += 1;
            let what = format!("{path} {}", p["name"]);
            assert_eq!(
                p["schema"]["pattern"], r"^(\d{4}-\d{2}-\d{2}|today)$",
                "{what}"
            );
            let text = p["schema"]["description"].as_str().unwrap_or_default();
            assert!(
                text.contains(&first) && text.contains(&last) && text.contains("`today`"),
                "{what}: {text}"
            );
        }
    }
    assert_eq!(
        date_params, 14,
        "date, from, to, the date of each keyed endpoint (school holidays included), those of \
         the working days, the upcoming holidays' from, and the sun's date, from and to"
    );
    let year = param(&doc, "/api/v1/holidays", "year");
    assert_eq!(year["schema"]["type"], "integer");
    assert_eq!(year["schema"]["minimum"], f64::from(FIRST_YEAR));
    assert_eq!(year["schema"]["maximum"], f64::from(LAST_YEAR));

    // `date` and `year` exclude each other, said on both.
    for (name, other) in [("date", "`year`"), ("year", "`date`")] {
        let text = words(&param(&doc, "/api/v1/holidays", name)["description"]);
        assert!(
            text.contains(other) && text.contains("exclude each other"),
            "{name}: {text}"
        );
    }

    // An empty `lang` counts as absent: its pattern admits it, and the document says so.
    for path in ["/api/v1/holidays", "/api/v1/name-days", "/api/v1/day"] {
        let lang = param(&doc, path, "lang");
        assert_eq!(
            lang["schema"]["pattern"], "^([lL][tT]|[eE][nN]|[pP][lL]|[rR][uU])?$",
            "{path}"
        );
        let text = words(&lang["description"]);
        assert!(text.contains("empty counts as absent"), "{path}: {text}");
    }

    // Each error response's schema names only codes of its status, and its example (what
    // Swagger UI shows) is one of them.
    for (path, ops) in paths {
        for (status, response) in ops["get"]["responses"].as_object().unwrap() {
            let status: u16 = status.parse().unwrap();
            if status < 400 {
                continue;
            }
            let what = format!("{path} {status}");
            let mut schema = &response["content"][JSON]["schema"];
            if let Some(reference) = schema["$ref"].as_str() {
                let name = reference.strip_prefix("#/components/schemas/").unwrap();
                schema = &doc["components"]["schemas"][name];
            }
            let codes = schema["properties"]["error"]["enum"].as_array().unwrap();
            for code in codes {
                assert_eq!(status_of(code.as_str().unwrap()), status, "{what}: {code}");
            }
            let example = &schema["example"];
            assert!(!example.is_null(), "{what}: no example");
            validate(&doc, schema, example, &what).unwrap();
        }
    }

    // No description cites a document a client cannot look up (a section of the working
    // notes' interface document, a numbered decision).
    let mut texts = Vec::new();
    descriptions(&doc, "", &mut texts);
    for (at, text) in texts {
        let cites_decision = text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            w.len() > 1 && w.starts_with('D') && w[1..].bytes().all(|b| b.is_ascii_digit())
        });
        let cites_spec = text.contains(concat!("DECI", "SIONS"))
            || text
                .match_indices("spec ")
                .any(|(i, _)| text[i + 5..].starts_with(|c: char| c.is_ascii_digit()));
        assert!(!cites_decision && !cites_spec, "{at}: {text}");
    }
}

/// The document's schemas are what strict validators and generated clients take: standard
/// formats only, closed objects, plain enums.
#[tokio::test]
async fn the_document_schemas_are_strict() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    assert_eq!(schema_problems(&doc["components"]), Vec::<String>::new());
    assert_eq!(schema_problems(&doc["paths"]), Vec::<String>::new());
    assert_eq!(doc["servers"][0]["url"], "/");
    let reason = &doc["components"]["schemas"]["Reason"];
    assert_eq!(reason["type"], "string");
    assert!(reason["enum"].as_array().is_some_and(|e| e.len() == 3));
}

/// The public answers are written from precomputed parts, not by serde: their bytes are
/// exactly the JSON of their answer types (each field, in order, nothing more).
#[tokio::test]
async fn precomputed_answers_are_their_types_json() {
    use kalendorius_server::api::days::DaysRange;
    use kalendorius_server::catalog::DayStatus;

    let app = spawn_app().await;
    let resp = app.get("/api/v1/days?from=2022-01-01&to=2022-12-31").await;
    assert_eq!(resp.status(), 200);
    let body = resp.text().await.unwrap();
    let typed: DaysRange = serde_json::from_str(&body).expect("a DaysRange, no other field");
    assert_eq!(typed.count, 365);
    assert_eq!(serde_json::to_string(&typed).unwrap(), body);
    // A red holiday, a Sunday, a Saturday, a shortened day and a plain working day.
    for date in [
        "2022-05-01",
        "2022-05-08",
        "2022-05-07",
        "2022-06-23",
        "2022-05-04",
    ] {
        let resp = app.get(&format!("/api/v1/laisvadienis?date={date}")).await;
        let body = resp.text().await.unwrap();
        let typed: DayStatus = serde_json::from_str(&body).expect("a DayStatus");
        assert_eq!(serde_json::to_string(&typed).unwrap(), body, "{date}");
    }
}
