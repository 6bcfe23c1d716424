//! `GET /api/v1/name-days/search` over the dataset of the real sources: the order of exact,
//! prefix and contains matches, the cap of 50, diacritics, the errors, and the key.

use kalendorius_dataset::names::fold;
use serde_json::Value;

use crate::helpers::*;

const SEARCH: &str = "/api/v1/name-days/search";

fn names(body: &Value) -> Vec<&str> {
    body["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect()
}

/// The group a name falls in for a folded query: 0 exact, 1 prefix, 2 contains.
fn group(name: &str, query: &str) -> u8 {
    let folded = fold(name);
    if folded == query {
        0
    } else if folded.starts_with(query) {
        1
    } else {
        assert!(folded.contains(query), "{name} does not match {query}");
        2
    }
}

#[tokio::test]
async fn exact_then_prefix_then_contains_each_in_folded_order() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let body = app.json_keyed(&format!("{SEARCH}?name=jonas"), &key).await;
    assert_eq!(body["query"], "jonas");
    let found = names(&body);
    assert_eq!(body["count"], found.len());
    assert_eq!(found[0], "Jonas");
    assert!(found.contains(&"Fabijonas"), "{found:?}");
    let jonas = &body["matches"][0];
    assert_eq!(jonas["gender"], "m");
    assert!(jonas["dates"]
        .as_array()
        .unwrap()
        .contains(&Value::from("06-24")));

    // `ada` has all three groups among the real names.
    let body = app.json_keyed(&format!("{SEARCH}?name=Ada"), &key).await;
    let found = names(&body);
    let groups: Vec<(u8, String)> = found.iter().map(|n| (group(n, "ada"), fold(n))).collect();
    let mut sorted = groups.clone();
    sorted.sort();
    assert_eq!(groups, sorted, "groups in order, folded order within each");
    let kinds: std::collections::BTreeSet<u8> = groups.iter().map(|(g, _)| *g).collect();
    assert_eq!(
        kinds.len(),
        3,
        "exact, prefix and contains all occur: {found:?}"
    );
}

#[tokio::test]
async fn at_most_fifty_matches_and_dates_in_calendar_order() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    let body = app.json_keyed(&format!("{SEARCH}?name=a"), &key).await;
    assert_eq!(body["count"], 50);
    assert_eq!(body["matches"].as_array().unwrap().len(), 50);
    for m in body["matches"].as_array().unwrap() {
        let dates: Vec<&str> = m["dates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap())
            .collect();
        assert!(!dates.is_empty());
        let mut sorted = dates.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(dates, sorted, "{}", m["name"]);
        for d in dates {
            let (mm, dd) = d.split_once('-').unwrap();
            assert!(mm.len() == 2 && dd.len() == 2, "{d}");
        }
    }
}

#[tokio::test]
async fn diacritics_and_case_are_ignored() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    for query in [
        "zygimante",
        "ZYGIMANTE",
        "%C5%BDygimant%C4%97",
        "zygimante%CC%87",
    ] {
        let body = app
            .json_keyed(&format!("{SEARCH}?name={query}"), &key)
            .await;
        let found = names(&body);
        if query.ends_with("%CC%87") {
            // A stray combining dot is dropped like any other mark.
            assert_eq!(found.first(), Some(&"Žygimantė"), "{query}");
            continue;
        }
        assert_eq!(found.first(), Some(&"Žygimantė"), "{query}");
        assert_eq!(body["matches"][0]["gender"], "f");
        assert_eq!(body["matches"][0]["dates"][0], "02-28");
    }
    let body = app.json_keyed(&format!("{SEARCH}?name=xqzw"), &key).await;
    assert_eq!(body["count"], 0);
    assert_eq!(body["matches"], Value::Array(vec![]));
}

#[tokio::test]
async fn errors_are_the_json_errors_of_the_api() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    for (query, code) in [
        ("", "missing_param"),
        ("?name=", "missing_param"),
        ("?name=%20%20", "missing_param"),
        ("?name=jonas&name=ona", "invalid_param"),
    ] {
        let resp = app.get_keyed(&format!("{SEARCH}{query}"), &key).await;
        assert_eq!(resp.status(), 400, "{query}");
        let body: Value = resp.json_body().await;
        assert_eq!(body["error"], code, "{query}");
        assert!(body["message"].as_str().unwrap().contains("'name'"));
    }
    let long = "ž".repeat(65);
    let resp = app.get_keyed(&format!("{SEARCH}?name={long}"), &key).await;
    assert_eq!(resp.status(), 400);
    let body: Value = resp.json_body().await;
    assert_eq!(body["error"], "invalid_param");
    let exactly = "ž".repeat(64);
    let resp = app
        .get_keyed(&format!("{SEARCH}?name={exactly}"), &key)
        .await;
    assert_eq!(resp.status(), 200, "64 characters are accepted");

    let resp = app.get(&format!("{SEARCH}?name=jonas")).await;
    assert_eq!(resp.status(), 401);
    let body: Value = resp.json_body().await;
    assert_eq!(body["error"], "missing_key");
    let resp = app.get_keyed(&format!("{SEARCH}?name=jonas"), &key).await;
    assert_eq!(resp.headers()["cache-control"], "private");
}
