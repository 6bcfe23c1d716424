//! Compression (docs/api.md, Compression): negotiated from `Accept-Encoding`, bodies that
//! decompress to exactly the identity body, an ETag per encoding, HEAD like GET, small
//! answers untouched.

use std::io::Read as _;

use crate::helpers::*;

const YEAR: &str = "/api/v1/days?from=2020-01-01&to=2020-12-31";

/// GET `path` with `Accept-Encoding: accept` (none when empty) and extra headers.
async fn get_with(
    app: &TestApp,
    path: &str,
    accept: &str,
    extra: &[(&str, &str)],
) -> reqwest::Response {
    send_with(app, reqwest::Method::GET, path, accept, extra).await
}

/// A request of `method` with `Accept-Encoding: accept` (none when empty) and extra headers.
async fn send_with(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    accept: &str,
    extra: &[(&str, &str)],
) -> reqwest::Response {
    let mut headers = extra.to_vec();
    if !accept.is_empty() {
        headers.push(("Accept-Encoding", accept));
    }
    app.send(method, path, &headers).await
}

fn unbrotli(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(body, 4096)
        .read_to_end(&mut out)
        .expect("a valid brotli stream");
    out
}

/// Status, `Content-Encoding`, `ETag`, `Vary` and the body of a response.
struct Seen {
    status: u16,
    encoding: Option<String>,
    etag: Option<String>,
    vary: Option<String>,
    length: Option<String>,
    body: Vec<u8>,
}

async fn seen(resp: reqwest::Response) -> Seen {
    let h = |name: &str| header(&resp, name).map(str::to_string);
    let (encoding, etag, vary, length) = (
        h("content-encoding"),
        h("etag"),
        h("vary"),
        h("content-length"),
    );
    Seen {
        status: resp.status().as_u16(),
        encoding,
        etag,
        vary,
        length,
        body: resp.bytes().await.unwrap().to_vec(),
    }
}

#[tokio::test]
async fn gzip_and_brotli_bodies_decompress_to_the_identity_body() {
    let app = spawn_app().await;
    let identity = seen(get_with(&app, YEAR, "", &[]).await).await;
    assert_eq!(identity.status, 200);
    assert_eq!(identity.encoding, None);
    assert_eq!(identity.vary.as_deref(), Some("accept-encoding"));
    let tag = identity.etag.clone().expect("a whole year has an ETag");

    let gz_tag = format!("{}-gz\"", tag.trim_end_matches('"'));
    // The first time compressed fast, under the weak form of the encoding's tag.
    let fast = seen(get_with(&app, YEAR, "gzip", &[]).await).await;
    assert_eq!(fast.etag, Some(format!("W/{gz_tag}")));
    assert_eq!(gunzip(&fast.body), identity.body);
    let gz = seen(get_with(&app, YEAR, "gzip", &[]).await).await;
    assert_eq!(gz.encoding.as_deref(), Some("gzip"));
    assert_eq!(gz.vary.as_deref(), Some("accept-encoding"));
    assert_eq!(gunzip(&gz.body), identity.body);
    assert!(
        gz.body.len() * 4 < identity.body.len(),
        "gzip shrinks a year of JSON"
    );
    assert!(gz.body.len() < fast.body.len(), "then at the best level");
    assert_eq!(gz.etag, Some(gz_tag));

    let br = seen(get_with(&app, YEAR, "gzip, deflate, br", &[]).await).await;
    assert_eq!(br.encoding.as_deref(), Some("br"));
    assert_eq!(unbrotli(&br.body), identity.body);
    let br_tag = format!("{}-br\"", tag.trim_end_matches('"'));
    assert_eq!(br.etag, Some(format!("W/{br_tag}")));

    // Asked for again: at the best level, kept and served from the cache (the same bytes).
    let again = seen(get_with(&app, YEAR, "br", &[]).await).await;
    assert_eq!(again.etag, Some(br_tag));
    assert_eq!(unbrotli(&again.body), identity.body);
    let kept = seen(get_with(&app, YEAR, "br", &[]).await).await;
    assert_eq!(kept.body, again.body);
    // The weak tag of the first answer revalidates the best form: the same content.
    let weak = br.etag.unwrap();
    let revalidated =
        seen(get_with(&app, YEAR, "br", &[("If-None-Match", weak.as_str())]).await).await;
    assert_eq!(revalidated.status, 304);
}

