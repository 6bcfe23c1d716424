//! `/working-time`, `/working-days`, `/working-days/add` and `today`, over the dataset built
//! from the repository's own `sources/` (the official figures are of real years).
//!
//! The expected figures are written out here, not computed: the working-time norms the
//! Minister of Social Security and Labour approves every year ("metiniai vidutinio mėnesio
//! darbo dienų ir valandų skaičiai", with the order's number beside each), and day counts
//! worked out by hand from the calendar. The property tests hold the counts to the per-day
//! status `/days` publishes.

use std::time::SystemTime;

use kalendorius_server::limits::{LimitsConfig, MAX_LIMIT};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use crate::helpers::*;

/// A server over the real dataset with limits no test reaches, and a key for it.
async fn real_app() -> (TestApp, String) {
    real_app_at(None).await
}

/// As [`real_app`], `today` read from a clock set to `at` (RFC 3339) at start.
pub(crate) async fn real_app_at(at: Option<&str>) -> (TestApp, String) {
    let app = spawn_app_with(AppOptions {
        real_sources: true,
        limits: Some(LimitsConfig::all(MAX_LIMIT)),
        today_at: at.map(utc),
        ..AppOptions::default()
    })
    .await;
    let (key, _) = app.key(None, None);
    (app, key)
}

fn utc(text: &str) -> SystemTime {
    chrono::DateTime::parse_from_rfc3339(text).unwrap().into()
}

