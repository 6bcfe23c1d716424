//! Every template renders, in every language, for every page kind (so a template error is
//! caught here, not by the first visitor), over a dataset built from the fixture sources;
//! every page path has one spelling.

use std::path::Path;
use std::sync::OnceLock;

use chrono::NaiveDate;
use kalendorius_dataset::Lang;
use poem::http::StatusCode;
use poem::Request;

use super::*;

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<(tempfile::TempDir, Catalog)> = OnceLock::new();
    &CATALOG
        .get_or_init(|| {
            let tmp = tempfile::tempdir().unwrap();
            kalendorius_generator::build(&kalendorius_generator::BuildOptions {
                sources: Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sources"),
                out: tmp.path().to_path_buf(),
                years: Some(2011..=2012),
                keep: kalendorius_generator::versions::DEFAULT_KEEP,
            })
            .expect("the fixture sources build");
            let dir = kalendorius_dataset::open_dataset(tmp.path()).unwrap();
            let catalog = Catalog::load(&dir, Default::default()).unwrap();
            (tmp, catalog)
        })
        .1
}

async fn get(pages: &Pages, uri: &str, today: NaiveDate) -> (StatusCode, String) {
    let req = Request::builder().uri(uri.parse().unwrap()).finish();
    let resp = pages.answer(&req, catalog(), today);
    let status = resp.status();
    let body = resp.into_body().into_string().await.unwrap();
    (status, body)
}

#[tokio::test]
async fn every_template_renders_in_every_language() {
    let pages = Pages::new(Default::default());
    let today = NaiveDate::from_ymd_opt(2011, 2, 19).unwrap();
    for lang in Lang::ALL {
        for (path, status) in [
            ("/", StatusCode::OK),
            ("/2011", StatusCode::OK),
            ("/2011/ilgieji-savaitgaliai", StatusCode::OK),
            ("/2012/ilgieji-savaitgaliai", StatusCode::OK),
            ("/2030/ilgieji-savaitgaliai", StatusCode::NOT_FOUND),
            ("/2011/02", StatusCode::OK),
            ("/2011/12", StatusCode::OK),
            ("/2011/02/19", StatusCode::OK),
            ("/2011/12/23", StatusCode::OK),
            ("/2011/12/25", StatusCode::OK),
            ("/2011/01/01", StatusCode::OK),
            ("/2012/12/31", StatusCode::OK),
            ("/vardai", StatusCode::OK),
            ("/vardai?q=jon", StatusCode::OK),
            ("/vardai?q=xyz", StatusCode::OK),
            ("/2030/01", StatusCode::NOT_FOUND),
            ("/nothing", StatusCode::NOT_FOUND),
        ] {
            let sep = if path.contains('?') { '&' } else { '?' };
            let uri = format!("{path}{sep}lang={}", lang.code());
            let (got, body) = get(&pages, &uri, today).await;
            assert_eq!(got, status, "{uri}");
            assert!(
                body.starts_with("<!DOCTYPE html>")
                    && body.contains(&format!("<html lang=\"{}\">", lang.code())),
                "{uri}"
            );
        }
    }
}

#[tokio::test]
async fn the_stylesheet_is_served_at_its_hashed_path() {
    let pages = Pages::new(Default::default());
    let today = NaiveDate::from_ymd_opt(2011, 2, 19).unwrap();
    let req = Request::builder()
        .uri(pages.style_path.parse().unwrap())
        .finish();
    let resp = pages.answer(&req, catalog(), today);
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["cache-control"], STYLE_CACHE);
    assert!(pages.style_path.ends_with(".css"));
    let (status, _) = get(&pages, "/static/style.css", today).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[test]
fn each_page_has_one_spelling() {
    const STYLE: &str = "/static/style.0123abcd.css";
    assert_eq!(parse("/", STYLE), Some(Page::Home));
    assert_eq!(parse("/2026", STYLE), Some(Page::Year(2026)));
    assert_eq!(parse("/2026/12", STYLE), Some(Page::Month(2026, 12)));
    assert_eq!(
        parse("/2026/12/24", STYLE),
        Some(Page::Day(Date::parse("2026-12-24").unwrap()))
    );
    assert_eq!(parse("/vardai", STYLE), Some(Page::Search));
    assert_eq!(
        parse("/2026/ilgieji-savaitgaliai", STYLE),
        Some(Page::LongWeekends(2026))
    );
    assert_eq!(parse(STYLE, STYLE), Some(Page::Style));
    assert_eq!(parse("/favicon.ico", STYLE), Some(Page::Favicon));
    for wrong in [
        "/2026/13",
        "/2026/00",
        "/2026/2",
        "/2026/02/30",
        "/2026/12/24/x",
        "/2026/",
        "/26",
        "/abc",
        "/vardai/",
        "/static/style.old.css",
        "/1500/01/01",
        "/2026/ilgieji-savaitgaliai/",
        "/2026/ilgieji-savaitgaliai/x",
        "/26/ilgieji-savaitgaliai",
    ] {
        assert_eq!(parse(wrong, STYLE), None, "{wrong}");
    }
}

#[test]
fn the_api_and_the_probes_are_not_pages() {
    for path in [
        "/api/v1/day",
        "/api",
        "/data/manifest.json",
        "/docs",
        "/health",
        "/ready",
    ] {
        assert!(!is_page_path(path), "{path}");
    }
    for path in ["/", "/abc", "/2026/13", "/favicon.ico"] {
        assert!(is_page_path(path), "{path}");
    }
}
