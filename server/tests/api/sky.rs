//! The sun and moon (E18) over the dataset of the repository's `sources/`: `/sun` and
//! `/moon` against PyEphem's figures (`tests/fixtures/astronomy/`, the command that wrote
//! them beside them), `/day`'s `moon` and `clock_change`, the moon's feed read by the
//! iCalendar parser, and the pages read by the HTML parser.

use chrono::{DateTime, FixedOffset, Utc};
use scraper::Html;
use serde_json::{json, Value};

use crate::feeds::{feed, prop, unescape};
use crate::helpers::*;
use crate::pages::{page, sel, text};

/// The rows of a fixture CSV, header skipped.
fn fixture(name: &str) -> Vec<Vec<String>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/astronomy")
        .join(name);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn instant(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn seconds_apart(a: DateTime<FixedOffset>, b: DateTime<FixedOffset>) -> i64 {
    (a.with_timezone(&Utc) - b.with_timezone(&Utc))
        .num_seconds()
        .abs()
}

#[tokio::test]
async fn sun_times_are_within_a_minute_of_pyephem_at_every_place_and_date() {
    let app = spawn_real_app().await;
    // One request per place and date: more than a default key's minute allows.
    let (key, _) = app.key(Some(10_000), Some(10_000));
    let rows: Vec<_> = fixture("sun.csv")
        .into_iter()
        .filter(|r| r[1].as_str() >= "2005")
        .collect();
    assert!(rows.len() > 700);
    let mut checked = 0;
    for group in rows.chunk_by(|a, b| a[0] == b[0] && a[1] == b[1]) {
        let (place, date) = (&group[0][0], &group[0][1]);
        let a = app
            .json_keyed(&format!("/api/v1/sun?date={date}&place={place}"), &key)
            .await;
        assert_eq!(a["place"]["slug"], place.as_str());
        assert_eq!(
            (a["from"].as_str(), a["count"].as_i64()),
            (Some(date.as_str()), Some(1))
        );
        let day = &a["days"][0];
        assert_eq!(day["date"], date.as_str());
        for row in group {
            let ours = instant(day[row[2].as_str()].as_str().unwrap());
            let reference = instant(&row[3]);
            assert_eq!(ours.format("%S").to_string(), "00", "to the minute");
            assert!(
                seconds_apart(ours, reference) <= 60,
                "{place} {date} {}: {ours} against PyEphem's {reference}",
                row[2]
            );
            checked += 1;
        }
        let minutes =
            instant(day["sunset"].as_str().unwrap()) - instant(day["sunrise"].as_str().unwrap());
        assert_eq!(day["day_length_minutes"], minutes.num_minutes());
    }
    assert!(checked > 700, "{checked}");
}

#[tokio::test]
async fn the_issue_example_and_the_clock_change_days() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    // The issue: Vilnius on 2026-04-08 rises at about 06:34 and sets at about 20:09.
    let a = app.json_keyed("/api/v1/sun?date=2026-04-08", &key).await;
    assert_eq!(a["place"]["slug"], "vilnius");
    assert_eq!(a["days"][0]["sunrise"], "2026-04-08T06:34:00+03:00");
    assert_eq!(a["days"][0]["sunset"], "2026-04-08T20:09:00+03:00");
    // Around the spring change the offset moves from +02:00 to +03:00 with the date.
    let a = app
        .json_keyed(
            "/api/v1/sun?from=2026-03-28&to=2026-03-30&place=zarasai",
            &key,
        )
        .await;
    assert_eq!(a["count"], 3);
    let offsets: Vec<&str> = a["days"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["sunrise"].as_str().unwrap()[16..])
        .collect();
    assert_eq!(offsets, [":00+02:00", ":00+03:00", ":00+03:00"]);
    // A whole year: 365 days in order, each within a minute of PyEphem's every fifth day.
    let a = app
        .json_keyed("/api/v1/sun?from=2026-01-01&to=2026-12-31", &key)
        .await;
    assert_eq!(a["count"], 365);
    let days = a["days"].as_array().unwrap();
    for row in fixture("sun.csv")
        .iter()
        .filter(|r| r[0] == "vilnius" && r[1].starts_with("2026"))
    {
        let day = days.iter().find(|d| d["date"] == row[1].as_str()).unwrap();
        let ours = instant(day[row[2].as_str()].as_str().unwrap());
        assert!(
            seconds_apart(ours, instant(&row[3])) <= 60,
            "{row:?}: {ours}"
        );
    }
}

