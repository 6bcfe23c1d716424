//! Planning the year: `/holidays/upcoming`, `/long-weekends`, the long-weekends page and the
//! home page's next red day, over the dataset built from the repository's own `sources/`
//! (2005-2100).
//!
//! The long weekends are held to a brute-force enumeration written here from the
//! definition, over the day statuses `/days` publishes: every pair of a first and a last
//! day, kept when both end a maximal run of days off, the working days between are few
//! enough and one day carries a red holiday or a declared day off. It shares nothing with
//! the server's walk over rest runs.

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};
use scraper::Html;
use serde_json::Value;

use crate::helpers::*;
use crate::pages::{page, sel, text};
use crate::working_time::real_app_at;

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

/// The items of the JSON array `v`.
fn items(v: &Value) -> &[Value] {
    v.as_array().expect("an array")
}

/// The strings of the JSON array `v`.
fn strs(v: &Value) -> Vec<&str> {
    items(v).iter().map(|x| x.as_str().unwrap()).collect()
}

/// The string `field` of each item of the JSON array `v`.
fn column<'a>(v: &'a Value, field: &str) -> Vec<&'a str> {
    items(v)
        .iter()
        .map(|x| x[field].as_str().unwrap())
        .collect()
}

/// The period of a `/long-weekends` answer that starts on `start` and takes `leave` days.
fn period<'a>(body: &'a Value, start: &str, leave: u64) -> &'a Value {
    items(&body["periods"])
        .iter()
        .find(|p| p["start"] == start && p["leave_day_count"] == leave)
        .unwrap_or_else(|| panic!("no period from {start} with {leave} leave days"))
}

// ---------------------------------------------------------------------------------------
// /holidays/upcoming

