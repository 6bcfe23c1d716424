//! The server loads the generator's sled database, not the year files: it answers every
//! endpoint (the calendar feeds included) from a dataset whose year files are gone, and
//! refuses a database whose values no longer match the manifest.

use std::fs;
use std::path::{Path, PathBuf};

use kalendorius_dataset::layout::{year_key, DATABASE_DIR, TREE_YEARS, YEARS_DIR};
use kalendorius_server::data::DataHandle;
use serde_json::Value;

use crate::helpers::*;

/// A copy of the shared dataset's directory (the one `current` names) inside `into`.
fn copy_of_dataset(into: &Path) -> PathBuf {
    let source = fs::canonicalize(dataset().join("current")).unwrap();
    let copy = into.join(source.file_name().unwrap());
    kalendorius_dataset::database::copy_dir(&source, &copy).unwrap();
    copy
}

/// The days of a year as the published file has them, by date.
fn published_days(year: i32) -> Vec<Value> {
    let dir = fs::canonicalize(dataset().join("current")).unwrap();
    let file: Value =
        serde_json::from_slice(&fs::read(dir.join(format!("years/{year}.json"))).unwrap()).unwrap();
    file["days"].as_array().unwrap().clone()
}

#[tokio::test]
async fn without_year_files_every_endpoint_answers_from_the_database() {
    let tmp = tempfile::tempdir().unwrap();
    let copy = copy_of_dataset(tmp.path());
    fs::remove_dir_all(copy.join(YEARS_DIR)).unwrap();
    let app = spawn_app_with(AppOptions {
        data: Some(copy),
        ..AppOptions::default()
    })
    .await;
    let days_2022 = published_days(2022);
    let published = |date: &str| {
        days_2022
            .iter()
            .find(|d| d["date"] == date)
            .unwrap()
            .clone()
    };

    // /days of a whole year: every entry is the published day's status.
    let body = app.json("/api/v1/days?from=2022-01-01&to=2022-12-31").await;
    assert_eq!(body["count"], 365);
    let entries = body["days"].as_array().unwrap();
    assert_eq!(entries.len(), days_2022.len());
    for (entry, day) in entries.iter().zip(&days_2022) {
        for field in ["date", "laisvadienis", "holiday_name", "shorter_workday"] {
            assert_eq!(entry[field], day[field], "{field} of {}", day["date"]);
        }
    }

    let may_day = published("2022-05-01");
    let status = app.json("/api/v1/laisvadienis?date=2022-05-01").await;
    for field in ["laisvadienis", "reason", "holiday_name", "shorter_workday"] {
        assert_eq!(status[field], may_day[field], "{field}");
    }
    assert_eq!(status["laisvadienis"], true);

    let (key, _) = app.key(None, None);
    let names_lt = |holidays: &Value| -> Vec<Value> {
        holidays
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["name_lt"].clone())
            .collect()
    };
    let holidays = app
        .json_keyed("/api/v1/holidays?date=2022-05-01", &key)
        .await;
    assert_eq!(
        names_lt(&holidays["holidays"]),
        names_lt(&may_day["holidays"])
    );
    let year = app.json_keyed("/api/v1/holidays?year=2022", &key).await;
    let in_year: usize = days_2022
        .iter()
        .map(|d| d["holidays"].as_array().unwrap().len())
        .sum();
    assert_eq!(year["count"], in_year);

    let names = app
        .json_keyed("/api/v1/name-days?date=2022-05-01", &key)
        .await;
    assert_eq!(names["name_days"], may_day["name_days"]);

    let day = app.json_keyed("/api/v1/day?date=2022-05-01", &key).await;
    assert_eq!(day["day_of_week"], may_day["day_of_week"]);
    assert_eq!(day["week_number"], may_day["iso_week"]);
    assert_eq!(names_lt(&day["holidays"]), names_lt(&may_day["holidays"]));
    assert_eq!(day["name_days"], may_day["name_days"]);

    // The feeds are built from the catalog too: the same bytes as from the whole dataset.
    let whole = spawn_app().await;
    for feed in [
        "holidays.ics?from_year=2009&to_year=2024",
        "holidays.ics?scope=all&shortened=true&lang=en&from_year=2009&to_year=2024",
        "holidays.ics?lang=ru&from_year=2010&to_year=2012",
        "name-days.ics",
        "name-days.ics?lang=pl",
    ] {
        let path = format!("/api/v1/feeds/{feed}");
        let resp = app.get(&path).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert_eq!(
            header(&resp, "content-type"),
            Some("text/calendar; charset=utf-8")
        );
        let tag = header(&resp, "etag").map(str::to_string);
        let body = resp.bytes().await.unwrap();
        let expected = whole.get(&path).await;
        assert_eq!(expected.status(), 200, "{path}");
        assert_eq!(header(&expected, "etag").map(str::to_string), tag, "{path}");
        let expected = expected.bytes().await.unwrap();
        assert!(
            expected.windows(12).any(|w| w == b"BEGIN:VEVENT"),
            "{path} has events"
        );
        assert_eq!(body, expected, "{path}");
    }
    whole.stop().await;

    // Only /data needs the files: a year file that is gone is a clear 404, the rest is served.
    let message = assert_error(app.get("/data/years/2022.json").await, 404, "not_found").await;
    assert!(
        message.contains("2022") && message.contains("missing"),
        "{message}"
    );
    assert_eq!(app.get("/data/manifest.json").await.status(), 200);
    app.stop().await;
}

/// Changes one byte of `year`'s value in the database of the dataset directory `dir`.
pub fn tamper_with_year(dir: &Path, year: i32) {
    let db = sled::open(dir.join(DATABASE_DIR)).unwrap();
    let tree = db.open_tree(TREE_YEARS).unwrap();
    let mut value = tree.get(year_key(year)).unwrap().unwrap().to_vec();
    let last = value.len() - 1;
    value[last] ^= 1;
    tree.insert(year_key(year), value).unwrap();
    db.flush().unwrap();
}

#[test]
fn a_tampered_database_is_refused_naming_the_year_and_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let copy = copy_of_dataset(tmp.path());
    tamper_with_year(&copy, 2015);
    let err = DataHandle::open(&copy)
        .err()
        .expect("a tampered database is refused")
        .to_string();
    assert!(
        err.contains(&copy.join(DATABASE_DIR).display().to_string())
            && err.contains("year 2015")
            && err.contains("SHA-256")
            && err.contains("kalendorius-generator build"),
        "{err}"
    );
}
