//! `/leave`: annual leave counted in working days (Labour Code art. 126), over the dataset
//! built from the repository's own `sources/`. Dates are worked out by hand from the 2026
//! calendar; holiday names are held to `/holidays`, counts to `/working-days`.

use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use crate::helpers::*;

async fn real_app() -> (TestApp, String) {
    crate::working_time::real_app_at(None).await
}

/// The English name of the red holiday on `date`, as `/holidays` gives it.
async fn holiday_name(app: &TestApp, key: &str, date: &str) -> Value {
    let body = app
        .json_keyed(&format!("/api/v1/holidays?date={date}&lang=en"), key)
        .await;
    let red = body["holidays"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["is_red"] == true);
    red.unwrap_or_else(|| panic!("{date}: no red holiday"))["name"].clone()
}

#[tokio::test]
async fn ten_days_over_christmas_and_new_year() {
    let (app, key) = real_app().await;
    // From Mon 2026-12-21: Dec 21, 22, 23, 28, 29, 30, 31, Jan 4, 5, 6 (Dec 24, 25, 26 and
    // Jan 1 are red; Dec 26 and Jan 2-3 a weekend). Back on Thu Jan 7.
    let leave = app
        .json_keyed("/api/v1/leave?start=2026-12-21&days=10&lang=en", &key)
        .await;
    let mut holidays = Vec::new();
    for date in ["2026-12-24", "2026-12-25", "2026-12-26", "2027-01-01"] {
        holidays.push(json!({"date": date, "name": holiday_name(&app, &key, date).await}));
    }
    assert_eq!(
        leave,
        json!({
            "start": "2026-12-21", "start_moved": false, "days": 10, "week": 5,
            "end": "2027-01-06", "return_date": "2027-01-07", "calendar_days": 17,
            "holidays": holidays,
            "basis": [{
                "text": "Labour Code (XII-2603) art. 126(2)", "act": "XII-2603",
                "number": "XII-2603", "article": "126", "part": 2, "item": null,
                "url": "https://e-seimas.lrs.lt/portal/legalAct/lt/TAD/10c6bfd07bd511e6a0f68fd135e6f40c/asr",
                "confidence": "confirmed"
            }]
        })
    );
    assert_eq!(leave["holidays"][3]["name"], "New Year's Day");
    // The 6-day week works Saturdays: Jan 2 is a leave day there.
    let six = app
        .json_keyed("/api/v1/leave?start=2026-12-21&days=10&week=6", &key)
        .await;
    assert_eq!(
        (&six["end"], &six["return_date"], &six["week"]),
        (&json!("2027-01-05"), &json!("2027-01-06"), &json!(6))
    );
    // Lithuanian by default.
    assert_eq!(
        six["basis"][0]["text"],
        "Darbo kodekso (XII-2603) 126 str. 2 d."
    );
    app.stop().await;
}