#[tokio::test]
async fn sun_refuses_bad_requests_clearly() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let resp = app
        .get_keyed("/api/v1/sun?date=2026-01-01&place=riga", &key)
        .await;
    let message = assert_error(resp, 400, "invalid_param").await;
    assert!(
        message.contains("'riga'")
            && message.contains("zarasai")
            && message.contains("vilniaus-rajonas"),
        "{message}"
    );
    let resp = app
        .get_keyed(
            "/api/v1/sun?date=2026-01-01&from=2026-01-01&to=2026-01-02",
            &key,
        )
        .await;
    assert_error(resp, 400, "conflicting_params").await;
    let resp = app.get_keyed("/api/v1/sun", &key).await;
    assert_error(resp, 400, "missing_param").await;
    let resp = app
        .get_keyed("/api/v1/sun?from=2026-01-01&to=2027-01-02", &key)
        .await;
    assert_error(resp, 400, "range_too_large").await;
    let resp = app
        .get_keyed("/api/v1/sun?from=2026-01-02&to=2026-01-01", &key)
        .await;
    assert_error(resp, 400, "invalid_range").await;
    let resp = app.get("/api/v1/sun?date=2026-01-01").await;
    assert_eq!(resp.status(), 401);
}

#[tokio::test]
async fn moon_phases_are_within_two_minutes_of_pyephem() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    for year in [2026, 2027, 2100] {
        let a = app
            .json_keyed(&format!("/api/v1/moon?year={year}&lang=en"), &key)
            .await;
        let phases = a["phases"].as_array().unwrap();
        assert_eq!(a["count"], phases.len());
        // Every phase whose UTC instant is in the year (the fixture's years are UTC ones):
        // the answer's are those whose Vilnius date is, the same but at the year's edges.
        let expected: Vec<_> = fixture("moon.csv")
            .into_iter()
            .filter(|r| r[1].starts_with(&year.to_string()))
            .collect();
        assert!((phases.len() as i64 - expected.len() as i64).abs() <= 1);
        for row in &expected {
            let reference = instant(&row[1]);
            let Some(ours) = phases
                .iter()
                .find(|p| seconds_apart(instant(p["utc"].as_str().unwrap()), reference) <= 120)
            else {
                // Only a phase in the last hours of 31 December UTC may fall in the next
                // year in Vilnius.
                assert!(
                    row[1].starts_with(&format!("{year}-12-31T2")),
                    "{row:?} missing"
                );
                continue;
            };
            assert_eq!(ours["phase"], row[0].as_str());
            assert_eq!(
                instant(ours["utc"].as_str().unwrap()),
                instant(ours["local"].as_str().unwrap())
            );
        }
    }
    let a = app.json_keyed("/api/v1/moon?year=2026", &key).await;
    let names: Vec<&str> = a["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let principal = ["Jaunatis", "Priešpilnis", "Pilnatis", "Delčia"];
    assert!(names.iter().all(|n| principal.contains(n)), "{names:?}");
    let resp = app.get_keyed("/api/v1/moon?year=2026&lang=xx", &key).await;
    assert_error(resp, 400, "invalid_lang").await;
    let resp = app.get_keyed("/api/v1/moon", &key).await;
    assert_error(resp, 400, "missing_param").await;
}

