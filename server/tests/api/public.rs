//! `/laisvadienis` and `/days`: fields, types and the day-status rules, on known
//! dates.

use serde_json::{json, Value};

use crate::helpers::*;

async fn status(app: &TestApp, date: &str) -> Value {
    app.json(&format!("/api/v1/laisvadienis?date={date}")).await
}

#[tokio::test]
async fn laisvadienis_has_exactly_the_spec_fields() {
    let app = spawn_app().await;
    let body = status(&app, "2024-01-02").await;
    assert_eq!(
        body,
        json!({"date": "2024-01-02", "laisvadienis": false, "reason": null,
               "holiday_name": null, "shorter_workday": false})
    );
    let body = status(&app, "2024-01-01").await;
    assert_eq!(
        body,
        json!({"date": "2024-01-01", "laisvadienis": true, "reason": "public_holiday",
               "holiday_name": "Naujųjų metų diena", "shorter_workday": false})
    );
}

#[tokio::test]
async fn weekends_are_non_working_with_their_reason() {
    let app = spawn_app().await;
    let sat = status(&app, "2024-01-06").await;
    assert_eq!(sat["laisvadienis"], true);
    assert_eq!(sat["reason"], "saturday");
    assert_eq!(sat["holiday_name"], Value::Null);
    let sun = status(&app, "2024-01-07").await;
    assert_eq!(sun["reason"], "sunday");
    assert_eq!(sun["laisvadienis"], true);
}

#[tokio::test]
async fn may_first_2022_joins_two_red_holidays_in_labour_code_order() {
    let app = spawn_app().await;
    let body = status(&app, "2022-05-01").await;
    assert_eq!(body["laisvadienis"], true);
    assert_eq!(
        body["reason"], "public_holiday",
        "a red holiday on a Sunday wins"
    );
    assert_eq!(
        body["holiday_name"],
        "Tarptautinė darbo diena, Motinos diena"
    );
    assert_eq!(body["shorter_workday"], false);
    // Nothing before a Sunday holiday is shortened (Saturday is non-working already).
    assert_eq!(status(&app, "2022-04-30").await["shorter_workday"], false);
    assert_eq!(status(&app, "2022-04-29").await["shorter_workday"], false);
}

#[tokio::test]
async fn shortened_day_table_of_spec_4_1() {
    let app = spawn_app().await;
    // (holiday date, its weekday, the shortened day or None)
    let cases = [
        ("2010-07-06", "Tuesday", Some("2010-07-05")),
        ("2011-07-06", "Wednesday", Some("2011-07-05")),
        ("2013-07-06", "Saturday", Some("2013-07-05")),
        ("2014-07-06", "Sunday", None),
        ("2015-07-06", "Monday", None),
    ];
    for (holiday, weekday, shortened) in cases {
        let h = status(&app, holiday).await;
        assert_eq!(h["reason"], "public_holiday", "{holiday} ({weekday})");
        assert_eq!(h["shorter_workday"], false, "a holiday is never shortened");
        // The three days before the holiday: only the calendar day before it may be
        // shortened, and only if it is a workday.
        let before: Vec<Value> = app
            .json(&format!(
                "/api/v1/days?from={}&to={holiday}",
                minus_days(holiday, 3)
            ))
            .await["days"]
            .as_array()
            .unwrap()
            .clone();
        let shortened_days: Vec<&str> = before
            .iter()
            .filter(|d| d["shorter_workday"] == true)
            .map(|d| d["date"].as_str().unwrap())
            .collect();
        assert_eq!(
            shortened_days,
            shortened.into_iter().collect::<Vec<_>>(),
            "holiday on {weekday} {holiday}"
        );
    }
}

#[tokio::test]
async fn declared_transfers_override_the_rules() {
    let app = spawn_app().await;
    let day_off = status(&app, "2010-12-24").await;
    assert_eq!(day_off["laisvadienis"], true);
    assert_eq!(day_off["reason"], "public_holiday");
    assert_eq!(
        day_off["holiday_name"],
        "Kūčių diena (perkelta poilsio diena)"
    );
    let working_saturday = status(&app, "2011-02-19").await;
    assert_eq!(working_saturday["laisvadienis"], false);
    assert_eq!(working_saturday["reason"], Value::Null);
    // The ordinary Saturday after it is non-working again.
    assert_eq!(status(&app, "2011-02-26").await["reason"], "saturday");
}

#[tokio::test]
async fn red_status_follows_the_law_in_force() {
    let app = spawn_app().await;
    // All Souls' Day is red from 2020; Christmas Eve from 2011.
    assert_eq!(status(&app, "2018-11-02").await["laisvadienis"], false);
    assert_eq!(status(&app, "2020-11-02").await["reason"], "public_holiday");
    assert_eq!(status(&app, "2009-12-24").await["laisvadienis"], false);
    assert_eq!(status(&app, "2012-12-24").await["reason"], "public_holiday");
}

