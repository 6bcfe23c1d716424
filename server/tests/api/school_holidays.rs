//! The pupils' holidays (E13) over the dataset of the repository's `sources/`: the API
//! (`/school-holidays`, `/day`), the published year files and the pages.

use scraper::{ElementRef, Html, Selector};
use serde_json::{json, Value};

use crate::helpers::*;

/// `(kind, start, end)` of each period of an answer.
fn periods(answer: &Value) -> Vec<(String, String, String)> {
    answer["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let s = |k: &str| p[k].as_str().unwrap().to_string();
            (s("kind"), s("start"), s("end"))
        })
        .collect()
}

fn p(kind: &str, start: &str, end: &str) -> (String, String, String) {
    (kind.into(), start.into(), end.into())
}

#[tokio::test]
async fn a_date_inside_and_outside_a_break_for_two_grades() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    // Inside the spring break of grades 1-10, before that of 11-12 (2025-2026).
    let a = app
        .json_keyed(
            "/api/v1/school-holidays?date=2026-03-31&grade=5&lang=en",
            &key,
        )
        .await;
    assert_eq!(
        a,
        json!({"date": "2026-03-31", "count": 1, "covered": true, "periods": [
            {"kind": "spring", "name": "Spring (Easter) break", "start": "2026-03-30",
             "end": "2026-04-06", "grades": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
             "confidence": "confirmed"}]})
    );
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2026-03-31&grade=11", &key)
        .await;
    assert_eq!(a["count"], 0);
    assert_eq!(a["covered"], true);
    // 2026-04-08: the other way round.
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2026-04-08&grade=11", &key)
        .await;
    assert_eq!(periods(&a), [p("spring", "2026-04-06", "2026-04-12")]);
    assert_eq!(a["periods"][0]["grades"], json!([11, 12]));
    assert_eq!(a["periods"][0]["name"], "Pavasario (Velykų) atostogos");
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2026-04-08&grade=10", &key)
        .await;
    assert_eq!(a["count"], 0);
    // 2026-04-06 is in both; without a grade, both periods.
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2026-04-06", &key)
        .await;
    assert_eq!(
        periods(&a),
        [
            p("spring", "2026-03-30", "2026-04-06"),
            p("spring", "2026-04-06", "2026-04-12")
        ]
    );
    // A school day.
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2026-03-10", &key)
        .await;
    assert_eq!(
        a,
        json!({"date": "2026-03-10", "count": 0, "covered": true, "periods": []})
    );
    // Pre-school is not in the data: never covered.
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2026-03-31&grade=0", &key)
        .await;
    assert_eq!(
        (a["count"].clone(), a["covered"].clone()),
        (json!(0), json!(false))
    );
}

