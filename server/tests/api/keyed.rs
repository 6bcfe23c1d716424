//! `/holidays`, `/name-days`, `/day`: fields, types, languages, ordering, echoes.

use serde_json::{json, Value};

use crate::helpers::*;

#[tokio::test]
async fn day_has_exactly_the_spec_fields() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let body = app
        .json_keyed("/api/v1/day?date=2022-05-01&lang=EN", &key)
        .await;
    assert_eq!(body["date"], "2022-05-01");
    assert_eq!(body["lang"], "en", "lang is echoed lower-case");
    assert_eq!(body["day_of_week"], 0, "Sunday is 0");
    assert_eq!(body["is_weekend"], true);
    assert_eq!(body["week_number"], 17);
    let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
    assert_eq!(
        keys.len(),
        9,
        "date, lang, day_of_week, is_weekend, week_number, status, holidays, name_days, \
         school_holidays: {keys:?}"
    );
    assert_eq!(body["school_holidays"], json!([]), "not in a break");
    let holidays = body["holidays"].as_array().unwrap();
    assert_eq!(holidays.len(), 2);
    // Holiday order: red first, then type public before traditional.
    assert_eq!(
        holidays[0],
        json!({"date": "2022-05-01", "name": "International Labour Day",
               "name_lt": "Tarptautinė darbo diena", "name_en": "International Labour Day",
               "type": "public", "is_red": true, "confidence": "confirmed",
               "basis": [{"text": "Labour Code (XII-2603) art. 123(1)(5)", "act": "XII-2603",
                          "number": "XII-2603", "article": "123", "part": 1, "item": 5,
                          "url": "https://e-seimas.lrs.lt/portal/legalAct/lt/TAD/10c6bfd07bd511e6a0f68fd135e6f40c/asr",
                          "confidence": "confirmed"}]})
    );
    // The status names both red holidays' provisions.
    assert_eq!(body["status"]["laisvadienis"], true);
    assert_eq!(body["status"]["reason"], "public_holiday");
    assert_eq!(body["status"]["shorter_workday"], false);
    let texts: Vec<&str> = body["status"]["basis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "Labour Code (XII-2603) art. 123(1)(5)",
            "Labour Code (XII-2603) art. 123(1)(6)"
        ]
    );
    assert_eq!(holidays[1]["name_lt"], "Motinos diena");
    assert_eq!(holidays[1]["type"], "traditional");
    assert_eq!(holidays[1]["is_red"], true, "is_red is independent of type");
    assert_eq!(
        body["name_days"],
        json!([{"name": "Jokūbas", "gender": "m"}, {"name": "Pilypas", "gender": "m"}])
    );
}

#[tokio::test]
async fn day_of_a_monday_in_week_one() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let body = app.json_keyed("/api/v1/day?date=2024-01-01", &key).await;
    assert_eq!(body["day_of_week"], 1);
    assert_eq!(body["is_weekend"], false);
    assert_eq!(body["week_number"], 1);
    assert_eq!(body["lang"], "lt", "lt is the default");
    assert_eq!(body["holidays"][0]["name"], "Naujųjų metų diena");
}

#[tokio::test]
async fn holidays_by_date_echo_the_date_and_carry_four_names() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let resp = app
        .get_keyed("/api/v1/holidays?date=2011-12-24&lang=pl", &key)
        .await;
    let raw = resp.text().await.unwrap();
    let body: Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(body["date"], "2011-12-24");
    assert!(body.get("year").is_none());
    assert_eq!(body["count"], 1);
    let h = &body["holidays"][0];
    assert_eq!(h.as_object().unwrap().len(), 10);
    // Fields in the order of the table in docs/api.md.
    let record = &raw[raw.find("\"holidays\":[").unwrap()..];
    let positions: Vec<usize> = [
        "date",
        "name",
        "name_lt",
        "name_en",
        "name_pl",
        "name_ru",
        "type",
        "is_red",
        "confidence",
        "basis",
    ]
    .iter()
    .map(|f| record.find(&format!("\"{f}\":")).unwrap())
    .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{record}");
    assert_eq!(h["name"], h["name_pl"]);
    assert_eq!(h["is_red"], true, "Christmas Eve is red from 2011");
    assert_eq!(
        h["basis"][0]["text"], "art. 4 Ustawy o dniach świątecznych (I-712)",
        "the citation in lang"
    );
    let before = app
        .json_keyed("/api/v1/holidays?date=2009-12-24", &key)
        .await;
    assert_eq!(before["holidays"][0]["name_lt"], "Kūčių diena");
    assert_eq!(
        before["holidays"][0]["is_red"], false,
        "not red before 2011"
    );
    assert_eq!(before["holidays"][0]["confidence"], Value::Null);
    assert_eq!(before["holidays"][0]["basis"], json!([]));
    // A date without holidays.
    let none = app
        .json_keyed("/api/v1/holidays?date=2024-01-02", &key)
        .await;
    assert_eq!(
        none,
        json!({"date": "2024-01-02", "count": 0, "holidays": []})
    );
}