#[tokio::test]
async fn a_zero_weight_refuses_a_coding() {
    let app = spawn_app().await;
    let none = seen(get_with(&app, YEAR, "gzip;q=0, br;q=0", &[]).await).await;
    assert_eq!(none.status, 200);
    assert_eq!(none.encoding, None);
    let gzip_only = seen(get_with(&app, YEAR, "br;q=0, *", &[]).await).await;
    assert_eq!(gzip_only.encoding.as_deref(), Some("gzip"));
    let preferred = seen(get_with(&app, YEAR, "br;q=0.4, gzip;q=0.9", &[]).await).await;
    assert_eq!(preferred.encoding.as_deref(), Some("gzip"));
    let identity = seen(get_with(&app, YEAR, "identity", &[]).await).await;
    assert_eq!(identity.encoding, None);
    assert_eq!(gunzip(&gzip_only.body), identity.body);
}

#[tokio::test]
async fn each_encoding_has_its_own_tag_and_304() {
    let app = spawn_app().await;
    let gz = seen(get_with(&app, YEAR, "gzip", &[]).await).await;
    let gz_tag = gz.etag.unwrap();
    let not_modified =
        seen(get_with(&app, YEAR, "gzip", &[("If-None-Match", gz_tag.as_str())]).await).await;
    assert_eq!(not_modified.status, 304);
    // The first answer's weak tag revalidates; the 304 carries the tag of the form now kept.
    assert_eq!(
        not_modified.etag.as_deref(),
        Some(gz_tag.trim_start_matches("W/"))
    );
    assert!(not_modified.body.is_empty());
    // The gzip tag does not validate the brotli representation.
    let br = seen(get_with(&app, YEAR, "br", &[("If-None-Match", gz_tag.as_str())]).await).await;
    assert_eq!(br.status, 200);
    assert_eq!(br.encoding.as_deref(), Some("br"));
}

#[tokio::test]
async fn head_has_the_headers_of_get() {
    let app = spawn_app().await;
    for accept in ["", "gzip", "br"] {
        // Past the first, fast compression.
        get_with(&app, YEAR, accept, &[]).await;
        let get = seen(get_with(&app, YEAR, accept, &[]).await).await;
        let head = seen(send_with(&app, reqwest::Method::HEAD, YEAR, accept, &[]).await).await;
        assert_eq!(head.status, 200);
        assert_eq!(head.encoding, get.encoding, "{accept}");
        assert_eq!(head.etag, get.etag, "{accept}");
        assert_eq!(head.vary, get.vary, "{accept}");
        assert_eq!(head.length, Some(get.body.len().to_string()), "{accept}");
        assert!(head.body.is_empty());
    }
}

#[tokio::test]
async fn small_answers_are_sent_as_they_are() {
    let app = spawn_app().await;
    let small = seen(
        get_with(
            &app,
            "/api/v1/laisvadienis?date=2024-01-01",
            "gzip, br",
            &[],
        )
        .await,
    )
    .await;
    assert_eq!(small.status, 200);
    assert!(small.body.len() < 1024);
    assert_eq!(small.encoding, None);
    assert_eq!(small.vary, None);
    // Errors are small too.
    let error = seen(get_with(&app, "/api/v1/days?from=x", "gzip", &[]).await).await;
    assert_eq!(error.status, 400);
    assert_eq!(error.encoding, None);
}

#[tokio::test]
async fn keyed_answers_are_compressed_per_request() {
    let app = spawn_app().await;
    let (key, _) = app.key(None, None);
    let path = "/api/v1/holidays?year=2020";
    let identity = seen(get_with(&app, path, "", &[("X-API-Key", key.as_str())]).await).await;
    assert!(identity.body.len() >= 1024, "a year of holidays is large");
    let gz = seen(get_with(&app, path, "gzip", &[("X-API-Key", key.as_str())]).await).await;
    assert_eq!(gz.encoding.as_deref(), Some("gzip"));
    assert_eq!(gz.etag, None, "keyed answers carry no ETag");
    assert_eq!(gunzip(&gz.body), identity.body);
    let br = seen(get_with(&app, path, "br", &[("X-API-Key", key.as_str())]).await).await;
    assert_eq!(unbrotli(&br.body), identity.body);
}