/// The Vilnius date and answer of the first full moon of 2026 from `/moon`.
async fn first_full_moon(app: &TestApp, key: &str) -> (String, Value) {
    let a = app.json_keyed("/api/v1/moon?year=2026", key).await;
    let full = a["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["phase"] == "full_moon")
        .unwrap()
        .clone();
    (full["local"].as_str().unwrap()[..10].to_string(), full)
}

#[tokio::test]
async fn day_gains_the_moon_and_the_clock_change() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let a = app
        .json_keyed("/api/v1/day?date=2026-03-29&lang=en", &key)
        .await;
    assert_eq!(
        a["clock_change"],
        json!({"utc": "2026-03-29T01:00:00Z", "before": "2026-03-29T03:00:00+02:00",
               "after": "2026-03-29T04:00:00+03:00", "minutes": 60})
    );
    let a = app.json_keyed("/api/v1/day?date=2026-10-25", &key).await;
    assert_eq!(a["clock_change"]["minutes"], -60);
    assert_eq!(a["clock_change"]["after"], "2026-10-25T03:00:00+02:00");
    let a = app.json_keyed("/api/v1/day?date=2026-03-28", &key).await;
    assert_eq!(a["clock_change"], Value::Null);
    // The day of a full moon, and the illuminated fraction against PyEphem's.
    let (date, _) = first_full_moon(&app, &key).await;
    let a = app
        .json_keyed(&format!("/api/v1/day?date={date}&lang=en"), &key)
        .await;
    assert_eq!(a["moon"]["phase"], "full_moon");
    assert_eq!(a["moon"]["name"], "Full moon");
    for row in fixture("illuminated.csv").iter().step_by(10) {
        let a = app
            .json_keyed(&format!("/api/v1/day?date={}", row[0]), &key)
            .await;
        let lit = a["moon"]["illuminated"].as_f64().unwrap();
        let reference: f64 = row[1].parse().unwrap();
        assert!((lit - reference).abs() <= 0.006, "{row:?}: {lit}");
        let waxing = [
            "waxing_crescent",
            "first_quarter",
            "waxing_gibbous",
            "new_moon",
        ];
        let waning = [
            "waning_crescent",
            "last_quarter",
            "waning_gibbous",
            "full_moon",
        ];
        let phase = a["moon"]["phase"].as_str().unwrap();
        assert!(
            waxing.contains(&phase) || waning.contains(&phase),
            "{phase}"
        );
    }
}

#[tokio::test]
async fn the_moon_feed_lists_the_phases_of_moon() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let feed = feed(&app, "/api/v1/feeds/moon.ics?lang=en").await;
    assert!(
        feed.calendar.events.len() > 49 * 6,
        "{}",
        feed.calendar.events.len()
    );
    let a = app.json_keyed("/api/v1/moon?year=2026&lang=en", &key).await;
    for phase in a["phases"].as_array().unwrap() {
        let local = phase["local"].as_str().unwrap();
        let start = local[..10].replace('-', "");
        let event = feed
            .calendar
            .events
            .iter()
            .find(|e| prop(e, "DTSTART") == Some(&start) && prop(e, "CATEGORIES") == Some("MOON"))
            .unwrap_or_else(|| panic!("no event on {start}"));
        let summary = unescape(prop(event, "SUMMARY").unwrap());
        let name = phase["name"].as_str().unwrap();
        assert!(
            summary.contains(name) && summary.ends_with(&local[11..16]),
            "{summary}"
        );
        assert_eq!(
            prop(event, "UID").unwrap(),
            format!(
                "moon-{}-{start}@kalendorius",
                phase["phase"].as_str().unwrap()
            )
        );
    }
    assert!(feed.raw.contains("X-WR-CALNAME:Moon phases in Lithuania"));
    let resp = app.get("/api/v1/feeds/moon.ics?lang=xx").await;
    assert_error(resp, 400, "invalid_lang").await;
}