#[tokio::test]
async fn holidays_by_year_echo_an_integer_and_are_in_d6_order() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let body = app
        .json_keyed("/api/v1/holidays?year=2022&lang=ru", &key)
        .await;
    assert_eq!(body["year"], json!(2022), "year is echoed as an integer");
    assert!(body.get("date").is_none());
    let holidays = body["holidays"].as_array().unwrap();
    assert_eq!(body["count"].as_u64().unwrap() as usize, holidays.len());
    assert!(holidays.len() >= 10);
    let type_rank = |t: &Value| {
        ["public", "traditional", "religious", "school", "other"]
            .iter()
            .position(|x| x == t)
            .expect("a known type")
    };
    for pair in holidays.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let key_a = (
            a["date"].as_str().unwrap(),
            !a["is_red"].as_bool().unwrap(),
            type_rank(&a["type"]),
            a["name_lt"].as_str().unwrap(),
        );
        let key_b = (
            b["date"].as_str().unwrap(),
            !b["is_red"].as_bool().unwrap(),
            type_rank(&b["type"]),
            b["name_lt"].as_str().unwrap(),
        );
        assert!(key_a <= key_b, "holiday order: {a} before {b}");
        assert!(a["date"].as_str().unwrap().starts_with("2022-"));
    }
    for h in holidays {
        assert_eq!(h["name"], h["name_ru"]);
    }
}

#[tokio::test]
async fn name_days_echo_lang_and_keep_lithuanian_names() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let body = app
        .json_keyed("/api/v1/name-days?date=2024-12-24&lang=Ru", &key)
        .await;
    assert_eq!(
        body,
        json!({"date": "2024-12-24", "lang": "ru", "count": 2,
               "name_days": [{"name": "Adomas", "gender": "m"}, {"name": "Ieva", "gender": "f"}]})
    );
}

#[tokio::test]
async fn february_29_names_are_also_celebrated_on_february_28_of_common_years() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let names = |v: Value| -> Vec<String> {
        v["name_days"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["name"].as_str().unwrap().to_string())
            .collect()
    };
    let leap = names(
        app.json_keyed("/api/v1/name-days?date=2024-02-29", &key)
            .await,
    );
    assert_eq!(leap, ["Gustis", "Tolvaldas"]);
    let common = names(
        app.json_keyed("/api/v1/name-days?date=2023-02-28", &key)
            .await,
    );
    for name in ["Romanas", "Gustis", "Tolvaldas"] {
        assert!(common.iter().any(|n| n == name), "{name} in {common:?}");
    }
    let leap_28 = names(
        app.json_keyed("/api/v1/name-days?date=2024-02-28", &key)
            .await,
    );
    assert_eq!(leap_28, ["Romanas"]);
}

#[tokio::test]
async fn keyed_responses_are_private() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    for path in [
        "/api/v1/day?date=2024-01-01",
        "/api/v1/holidays?year=2024",
        "/api/v1/name-days?date=2024-01-01",
    ] {
        let resp = app.get_keyed(path, &key).await;
        assert_eq!(resp.status(), 200);
        assert_eq!(header(&resp, "cache-control"), Some("private"), "{path}");
        assert_eq!(header(&resp, "etag"), None, "{path}");
    }
}

#[tokio::test]
async fn the_day_status_names_the_provisions_that_decide_it() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let basis = |body: &Value| -> Vec<(String, String)> {
        body["status"]["basis"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["text"].as_str().unwrap().to_string(),
                    b["confidence"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    // A shortened working day: the eve rule of its date, in lang.
    let eve = app
        .json_keyed("/api/v1/day?date=2024-12-23&lang=lt", &key)
        .await;
    assert_eq!(eve["status"]["shorter_workday"], true);
    assert_eq!(eve["status"]["laisvadienis"], false);
    assert_eq!(
        basis(&eve),
        [(
            "Darbo kodekso (XII-2603) 112 str. 5 d.".into(),
            "confirmed".into()
        )]
    );
    // Before 2017 the fixture's eve rule is uncertain, and says so.
    let old = app
        .json_keyed("/api/v1/day?date=2009-12-24&lang=en", &key)
        .await;
    assert_eq!(
        basis(&old),
        [("Law on Holidays (I-712)".into(), "uncertain".into())]
    );
    // A declared day off: its resolution, cited by name (it has no number).
    let off = app
        .json_keyed("/api/v1/day?date=2010-12-24&lang=ru", &key)
        .await;
    assert_eq!(off["status"]["reason"], "public_holiday");
    assert_eq!(
        basis(&off),
        [(
            "Постановление правительства от декабря 2010 г.".into(),
            "confirmed".into()
        )]
    );
    assert_eq!(off["status"]["basis"][0]["number"], Value::Null);
    assert_eq!(off["status"]["basis"][0]["article"], Value::Null);
    assert_eq!(
        off["status"]["basis"][0]["url"],
        Value::Null,
        "no register page"
    );
    // A declared working Saturday rests on its resolution too.
    let saturday = app.json_keyed("/api/v1/day?date=2011-02-19", &key).await;
    assert_eq!(saturday["status"]["laisvadienis"], false);
    assert_eq!(saturday["status"]["basis"][0]["act"], "gov-transfer-2010");
    // An ordinary working day and a weekend day need no provision here.
    for date in ["2024-01-02", "2024-01-06"] {
        let body = app
            .json_keyed(&format!("/api/v1/day?date={date}"), &key)
            .await;
        assert_eq!(body["status"]["basis"], json!([]), "{date}");
    }
    let sunday = app.json_keyed("/api/v1/day?date=2024-01-07", &key).await;
    assert_eq!(sunday["status"]["reason"], "sunday");
}
