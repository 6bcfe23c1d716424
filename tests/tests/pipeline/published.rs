//! The published dataset of a full build of the real data, fetched over HTTP: every file
//! is byte-equal to the build's and validates against the JSON Schemas the server publishes.

use super::start;

/// A JSON Schema validator (draft 2020-12, formats checked) for the schema at `path`.
async fn validator(client: &reqwest::Client, base: &str, path: &str) -> jsonschema::Validator {
    let resp = client.get(format!("{base}{path}")).send().await.unwrap();
    assert_eq!(resp.status(), 200, "GET {path}");
    let schema: serde_json::Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "{path} is a draft 2020-12 schema"
    );
    jsonschema::meta::validate(&schema)
        .unwrap_or_else(|e| panic!("{path} is not a valid schema: {e}"));
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{path} does not compile: {e}"))
}

/// `bytes` as JSON, valid under `validator`.
fn assert_valid(validator: &jsonschema::Validator, what: &str, bytes: &[u8]) {
    let value: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what} fails its schema: {errors:?}");
}

#[tokio::test]
async fn every_published_file_is_served_as_built_and_validates_against_its_schema() {
    let pipeline = start().await;
    let client = &pipeline.client;
    let base = pipeline.base.as_str();
    let manifest_schema = validator(client, base, "/data/schema/manifest.schema.json").await;
    let year_schema = validator(client, base, "/data/schema/year.schema.json").await;
    let school_schema = validator(client, base, "/data/schema/school_holidays.schema.json").await;
    let places_schema = validator(client, base, "/data/schema/places.schema.json").await;
    let changes_schema = validator(client, base, "/data/schema/changes.schema.json").await;
    let dir = pipeline._dirs.path().join("output").join("current");

    let manifest = client
        .get(format!("{base}/data/manifest.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(manifest.status(), 200);
    let manifest = manifest.bytes().await.unwrap();
    assert_eq!(
        &manifest[..],
        &std::fs::read(dir.join("manifest.json")).unwrap()[..]
    );
    assert_valid(&manifest_schema, "manifest.json", &manifest);
    let manifest: kalendorius_dataset::Manifest = serde_json::from_slice(&manifest).unwrap();

    let mut years = 0;
    for entry in &manifest.files {
        let resp = client
            .get(format!("{base}/data/{}", entry.path))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200, "{}", entry.path);
        assert_eq!(
            resp.headers()["etag"].to_str().unwrap(),
            format!("\"{}\"", entry.sha256)
        );
        let bytes = resp.bytes().await.unwrap();
        assert_eq!(
            &bytes[..],
            &std::fs::read(dir.join(&entry.path)).unwrap()[..]
        );
        if entry.path == "school_holidays.json" {
            assert_valid(&school_schema, &entry.path, &bytes);
            continue;
        }
        if entry.path == "places.json" {
            assert_valid(&places_schema, &entry.path, &bytes);
            continue;
        }
        assert_valid(&year_schema, &entry.path, &bytes);
        years += 1;
    }
    assert_eq!(
        years,
        2100 - 1583 + 1,
        "every year file is listed and served"
    );

    // What the build changes (a first build: nothing compared), as built, tagged with the
    // SHA-256 of the manifest's `changes` entry, and valid against its schema.
    let resp = client
        .get(format!("{base}/data/changes.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()["etag"].to_str().unwrap(),
        format!("\"{}\"", manifest.changes.sha256)
    );
    let bytes = resp.bytes().await.unwrap();
    assert_eq!(
        &bytes[..],
        &std::fs::read(dir.join("changes.json")).unwrap()[..]
    );
    assert_valid(&changes_schema, "changes.json", &bytes);
    let changes: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(changes["baseline"], "none");
    assert_eq!(changes["new"]["dataset_version"], manifest.dataset_version);

    // The feeds over the real data: at most 30 years in one feed.
    let feed = |query: &str| {
        client
            .get(format!("{base}/api/v1/feeds/holidays.ics?{query}"))
            .send()
    };
    let longest = feed("scope=all&from_year=1990&to_year=2019").await.unwrap();
    assert_eq!(longest.status(), 200);
    assert!(longest
        .text()
        .await
        .unwrap()
        .starts_with("BEGIN:VCALENDAR\r\n"));
    let too_long = feed("from_year=1990&to_year=2020").await.unwrap();
    assert_eq!(too_long.status(), 400);
    let body: serde_json::Value = serde_json::from_slice(&too_long.bytes().await.unwrap()).unwrap();
    assert_eq!(body["error"], "invalid_year");
    pipeline.stop().await;
}