#[tokio::test]
async fn days_has_exactly_the_spec_fields_and_echoes_the_range() {
    let app = spawn_app().await;
    let body = app.json("/api/v1/days?from=2011-02-18&to=2011-02-20").await;
    assert_eq!(
        body,
        json!({"from": "2011-02-18", "to": "2011-02-20", "count": 3, "days": [
            {"date": "2011-02-18", "laisvadienis": false, "holiday_name": null, "shorter_workday": false},
            {"date": "2011-02-19", "laisvadienis": false, "holiday_name": null, "shorter_workday": false},
            {"date": "2011-02-20", "laisvadienis": true, "holiday_name": null, "shorter_workday": false},
        ]})
    );
    // One day, and a range across a new year.
    let one = app.json("/api/v1/days?from=2024-01-01&to=2024-01-01").await;
    assert_eq!(one["count"], 1);
    let across = app.json("/api/v1/days?from=2021-12-30&to=2022-01-02").await;
    let dates: Vec<&str> = across["days"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["date"].as_str().unwrap())
        .collect();
    assert_eq!(
        dates,
        ["2021-12-30", "2021-12-31", "2022-01-01", "2022-01-02"]
    );
}

#[tokio::test]
async fn saturdays_are_non_working_in_days_too() {
    let app = spawn_app().await;
    let body = app.json("/api/v1/days?from=2024-03-01&to=2024-03-31").await;
    for day in body["days"].as_array().unwrap() {
        let date = day["date"].as_str().unwrap();
        let weekday = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d")
            .unwrap()
            .format("%a")
            .to_string();
        if weekday == "Sat" || weekday == "Sun" {
            assert_eq!(day["laisvadienis"], true, "{date}");
        }
    }
}

#[tokio::test]
async fn days_and_laisvadienis_agree_on_every_day_of_a_leap_year() {
    let app = spawn_app_with(AppOptions {
        limits: Some(generous_public_limits()),
        ..AppOptions::default()
    })
    .await;
    let year = app.json("/api/v1/days?from=2024-01-01&to=2024-12-31").await;
    let days = year["days"].as_array().unwrap();
    assert_eq!(year["count"], 366);
    assert_eq!(days.len(), 366);
    for entry in days {
        let date = entry["date"].as_str().unwrap();
        let single = status(&app, date).await;
        for field in ["date", "laisvadienis", "holiday_name", "shorter_workday"] {
            assert_eq!(entry[field], single[field], "{field} of {date}");
        }
        // Day-status invariants, seen from outside.
        assert_eq!(
            single["laisvadienis"] == true,
            single["reason"] != Value::Null,
            "{date}"
        );
        assert_eq!(
            single["holiday_name"] != Value::Null,
            single["reason"] == "public_holiday",
            "{date}"
        );
        if single["shorter_workday"] == true {
            assert_eq!(single["laisvadienis"], false, "{date}");
        }
    }
}

/// Public limits high enough for a whole year of single-day requests.
pub fn generous_public_limits() -> kalendorius_server::limits::LimitsConfig {
    kalendorius_server::limits::LimitsConfig {
        laisvadienis_per_minute: 100_000,
        laisvadienis_per_month: 100_000,
        days_per_minute: 100_000,
        days_per_month: 100_000,
        ..Default::default()
    }
}

fn minus_days(date: &str, n: u64) -> String {
    let d = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap();
    (d - chrono::Days::new(n)).format("%Y-%m-%d").to_string()
}

#[tokio::test]
async fn a_whole_year_is_the_same_answer_as_its_parts_and_its_neighbours() {
    let app = spawn_app().await;
    // A whole calendar year is answered from a precomputed body; any other range is put
    // together from the same entries. Both must say the same thing.
    for (year, days) in [(2023, 365), (2024, 366)] {
        let whole = app
            .json(&format!("/api/v1/days?from={year}-01-01&to={year}-12-31"))
            .await;
        assert_eq!(whole["from"], format!("{year}-01-01"));
        assert_eq!(whole["to"], format!("{year}-12-31"));
        assert_eq!(whole["count"], days);
        let first_half = app
            .json(&format!("/api/v1/days?from={year}-01-01&to={year}-06-30"))
            .await;
        let second_half = app
            .json(&format!("/api/v1/days?from={year}-07-01&to={year}-12-31"))
            .await;
        let mut parts = first_half["days"].as_array().unwrap().clone();
        parts.extend(second_half["days"].as_array().unwrap().iter().cloned());
        assert_eq!(whole["days"].as_array().unwrap(), &parts, "{year}");
    }
    // Across the turn of a year: the last day of one whole year, the first of the next.
    let across = app.json("/api/v1/days?from=2023-12-31&to=2024-01-01").await;
    let y2023 = app.json("/api/v1/days?from=2023-01-01&to=2023-12-31").await;
    let y2024 = app.json("/api/v1/days?from=2024-01-01&to=2024-12-31").await;
    assert_eq!(across["days"][0], y2023["days"][364]);
    assert_eq!(across["days"][1], y2024["days"][0]);
    assert_eq!(across["count"], 2);
}