fn sky_row(doc: &Html, label: &str) -> String {
    doc.select(&sel("section.sky dl div"))
        .find(|d| d.select(&sel("dt")).next().map(text).as_deref() == Some(label))
        .map(|d| text(d.select(&sel("dd")).next().unwrap()))
        .unwrap_or_else(|| panic!("no row {label}"))
}

#[tokio::test]
async fn the_day_page_shows_the_sun_and_moon_of_a_chosen_place() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    // Vilnius by default.
    let doc = page(&app, "/2026/03/29", 200).await;
    let heading = text(doc.select(&sel("section.sky h2")).next().unwrap());
    assert_eq!(heading, "Saulė ir mėnulis: Vilnius");
    let api = app.json_keyed("/api/v1/sun?date=2026-03-29", &key).await;
    let sunrise = &api["days"][0]["sunrise"].as_str().unwrap()[11..16];
    assert_eq!(sky_row(&doc, "Saulėtekis"), sunrise);
    assert!(sky_row(&doc, "◷").contains("03:00 → 04:00"));
    // The selector: a GET form of the 60 places, no script.
    let form = doc.select(&sel("section.sky form.place")).next().unwrap();
    assert_eq!(form.value().attr("method"), Some("get"));
    assert_eq!(form.select(&sel("select[name=place] option")).count(), 60);
    assert!(doc.select(&sel("script")).next().is_none());
    // Klaipėda in English: its own times, the choice kept in the links.
    let doc = page(&app, "/2026/03/29?lang=en&place=klaipeda", 200).await;
    let heading = text(doc.select(&sel("section.sky h2")).next().unwrap());
    assert_eq!(heading, "Sun and moon: Klaipėda");
    let api = app
        .json_keyed("/api/v1/sun?date=2026-03-29&place=klaipeda", &key)
        .await;
    assert_eq!(
        sky_row(&doc, "Sunset"),
        &api["days"][0]["sunset"].as_str().unwrap()[11..16]
    );
    let selected = doc
        .select(&sel("select[name=place] option[selected]"))
        .next()
        .unwrap();
    assert_eq!(selected.value().attr("value"), Some("klaipeda"));
    let next = doc.select(&sel("a[rel=next]")).next().unwrap();
    assert_eq!(
        next.value().attr("href"),
        Some("/2026/03/30?lang=en&place=klaipeda")
    );
    // An unknown place: Vilnius, and a sentence that says so.
    let doc = page(&app, "/2026/03/29?place=riga", 200).await;
    let notice = text(doc.select(&sel("section.sky .notice")).next().unwrap());
    assert!(
        notice.contains("riga") && notice.contains("Vilnius"),
        "{notice}"
    );
}

#[tokio::test]
async fn the_month_page_marks_the_phases_and_the_clock_change_in_words() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let doc = page(&app, "/2026/03?lang=en", 200).await;
    let cell_sky = |date: &str| -> Vec<String> {
        doc.select(&sel(&format!("li:has(> a time[datetime=\"{date}\"]) .sky")))
            .map(text)
            .collect()
    };
    assert_eq!(
        cell_sky("2026-03-29"),
        ["Clocks go forward an hour: 03:00 → 04:00"]
    );
    let marks = |date: &str| -> String {
        doc.select(&sel(&format!(
            "li:has(> a time[datetime=\"{date}\"]) .marks"
        )))
        .map(text)
        .collect()
    };
    assert_eq!(marks("2026-03-29"), "◷");
    let a = app.json_keyed("/api/v1/moon?year=2026&lang=en", &key).await;
    for phase in a["phases"].as_array().unwrap() {
        let local = phase["local"].as_str().unwrap();
        if !local.starts_with("2026-03") {
            continue;
        }
        let name = phase["name"].as_str().unwrap();
        let marks = cell_sky(&local[..10]);
        assert!(
            marks
                .iter()
                .any(|m| m.contains(name) && m.ends_with(&local[11..16])),
            "{local}: {marks:?}"
        );
    }
}