#[tokio::test]
async fn the_docs_page_and_the_document_are_cached_and_compressed() {
    let app = spawn_app().await;
    let page = get_with(&app, "/docs", "", &[]).await;
    assert_eq!(page.status(), 200);
    assert_eq!(
        header(&page, "cache-control"),
        Some("public, max-age=86400")
    );
    let page = seen(page).await;
    assert!(page.body.len() > 1_000_000);
    let tag = page.etag.clone().expect("the docs page has an ETag");
    let br = seen(get_with(&app, "/docs", "br", &[]).await).await;
    assert_eq!(br.encoding.as_deref(), Some("br"));
    assert_eq!(unbrotli(&br.body), page.body);
    assert!(br.body.len() * 3 < page.body.len());
    let again = seen(get_with(&app, "/docs", "", &[("If-None-Match", tag.as_str())]).await).await;
    assert_eq!(again.status, 304);

    let doc = seen(get_with(&app, "/api/v1/openapi.json", "gzip", &[]).await).await;
    assert_eq!(doc.status, 200);
    assert_eq!(doc.encoding.as_deref(), Some("gzip"));
    let doc_tag = doc.etag.expect("the document has an ETag");
    let identity = seen(get_with(&app, "/api/v1/openapi.json", "", &[]).await).await;
    assert_eq!(gunzip(&doc.body), identity.body);
    let cached = seen(
        get_with(
            &app,
            "/api/v1/openapi.json",
            "gzip",
            &[("If-None-Match", doc_tag.as_str())],
        )
        .await,
    )
    .await;
    assert_eq!(cached.status, 304);
}

/// A 304 carries the `Vary` of its 200 (RFC 9110, 15.4.5), also when it matched the
/// identity tag of a request that accepts gzip (the server sent the identity body to a
/// client that did not then accept gzip).
#[tokio::test]
async fn a_304_varies_on_accept_encoding_like_its_200() {
    let app = spawn_app().await;
    for path in [YEAR, "/data/manifest.json", "/docs", "/api/v1/openapi.json"] {
        let identity = seen(get_with(&app, path, "", &[]).await).await;
        assert_eq!(identity.status, 200, "{path}");
        assert_eq!(identity.vary.as_deref(), Some("accept-encoding"), "{path}");
        let tag = identity.etag.expect("an ETag");
        for accept in ["gzip", "br", ""] {
            let again =
                seen(get_with(&app, path, accept, &[("If-None-Match", tag.as_str())]).await).await;
            assert_eq!(again.status, 304, "{path} {accept}");
            assert_eq!(
                again.vary.as_deref(),
                Some("accept-encoding"),
                "{path} {accept}"
            );
        }
    }
}

/// One request of every endpoint, page, feed and published file, and other parameters of
/// each: with `today` at 2020-12-07 (in the fixture's years), so `today` and its date stand
/// side by side.
const EVERY_KIND_OF_ANSWER: &[&str] = &[
    "/api/v1/holidays/upcoming?lang=en",
    "/api/v1/holidays/upcoming?lang=ru&count=20&scope=all",
    "/api/v1/holidays/upcoming?from=2020-01-01&count=10",
    "/api/v1/day?date=today&lang=pl",
    "/api/v1/day?date=today",
    "/api/v1/day?date=2020-12-24&lang=en",
    "/api/v1/school-holidays?date=today",
    "/api/v1/school-holidays?year=2020",
    "/api/v1/school-holidays?year=2020&grade=5&lang=en",
    "/api/v1/holidays?year=2020&lang=en",
    "/api/v1/holidays?year=2019",
    "/api/v1/holidays?date=today&lang=ru",
    "/api/v1/name-days?date=today",
    "/api/v1/name-days?date=2020-02-28&lang=en",
    "/api/v1/working-time?year=2020",
    "/api/v1/working-time?year=2020&week=6",
    "/api/v1/working-days?from=today&to=2020-12-31",
    "/api/v1/working-days?from=2020-01-01&to=2020-12-31&week=6",
    "/api/v1/working-days/add?date=today&days=10",
    "/api/v1/working-days/add?date=today&days=20",
    "/api/v1/long-weekends?year=2020",
    "/api/v1/long-weekends?year=2020&max_leave_days=2&lang=en",
    "/api/v1/name-days/search?name=jon",
    "/api/v1/name-days/search?name=ona",
    "/api/v1/laisvadienis?date=today",
    "/api/v1/laisvadienis?date=2020-12-24",
    "/api/v1/days?from=2020-01-01&to=2020-12-31",
    "/api/v1/days?from=today&to=2020-12-31",
    "/api/v1/days?from=2019-01-01&to=2019-12-31",
    "/api/v1/feeds/holidays.ics?lang=en",
    "/api/v1/feeds/holidays.ics?scope=all&shortened=true&from_year=2010&to_year=2020",
    "/api/v1/feeds/name-days.ics?lang=en",
    "/api/v1/feeds/name-days.ics",
    "/api/v1/feeds/school-holidays.ics",
    "/api/v1/feeds/school-holidays.ics?lang=en",
    "/",
    "/2020/12",
    "/2020/12?lang=en",
    "/2020",
    "/2020?grade=5",
    "/2020/12/24",
    "/2020/ilgieji-savaitgaliai",
    "/vardai?q=jon",
    "/vardai?q=ona",
    "/data/years/2020.json",
    "/data/years/2019.json",
    "/api/v1/openapi.json",
    "/docs",
];