#[tokio::test]
async fn a_start_that_is_no_working_day_moves() {
    let (app, key) = real_app().await;
    // Sat 2026-12-19: the leave begins on Mon Dec 21.
    let one = app
        .json_keyed("/api/v1/leave?start=2026-12-19&days=1", &key)
        .await;
    assert_eq!(
        one,
        json!({
            "start": "2026-12-21", "start_moved": true, "days": 1, "week": 5,
            "end": "2026-12-21", "return_date": "2026-12-22", "calendar_days": 1,
            "holidays": [],
            "basis": one["basis"].clone()
        })
    );
    // A red holiday too: Thu 2026-12-24 -> Mon Dec 28, and the 20 days of art. 126(2)
    // are Dec 28-31, Jan 4-8, 11-15, 18-22 and Mon Jan 25 (Fri Jan 1 is red).
    let twenty = app
        .json_keyed("/api/v1/leave?start=2026-12-24&days=20", &key)
        .await;
    assert_eq!(twenty["start"], "2026-12-28");
    assert_eq!(twenty["start_moved"], true);
    assert_eq!(twenty["end"], "2027-01-25");
    assert_eq!(twenty["return_date"], "2027-01-26");
    assert_eq!(twenty["calendar_days"], 29);
    assert_eq!(twenty["holidays"].as_array().unwrap().len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn leave_agrees_with_the_working_days_of_random_starts() {
    let (app, key) = real_app().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(126);
    let first = chrono::NaiveDate::from_ymd_opt(2005, 1, 1).unwrap();
    for _ in 0..60 {
        let start = first + chrono::Days::new(rng.gen_range(0..35000));
        let days: u64 = rng.gen_range(1..=40);
        let week = if rng.gen_bool(0.3) { 6 } else { 5 };
        let leave = app
            .json_keyed(
                &format!("/api/v1/leave?start={start}&days={days}&week={week}"),
                &key,
            )
            .await;
        let (from, end) = (
            leave["start"].as_str().unwrap(),
            leave["end"].as_str().unwrap(),
        );
        let what = format!("{start} {days} week={week}");
        // Exactly `days` working days from the first leave day to the last, both working.
        let span = app
            .json_keyed(
                &format!("/api/v1/working-days?from={from}&to={end}&week={week}"),
                &key,
            )
            .await;
        assert_eq!(span["working_days"], days, "{what}");
        assert_eq!(span["calendar_days"], leave["calendar_days"], "{what}");
        let first_day = app
            .json_keyed(
                &format!("/api/v1/working-days/add?date={start}&days=0&week={week}"),
                &key,
            )
            .await;
        assert_eq!(first_day["result"], leave["start"], "{what}");
        assert_eq!(
            leave["start_moved"],
            leave["start"] != json!(start.to_string()),
            "{what}"
        );
        let back = app
            .json_keyed(
                &format!("/api/v1/working-days/add?date={end}&days=1&week={week}"),
                &key,
            )
            .await;
        assert_eq!(back["result"], leave["return_date"], "{what}");
        // Every date listed is inside and is no working day of the week form.
        for h in leave["holidays"].as_array().unwrap() {
            let date = h["date"].as_str().unwrap();
            assert!(from <= date && date <= end, "{what}: {h}");
            let one = app
                .json_keyed(
                    &format!("/api/v1/working-days?from={date}&to={date}&week={week}"),
                    &key,
                )
                .await;
            assert_eq!(one["working_days"], 0, "{what}: {h}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn every_refusal_of_leave() {
    let (app, key) = real_app().await;
    let cases: &[(&str, &str, &str)] = &[
        ("days=10", "missing_param", "start"),
        ("start=2026-12-21", "missing_param", "days"),
        ("start=2026-12-21&days=", "missing_param", "days"),
        ("start=2026-12-32&days=10", "invalid_date", "start"),
        ("start=2026-12-21&days=0", "invalid_param", "1 to 366"),
        ("start=2026-12-21&days=367", "invalid_param", "1 to 366"),
        ("start=2026-12-21&days=1.5", "invalid_param", "days"),
        ("start=2026-12-21&days=-3", "invalid_param", "days"),
        ("start=2026-12-21&days=10&week=7", "invalid_param", "week"),
        ("start=2026-12-21&days=10&lang=de", "invalid_lang", "lang"),
        (
            "start=2026-12-21&start=2026-12-22&days=10",
            "invalid_param",
            "start",
        ),
        ("start=2100-12-20&days=30", "out_of_range", "2100-12-31"),
        ("start=2100-12-31&days=1", "out_of_range", "outside"),
    ];
    for &(query, code, word) in cases {
        let resp = app.get_keyed(&format!("/api/v1/leave?{query}"), &key).await;
        let message = assert_error(resp, 400, code).await;
        assert!(message.contains(word), "{query}: {message}");
    }
    assert_error(
        app.get("/api/v1/leave?start=2026-12-21&days=10").await,
        401,
        "missing_key",
    )
    .await;
    app.stop().await;
}