/// `field` of each month of a `/working-time` body.
fn by_month(body: &Value, field: &str) -> Vec<u64> {
    body["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[field].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn year_2025_by_month_in_both_week_forms() {
    let (app, key) = real_app().await;
    let five = app.json_keyed("/api/v1/working-time?year=2025", &key).await;
    assert_eq!(five["year"], 2025);
    assert_eq!(five["week"], 5, "the 5-day week is the default");
    assert_eq!(five["hours_per_week"], 40);
    assert_eq!(
        by_month(&five, "working_days"),
        [22, 20, 20, 21, 21, 20, 23, 20, 22, 23, 20, 20]
    );
    assert_eq!(
        by_month(&five, "working_hours"),
        [176, 160, 159, 167, 168, 159, 184, 159, 176, 183, 160, 158]
    );
    let shortened: Vec<&str> = five["months"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["shortened_days"].as_array().unwrap())
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(
        shortened,
        [
            "2025-03-10",
            "2025-04-30",
            "2025-06-23",
            "2025-08-14",
            "2025-10-31",
            "2025-12-23",
            "2025-12-31"
        ]
    );
    // Dates carrying a red holiday, whatever the weekday (Sunday 2025-05-04 Mother's Day
    // and Easter Sunday 2025-04-20 included).
    assert_eq!(
        five["months"][3]["red_holidays"],
        json!(["2025-04-20", "2025-04-21"])
    );
    assert_eq!(
        five["months"][4]["red_holidays"],
        json!(["2025-05-01", "2025-05-04"])
    );
    assert_eq!(
        five["total"],
        json!({"calendar_days": 365, "working_days": 252, "non_working_days": 113,
               "red_holidays": 16, "shortened_days": 7, "working_hours": 2009,
               "working_minutes": 2009 * 60})
    );
    assert_eq!(
        by_month(&five, "calendar_days"),
        [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    );
    for m in five["months"].as_array().unwrap() {
        assert_eq!(
            m["non_working_days"].as_u64().unwrap() + m["working_days"].as_u64().unwrap(),
            m["calendar_days"].as_u64().unwrap(),
            "{m}"
        );
    }

    let six = app
        .json_keyed("/api/v1/working-time?year=2025&week=6", &key)
        .await;
    assert_eq!(six["week"], 6);
    assert_eq!(
        by_month(&six, "working_days"),
        [26, 24, 25, 25, 26, 24, 27, 25, 26, 27, 24, 24]
    );
    assert_eq!(six["total"]["working_days"], 303);
    assert_eq!(six["total"]["working_hours"], 2007);
    app.stop().await;
}

#[tokio::test]
async fn average_month_of_2021_as_order_a1_1274_publishes_it() {
    // Order A1-1274 of 2020-12-16: 252 days and 2009 hours, average month 21.0 days and
    // 167.4 hours (5-day week); 302 days and 2004 hours, 25.2 days and 167.0 hours (6-day).
    let (app, key) = real_app().await;
    let five = app
        .json_keyed("/api/v1/working-time?year=2021&week=5", &key)
        .await;
    assert_eq!(five["total"]["working_days"], 252);
    assert_eq!(five["total"]["working_hours"], 2009);
    assert_eq!(
        five["average_month"],
        json!({"working_days": 21.0, "working_hours": 167.4, "working_minutes": 10045})
    );
    let six = app
        .json_keyed("/api/v1/working-time?year=2021&week=6", &key)
        .await;
    assert_eq!(six["total"]["working_days"], 302);
    assert_eq!(six["total"]["working_hours"], 2004);
    assert_eq!(
        six["average_month"],
        json!({"working_days": 25.2, "working_hours": 167.0, "working_minutes": 10020})
    );
    // One decimal on the wire, as the order writes it.
    let text = app
        .get_keyed("/api/v1/working-time?year=2021", &key)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        text.ends_with(
            r#""average_month":{"working_days":21.0,"working_hours":167.4,"working_minutes":10045}}"#
        ),
        "{text}"
    );
    app.stop().await;
}

#[tokio::test]
async fn annual_figures_of_more_ministers_orders() {
    // (year, 5-day (days, hours), 6-day (days, hours), the order): the totals each order
    // divides by 12.
    type DaysAndHours = (u64, u64);
    let orders: &[(i32, DaysAndHours, DaysAndHours, &str)] = &[
        // A1-581 of 2012-12-21 (Žin. 2012 Nr. 153-7866), for 2013.
        (2013, (251, 2001), (301, 1997), "A1-581"),
        // A1-693 of 2013-12-16, for 2014.
        (2014, (252, 2009), (303, 2007), "A1-693"),
        // A1-789 of 2015-12-23, for 2016.
        (2016, (252, 2010), (304, 2014), "A1-789"),
        // A1-629 of 2017-12-18, for 2018.
        (2018, (251, 2002), (303, 2006), "A1-629"),
        // A1-767 of 2019-12-13, for 2020.
        (2020, (253, 2018), (303, 2010), "A1-767"),
    ];
    let (app, key) = real_app().await;
    for &(year, five, six, order) in orders {
        for (week, (days, hours)) in [(5, five), (6, six)] {
            let body = app
                .json_keyed(
                    &format!("/api/v1/working-time?year={year}&week={week}"),
                    &key,
                )
                .await;
            let total = (
                body["total"]["working_days"].as_u64().unwrap(),
                body["total"]["working_hours"].as_u64().unwrap(),
            );
            assert_eq!(total, (days, hours), "{year}, {week}-day week ({order})");
        }
    }
    // Order A1-340 for 2007, a year of days in lieu (a red holiday on a Sunday gave the
    // next working day off), publishes only the averages: 20.7 days and 164.75 hours
    // (5-day week), 25.0 days and 165.4 hours (6-day week).
    let five = app.json_keyed("/api/v1/working-time?year=2007", &key).await;
    assert_eq!(five["average_month"]["working_days"], 20.7);
    assert_eq!(
        five["total"]["working_hours"].as_u64().unwrap() * 100,
        16475 * 12,
        "164.75 hours a month exactly"
    );
    let six = app
        .json_keyed("/api/v1/working-time?year=2007&week=6", &key)
        .await;
    assert_eq!(six["average_month"]["working_days"], 25.0);
    assert_eq!(six["average_month"]["working_hours"], 165.4);
    // The days in lieu of 2007 are non-working: Mon Mar 12 (for Sun Mar 11).
    assert!(!five["months"][2]["red_holidays"]
        .as_array()
        .unwrap()
        .contains(&json!("2007-03-12")));
    let march = app
        .json_keyed("/api/v1/working-days?from=2007-03-12&to=2007-03-12", &key)
        .await;
    assert_eq!(march["working_days"], 0);
    app.stop().await;
}

#[tokio::test]
async fn year_2008_with_its_transfers_in_both_week_forms() {
    // Government resolution No. 1405 of 2007-12-27 moved three Saturday rest days to Mon
    // Mar 10, Fri May 2 and Mon Jun 23 (docs/data.md §2.3). In the 5-day week Mon Jun 23 is
    // a declared day off, so no day of June is shortened before Midsummer (Tue Jun 24), and
    // Sat Jun 28 is a working day. The 6-day week follows no transfer and gets the days in
    // lieu of Sunday holidays only (§2.2): Mon Feb 18 and Mon Nov 3 (for the Saturday
    // holidays Feb 16 and Nov 1) are its working days, Mon Jun 23 is worked shortened.
    let (app, key) = real_app().await;
    let five = app.json_keyed("/api/v1/working-time?year=2008", &key).await;
    let june = &five["months"][5];
    assert_eq!(june["shortened_days"], json!([]));
    // 21 weekdays less Jun 23 and Jun 24, plus Sat Jun 28 (Mon Jun 2 is an ordinary working
    // day: Father's Day became a holiday in 2009, docs/data.md §2.1).
    assert_eq!(june["working_days"], 20, "Jun 23 off, Sat Jun 28 worked");
    assert_eq!(june["working_hours"], 20 * 8);
    assert_eq!(
        (
            &five["total"]["working_days"],
            &five["total"]["working_hours"]
        ),
        (&json!(249), &json!(1986))
    );
    let six = app
        .json_keyed("/api/v1/working-time?year=2008&week=6", &key)
        .await;
    assert_eq!(six["months"][5]["shortened_days"], json!(["2008-06-23"]));
    assert_eq!(
        (
            &six["total"]["working_days"],
            &six["total"]["working_hours"]
        ),
        (&json!(301), &json!(1996))
    );
    for (date, five_days, six_days) in [
        ("2008-06-23", 0, 1),
        ("2008-06-28", 1, 1),
        ("2008-02-18", 0, 1),
        ("2008-11-03", 0, 1),
        ("2008-07-07", 0, 0),
        ("2008-06-02", 1, 1), // no day in lieu: Father's Day is red from 2009
    ] {
        for (week, expected) in [(5, five_days), (6, six_days)] {
            let body = app
                .json_keyed(
                    &format!("/api/v1/working-days?from={date}&to={date}&week={week}"),
                    &key,
                )
                .await;
            assert_eq!(body["working_days"], expected, "{date}, {week}-day week");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_range_across_a_new_year_and_a_transfer() {
    // 2010-12-20 (Mon) to 2011-01-10 (Mon). Fri 2010-12-24 is a declared day off (Christmas
    // Eve is not yet a red holiday), so Thu Dec 23 is a full day; Sat Dec 25 and Sun Dec 26
    // are red; Fri Dec 31 is shortened (Sat Jan 1 is red).
    // 5-day week: Dec 20-23, 27-31 and Jan 3-7, 10: 15 days, 15 * 8 - 1 hours.
    // 6-day week: the declared day off is a government transfer of a Saturday rest day,
    // which the 6-day week does not have (docs/data.md §2.3): Fri Dec 24 is worked there,
    // shortened before Christmas (6 h). Dec 20-23, Dec 24 (6 h), 27-31 (Dec 31 6 h), Jan 3-7
    // (7 h), Sat Jan 8 (5 h), Jan 10.
    let (app, key) = real_app().await;
    let mut five = app
        .json_keyed("/api/v1/working-days?from=2010-12-20&to=2011-01-10", &key)
        .await;
    // The eve rule of 2010: the 2002 Labour Code's, as the data cites it.
    let eve_rule = five.as_object_mut().unwrap().remove("eve_rule").unwrap();
    assert_eq!(eve_rule["shortened"], true);
    assert_eq!(eve_rule["basis"][0]["act"], "IX-926");
    assert_eq!(
        five,
        json!({"from": "2010-12-20", "to": "2011-01-10", "week": 5, "hours_per_week": 40,
               "norm": "full", "schedule_minutes": [480, 480, 480, 480, 480],
               "calendar_days": 22, "working_days": 15, "non_working_days": 7,
               "shortened_days": 1, "working_hours": 119, "working_minutes": 119 * 60})
    );
    let mut six = app
        .json_keyed(
            "/api/v1/working-days?from=2010-12-20&to=2011-01-10&week=6",
            &key,
        )
        .await;
    assert_eq!(
        six.as_object_mut().unwrap().remove("eve_rule"),
        Some(eve_rule)
    );
    let hours = 4 * 7 + 6 + 4 * 7 + 6 + 5 * 7 + 5 + 7;
    assert_eq!(
        six,
        json!({"from": "2010-12-20", "to": "2011-01-10", "week": 6, "hours_per_week": 40,
               "norm": "full", "schedule_minutes": [420, 420, 420, 420, 420, 300],
               "calendar_days": 22, "working_days": 17, "non_working_days": 5,
               "shortened_days": 2, "working_hours": hours, "working_minutes": hours * 60})
    );
    // One day; and the whole served range in one request (no length limit).
    let one = app
        .json_keyed("/api/v1/working-days?from=2025-12-31&to=2025-12-31", &key)
        .await;
    assert_eq!(
        (one["calendar_days"].clone(), one["working_hours"].clone()),
        (json!(1), json!(7))
    );
    let all = app
        .json_keyed("/api/v1/working-days?from=2005-01-01&to=2100-12-31", &key)
        .await;
    assert_eq!(
        all["calendar_days"], 35063,
        "96 years, 23 of them leap years"
    );
    app.stop().await;
}

/// `result` of `/working-days/add?{query}`.
async fn add(app: &TestApp, key: &str, query: &str) -> Value {
    let body = app
        .json_keyed(&format!("/api/v1/working-days/add?{query}"), key)
        .await;
    body["result"].clone()
}

#[tokio::test]
async fn adding_working_days() {
    let (app, key) = real_app().await;
    // From Sun 2026-12-20, 10 working days: Dec 21, 22, 23, 28, 29, 30, 31 (Dec 24, 25 and
    // 26 are red), Jan 4, 5, 6 (Jan 1 is red).
    let body = app
        .json_keyed("/api/v1/working-days/add?date=2026-12-20&days=10", &key)
        .await;
    assert_eq!(
        body,
        json!({"date": "2026-12-20", "days": 10, "week": 5, "result": "2027-01-06"})
    );
    // Back again: Jan 6 itself is not counted, so the 9th working day before it is Dec 21,
    // and the 10th is Fri Dec 18.
    assert_eq!(
        add(&app, &key, "date=2027-01-06&days=-9").await,
        "2026-12-21"
    );
    assert_eq!(
        add(&app, &key, "date=2027-01-06&days=-10").await,
        "2026-12-18"
    );
    // The 3rd working day before Mon 2027-01-04: Dec 31, 30, 29.
    assert_eq!(
        add(&app, &key, "date=2027-01-04&days=-3").await,
        "2026-12-29"
    );
    // N = 0: a working day is itself; a Saturday, and a red holiday, give the next working
    // day (Mon 2026-02-16 is Restoration of the State Day).
    assert_eq!(
        add(&app, &key, "date=2026-11-23&days=0").await,
        "2026-11-23"
    );
    assert_eq!(
        add(&app, &key, "date=2026-11-21&days=0").await,
        "2026-11-23"
    );
    assert_eq!(
        add(&app, &key, "date=2026-02-16&days=0").await,
        "2026-02-17"
    );
    assert_eq!(
        add(&app, &key, "date=2026-12-24&days=0").await,
        "2026-12-28"
    );
    // In the 6-day week a Saturday is a working day, unless a red holiday falls on it.
    assert_eq!(
        add(&app, &key, "date=2026-11-21&days=0&week=6").await,
        "2026-11-21"
    );
    assert_eq!(
        add(&app, &key, "date=2026-11-20&days=1&week=6").await,
        "2026-11-21"
    );
    assert_eq!(
        add(&app, &key, "date=2026-11-20&days=1").await,
        "2026-11-23"
    );
    assert_eq!(
        add(&app, &key, "date=2026-12-24&days=1&week=6").await,
        "2026-12-28",
        "Sat Dec 26 is red"
    );
    // A declared working Saturday counts in the 5-day week (2011-02-19).
    assert_eq!(
        add(&app, &key, "date=2011-02-18&days=1").await,
        "2011-02-19"
    );
    // Results outside the served dates (|N| up to 100 000 is accepted: some 400 years of
    // working days, more than the 96 years served here).
    for query in [
        "date=2100-12-20&days=10",
        "date=2005-01-05&days=-10",
        "date=2005-01-03&days=100000",
        "date=2100-12-31&days=-100000&week=6",
    ] {
        let resp = app
            .get_keyed(&format!("/api/v1/working-days/add?{query}"), &key)
            .await;
        let message = assert_error(resp, 400, "out_of_range").await;
        assert!(message.contains("2100-12-31"), "{message}");
    }
    app.stop().await;
}

/// The `/days` entries of `from..=to` (at most 366 days).
async fn days(app: &TestApp, from: &str, to: &str) -> Vec<Value> {
    let body = app.json(&format!("/api/v1/days?from={from}&to={to}")).await;
    body["days"].as_array().unwrap().clone()
}

#[tokio::test]
async fn counts_agree_with_the_status_of_every_day_of_random_ranges() {
    let (app, key) = real_app().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let first = chrono::NaiveDate::from_ymd_opt(2005, 1, 1).unwrap();
    let last = chrono::NaiveDate::from_ymd_opt(2100, 12, 31).unwrap();
    let span = (last - first).num_days();
    for _ in 0..300 {
        let from = first + chrono::Days::new(rng.gen_range(0..=span) as u64);
        let len = rng.gen_range(0..366).min((last - from).num_days());
        let to = from + chrono::Days::new(len as u64);
        let entries = days(&app, &from.to_string(), &to.to_string()).await;
        let working = entries
            .iter()
            .filter(|d| d["laisvadienis"] == false)
            .count();
        let shortened = entries
            .iter()
            .filter(|d| d["shorter_workday"] == true)
            .count();
        let body = app
            .json_keyed(&format!("/api/v1/working-days?from={from}&to={to}"), &key)
            .await;
        let what = format!("{from}..{to}");
        assert_eq!(body["calendar_days"], entries.len(), "{what}");
        assert_eq!(body["working_days"], working, "{what}");
        assert_eq!(body["non_working_days"], entries.len() - working, "{what}");
        assert_eq!(body["shortened_days"], shortened, "{what}");
        // A working day is 8 hours, a shortened one 7.
        assert_eq!(body["working_hours"], 8 * working - shortened, "{what}");

        // Adding N from a date of the range lands where walking the statuses does.
        let start = rng.gen_range(0..entries.len());
        let working_at = |i: usize| entries[i]["laisvadienis"] == false;
        let n: i64 = rng.gen_range(-5..=5);
        let mut walked = None;
        let mut count = 0;
        if n >= 0 {
            let mut i = start + usize::from(n > 0);
            while i < entries.len() {
                if working_at(i) {
                    count += 1;
                    if count == n.max(1) {
                        walked = Some(i);
                        break;
                    }
                }
                i += 1;
            }
        } else {
            let mut i = start;
            while i > 0 {
                i -= 1;
                if working_at(i) {
                    count += 1;
                    if count == -n {
                        walked = Some(i);
                        break;
                    }
                }
            }
        }
        // Only a walk that ended inside the range can be compared.
        if let Some(i) = walked {
            let date = entries[start]["date"].as_str().unwrap();
            let result = add(&app, &key, &format!("date={date}&days={n}")).await;
            assert_eq!(result, entries[i]["date"], "{date} {n:+}");
        }
    }
    app.stop().await;
}

/// `(date, hours in the 5-day week, in the 6-day week, shortened in the 6-day week)` of every
/// day of `year`, as the published year file of the real dataset gives them.
fn published_days(year: i32) -> Vec<(String, u64, u64, bool)> {
    let dir = kalendorius_dataset::open_dataset(real_dataset()).expect("the dataset opens");
    let path = dir.path.join(kalendorius_dataset::layout::year_file(year));
    let file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    file["days"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["date"].as_str().unwrap().to_string(),
                d["working_hours_5"].as_u64().unwrap(),
                d["working_hours_6"].as_u64().unwrap(),
                d["shorter_workday_6"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn six_day_counts_agree_with_the_published_hours_of_random_ranges() {
    // `/days` has the 5-day status only; the 6-day week is held to the year files' fields.
    let (app, key) = real_app().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    for _ in 0..8 {
        let year = rng.gen_range(2005..=2100);
        let days = published_days(year);
        for _ in 0..12 {
            let a = rng.gen_range(0..days.len());
            let b = rng.gen_range(a..days.len());
            let range = &days[a..=b];
            let (from, to) = (&range[0].0, &range[range.len() - 1].0);
            let body = app
                .json_keyed(
                    &format!("/api/v1/working-days?from={from}&to={to}&week=6"),
                    &key,
                )
                .await;
            let working = range.iter().filter(|d| d.2 > 0).count();
            let hours: u64 = range.iter().map(|d| d.2).sum();
            let shortened = range.iter().filter(|d| d.3).count();
            let what = format!("{from}..{to}");
            assert_eq!(body["working_days"], working, "{what}");
            assert_eq!(body["working_hours"], hours, "{what}");
            assert_eq!(body["shortened_days"], shortened, "{what}");
            let five: u64 = range.iter().map(|d| d.1).sum();
            let body5 = app
                .json_keyed(&format!("/api/v1/working-days?from={from}&to={to}"), &key)
                .await;
            assert_eq!(body5["working_hours"], five, "{what}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_whole_year_agrees_with_days_in_both_week_forms() {
    let (app, key) = real_app().await;
    for year in [2008, 2026] {
        let entries = days(&app, &format!("{year}-01-01"), &format!("{year}-12-31")).await;
        let five = app
            .json_keyed(&format!("/api/v1/working-time?year={year}"), &key)
            .await;
        let working = entries
            .iter()
            .filter(|d| d["laisvadienis"] == false)
            .count();
        assert_eq!(five["total"]["working_days"], working, "{year}");
        let shortened: Vec<&Value> = entries
            .iter()
            .filter(|d| d["shorter_workday"] == true)
            .map(|d| &d["date"])
            .collect();
        let listed: Vec<&Value> = five["months"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["shortened_days"].as_array().unwrap())
            .collect();
        assert_eq!(listed, shortened, "{year}");
        // The 6-day week works every Saturday that carries no red holiday, and every
        // transferred day off: more days than the 5-day week.
        let six = app
            .json_keyed(&format!("/api/v1/working-time?year={year}&week=6"), &key)
            .await;
        assert!(six["total"]["working_days"].as_u64() > five["total"]["working_days"].as_u64());
    }
    app.stop().await;
}

#[tokio::test]
async fn today_is_the_date_in_vilnius() {
    // 23:30 UTC on 31 December is 01:30 on 1 January in Vilnius (UTC+2).
    let (app, key) = real_app_at(Some("2026-12-31T23:30:00Z")).await;
    let status = app.get("/api/v1/laisvadienis?date=today").await;
    assert_eq!(status.status(), 200);
    assert_eq!(header(&status, "cache-control"), Some("public, max-age=60"));
    let etag = header(&status, "etag").unwrap().to_string();
    assert!(etag.ends_with("-2027-01-01\""), "{etag}");
    let body = status.json_body().await;
    assert_eq!(body["date"], "2027-01-01", "echoed resolved");
    assert_eq!(body["laisvadienis"], true);
    // The same ETag revalidates: a 304 with the same headers.
    let again = app
        .client
        .get(format!("{}/api/v1/laisvadienis?date=today", app.base))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(header(&again, "cache-control"), Some("public, max-age=60"));
    assert_eq!(header(&again, "etag"), Some(etag.as_str()));
    // Without `today`: an hour, as always.
    let dated = app.get("/api/v1/laisvadienis?date=2027-01-01").await;
    assert_eq!(
        header(&dated, "cache-control"),
        Some("public, max-age=3600")
    );

    let range = app.json("/api/v1/days?from=today&to=2027-01-03").await;
    assert_eq!(
        (range["from"].clone(), range["count"].clone()),
        (json!("2027-01-01"), json!(3))
    );

    // Keyed: private, a minute, an ETag of the date and the request, and 304 on it.
    let added = app
        .get_keyed("/api/v1/working-days/add?date=today&days=1", &key)
        .await;
    assert_eq!(added.status(), 200);
    assert_eq!(header(&added, "cache-control"), Some("private, max-age=60"));
    let etag = header(&added, "etag").unwrap().to_string();
    assert!(etag.contains("-2027-01-01-"), "{etag}");
    assert_eq!(
        added.json_body().await,
        json!({"date": "2027-01-01", "days": 1, "week": 5, "result": "2027-01-04"})
    );
    let again = app
        .client
        .get(format!(
            "{}/api/v1/working-days/add?date=today&days=1",
            app.base
        ))
        .header("X-API-Key", &key)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(header(&again, "cache-control"), Some("private, max-age=60"));
    // A keyed answer without `today` stays private, without an ETag.
    let dated = app
        .get_keyed("/api/v1/working-days/add?date=2027-01-01&days=1", &key)
        .await;
    assert_eq!(header(&dated, "cache-control"), Some("private"));
    assert_eq!(header(&dated, "etag"), None);

    // Every date parameter of every endpoint.
    for (path, field) in [
        ("/api/v1/day?date=today", "date"),
        ("/api/v1/holidays?date=today", "date"),
        ("/api/v1/name-days?date=today", "date"),
        ("/api/v1/working-days?from=2026-12-01&to=today", "to"),
        (
            "/api/v1/working-days?from=today&to=2027-12-31&week=6",
            "from",
        ),
    ] {
        let resp = app.get_keyed(path, &key).await;
        assert_eq!(
            header(&resp, "cache-control"),
            Some("private, max-age=60"),
            "{path}"
        );
        let body = resp.json_body().await;
        assert_eq!(body[field], "2027-01-01", "{path}");
    }
    let holidays = app
        .json_keyed("/api/v1/holidays?date=today&lang=en", &key)
        .await;
    assert_eq!(holidays["holidays"][0]["name_en"], "New Year's Day");
    app.stop().await;
}

#[tokio::test]
async fn today_follows_vilnius_summer_and_winter_time() {
    // 21:30 UTC on 31 December is 23:30 in Vilnius: still the 31st.
    let (app, key) = real_app_at(Some("2026-12-31T21:30:00Z")).await;
    let body = app
        .json_keyed("/api/v1/working-days/add?date=today&days=0", &key)
        .await;
    assert_eq!(body["date"], "2026-12-31");
    app.stop().await;
    // 21:30 UTC on 15 July is 00:30 on 16 July in Vilnius (UTC+3, summer time).
    let (app, _) = real_app_at(Some("2026-07-15T21:30:00Z")).await;
    let body = app.json("/api/v1/laisvadienis?date=today").await;
    assert_eq!(body["date"], "2026-07-16");
    app.stop().await;
}

#[tokio::test]
async fn today_outside_the_served_dates_is_invalid_date() {
    // The fixture dataset ends in 2024; a clock in 2030 has no `today` in it.
    let app = spawn_app_with(AppOptions {
        today_at: Some(utc("2030-06-01T12:00:00Z")),
        ..AppOptions::default()
    })
    .await;
    let resp = app.get("/api/v1/laisvadienis?date=today").await;
    let message = assert_error(resp, 400, "invalid_date").await;
    assert!(message.contains("2030-06-01"), "{message}");
    // `today` is a word, matched exactly.
    let resp = app.get("/api/v1/laisvadienis?date=Today").await;
    assert_error(resp, 400, "invalid_date").await;
    app.stop().await;
}

#[tokio::test]
async fn every_error_of_the_working_time_endpoints() {
    let (app, key) = real_app().await;
    let cases: &[(&str, &str, &str)] = &[
        // (path and query, code, a word the message must contain)
        ("/api/v1/working-time", "missing_param", "year"),
        ("/api/v1/working-time?week=5", "missing_param", "year"),
        ("/api/v1/working-time?year=", "missing_param", "year"),
        ("/api/v1/working-time?year=1582", "invalid_year", "year"),
        ("/api/v1/working-time?year=2101", "invalid_year", "year"),
        ("/api/v1/working-time?year=2004", "invalid_year", "2005"),
        ("/api/v1/working-time?year=twenty", "invalid_year", "year"),
        ("/api/v1/working-time?year=02025", "invalid_year", "year"),
        (
            "/api/v1/working-time?year=2025&week=7",
            "invalid_param",
            "week",
        ),
        (
            "/api/v1/working-time?year=2025&week=05",
            "invalid_param",
            "week",
        ),
        (
            "/api/v1/working-time?year=2025&year=2025",
            "invalid_param",
            "year",
        ),
        (
            "/api/v1/working-days?to=2025-01-01",
            "missing_param",
            "from",
        ),
        (
            "/api/v1/working-days?from=2025-01-01",
            "missing_param",
            "to",
        ),
        (
            "/api/v1/working-days?from=2025-02-29&to=2025-03-01",
            "invalid_date",
            "from",
        ),
        (
            "/api/v1/working-days?from=2025-01-01&to=2101-01-01",
            "invalid_date",
            "to",
        ),
        (
            "/api/v1/working-days?from=2025-01-01&to=2025-01-31&week=0",
            "invalid_param",
            "week",
        ),
        (
            "/api/v1/working-days?from=2025-02-01&to=2025-01-31",
            "invalid_range",
            "from",
        ),
        ("/api/v1/working-days/add?days=1", "missing_param", "date"),
        (
            "/api/v1/working-days/add?date=2025-01-01",
            "missing_param",
            "days",
        ),
        (
            "/api/v1/working-days/add?date=2025-13-01&days=1",
            "invalid_date",
            "date",
        ),
        (
            "/api/v1/working-days/add?date=2025-01-01&days=1.5",
            "invalid_param",
            "days",
        ),
        (
            "/api/v1/working-days/add?date=2025-01-01&days=ten",
            "invalid_param",
            "days",
        ),
        (
            "/api/v1/working-days/add?date=2025-01-01&days=100001",
            "invalid_param",
            "100000",
        ),
        (
            "/api/v1/working-days/add?date=2025-01-01&days=-100001",
            "invalid_param",
            "100000",
        ),
        (
            "/api/v1/working-days/add?date=2025-01-01&days=1&week=6&week=6",
            "invalid_param",
            "week",
        ),
        (
            "/api/v1/working-days/add?date=2025-01-01&days=1&week=five",
            "invalid_param",
            "week",
        ),
        (
            "/api/v1/working-days/add?date=2100-12-31&days=1",
            "out_of_range",
            "outside",
        ),
    ];
    for &(path, code, word) in cases {
        let resp = app.get_keyed(path, &key).await;
        let message = assert_error(resp, 400, code).await;
        assert!(message.contains(word), "{path}: {message}");
    }
    for path in [
        "/api/v1/working-time?year=2025",
        "/api/v1/working-days?from=2025-01-01&to=2025-01-31",
        "/api/v1/working-days/add?date=2025-01-01&days=1",
    ] {
        assert_error(app.get(path).await, 401, "missing_key").await;
    }
    app.stop().await;
}

/// Hours as the answers write them (`working_hours`), as a number to compare with a figure.
fn hours_of(value: &Value) -> f64 {
    value.as_f64().unwrap()
}

#[tokio::test]
async fn the_year_2026_for_every_contract() {
    // 2026, 5-day week: 251 working days, 6 of them eve days (Mar 10, Apr 30, Jun 23,
    // Aug 14, Dec 23, Dec 31). A reduced norm is never shortened (Labour Code art. 112
    // part 6), so its year is 251 days of hours_per_week / 5; the 40-hour and part-time
    // weeks lose an hour on each eve day.
    let (app, key) = real_app().await;
    let year = |query: &str| {
        let url = format!("/api/v1/working-time?year=2026&{query}");
        let (app, key) = (&app, &key);
        async move { app.json_keyed(&url, key).await }
    };
    let teacher = year("hours_per_week=36&norm=reduced").await;
    assert_eq!(teacher["hours_per_week"], 36);
    assert_eq!(teacher["norm"], "reduced");
    assert_eq!(
        teacher["schedule_minutes"],
        json!([432, 432, 432, 432, 432])
    );
    assert_eq!(teacher["eve_rule"]["shortened"], false);
    assert_eq!(teacher["total"]["working_days"], 251);
    assert_eq!(teacher["total"]["shortened_days"], 0);
    assert_eq!(hours_of(&teacher["total"]["working_hours"]), 1807.2);
    assert_eq!(teacher["total"]["working_minutes"], 251 * 432);
    let months: Vec<f64> = teacher["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| hours_of(&m["working_hours"]))
        .collect();
    assert_eq!(
        months,
        [151.2, 136.8, 151.2, 151.2, 144.0, 151.2, 158.4, 151.2, 158.4, 158.4, 144.0, 151.2]
    );
    for m in teacher["months"].as_array().unwrap() {
        assert_eq!(m["shortened_days"], json!([]), "{m}");
        // Minutes and hours say the same.
        let minutes = m["working_minutes"].as_u64().unwrap();
        assert_eq!(hours_of(&m["working_hours"]), minutes as f64 / 60.0, "{m}");
    }
    assert_eq!(
        teacher["average_month"],
        json!({"working_days": 20.9, "working_hours": 150.6, "working_minutes": 9036})
    );
    for (query, hours) in [
        ("hours_per_week=32&norm=reduced", 1606.4),
        ("hours_per_week=37&norm=reduced", 1857.4),
        ("hours_per_week=37&norm=REDUCED", 1857.4),
        // 7.65 h = 459 min a day: 251 * 459 - 6 * 60 = 114 849 min.
        ("hours_per_week=38.25&norm=part_time", 1914.15),
        ("hours_per_week=20&norm=part_time", 998.0),
        ("", 2002.0),
        ("hours_per_week=40", 2002.0),
        ("hours_per_week=40&norm=full", 2002.0),
        ("norm=full", 2002.0),
    ] {
        let body = year(query).await;
        assert_eq!(hours_of(&body["total"]["working_hours"]), hours, "{query}");
        assert_eq!(body["total"]["working_days"], 251, "{query}");
    }
    // The part-timer's eve days are shortened: 4 h days, 3 h before a holiday.
    let part = year("hours_per_week=20&norm=part_time").await;
    assert_eq!(part["eve_rule"]["shortened"], true);
    assert_eq!(part["total"]["shortened_days"], 6);
    assert_eq!(
        part["months"][11]["shortened_days"],
        json!(["2026-12-23", "2026-12-31"])
    );
    assert_eq!(part["months"][11]["working_minutes"], 21 * 240 - 2 * 60);
    // The 40-hour week by any spelling is today's answer, byte for byte.
    let plain = app.get_keyed("/api/v1/working-time?year=2026", &key).await;
    let plain = plain.text().await.unwrap();
    for query in [
        "hours_per_week=40",
        "norm=full&hours_per_week=40",
        "schedule=8:00,8:00,8:00,8:00,8:00",
    ] {
        let spelled = app
            .get_keyed(&format!("/api/v1/working-time?year=2026&{query}"), &key)
            .await;
        assert_eq!(spelled.text().await.unwrap(), plain, "{query}");
    }
    let forty: Value = serde_json::from_str(&plain).unwrap();
    assert_eq!(forty["norm"], "full");
    assert_eq!(forty["hours_per_week"], 40);
    assert_eq!(forty["eve_rule"]["shortened"], true);
    assert_eq!(
        forty["total"]["working_hours"], 2002,
        "an integer, as always"
    );
    assert_eq!(forty["total"]["working_minutes"], 2002 * 60);
    assert_eq!(
        forty["average_month"],
        json!({"working_days": 20.9, "working_hours": 166.8, "working_minutes": 10010})
    );
    // The eve rule's provision: the Labour Code's art. 112, as the data cites it.
    let basis = forty["eve_rule"]["basis"].as_array().unwrap();
    assert!(!basis.is_empty());
    for b in basis {
        assert_eq!(
            (&b["act"], &b["article"]),
            (&json!("XII-2603"), &json!("112")),
            "{b}"
        );
    }
    assert_eq!(teacher["eve_rule"]["basis"], forty["eve_rule"]["basis"]);
    app.stop().await;
}

#[tokio::test]
async fn six_day_weeks_and_schedules() {
    let (app, key) = real_app().await;
    // 36 h in the 6-day week: 378 min Monday-Friday, 270 on Saturday; never shortened.
    let six = app
        .json_keyed(
            "/api/v1/working-time?year=2026&week=6&hours_per_week=36&norm=reduced",
            &key,
        )
        .await;
    assert_eq!(six["week"], 6);
    assert_eq!(
        six["schedule_minutes"],
        json!([378, 378, 378, 378, 378, 270])
    );
    // Against the 40-hour 6-day week of the same year: the same days, 90 % of the hours
    // plus the eve hours the reduced norm keeps.
    let forty = app
        .json_keyed("/api/v1/working-time?year=2026&week=6", &key)
        .await;
    assert_eq!(six["total"]["working_days"], forty["total"]["working_days"]);
    let forty_minutes = forty["total"]["working_minutes"].as_u64().unwrap();
    let eves = forty["total"]["shortened_days"].as_u64().unwrap();
    assert_eq!(
        six["total"]["working_minutes"].as_u64().unwrap() * 10,
        (forty_minutes + 60 * eves) * 9
    );

    // The public sector's 8:15 x 4 + 7:00: 40 hours, full; December 2026 has 21 working
    // days, 3 of them Fridays (Dec 4, 11, 18; Dec 25 is red), and two eve days (Wed Dec 23
    // and Thu Dec 31), both 8:15 days.
    let public = app
        .json_keyed(
            "/api/v1/working-days?from=2026-12-01&to=2026-12-31&schedule=8:15,8:15,8:15,8:15,7:00",
            &key,
        )
        .await;
    assert_eq!(public["norm"], "full");
    assert_eq!(public["hours_per_week"], 40);
    assert_eq!(public["schedule_minutes"], json!([495, 495, 495, 495, 420]));
    assert_eq!(public["working_days"], 21);
    assert_eq!(public["shortened_days"], 2);
    assert_eq!(public["working_minutes"], 18 * 495 + 3 * 420 - 2 * 60);
    assert_eq!(hours_of(&public["working_hours"]), 167.5);
    // A four-day part-time week: Wednesdays are not worked.
    let four = app
        .json_keyed(
            "/api/v1/working-days?from=2026-12-01&to=2026-12-31&schedule=6:00,6:00,0:00,6:00,6:00&norm=part_time",
            &key,
        )
        .await;
    assert_eq!(four["hours_per_week"], 24);
    // 21 working days less the 5 Wednesdays (Dec 2, 9, 16, 23, 30): Wed Dec 23, an eve
    // day, is not worked, so only Dec 31 is shortened.
    assert_eq!(four["working_days"], 16);
    assert_eq!(four["shortened_days"], 1);
    assert_eq!(four["working_minutes"], 16 * 360 - 60);
    // Six entries are the 6-day week.
    let saturdays = app
        .json_keyed(
            "/api/v1/working-days?from=2026-12-01&to=2026-12-31&schedule=7:00,7:00,7:00,7:00,7:00,5:00",
            &key,
        )
        .await;
    let six_forty = app
        .json_keyed(
            "/api/v1/working-days?from=2026-12-01&to=2026-12-31&week=6",
            &key,
        )
        .await;
    assert_eq!(saturdays, six_forty, "the 40-hour 6-day week itself");
    app.stop().await;
}

#[tokio::test]
async fn contract_ranges_agree_with_the_published_days() {
    // Any range, any contract: the sum over the days of the published year files, each
    // day's minutes by the rule (weekday length, an hour less on an eve day unless reduced).
    use chrono::Datelike;
    let (app, key) = real_app().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let weekday = |date: &str| {
        chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d")
            .unwrap()
            .weekday()
            .num_days_from_monday() as usize
    };
    for _ in 0..6 {
        let year = rng.gen_range(2005..=2100);
        let days = published_days(year);
        for _ in 0..8 {
            let a = rng.gen_range(0..days.len());
            let b = rng.gen_range(a..days.len());
            let range = &days[a..=b];
            let (from, to) = (&range[0].0, &range[range.len() - 1].0);
            let centihours = rng.gen_range(1..4000u64);
            let reduced = rng.gen_bool(0.5);
            let six = rng.gen_bool(0.5);
            let norm = if reduced { "reduced" } else { "part_time" };
            // One spelling per number: no trailing zero after the point.
            let (whole, part) = (centihours / 100, centihours % 100);
            let hours = match (part / 10, part % 10) {
                (0, 0) => format!("{whole}"),
                (tenths, 0) => format!("{whole}.{tenths}"),
                _ => format!("{whole}.{part:02}"),
            };
            let body = app
                .json_keyed(
                    &format!(
                        "/api/v1/working-days?from={from}&to={to}&hours_per_week={hours}&norm={norm}&week={}",
                        if six { 6 } else { 5 }
                    ),
                    &key,
                )
                .await;
            let schedule: Vec<u64> = body["schedule_minutes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_u64().unwrap())
                .collect();
            // The day's length: hours / 5, or 7/40 and 5/40 of the hours, half up.
            let scaled = |at_forty: u64| (2 * at_forty * 60 * centihours + 4000) / 8000;
            let expected_schedule: Vec<u64> = if six {
                vec![
                    scaled(7),
                    scaled(7),
                    scaled(7),
                    scaled(7),
                    scaled(7),
                    scaled(5),
                ]
            } else {
                vec![scaled(8); 5]
            };
            assert_eq!(schedule, expected_schedule, "{hours}");
            let (mut working, mut shortened, mut minutes) = (0u64, 0u64, 0u64);
            for (date, h5, h6, short6) in range {
                let day_hours = if six { *h6 } else { *h5 };
                if day_hours == 0 {
                    continue;
                }
                // A declared working weekend day of the 5-day week: the average day, here
                // the equal days' length.
                let length = *schedule.get(weekday(date)).unwrap_or(&schedule[0]);
                if length == 0 {
                    continue;
                }
                working += 1;
                // The data's eve day: an hour short of the weekday's 40-hour length.
                let full = if six {
                    if weekday(date) == 5 {
                        5
                    } else {
                        7
                    }
                } else {
                    8
                };
                let eve = if six { *short6 } else { day_hours < full };
                if eve && !reduced {
                    shortened += 1;
                    minutes += length.saturating_sub(60);
                } else {
                    minutes += length;
                }
            }
            let what = format!("{from}..{to} {hours} {norm} six={six}");
            assert_eq!(body["working_days"], working, "{what}");
            assert_eq!(body["shortened_days"], shortened, "{what}");
            assert_eq!(body["working_minutes"], minutes, "{what}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn every_refusal_of_a_contract() {
    let (app, key) = real_app().await;
    let cases: &[(&str, &str, &[&str])] = &[
        // (query after year=2026 or a range, code, words the message must contain)
        (
            "hours_per_week=36",
            "missing_param",
            &["norm", "reduced", "part_time", "eve"],
        ),
        (
            "hours_per_week=36&norm=full",
            "invalid_param",
            &["norm", "full", "40"],
        ),
        (
            "hours_per_week=40&norm=reduced",
            "invalid_param",
            &["reduced", "40"],
        ),
        ("norm=part_time", "invalid_param", &["part_time", "40"]),
        (
            "hours_per_week=0",
            "invalid_param",
            &["hours_per_week", "above 0"],
        ),
        ("hours_per_week=0.00", "invalid_param", &["hours_per_week"]),
        (
            "hours_per_week=36.0&norm=reduced",
            "invalid_param",
            &["not 36.0"],
        ),
        (
            "hours_per_week=36.50&norm=reduced",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=40.01&norm=part_time",
            "invalid_param",
            &["hours_per_week", "40"],
        ),
        (
            "hours_per_week=41&norm=part_time",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=36.125&norm=reduced",
            "invalid_param",
            &["2 decimals"],
        ),
        (
            "hours_per_week=-36&norm=reduced",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=%2B36&norm=reduced",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=3.6e1&norm=reduced",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=36.&norm=reduced",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=.5&norm=reduced",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=036&norm=reduced",
            "invalid_param",
            &["hours_per_week"],
        ),
        (
            "hours_per_week=36&norm=short",
            "invalid_param",
            &["norm", "full or reduced or part_time"],
        ),
        (
            "hours_per_week=36&hours_per_week=36&norm=reduced",
            "invalid_param",
            &["more than once"],
        ),
        (
            "schedule=8:00,8:00,8:00,8:00",
            "invalid_param",
            &["schedule", "5"],
        ),
        (
            "schedule=8:00,8:00,8:00,8:00,8:00,8:00,8:00",
            "invalid_param",
            &["schedule"],
        ),
        (
            "schedule=8:60,8:00,8:00,8:00,8:00",
            "invalid_param",
            &["schedule"],
        ),
        ("schedule=8,8,8,8,8", "invalid_param", &["schedule", "H:MM"]),
        (
            "schedule=24:01,1:00,1:00,1:00,1:00",
            "invalid_param",
            &["24:00"],
        ),
        (
            "schedule=10:00,10:00,10:00,10:00,0:01",
            "invalid_param",
            &["schedule", "40"],
        ),
        (
            "schedule=0:00,0:00,0:00,0:00,0:00&norm=part_time",
            "invalid_param",
            &["schedule"],
        ),
        (
            "schedule=6:00,6:00,6:00,6:00,6:00",
            "missing_param",
            &["norm", "30 hours", "reduced", "part_time"],
        ),
        (
            "schedule=8:00,8:00,8:00,8:00,8:00&norm=reduced",
            "invalid_param",
            &["reduced", "40"],
        ),
        (
            "schedule=8:00,8:00,8:00,8:00,8:00&hours_per_week=40",
            "conflicting_params",
            &["hours_per_week", "schedule"],
        ),
        (
            "schedule=7:00,7:00,7:00,7:00,7:00,5:00&week=5",
            "conflicting_params",
            &["schedule", "week"],
        ),
        (
            "schedule=8:00,8:00,8:00,8:00,8:00&week=6",
            "conflicting_params",
            &["6"],
        ),
        (
            "hours_per_week=36&norm=reduced&week=7",
            "invalid_param",
            &["week"],
        ),
    ];
    for &(query, code, words) in cases {
        for path in [
            format!("/api/v1/working-time?year=2026&{query}"),
            format!("/api/v1/working-days?from=2026-01-01&to=2026-01-31&{query}"),
        ] {
            let resp = app.get_keyed(&path, &key).await;
            let message = assert_error(resp, 400, code).await;
            for word in words {
                assert!(message.contains(word), "{path}: {message}");
            }
        }
    }
    // The year and the dates are checked first.
    let resp = app
        .get_keyed("/api/v1/working-time?year=1500&hours_per_week=36", &key)
        .await;
    assert_error(resp, 400, "invalid_year").await;
    let resp = app
        .get_keyed(
            "/api/v1/working-days?from=2026-02-30&to=2026-03-01&hours_per_week=x",
            &key,
        )
        .await;
    assert_error(resp, 400, "invalid_date").await;
    app.stop().await;
}