#[tokio::test]
async fn a_year_has_the_breaks_that_cross_its_boundaries() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let a = app
        .json_keyed("/api/v1/school-holidays?year=2025&grade=7", &key)
        .await;
    assert_eq!(a["year"], 2025);
    assert_eq!(a["covered"], true);
    let got = periods(&a);
    assert_eq!(
        got.first(),
        Some(&p("christmas", "2024-12-27", "2025-01-05"))
    );
    assert_eq!(
        got.last(),
        Some(&p("christmas", "2025-12-24", "2026-01-04"))
    );
    assert_eq!(a["count"], got.len());
    // The same Christmas break in 2026, whose autumn lies in 2026-2027, in the data since
    // its plan (V-559) is published: covered, though its Christmas start is disputed and its
    // summers derived (E19), each period saying how sure it is.
    let a = app
        .json_keyed("/api/v1/school-holidays?year=2026&grade=7", &key)
        .await;
    assert_eq!(a["covered"], true);
    assert_eq!(periods(&a)[0], p("christmas", "2025-12-24", "2026-01-04"));
    let sure: Vec<(String, Value)> = a["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                format!("{} {}", p["kind"], p["start"]),
                p["confidence"].clone(),
            )
        })
        .collect();
    assert!(sure.contains(&(r#""autumn" "2026-11-02""#.into(), json!("confirmed"))));
    assert!(sure.contains(&(r#""christmas" "2026-12-23""#.into(), json!("uncertain"))));
    assert!(sure.contains(&(r#""summer" "2026-06-16""#.into(), json!("uncertain"))));
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2027-06-20&grade=3", &key)
        .await;
    assert_eq!(periods(&a), [p("summer", "2027-06-08", "2027-08-31")]);
    assert_eq!(a["periods"][0]["confidence"], "derived");
    // After the last school year in the data: unknown.
    let a = app
        .json_keyed("/api/v1/school-holidays?year=2027", &key)
        .await;
    assert_eq!(a["covered"], false);
    let a = app
        .json_keyed("/api/v1/school-holidays?date=2026-01-02", &key)
        .await;
    assert_eq!(periods(&a), [p("christmas", "2025-12-24", "2026-01-04")]);
    // Before the data: unknown, not "no holidays".
    let a = app
        .json_keyed("/api/v1/school-holidays?year=2018", &key)
        .await;
    assert_eq!(
        a,
        json!({"year": 2018, "count": 0, "covered": false, "periods": []})
    );
    // 2019: its autumn is in 2019-2020, its spring is not.
    let a = app
        .json_keyed("/api/v1/school-holidays?year=2019", &key)
        .await;
    assert_eq!(a["covered"], false);
    assert!(a["count"].as_u64().unwrap() > 0);
    let a = app
        .json_keyed("/api/v1/school-holidays?year=2020", &key)
        .await;
    assert_eq!(a["covered"], true);
}

#[tokio::test]
async fn day_lists_the_periods_of_every_grade() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let day = app
        .json_keyed("/api/v1/day?date=2026-04-06&lang=en", &key)
        .await;
    let kinds: Vec<(&str, Value)> = day["school_holidays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["grades"].clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "Spring (Easter) break",
                json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
            ),
            ("Spring (Easter) break", json!([11, 12])),
        ]
    );
    let day = app.json_keyed("/api/v1/day?date=2026-03-10", &key).await;
    assert_eq!(day["school_holidays"], json!([]));
}

#[tokio::test]
async fn mistakes_have_their_codes() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    for (query, status, code) in [
        ("", 400, "missing_param"),
        ("?year=2026&date=2026-01-01", 400, "conflicting_params"),
        ("?year=26", 400, "invalid_year"),
        ("?year=2200", 400, "invalid_year"),
        ("?date=2026-02-30", 400, "invalid_date"),
        ("?date=2026-01-01&grade=13", 400, "invalid_param"),
        ("?date=2026-01-01&grade=-1", 400, "invalid_param"),
        ("?date=2026-01-01&grade=x", 400, "invalid_param"),
        ("?date=2026-01-01&lang=de", 400, "invalid_lang"),
        ("?date=2026-01-01&grade=13&lang=de", 400, "invalid_param"),
    ] {
        let resp = app
            .get_keyed(&format!("/api/v1/school-holidays{query}"), &key)
            .await;
        assert_error(resp, status, code).await;
    }
    let resp = app.get("/api/v1/school-holidays?year=2026").await;
    assert_error(resp, 401, "missing_key").await;
}

#[tokio::test]
async fn the_year_files_carry_their_periods_and_validate() {
    let app = spawn_real_app().await;
    let resp = app.get("/data/schema/year.schema.json").await;
    let schema: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let year: Value = app.json("/data/years/2026.json").await;
    assert!(validator.is_valid(&year));
    let first = &year["school_holidays"][0];
    assert_eq!(first["school_year"], "2025-2026");
    assert_eq!(first["kind"], "christmas");
    assert_eq!(first["start"], "2025-12-24");
    let old: Value = app.json("/data/years/2010.json").await;
    assert_eq!(old["school_holidays"], json!([]));
    assert!(validator.is_valid(&old));
    // school_holidays.json: served as listed in the manifest, valid under its schema.
    let resp = app.get("/data/schema/school_holidays.schema.json").await;
    let schema: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let manifest: Value = app.json("/data/manifest.json").await;
    let entry = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "school_holidays.json")
        .unwrap();
    let resp = app.get("/data/school_holidays.json").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        header(&resp, "etag").map(str::to_string),
        Some(format!("\"{}\"", entry["sha256"].as_str().unwrap()))
    );
    let file: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert!(validator.is_valid(&file));
    assert_eq!(file["school_years"][0]["id"], "2019-2020");
    // 2019-2020 .. 2026-2027.
    assert_eq!(file["school_years"].as_array().unwrap().len(), 8);
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

async fn page(app: &TestApp, path: &str) -> Html {
    let resp = app.get(path).await;
    assert_eq!(resp.status(), 200, "{path}");
    let doc = Html::parse_document(&resp.text().await.unwrap());
    assert!(doc.errors.is_empty(), "{path}: {:?}", doc.errors);
    doc
}

/// Day numbers of the month grid's cells marked as pupils' holidays, each with the mark.
fn school_days(doc: &Html) -> Vec<u32> {
    doc.select(&sel("table.month td.school"))
        .map(|td| {
            let marks: String = td.select(&sel(".marks")).flat_map(|m| m.text()).collect();
            assert!(marks.contains('○'), "{marks}");
            let time = td.select(&sel("time")).next().unwrap();
            time.value().attr("datetime").unwrap()[8..].parse().unwrap()
        })
        .collect()
}

#[tokio::test]
async fn pages_mark_the_breaks_of_the_chosen_grade() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2026/04?grade=5").await;
    assert_eq!(school_days(&doc), [1, 2, 3, 4, 5, 6]);
    let doc = page(&app, "/2026/04?lang=en&grade=11").await;
    assert_eq!(school_days(&doc), (6..=12).collect::<Vec<_>>());
    // The mark is in the legend, with the grade; the grade is kept by the links.
    let legend: String = doc.select(&sel(".legend")).flat_map(|e| e.text()).collect();
    assert!(legend.contains("○ School holidays (grade 11)"), "{legend}");
    let day = doc
        .select(&sel("table.month td time[datetime=\"2026-04-08\"]"))
        .next()
        .unwrap();
    let link = day
        .ancestors()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "a")
        .unwrap();
    assert_eq!(
        link.value().attr("href"),
        Some("/2026/04/08?lang=en&grade=11")
    );
    let next = doc.select(&sel("a[rel=next]")).next().unwrap();
    assert_eq!(next.value().attr("href"), Some("/2026/05?lang=en&grade=11"));
    let langs: Vec<&str> = doc
        .select(&sel("nav.langs a"))
        .map(|a| a.value().attr("href").unwrap())
        .collect();
    assert_eq!(langs[0], "/2026/04?grade=11");
    let chosen = doc
        .select(&sel("form.grade select[name=grade] option[selected]"))
        .next()
        .unwrap();
    assert_eq!(chosen.value().attr("value"), Some("11"));
    // Without a grade: the days of any grade's break.
    let doc = page(&app, "/2026/04").await;
    assert_eq!(school_days(&doc), (1..=12).collect::<Vec<_>>());
    let doc = page(&app, "/2025/12").await;
    assert_eq!(school_days(&doc), (24..=31).collect::<Vec<_>>());

    // The day page names the period and its days, or says there is none or no data.
    let doc = page(&app, "/2026/04/08?grade=11").await;
    let school: String = doc
        .select(&sel("section.school"))
        .flat_map(|e| e.text())
        .collect();
    assert!(school.contains("Pavasario (Velykų) atostogos"), "{school}");
    assert!(school.contains("11–12 kl."), "{school}");
    let times: Vec<&str> = doc
        .select(&sel("section.school li time"))
        .map(|t| t.value().attr("datetime").unwrap())
        .collect();
    assert_eq!(times, ["2026-04-06", "2026-04-12"]);
    let doc = page(&app, "/2026/04/08?grade=5&lang=en").await;
    let school: String = doc
        .select(&sel("section.school"))
        .flat_map(|e| e.text())
        .collect();
    assert!(
        school.contains("No school holidays on this day."),
        "{school}"
    );
    let doc = page(&app, "/2018/04/08?lang=en").await;
    let school: String = doc
        .select(&sel("section.school"))
        .flat_map(|e| e.text())
        .collect();
    assert!(school.contains("not in the data"), "{school}");
}