struct Answer {
    path: &'static str,
    body: Vec<u8>,
    /// The ETags of its identity, gzip and brotli forms.
    tags: Vec<String>,
}

/// Every compressed body decompresses to the plain body of its own request, whatever was
/// asked before it, and no answer's ETag revalidates (304) another query's different answer.
/// Before 0.4.0, the keyed answers that used `today` shared one ETag per day and their
/// compressed bodies were cached under the path without the query.
#[tokio::test]
async fn every_compressed_body_is_its_own_and_no_other_query_revalidates() {
    let app = spawn_app_with(AppOptions {
        limits: Some(kalendorius_server::limits::LimitsConfig::all(1_000_000)),
        today_at: Some(std::time::SystemTime::from(
            chrono::DateTime::parse_from_rfc3339("2020-12-07T10:00:00Z").unwrap(),
        )),
        ..AppOptions::default()
    })
    .await;
    let (key, _) = app.key(Some(1_000_000), Some(1_000_000));
    let key = [("X-API-Key", key.as_str())];
    // Compressed first, each request after another's: a body cached for the wrong request
    // would be served here.
    let mut compressed = Vec::new();
    for path in EVERY_KIND_OF_ANSWER {
        for accept in ["gzip", "br"] {
            compressed.push((
                path,
                accept,
                seen(get_with(&app, path, accept, &key).await).await,
            ));
        }
    }
    let mut answers: Vec<Answer> = Vec::new();
    for path in EVERY_KIND_OF_ANSWER {
        let plain = seen(get_with(&app, path, "", &key).await).await;
        assert_eq!(plain.status, 200, "{path}");
        let mut tags: Vec<String> = plain.etag.iter().cloned().collect();
        for (_, accept, form) in compressed.iter().filter(|(p, _, _)| *p == path) {
            assert_eq!(form.status, 200, "{path} {accept}");
            let body = match form.encoding.as_deref() {
                Some("gzip") => gunzip(&form.body),
                Some("br") => unbrotli(&form.body),
                None => form.body.clone(),
                Some(other) => panic!("{path}: unexpected encoding {other}"),
            };
            assert!(
                body == plain.body,
                "{path} with {accept}: the decompressed body differs from the plain one:\n{}\n---\n{}",
                String::from_utf8_lossy(&body[..body.len().min(300)]),
                String::from_utf8_lossy(&plain.body[..plain.body.len().min(300)]),
            );
            tags.extend(form.etag.iter().cloned());
        }
        answers.push(Answer {
            path,
            body: plain.body,
            tags,
        });
    }
    let revalidating: Vec<_> = answers.iter().filter(|a| !a.tags.is_empty()).collect();
    assert!(revalidating.len() > 20, "most answers carry ETags");
    let mut checked = 0;
    for (i, earlier) in revalidating.iter().enumerate() {
        let tags = earlier.tags.join(", ");
        for (j, other) in answers.iter().enumerate() {
            if other.body == earlier.body {
                continue;
            }
            let accept = ["", "gzip", "br"][(i + j) % 3];
            let mut headers = vec![("If-None-Match", tags.as_str())];
            headers.extend(key);
            let resp = get_with(&app, other.path, accept, &headers).await;
            assert_eq!(
                resp.status(),
                200,
                "{} was revalidated by the ETags of {} ({tags})",
                other.path,
                earlier.path
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
    // Its own tags still revalidate it.
    for answer in &revalidating {
        let mut headers = vec![("If-None-Match", answer.tags[0].as_str())];
        headers.extend(key);
        let resp = get_with(&app, answer.path, "", &headers).await;
        assert_eq!(resp.status(), 304, "{}", answer.path);
    }
}
