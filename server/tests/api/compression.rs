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

    let gz = seen(get_with(&app, YEAR, "gzip", &[]).await).await;
    assert_eq!(gz.encoding.as_deref(), Some("gzip"));
    assert_eq!(gz.vary.as_deref(), Some("accept-encoding"));
    assert_eq!(gunzip(&gz.body), identity.body);
    assert!(
        gz.body.len() * 4 < identity.body.len(),
        "gzip shrinks a year of JSON"
    );
    assert_eq!(gz.etag, Some(format!("{}-gz\"", tag.trim_end_matches('"'))));

    let br = seen(get_with(&app, YEAR, "gzip, deflate, br", &[]).await).await;
    assert_eq!(br.encoding.as_deref(), Some("br"));
    assert_eq!(unbrotli(&br.body), identity.body);
    assert_eq!(br.etag, Some(format!("{}-br\"", tag.trim_end_matches('"'))));

    // The second request is served from the cache: the same bytes.
    let again = seen(get_with(&app, YEAR, "br", &[]).await).await;
    assert_eq!(again.body, br.body);
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
    assert_eq!(not_modified.etag.as_deref(), Some(gz_tag.as_str()));
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