#[tokio::test]
async fn upcoming_red_dates_from_late_november_2026() {
    let (app, key) = real_app_at(None).await;
    let body = app
        .json_keyed(
            "/api/v1/holidays/upcoming?from=2026-11-24&count=4&lang=en",
            &key,
        )
        .await;
    assert_eq!(body["from"], "2026-11-24");
    assert_eq!(body["scope"], "red");
    assert_eq!(body["count"], 4);
    let dates = items(&body["dates"]);
    let got: Vec<(&str, u64)> = dates
        .iter()
        .map(|d| {
            (
                d["date"].as_str().unwrap(),
                d["days_until"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("2026-12-24", 30),
            ("2026-12-25", 31),
            ("2026-12-26", 32),
            ("2027-01-01", 38)
        ]
    );
    for d in dates {
        assert_eq!(d["laisvadienis"], true, "{d}");
        assert!(d["declared_day_off"].is_null());
        // The records are those of /holidays?date=, whole.
        let on_date = app
            .json_keyed(
                &format!(
                    "/api/v1/holidays?date={}&lang=en",
                    d["date"].as_str().unwrap()
                ),
                &key,
            )
            .await;
        assert_eq!(d["holidays"], on_date["holidays"], "{}", d["date"]);
        assert!(items(&d["holidays"]).iter().any(|h| h["is_red"] == true));
    }
    assert_eq!(dates[0]["holidays"][0]["name"], "Christmas Eve");

    // The default count is 5; `from` itself counts, with days_until 0.
    let body = app
        .json_keyed("/api/v1/holidays/upcoming?from=2026-12-24", &key)
        .await;
    assert_eq!(body["count"], 5);
    assert_eq!(body["dates"][0]["date"], "2026-12-24");
    assert_eq!(body["dates"][0]["days_until"], 0);
    assert_eq!(body["dates"][4]["date"], "2027-02-16");
    app.stop().await;
}

#[tokio::test]
async fn upcoming_scope_all_lists_every_holiday_date_in_order() {
    let (app, key) = real_app_at(None).await;
    let body = app
        .json_keyed(
            "/api/v1/holidays/upcoming?from=2026-11-24&count=50&scope=ALL",
            &key,
        )
        .await;
    assert_eq!(body["scope"], "all");
    assert_eq!(body["count"], 50);
    // Expected: the dates of /holidays?year= from 2026-11-24 on, in order, each once.
    let mut expected: Vec<String> = Vec::new();
    for year in [2026, 2027] {
        let h = app
            .json_keyed(&format!("/api/v1/holidays?year={year}"), &key)
            .await;
        for r in items(&h["holidays"]) {
            let date = r["date"].as_str().unwrap().to_string();
            if date.as_str() >= "2026-11-24" && expected.last() != Some(&date) {
                expected.push(date);
            }
        }
    }
    let got: Vec<&str> = column(&body["dates"], "date");
    assert_eq!(
        got,
        expected[..50]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    let from = day("2026-11-24");
    for d in items(&body["dates"]) {
        let date = day(d["date"].as_str().unwrap());
        assert_eq!(d["days_until"], (date - from).num_days());
        assert!(!items(&d["holidays"]).is_empty());
    }
    // Some of them are not days off.
    assert!(items(&body["dates"])
        .iter()
        .any(|d| d["laisvadienis"] == false));
    app.stop().await;
}

#[tokio::test]
async fn upcoming_names_a_declared_day_off_and_ends_with_the_served_range() {
    let (app, key) = real_app_at(None).await;
    // 2008-03-10, a Monday, was declared a day off (the bridge to Tuesday 2008-03-11).
    let body = app
        .json_keyed(
            "/api/v1/holidays/upcoming?from=2008-03-01&count=2&lang=en",
            &key,
        )
        .await;
    let d = &body["dates"][0];
    assert_eq!(d["date"], "2008-03-10");
    assert_eq!(d["laisvadienis"], true);
    assert!(items(&d["holidays"]).iter().all(|h| h["is_red"] == false));
    let status = app.json("/api/v1/laisvadienis?date=2008-03-10").await;
    assert!(d["declared_day_off"].is_string());
    assert!(status["holiday_name"].is_string());
    assert_eq!(body["dates"][1]["date"], "2008-03-11");
    assert!(body["dates"][1]["declared_day_off"].is_null());

    // Near the end of the served range: fewer dates, never an error.
    let body = app
        .json_keyed("/api/v1/holidays/upcoming?from=2100-12-01&count=50", &key)
        .await;
    let got: Vec<&str> = column(&body["dates"], "date");
    assert_eq!(got, ["2100-12-24", "2100-12-25", "2100-12-26"]);
    assert_eq!(body["count"], 3);
    let body = app
        .json_keyed("/api/v1/holidays/upcoming?from=2100-12-31", &key)
        .await;
    assert_eq!(body["count"], 0);
    assert_eq!(body["dates"], serde_json::json!([]));
    app.stop().await;
}

#[tokio::test]
async fn upcoming_from_today_by_default_with_the_caching_of_today() {
    let (app, key) = real_app_at(Some("2026-11-23T22:30:00Z")).await;
    // 00:30 on 2026-11-24 in Vilnius.
    for path in [
        "/api/v1/holidays/upcoming",
        "/api/v1/holidays/upcoming?from=today",
        "/api/v1/holidays/upcoming?from=",
    ] {
        let resp = app.get_keyed(path, &key).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert_eq!(header(&resp, "cache-control"), Some("private, max-age=60"));
        let etag = header(&resp, "etag").unwrap().to_string();
        let body = resp.json_body().await;
        assert_eq!(body["from"], "2026-11-24", "{path}");
        assert_eq!(body["dates"][0]["days_until"], 30);
        let again = app
            .send(
                reqwest::Method::GET,
                path,
                &[("X-API-Key", &key), ("If-None-Match", &etag)],
            )
            .await;
        assert_eq!(again.status(), 304, "{path}");
    }
    // A date that is not `today` is an ordinary keyed answer.
    let resp = app
        .get_keyed("/api/v1/holidays/upcoming?from=2026-11-24", &key)
        .await;
    assert_eq!(header(&resp, "cache-control"), Some("private"));
    app.stop().await;
}

#[tokio::test]
async fn upcoming_bounds_and_errors() {
    let (app, key) = real_app_at(None).await;
    for count in [1, 50] {
        let body = app
            .json_keyed(
                &format!("/api/v1/holidays/upcoming?from=2026-01-01&count={count}"),
                &key,
            )
            .await;
        assert_eq!(body["count"], count);
    }
    let cases: &[(&str, &str, &str)] = &[
        ("count=0", "invalid_param", "count"),
        ("count=51", "invalid_param", "count"),
        ("count=-1", "invalid_param", "count"),
        ("count=five", "invalid_param", "count"),
        ("count=1.5", "invalid_param", "count"),
        ("count=+5", "invalid_param", "count"),
        ("count=5&count=5", "invalid_param", "count"),
        ("scope=blue", "invalid_param", "scope"),
        ("lang=de", "invalid_lang", "lang"),
        ("from=2026-02-30", "invalid_date", "from"),
        ("from=2004-12-31", "invalid_date", "from"),
        ("from=26-01-01", "invalid_date", "from"),
        // Check order: the date, then count, then scope, then lang.
        ("from=x&count=0&scope=x&lang=x", "invalid_date", "from"),
        ("count=0&scope=x&lang=x", "invalid_param", "count"),
        ("scope=x&lang=x", "invalid_param", "scope"),
    ];
    for (query, code, word) in cases {
        let resp = app
            .get_keyed(&format!("/api/v1/holidays/upcoming?{query}"), &key)
            .await;
        let message = assert_error(resp, 400, code).await;
        assert!(message.contains(word), "{query}: {message}");
    }
    let resp = app.get("/api/v1/holidays/upcoming?from=2026-01-01").await;
    assert_error(resp, 401, "missing_key").await;
    app.stop().await;
}

// ---------------------------------------------------------------------------------------
// /long-weekends

/// The status of a day as `/days` publishes it: (non-working, carries a red holiday or a
/// declared day off).
type Statuses = BTreeMap<NaiveDate, (bool, bool)>;

/// The statuses from December 1 of the year before `year` to February of the year after.
async fn statuses(app: &TestApp, year: i32) -> Statuses {
    let mut out = Statuses::new();
    for (from, to) in [
        (format!("{}-12-01", year - 1), format!("{}-12-31", year - 1)),
        (format!("{year}-01-01"), format!("{year}-12-31")),
        (format!("{}-01-01", year + 1), format!("{}-02-28", year + 1)),
    ] {
        let body = app.json(&format!("/api/v1/days?from={from}&to={to}")).await;
        for d in items(&body["days"]) {
            out.insert(
                day(d["date"].as_str().unwrap()),
                (d["laisvadienis"] == true, !d["holiday_name"].is_null()),
            );
        }
    }
    out
}

/// A period as compared: (start, end, leave days, days off, dates with a red holiday or a
/// declared day off).
type Expected = (NaiveDate, NaiveDate, Vec<NaiveDate>, i64, Vec<NaiveDate>);

/// The definition, by brute force: every (start, end) pair with start in `year`.
fn brute_force(s: &Statuses, year: i32, max_leave: usize) -> Vec<Expected> {
    let off = |d: NaiveDate| s[&d].0;
    let mut out = Vec::new();
    for (&start, _) in s.range(day(&format!("{year}-01-01"))..=day(&format!("{year}-12-31"))) {
        // A period starts where a run of days off starts.
        if !off(start) || off(start.pred_opt().unwrap()) {
            continue;
        }
        for len in 3..=45 {
            let end = start + chrono::Days::new(len - 1);
            let after = end.succ_opt().unwrap();
            if !s.contains_key(&after) {
                break;
            }
            // ... and ends where one ends.
            if !off(end) || off(after) {
                continue;
            }
            let days: Vec<NaiveDate> = start.iter_days().take_while(|d| *d <= end).collect();
            let leave: Vec<NaiveDate> = days.iter().copied().filter(|d| !off(*d)).collect();
            let marked: Vec<NaiveDate> = days.iter().copied().filter(|d| s[d].1).collect();
            if leave.len() <= max_leave && !marked.is_empty() {
                out.push((start, end, leave, len as i64, marked));
            }
        }
    }
    out.sort_by_key(|p| (p.0, p.2.len()));
    out
}

fn served(body: &Value) -> Vec<Expected> {
    items(&body["periods"])
        .iter()
        .map(|p| {
            let leave: Vec<NaiveDate> = strs(&p["leave_days"]).into_iter().map(day).collect();
            assert_eq!(p["leave_day_count"], leave.len(), "{p}");
            let mut marked: Vec<NaiveDate> = items(&p["holidays"])
                .iter()
                .map(|h| {
                    assert!(!h["name"].as_str().unwrap().is_empty());
                    day(h["date"].as_str().unwrap())
                })
                .collect();
            marked.dedup();
            (
                day(p["start"].as_str().unwrap()),
                day(p["end"].as_str().unwrap()),
                leave,
                p["days_off"].as_i64().unwrap(),
                marked,
            )
        })
        .collect()
}

#[tokio::test]
async fn long_weekends_equal_the_brute_force_enumeration() {
    let (app, key) = real_app_at(None).await;
    // Four calendars: 2008, a holiday on a Tuesday (03-11, with the declared day off 03-10
    // and the working Saturday 03-15) and on a Thursday (05-01, the declared day off
    // 05-02), and the days in lieu of art. 162-1; 2011, Tuesday 11-01 after the declared
    // day off 10-31 and the working Saturday 11-05; 2020, All Souls' Day red for the first
    // time (Monday 11-02); 2026, Thursday 12-24 and the Christmas bridge across the New
    // Year.
    for year in [2008, 2011, 2020, 2026] {
        let s = statuses(&app, year).await;
        for max in [0, 1, 4, 10] {
            let body = app
                .json_keyed(
                    &format!("/api/v1/long-weekends?year={year}&max_leave_days={max}"),
                    &key,
                )
                .await;
            assert_eq!(body["year"], year);
            assert_eq!(body["max_leave_days"], max);
            let got = served(&body);
            assert_eq!(body["count"], got.len());
            let expected = brute_force(&s, year, max);
            assert_eq!(got, expected, "{year}, max_leave_days={max}");
            if max == 0 {
                assert!(!got.is_empty(), "{year} has long weekends");
            }
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn long_weekends_of_2026_and_the_christmas_bridge() {
    let (app, key) = real_app_at(None).await;
    let body = app
        .json_keyed("/api/v1/long-weekends?year=2026&lang=en", &key)
        .await;
    assert_eq!(body["max_leave_days"], 0, "the default");
    let periods: Vec<(&str, &str, u64)> = items(&body["periods"])
        .iter()
        .map(|p| {
            assert_eq!(p["leave_day_count"], 0);
            (
                p["start"].as_str().unwrap(),
                p["end"].as_str().unwrap(),
                p["days_off"].as_u64().unwrap(),
            )
        })
        .collect();
    // Easter (Sunday 04-05, Monday 04-06) and All Saints' with All Souls' (Sunday 11-01,
    // Monday 11-02), Christmas Eve to Sunday.
    for expected in [
        ("2026-04-04", "2026-04-06", 3),
        ("2026-10-31", "2026-11-02", 3),
        ("2026-12-24", "2026-12-27", 4),
    ] {
        assert!(periods.contains(&expected), "{expected:?} in {periods:?}");
    }
    let easter = period(&body, "2026-04-04", 0);
    assert_eq!(easter["holidays"][0]["date"], "2026-04-05");
    assert_eq!(easter["holidays"][0]["name"], "Easter Sunday");

    // Four leave days, December 28-31, join Christmas to the New Year: 11 days off.
    let body = app
        .json_keyed(
            "/api/v1/long-weekends?year=2026&max_leave_days=4&lang=en",
            &key,
        )
        .await;
    let bridge = period(&body, "2026-12-24", 4);
    assert_eq!(bridge["end"], "2027-01-03");
    assert_eq!(bridge["days_off"], 11);
    assert_eq!(
        strs(&bridge["leave_days"]),
        ["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31"]
    );
    let names: Vec<&str> = column(&bridge["holidays"], "date");
    assert_eq!(
        names,
        ["2026-12-24", "2026-12-25", "2026-12-26", "2027-01-01"]
    );
    app.stop().await;
}

#[tokio::test]
async fn declared_days_off_and_working_saturdays_shape_the_periods() {
    let (app, key) = real_app_at(None).await;
    // 2008: Saturday 03-08 to Tuesday 03-11 (Monday 03-10 declared a day off); Saturday
    // 03-15 was a working day, so joining the next weekend costs it as a fifth leave day.
    let body = app
        .json_keyed("/api/v1/long-weekends?year=2008&max_leave_days=4", &key)
        .await;
    let march = period(&body, "2008-03-08", 0);
    assert_eq!(march["end"], "2008-03-11");
    let dates: Vec<&str> = column(&march["holidays"], "date");
    assert_eq!(dates, ["2008-03-10", "2008-03-11"]);
    let joined = period(&body, "2008-03-08", 4);
    assert_eq!(joined["end"], "2008-03-16");
    assert_eq!(
        strs(&joined["leave_days"]),
        ["2008-03-12", "2008-03-13", "2008-03-14", "2008-03-15"]
    );
    // 2011: Saturday 10-29 to Tuesday 11-01, Monday 10-31 declared a day off.
    let body = app
        .json_keyed("/api/v1/long-weekends?year=2011&max_leave_days=1", &key)
        .await;
    assert_eq!(period(&body, "2011-10-29", 0)["end"], "2011-11-01");
    // ... and Saturday 11-05 was a working day: a period through it takes it as leave.
    for p in items(&body["periods"]) {
        let (start, end) = (p["start"].as_str().unwrap(), p["end"].as_str().unwrap());
        assert!(
            !(start <= "2011-11-05" && "2011-11-05" <= end)
                || strs(&p["leave_days"]).contains(&"2011-11-05")
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn long_weekends_errors() {
    let (app, key) = real_app_at(None).await;
    let cases: &[(&str, &str, &str)] = &[
        ("", "missing_param", "year"),
        ("year=", "missing_param", "year"),
        ("max_leave_days=11", "missing_param", "year"),
        ("year=2004", "invalid_year", "2005"),
        ("year=2101", "invalid_year", "year"),
        ("year=twenty", "invalid_year", "year"),
        (
            "year=2026&max_leave_days=11",
            "invalid_param",
            "max_leave_days",
        ),
        (
            "year=2026&max_leave_days=-1",
            "invalid_param",
            "max_leave_days",
        ),
        (
            "year=2026&max_leave_days=one",
            "invalid_param",
            "max_leave_days",
        ),
        (
            "year=2026&max_leave_days=1&max_leave_days=1",
            "invalid_param",
            "max_leave_days",
        ),
        ("year=2026&lang=lv", "invalid_lang", "lang"),
        // Check order: year, then max_leave_days, then lang.
        ("year=x&max_leave_days=x&lang=x", "invalid_year", "year"),
        (
            "year=2026&max_leave_days=x&lang=x",
            "invalid_param",
            "max_leave_days",
        ),
    ];
    for (query, code, word) in cases {
        let resp = app
            .get_keyed(&format!("/api/v1/long-weekends?{query}"), &key)
            .await;
        let message = assert_error(resp, 400, code).await;
        assert!(message.contains(word), "{query}: {message}");
    }
    // The last served year: a run is cut at 2100-12-31.
    let body = app
        .json_keyed("/api/v1/long-weekends?year=2100&max_leave_days=10", &key)
        .await;
    let last = items(&body["periods"]).last().unwrap();
    assert!(last["end"].as_str().unwrap() <= "2100-12-31");
    let resp = app.get("/api/v1/long-weekends?year=2026").await;
    assert_error(resp, 401, "missing_key").await;
    app.stop().await;
}

// ---------------------------------------------------------------------------------------
// The pages

/// The row of the table of class `table` for the period starting on `start`.
fn row_of<'a>(doc: &'a Html, table: &str, start: &str) -> scraper::ElementRef<'a> {
    let time = sel(&format!("time[datetime=\"{start}\"]"));
    doc.select(&sel(&format!("table.{table} tbody tr")))
        .find(|tr| tr.select(&time).next().is_some())
        .unwrap_or_else(|| panic!("no {table} row from {start}"))
}

/// Days off per leave day of each bridge row, as the page writes them.
fn efficiencies(doc: &Html) -> Vec<f64> {
    doc.select(&sel("table.bridges td.eff"))
        .map(|td| text(td).replace(',', ".").parse().unwrap())
        .collect()
}

#[tokio::test]
async fn the_long_weekends_page_in_four_languages() {
    let (app, key) = real_app_at(None).await;
    for (lang, heading) in [
        ("lt", "2026 m. ilgieji savaitgaliai"),
        ("en", "Long weekends of 2026"),
        ("pl", "Długie weekendy 2026"),
        ("ru", "Длинные выходные 2026 года"),
    ] {
        let path = format!("/2026/ilgieji-savaitgaliai?lang={lang}");
        let doc = page(&app, &path, 200).await;
        let html = doc.select(&sel("html")).next().unwrap();
        assert_eq!(html.value().attr("lang"), Some(lang));
        assert_eq!(text(doc.select(&sel("h1")).next().unwrap()), heading);
        // The long weekends: the same periods as the API's, by date.
        let api = app
            .json_keyed(
                &format!("/api/v1/long-weekends?year=2026&lang={lang}"),
                &key,
            )
            .await;
        let starts: Vec<String> = doc
            .select(&sel("table.weekends tbody th time"))
            .map(|t| t.value().attr("datetime").unwrap().to_string())
            .collect();
        assert_eq!(starts, column(&api["periods"], "start"), "{lang}");
        let christmas = row_of(&doc, "weekends", "2026-12-24");
        for name in column(&period(&api, "2026-12-24", 0)["holidays"], "name") {
            assert!(text(christmas).contains(name), "{lang}: {name}");
        }
        // The bridges: the best first, each with its leave days.
        let eff = efficiencies(&doc);
        assert!(!eff.is_empty());
        assert!(eff.windows(2).all(|w| w[0] >= w[1]), "{lang}: {eff:?}");
        let api4 = app
            .json_keyed(
                &format!("/api/v1/long-weekends?year=2026&max_leave_days=4&lang={lang}"),
                &key,
            )
            .await;
        let bridges = items(&api4["periods"])
            .iter()
            .filter(|p| p["leave_day_count"] != 0)
            .count();
        assert_eq!(doc.select(&sel("table.bridges tbody tr")).count(), bridges);
        let best: f64 = items(&api4["periods"])
            .iter()
            .filter(|p| p["leave_day_count"] != 0)
            .map(|p| p["days_off"].as_f64().unwrap() / p["leave_day_count"].as_f64().unwrap())
            .fold(0.0, f64::max);
        assert!((eff[0] - best).abs() < 0.01, "{lang}: {} vs {best}", eff[0]);
        let christmas_bridge = row_of(&doc, "bridges", "2026-12-24");
        let leave = text(christmas_bridge.select(&sel("td.leave")).next().unwrap());
        assert!(
            leave.starts_with("4:") && leave.contains("28, 29, 30, 31"),
            "{lang}: {leave}"
        );
        // Links keep the language.
        let year_link = doc
            .select(&sel("nav.pager a"))
            .map(|a| a.value().attr("href").unwrap().to_string())
            .collect::<Vec<_>>();
        let q = if lang == "lt" {
            String::new()
        } else {
            format!("?lang={lang}")
        };
        assert!(year_link.contains(&format!("/2026{q}")), "{year_link:?}");
        assert!(
            year_link.contains(&format!("/2025/ilgieji-savaitgaliai{q}")),
            "{year_link:?}"
        );
    }
    // Linked from the year page.
    let doc = page(&app, "/2026?lang=en", 200).await;
    assert!(doc
        .select(&sel("nav.pager a"))
        .any(|a| a.value().attr("href") == Some("/2026/ilgieji-savaitgaliai?lang=en")));
    // Outside the served years, or another spelling: the HTML 404 page.
    page(&app, "/2004/ilgieji-savaitgaliai", 404).await;
    page(&app, "/2026/ilgieji-savaitgaliai/", 404).await;
    app.stop().await;
}

#[tokio::test]
async fn the_home_page_names_the_next_red_day() {
    let (app, key) = real_app_at(Some("2026-11-24T10:00:00Z")).await;
    for lang in ["lt", "en", "pl", "ru"] {
        let doc = page(&app, &format!("/?lang={lang}"), 200).await;
        let line = text(doc.select(&sel("p.next-red")).next().expect("the line"));
        let name = app
            .json_keyed(
                &format!("/api/v1/holidays?date=2026-12-24&lang={lang}"),
                &key,
            )
            .await["holidays"][0]["name"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            line.contains("30") && line.contains(&name),
            "{lang}: {line}"
        );
        let link = doc.select(&sel("p.next-red a")).next().unwrap();
        let q = if lang == "lt" {
            String::new()
        } else {
            format!("?lang={lang}")
        };
        assert_eq!(
            link.value().attr("href"),
            Some(format!("/2026/12/24{q}").as_str())
        );
    }
    let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
    assert_eq!(today.weekday(), chrono::Weekday::Tue);
    app.stop().await;
}

#[tokio::test]
async fn the_home_page_on_the_eve_and_on_the_day() {
    let (app, _) = real_app_at(Some("2026-12-23T10:00:00Z")).await;
    let doc = page(&app, "/?lang=en", 200).await;
    let line = text(doc.select(&sel("p.next-red")).next().unwrap());
    assert!(
        line.starts_with("Tomorrow is a public holiday: Christmas Eve"),
        "{line}"
    );
    app.stop().await;
    let (app, _) = real_app_at(Some("2026-12-24T10:00:00Z")).await;
    let doc = page(&app, "/?lang=en", 200).await;
    let line = text(doc.select(&sel("p.next-red")).next().unwrap());
    assert!(
        line.starts_with("Today is a public holiday: Christmas Eve"),
        "{line}"
    );
    app.stop().await;
}
