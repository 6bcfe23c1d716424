//! The published dataset (`/data`): the files of the dataset in service byte for byte,
//! tagged with the manifest's checksums, and their JSON Schemas.

use kalendorius_dataset::Manifest;

use crate::helpers::*;

/// The directory of the dataset in service.
fn dataset_dir() -> std::path::PathBuf {
    dataset().join("current")
}

fn manifest() -> Manifest {
    serde_json::from_slice(&std::fs::read(dataset_dir().join("manifest.json")).unwrap()).unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

#[tokio::test]
async fn files_are_the_bytes_on_disk_tagged_with_their_checksums() {
    let app = spawn_app().await;
    let manifest_bytes = std::fs::read(dataset_dir().join("manifest.json")).unwrap();
    let resp = app.get("/data/manifest.json").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        header(&resp, "content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(
        header(&resp, "cache-control"),
        Some("public, max-age=86400")
    );
    assert_eq!(
        header(&resp, "etag"),
        Some(format!("\"{}\"", sha256_hex(&manifest_bytes)).as_str())
    );
    assert_eq!(header_u64(&resp, "ratelimit-limit"), 60);
    assert_eq!(&resp.bytes().await.unwrap()[..], &manifest_bytes[..]);

    let manifest = manifest();
    for year in [YEARS.start(), &2020, YEARS.end()] {
        let path = format!("years/{year}.json");
        let entry = manifest.files.iter().find(|f| f.path == path).unwrap();
        let resp = app.get(&format!("/data/{path}")).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert_eq!(
            header(&resp, "etag"),
            Some(format!("\"{}\"", entry.sha256).as_str())
        );
        assert_eq!(
            header(&resp, "cache-control"),
            Some("public, max-age=86400")
        );
        let body = resp.bytes().await.unwrap();
        assert_eq!(
            &body[..],
            &std::fs::read(dataset_dir().join(&path)).unwrap()[..]
        );
        assert_eq!(sha256_hex(&body), entry.sha256);
    }
}

#[tokio::test]
async fn a_matching_tag_is_a_304_and_head_is_get_without_body() {
    let app = spawn_app().await;
    let get = app.get("/data/years/2020.json").await;
    let tag = header(&get, "etag").unwrap().to_string();
    let length = get.bytes().await.unwrap().len();
    let resp = app
        .send(
            reqwest::Method::GET,
            "/data/years/2020.json",
            &[("If-None-Match", &tag)],
        )
        .await;
    assert_eq!(resp.status(), 304);
    assert_eq!(header(&resp, "etag"), Some(tag.as_str()));
    assert!(resp.bytes().await.unwrap().is_empty());
    let head = app
        .send(reqwest::Method::HEAD, "/data/years/2020.json", &[])
        .await;
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "etag"), Some(tag.as_str()));
    assert_eq!(header_u64(&head, "content-length"), length as u64);
}

#[tokio::test]
async fn years_outside_the_dataset_and_other_paths_are_json_404s() {
    let app = spawn_app().await;
    let before = YEARS.start() - 1;
    let message = assert_error(
        app.get(&format!("/data/years/{before}.json")).await,
        404,
        "not_found",
    )
    .await;
    assert!(message.contains(&before.to_string()), "{message}");
    let after = YEARS.end() + 1;
    assert_error(
        app.get(&format!("/data/years/{after}.json")).await,
        404,
        "not_found",
    )
    .await;
    assert_error(app.get("/data/years/20x0.json").await, 404, "not_found").await;
    assert_error(app.get("/data/kalendorius.sled").await, 404, "not_found").await;
    let post = app
        .client
        .post(format!("{}/data/manifest.json", app.base))
        .send()
        .await
        .unwrap();
    assert_error(post, 405, "method_not_allowed").await;
}

#[tokio::test]
async fn the_schemas_are_served_and_validate_the_files() {
    let app = spawn_app().await;
    let mut validators = Vec::new();
    for name in ["manifest", "year"] {
        let resp = app.get(&format!("/data/schema/{name}.schema.json")).await;
        assert_eq!(resp.status(), 200);
        assert_eq!(
            header(&resp, "content-type"),
            Some("application/schema+json")
        );
        assert!(header(&resp, "etag").is_some());
        let schema: serde_json::Value =
            serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(schema_problems(&schema), Vec::<String>::new(), "{name}");
        validators.push(jsonschema::draft202012::new(&schema).expect("the schema compiles"));
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&app.get("/data/manifest.json").await.bytes().await.unwrap())
            .unwrap();
    assert!(validators[0].is_valid(&manifest));
    let year: serde_json::Value = serde_json::from_slice(
        &app.get("/data/years/2011.json")
            .await
            .bytes()
            .await
            .unwrap(),
    )
    .unwrap();
    assert!(validators[1].is_valid(&year));
    // A schema that accepts anything would pass the above: a file with a field renamed does not.
    let mut broken = year.clone();
    let day = broken["days"][0].as_object_mut().unwrap();
    let value = day.remove("laisvadienis").unwrap();
    day.insert("laisvadienas".into(), value);
    assert!(!validators[1].is_valid(&broken));
    // Closed objects: an added field is refused; checksums are 64 hex digits.
    let mut extra = year.clone();
    extra["days"][0]["extra"] = serde_json::json!(1);
    assert!(!validators[1].is_valid(&extra));
    let mut short = manifest.clone();
    short["files"][0]["sha256"] = serde_json::json!("abc123");
    assert!(!validators[0].is_valid(&short));
    let mut upper = manifest.clone();
    let sha = upper["files"][0]["sha256"].as_str().unwrap().to_uppercase();
    upper["files"][0]["sha256"] = serde_json::json!(sha);
    assert!(!validators[0].is_valid(&upper));
}

#[tokio::test]
async fn a_file_changed_on_disk_is_never_served() {
    // A copy of the dataset, served, then one of its year files altered under the server.
    let tmp = tempfile::tempdir().unwrap();
    let version = manifest().dataset_version;
    let copy = tmp.path().join(&version);
    copy_dir(&dataset_dir(), &copy);
    let app = spawn_app_with(AppOptions {
        data: Some(copy.clone()),
        ..AppOptions::default()
    })
    .await;
    assert_eq!(app.get("/data/years/2020.json").await.status(), 200);
    let path = copy.join("years/2021.json");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.iter().position(|&b| b == b'1').unwrap();
    bytes[at] = b'2';
    std::fs::write(&path, bytes).unwrap();
    assert_error(app.get("/data/years/2021.json").await, 500, "internal").await;
    // What was read before the change, and the other files, are still served.
    assert_eq!(app.get("/data/years/2020.json").await.status(), 200);
    assert_eq!(app.get("/data/manifest.json").await.status(), 200);
}
