//! `/shift-hours` (E17) over the dataset built from the repository's own `sources/`: shifts
//! split by date, kind of day and night, across the clock changes of the real tz data.
//!
//! The expected figures are worked out by hand from the calendar and the clock: Christmas
//! Eve, Christmas and its second day are red (Labour Code art. 123(1)); Lithuania changes
//! its clocks on the last Sunday of March (03:00 EET becomes 04:00 EEST) and of October
//! (04:00 EEST becomes 03:00 EET).

use serde_json::{json, Value};

use crate::helpers::*;
use crate::working_time::real_app_at;

async fn shift(app: &TestApp, key: &str, query: &str) -> Value {
    app.json_keyed(&format!("/api/v1/shift-hours?{query}"), key)
        .await
}

/// `(date, kind, minutes, night_minutes)` of each day.
fn days(body: &Value) -> Vec<(String, String, u64, u64)> {
    body["days"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["date"].as_str().unwrap().to_string(),
                d["kind"].as_str().unwrap().to_string(),
                d["minutes"].as_u64().unwrap(),
                d["night_minutes"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn day(date: &str, kind: &str, minutes: u64, night: u64) -> (String, String, u64, u64) {
    (date.to_string(), kind.to_string(), minutes, night)
}

/// The five minute totals: all, night, holiday, rest day, working day.
fn totals(body: &Value) -> [u64; 5] {
    [
        "minutes",
        "night_minutes",
        "holiday_minutes",
        "rest_day_minutes",
        "working_day_minutes",
    ]
    .map(|field| body[field].as_u64().unwrap())
}

#[tokio::test]
async fn the_christmas_night_shift() {
    let (app, key) = real_app_at(None).await;
    let body = shift(
        &app,
        &key,
        "start=2026-12-24T20:00&end=2026-12-25T08:00&lang=en",
    )
    .await;
    assert_eq!(body["start"], "2026-12-24T20:00:00+02:00");
    assert_eq!(body["end"], "2026-12-25T08:00:00+02:00");
    assert_eq!(body["week"], 5);
    assert_eq!(body["time_zone"], "Europe/Vilnius");
    assert_eq!(totals(&body), [720, 480, 720, 0, 0]);
    assert_eq!(body["hours"], json!(12.0));
    assert_eq!(body["night_hours"], json!(8.0));
    assert_eq!(
        days(&body),
        [
            day("2026-12-24", "holiday", 240, 120),
            day("2026-12-25", "holiday", 480, 360)
        ]
    );
    let first = &body["days"][0];
    assert_eq!(first["from"], "2026-12-24T20:00:00+02:00");
    assert_eq!(first["to"], "2026-12-25T00:00:00+02:00");
    assert_eq!(body["days"][1]["from"], first["to"]);
    assert_eq!(first["hours"], json!(4.0));
    assert_eq!(first["holidays"][0]["name"], "Christmas Eve");
    assert_eq!(first["holidays"][0]["is_red"], true);
    assert_eq!(body["days"][1]["holidays"][0]["name"], "Christmas Day");
    assert_eq!(
        first["shorter_workday"], false,
        "a red day is never shortened"
    );
    let basis: Vec<&str> = body["basis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        basis,
        [
            "Labour Code (XII-2603) art. 117(1)",
            "Labour Code (XII-2603) art. 123(1)",
            "Labour Code (XII-2603) art. 144(1)",
            "Labour Code (XII-2603) art. 144(2)",
            "Labour Code (XII-2603) art. 144(3)",
        ]
    );

    // The same instants with offsets, or in UTC, are the same answer.
    let offsets = shift(
        &app,
        &key,
        "start=2026-12-24T18:00Z&end=2026-12-25T08:00:00%2B02:00&lang=en",
    )
    .await;
    assert_eq!(offsets, body);
}

#[tokio::test]
async fn the_clock_change_nights() {
    let (app, key) = real_app_at(None).await;
    // Spring: 03:00-04:00 does not happen, the night 22:00-06:00 lasts seven hours.
    let spring = shift(&app, &key, "start=2026-03-28T22:00&end=2026-03-29T06:00").await;
    assert_eq!(spring["end"], "2026-03-29T06:00:00+03:00");
    assert_eq!(totals(&spring), [420, 420, 0, 420, 0]);
    assert_eq!(spring["hours"], json!(7.0));
    assert_eq!(
        days(&spring),
        [
            day("2026-03-28", "rest_day", 120, 120),
            day("2026-03-29", "rest_day", 300, 300)
        ]
    );
    // Autumn: 03:00-04:00 happens twice and both count: nine hours.
    let autumn = shift(&app, &key, "start=2026-10-24T22:00&end=2026-10-25T06:00").await;
    assert_eq!(autumn["start"], "2026-10-24T22:00:00+03:00");
    assert_eq!(autumn["end"], "2026-10-25T06:00:00+02:00");
    assert_eq!(totals(&autumn), [540, 540, 0, 540, 0]);
    assert_eq!(
        days(&autumn),
        [
            day("2026-10-24", "rest_day", 120, 120),
            day("2026-10-25", "rest_day", 420, 420)
        ]
    );
    // The repeated hour, its second time given by its offset: 03:30 EET to 05:00.
    let second = shift(
        &app,
        &key,
        "start=2026-10-25T03:30%2B02:00&end=2026-10-25T05:00",
    )
    .await;
    assert_eq!(second["minutes"], 90);
    // Its first time: 03:30 EEST, an hour more.
    let first = shift(
        &app,
        &key,
        "start=2026-10-25T03:30%2B03:00&end=2026-10-25T05:00",
    )
    .await;
    assert_eq!(first["minutes"], 150);
}

#[tokio::test]
async fn a_saturday_in_both_week_forms() {
    let (app, key) = real_app_at(None).await;
    // Saturday 2026-06-13, 06:00-18:00.
    let query = "start=2026-06-13T06:00&end=2026-06-13T18:00";
    let five = shift(&app, &key, query).await;
    assert_eq!(five["week"], 5);
    assert_eq!(totals(&five), [720, 0, 0, 720, 0]);
    assert_eq!(days(&five), [day("2026-06-13", "rest_day", 720, 0)]);
    let six = shift(&app, &key, &format!("{query}&week=6")).await;
    assert_eq!(six["week"], 6);
    assert_eq!(totals(&six), [720, 0, 0, 0, 720]);
    assert_eq!(days(&six), [day("2026-06-13", "working_day", 720, 0)]);

    // A bridge day (Mon 2008-03-10, before the red Tue 03-11) is a declared day off in the
    // 5-day week only; the 6-day week works it, one hour shorter.
    let bridge = "start=2008-03-10T08:00&end=2008-03-10T16:00";
    let five = shift(&app, &key, bridge).await;
    assert_eq!(days(&five), [day("2008-03-10", "holiday", 480, 0)]);
    assert_eq!(
        five["days"][0]["holidays"],
        json!([]),
        "no holiday, a day off"
    );
    assert_eq!(five["days"][0]["shorter_workday"], false);
    let six = shift(&app, &key, &format!("{bridge}&week=6")).await;
    assert_eq!(days(&six), [day("2008-03-10", "working_day", 480, 0)]);
    assert_eq!(six["days"][0]["shorter_workday"], true);
    // The 2002 Labour Code's provisions, then in force.
    assert_eq!(
        six["basis"][0]["text"],
        "Darbo kodekso (IX-926) 154 str. 1 d."
    );
}

#[tokio::test]
async fn seventy_two_hours_across_christmas() {
    let (app, key) = real_app_at(None).await;
    let body = shift(
        &app,
        &key,
        "start=2026-12-23T12:00&end=2026-12-26T12:00&lang=lt",
    )
    .await;
    assert_eq!(totals(&body), [4320, 1440, 3600, 0, 720]);
    assert_eq!(body["hours"], json!(72.0));
    assert_eq!(
        days(&body),
        [
            day("2026-12-23", "working_day", 720, 120),
            day("2026-12-24", "holiday", 1440, 480),
            day("2026-12-25", "holiday", 1440, 480),
            day("2026-12-26", "holiday", 720, 360),
        ]
    );
    assert_eq!(
        body["days"][0]["shorter_workday"], true,
        "the eve of Christmas Eve"
    );
    assert_eq!(body["days"][1]["holidays"][0]["name"], "Kūčių diena");
    // One minute more is refused.
    let resp = app
        .get_keyed(
            "/api/v1/shift-hours?start=2026-12-23T12:00&end=2026-12-26T12:01",
            &key,
        )
        .await;
    let message = assert_error(resp, 400, "range_too_large").await;
    assert!(message.contains("4321 minutes"), "{message}");
}

#[tokio::test]
async fn odd_minutes_round_to_hundredths_of_an_hour() {
    let (app, key) = real_app_at(None).await;
    // Wed 2026-06-10 21:35-22:00 (25 minutes) and 22:00-22:20 (20 night minutes).
    let body = shift(&app, &key, "start=2026-06-10T21:35&end=2026-06-10T22:20").await;
    assert_eq!(totals(&body), [45, 20, 0, 0, 45]);
    assert_eq!(body["hours"], json!(0.75));
    assert_eq!(body["night_hours"], json!(0.33));
}

#[tokio::test]
async fn refusals_name_the_problem() {
    let (app, key) = real_app_at(None).await;
    let refused = |query: &'static str, code: &'static str| {
        let app = &app;
        let key = &key;
        async move {
            let resp = app
                .get_keyed(&format!("/api/v1/shift-hours?{query}"), key)
                .await;
            assert_error(resp, 400, code).await
        }
    };
    let m = refused("end=2026-12-25T08:00", "missing_param").await;
    assert!(m.contains("'start'"), "{m}");
    let m = refused("start=2026-12-24T20:00", "missing_param").await;
    assert!(m.contains("'end'"), "{m}");
    let m = refused(
        "start=2026-12-24 20:00&end=2026-12-25T08:00",
        "invalid_param",
    )
    .await;
    assert!(
        m.contains("YYYY-MM-DDTHH:MM") && m.contains("2026-12-24 20:00"),
        "{m}"
    );
    let m = refused(
        "start=2026-12-24T20:00:30&end=2026-12-25T08:00",
        "invalid_param",
    )
    .await;
    assert!(m.contains("whole minutes"), "{m}");
    // The spring gap, named.
    let m = refused(
        "start=2026-03-29T03:30&end=2026-03-29T08:00",
        "invalid_param",
    )
    .await;
    assert_eq!(
        m,
        "parameter 'start': 2026-03-29T03:30 does not exist in Lithuania: on 2026-03-29 clocks \
         jump from 03:00 to 04:00 (+02:00 to +03:00)"
    );
    // The autumn overlap, with both offsets.
    let m = refused(
        "start=2026-10-24T22:00&end=2026-10-25T03:30",
        "invalid_param",
    )
    .await;
    assert!(
        m.contains("'end'")
            && m.contains("2026-10-25T03:30+03:00")
            && m.contains("2026-10-25T03:30+02:00"),
        "{m}"
    );
    let m = refused(
        "start=2026-12-25T08:00&end=2026-12-25T08:00",
        "invalid_range",
    )
    .await;
    assert!(m.contains("later than"), "{m}");
    refused(
        "start=2026-12-25T08:00&end=2026-12-24T20:00",
        "invalid_range",
    )
    .await;
    let m = refused(
        "start=2026-12-24T20:00&end=2026-12-28T08:00",
        "range_too_large",
    )
    .await;
    assert!(m.contains("72 hours"), "{m}");
    // Outside the dates served (the real dataset of the tests starts in 2005).
    // ... nor in 2100, whose clock changes the tz data does not list.
    let m = refused(
        "start=2100-01-01T00:00&end=2100-01-01T08:00",
        "invalid_date",
    )
    .await;
    assert!(m.contains("2099-12-31"), "{m}");
    refused(
        "start=2004-12-31T22:00&end=2005-01-01T06:00",
        "invalid_date",
    )
    .await;
    refused(
        "start=2026-12-24T20:00&end=2026-12-25T08:00&week=7",
        "invalid_param",
    )
    .await;
    refused(
        "start=2026-12-24T20:00&end=2026-12-25T08:00&lang=de",
        "invalid_lang",
    )
    .await;
    // A key is required.
    let resp = app
        .get("/api/v1/shift-hours?start=2026-12-24T20:00&end=2026-12-25T08:00")
        .await;
    assert_error(resp, 401, "missing_key").await;
}

#[tokio::test]
async fn the_tz_data_version_is_the_one_the_docs_name() {
    let (app, key) = real_app_at(None).await;
    let body = shift(&app, &key, "start=2026-12-24T20:00&end=2026-12-25T08:00").await;
    let version = body["tzdb_version"].as_str().unwrap();
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/api.md")).unwrap();
    let sentence = format!("this build carries tz database release `{version}`");
    assert!(
        docs.contains(&sentence),
        "docs/api.md must say \"{sentence}\" (a chrono-tz update changed the tz data: \
         update the docs, and check the clock changes the tests hold)"
    );
}
