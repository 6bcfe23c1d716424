//! The HTML pages as a person (and a browser) sees them: every page kind parsed with an
//! HTML5 parser (scraper, html5ever underneath) over the dataset of the real sources, and
//! checked for what a reader would check: the day cells, the marks of each kind of day,
//! the labels of each language, the 404 page, the search, the links, the caching headers.

use std::collections::BTreeSet;

use chrono::{Datelike, NaiveDate};
use kalendorius_server::limits::LimitsConfig;
use scraper::{ElementRef, Html, Selector};
use serde_json::Value;

use crate::helpers::*;

pub(crate) fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

pub(crate) fn text(el: ElementRef) -> String {
    el.text()
        .collect::<Vec<_>>()
        .join("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// GET `path`, expecting `status` and an HTML page; the parsed document.
pub(crate) async fn page(app: &TestApp, path: &str, status: u16) -> Html {
    let resp = app.get(path).await;
    assert_eq!(resp.status(), status, "{path}");
    assert_eq!(
        header(&resp, "content-type"),
        Some("text/html; charset=utf-8"),
        "{path}"
    );
    let body = resp.text().await.unwrap();
    assert!(body.starts_with("<!DOCTYPE html>"), "{path}");
    let doc = Html::parse_document(&body);
    assert!(
        doc.errors.is_empty(),
        "{path}: HTML5 parse errors {:?}",
        doc.errors
    );
    doc
}

/// The `td` cell of `date` in a month grid.
fn cell<'a>(doc: &'a Html, date: &str) -> ElementRef<'a> {
    let time = doc
        .select(&sel(&format!("table.month td time[datetime=\"{date}\"]")))
        .next()
        .unwrap_or_else(|| panic!("no cell for {date}"));
    time.ancestors()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "td")
        .unwrap()
}

fn classes(el: ElementRef) -> BTreeSet<String> {
    el.value().classes().map(str::to_string).collect()
}

/// Day numbers of the cells with class `kind`.
fn days_of(doc: &Html, kind: &str) -> Vec<u32> {
    doc.select(&sel(&format!("table.month td.{kind} time")))
        .map(|t| t.value().attr("datetime").unwrap()[8..].parse().unwrap())
        .collect()
}

fn today() -> NaiveDate {
    kalendorius_server::clock::vilnius_date(std::time::SystemTime::now())
}

#[tokio::test]
async fn december_2026_shows_its_days_red_days_and_shortened_day() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2026/12", 200).await;
    let html = doc.select(&sel("html")).next().unwrap();
    assert_eq!(html.value().attr("lang"), Some("lt"));
    let table = doc.select(&sel("table.month")).next().unwrap();
    assert_eq!(
        text(table.select(&sel("caption")).next().unwrap()),
        "2026 m. gruodis"
    );
    assert_eq!(table.select(&sel("td.day")).count(), 31);
    assert_eq!(days_of(&doc, "red"), [24, 25, 26]);
    // The eve of Christmas Eve, and of New Year's Day 2027.
    assert_eq!(days_of(&doc, "short"), [23, 31]);
    // Dec 23 also opens the Christmas break of 2026-2027 (its school mark after the "−1").
    let short = cell(&doc, "2026-12-23");
    let marks = text(short.select(&sel(".marks")).next().unwrap());
    assert!(marks.starts_with("−1"), "{marks}");
    let eve = cell(&doc, "2026-12-24");
    // The red mark, then the full moon's (03:28 in Vilnius).
    let marks = text(eve.select(&sel(".marks")).next().unwrap());
    assert!(marks.starts_with("★") && marks.ends_with("◯"), "{marks}");
    assert!(text(eve).contains("Pilnatis 03:28"), "{}", text(eve));
    assert!(text(eve).contains("Kūčių diena"), "{}", text(eve));
    // Saturdays and Sundays are weekends, the 24th-26th carry the red mark whatever their
    // weekday.
    assert_eq!(days_of(&doc, "weekend"), [5, 6, 12, 13, 19, 20, 26, 27]);
    // The legend names every mark the grid uses.
    let legend = text(doc.select(&sel(".legend")).next().unwrap());
    for mark in ["★", "◆", "▲", "−1"] {
        assert!(legend.contains(mark), "{legend}");
    }
    // Every day links to its page and shows its name days.
    let link = eve.select(&sel("a")).next().unwrap();
    assert_eq!(link.value().attr("href"), Some("/2026/12/24"));
    assert!(text(eve).contains("Adomas"));
}

#[tokio::test]
async fn the_month_summary_counts_what_the_day_api_says() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2026/12?lang=en", 200).await;
    let summary: Vec<u32> = doc
        .select(&sel(".summary dd"))
        .map(|dd| text(dd).parse().unwrap())
        .collect();
    let days = app.json("/api/v1/days?from=2026-12-01&to=2026-12-31").await;
    let days = days["days"].as_array().unwrap();
    let working = days.iter().filter(|d| d["laisvadienis"] == false).count() as u32;
    let shortened = days.iter().filter(|d| d["shorter_workday"] == true).count() as u32;
    assert_eq!(
        summary,
        [working, 8 * working - shortened, 31 - working, shortened],
        "working days, hours, days off, shortened days"
    );
}

#[tokio::test]
async fn weeks_are_monday_first_with_iso_week_numbers() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2026/03?lang=en", 200).await;
    let heads: Vec<String> = doc.select(&sel("table.month thead th")).map(text).collect();
    assert_eq!(
        heads,
        ["Wk", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    );
    for row in doc.select(&sel("table.month tbody tr")) {
        let week: u32 = text(row.select(&sel("th")).next().unwrap())
            .parse()
            .unwrap();
        for (column, td) in row.select(&sel("td")).enumerate() {
            let Some(time) = td.select(&sel("time")).next() else {
                continue;
            };
            let date: NaiveDate = time.value().attr("datetime").unwrap().parse().unwrap();
            assert_eq!(date.weekday().num_days_from_monday() as usize, column);
            assert_eq!(date.iso_week().week(), week, "{date}");
        }
    }
}

#[tokio::test]
async fn a_declared_working_saturday_is_marked_and_explained() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2011/02", 200).await;
    let saturday = cell(&doc, "2011-02-19");
    assert!(
        classes(saturday).contains("workday"),
        "{:?}",
        classes(saturday)
    );
    assert_eq!(text(saturday.select(&sel(".marks")).next().unwrap()), "▲");
    assert_eq!(days_of(&doc, "workday"), [19]);
    let day = page(&app, "/2011/02/19?lang=en", 200).await;
    let status = text(day.select(&sel(".status")).next().unwrap());
    assert!(status.contains("Working day, 8 hours."), "{status}");
    assert!(
        status.contains("A weekend day declared a working day (Transferred working day)"),
        "{status}"
    );
    // The day off it compensates.
    let doc = page(&app, "/2010/12?lang=en", 200).await;
    assert!(days_of(&doc, "dayoff").contains(&24));
}

#[tokio::test]
async fn the_day_page_says_the_status_holidays_names_and_links() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2026/06/24", 200).await;
    assert_eq!(
        doc.select(&sel("h1 time"))
            .next()
            .unwrap()
            .value()
            .attr("datetime"),
        Some("2026-06-24")
    );
    let names: Vec<String> = doc.select(&sel(".names-list a")).map(text).collect();
    assert!(names.contains(&"Jonas".to_string()), "{names:?}");
    let status = text(doc.select(&sel(".status")).next().unwrap());
    assert!(
        status.contains("Poilsio diena: šventė (Rasos ir Joninių diena)"),
        "{status}"
    );
    let holidays: Vec<String> = doc.select(&sel(".holidays li")).map(text).collect();
    assert!(
        holidays
            .iter()
            .any(|h| h.contains("Rasos ir Joninių diena") && h.contains("tradicinė šventė")),
        "{holidays:?}"
    );
    let hrefs: Vec<&str> = doc
        .select(&sel("a[href]"))
        .map(|a| a.value().attr("href").unwrap())
        .collect();
    for expected in [
        "/2026/06/23",
        "/2026/06/25",
        "/2026/06",
        "/api/v1/laisvadienis?date=2026-06-24",
        "/api/v1/day?date=2026-06-24&lang=lt",
    ] {
        assert!(hrefs.contains(&expected), "{expected} in {hrefs:?}");
    }
    let resp = app.get("/api/v1/laisvadienis?date=2026-06-24").await;
    assert_eq!(resp.status(), 200);

    let doc = page(&app, "/2026/12/23?lang=en", 200).await;
    let status = text(doc.select(&sel(".status")).next().unwrap());
    assert!(status.contains("Working day, 7 hours."), "{status}");
    assert!(
        status.contains("One hour shorter: the next day is a public holiday (Christmas Eve)"),
        "{status}"
    );
    // The legal basis under the status, linked to the act's text in the register.
    let basis: Vec<String> = doc.select(&sel(".status .basis li")).map(text).collect();
    assert_eq!(
        basis,
        ["Labour Code (XII-2603) art. 112(6) (as worded by No. XIV-3034)"]
    );
    let link = doc.select(&sel(".status .basis li a")).next().unwrap();
    assert!(
        link.value()
            .attr("href")
            .is_some_and(|href| href.starts_with("https://e-seimas.lrs.lt/")),
        "{:?}",
        link.value()
    );
    // The working Saturday 2011-11-05 (a documented choice): its basis says so, and has no
    // link (no register page of the decision was found).
    let doc = page(&app, "/2011/11/05?lang=lt", 200).await;
    let basis: Vec<String> = doc.select(&sel(".status .basis li")).map(text).collect();
    assert_eq!(basis.len(), 1, "{basis:?}");
    assert!(basis[0].ends_with("(abejotina)"), "{basis:?}");
    assert!(doc.select(&sel(".status .basis li a")).next().is_none());
    // An ordinary working day has no basis list.
    let doc = page(&app, "/2026/06/22", 200).await;
    assert!(doc.select(&sel(".status .basis")).next().is_none());
}

#[tokio::test]
async fn every_label_follows_the_language() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    for (lang, caption, monday, legend, search) in [
        (
            "lt",
            "2026 m. gruodis",
            "Pr",
            "Žymėjimai",
            "Vardadienių paieška",
        ),
        ("en", "December 2026", "Mon", "Legend", "Name-day search"),
        (
            "pl",
            "Grudzień 2026",
            "Pn",
            "Legenda",
            "Wyszukiwanie imienin",
        ),
        (
            "ru",
            "Декабрь 2026",
            "Пн",
            "Условные обозначения",
            "Поиск именин",
        ),
    ] {
        let doc = page(&app, &format!("/2026/12?lang={lang}"), 200).await;
        let html = doc.select(&sel("html")).next().unwrap();
        assert_eq!(html.value().attr("lang"), Some(lang));
        assert_eq!(text(doc.select(&sel("caption")).next().unwrap()), caption);
        assert_eq!(
            text(doc.select(&sel("thead th")).nth(1).unwrap()),
            monday,
            "{lang}"
        );
        assert_eq!(text(doc.select(&sel("#legend-h")).next().unwrap()), legend);
        let nav: Vec<String> = doc.select(&sel("header nav a")).map(text).collect();
        assert!(nav.contains(&search.to_string()), "{lang}: {nav:?}");
        // Holiday names come from the dataset, in the page's language.
        let api = app
            .json_keyed(
                &format!("/api/v1/holidays?date=2026-12-25&lang={lang}"),
                &key,
            )
            .await;
        let name = api["holidays"][0]["name"].as_str().unwrap();
        assert!(
            text(cell(&doc, "2026-12-25")).contains(name),
            "{lang}: {name}"
        );
        // The language switch keeps the page; internal links keep the language.
        let switch: Vec<(&str, &str)> = doc
            .select(&sel("nav.langs a"))
            .map(|a| {
                (
                    a.value().attr("hreflang").unwrap(),
                    a.value().attr("href").unwrap(),
                )
            })
            .collect();
        assert_eq!(
            switch,
            [
                ("lt", "/2026/12"),
                ("en", "/2026/12?lang=en"),
                ("pl", "/2026/12?lang=pl"),
                ("ru", "/2026/12?lang=ru"),
            ]
        );
        let day_link = cell(&doc, "2026-12-01")
            .select(&sel("a"))
            .next()
            .unwrap()
            .value()
            .attr("href")
            .unwrap()
            .to_string();
        let expected = if lang == "lt" {
            "/2026/12/01".to_string()
        } else {
            format!("/2026/12/01?lang={lang}")
        };
        assert_eq!(day_link, expected);
    }
}

#[tokio::test]
async fn year_and_home_pages() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2026?lang=en", 200).await;
    let months: Vec<String> = doc.select(&sel("table.month caption")).map(text).collect();
    assert_eq!(months.len(), 12);
    assert_eq!(months[0], "January");
    assert_eq!(doc.select(&sel("table.month td.day")).count(), 365);
    assert_eq!(
        doc.select(&sel("table.month caption a"))
            .next()
            .unwrap()
            .value()
            .attr("href"),
        Some("/2026/01?lang=en")
    );

    // `/` is this month in Vilnius, with today's cell marked.
    let today = today();
    let doc = page(&app, "/", 200).await;
    let iso = today.format("%Y-%m-%d").to_string();
    let marked: Vec<&str> = doc
        .select(&sel("td.today time"))
        .map(|t| t.value().attr("datetime").unwrap())
        .collect();
    assert_eq!(marked, [iso.as_str()]);
    assert_eq!(doc.select(&sel("td[aria-current=date]")).count(), 1);
    assert_eq!(
        doc.select(&sel("table.month td.day")).count() as u32,
        days_in_month(today)
    );
}

fn days_in_month(date: NaiveDate) -> u32 {
    let first = date.with_day(1).unwrap();
    let next = first.checked_add_months(chrono::Months::new(1)).unwrap();
    (next - first).num_days() as u32
}

#[tokio::test]
async fn wrong_dates_and_unknown_paths_get_a_friendly_404_page() {
    let app = spawn_real_app().await;
    let today = today();
    let this_month = format!("/{:04}/{:02}", today.year(), today.month());
    for (path, link) in [
        ("/2026/13", this_month.clone()),
        ("/2026/02/30", this_month.clone()),
        ("/abc", this_month.clone()),
        ("/1999/01", this_month.clone()),
        ("/2026/12/", this_month.clone()),
        ("/abc?lang=en", format!("{this_month}?lang=en")),
    ] {
        let doc = page(&app, path, 404).await;
        let hrefs: Vec<&str> = doc
            .select(&sel("main a"))
            .map(|a| a.value().attr("href").unwrap())
            .collect();
        assert_eq!(hrefs, [link.as_str()], "{path}");
        let expected = if path.contains("lang=en") {
            "Page not found"
        } else {
            "Puslapis nerastas"
        };
        assert_eq!(text(doc.select(&sel("h1")).next().unwrap()), expected);
    }
    // The API keeps its JSON errors.
    let resp = app.get("/api/v1/nothing").await;
    assert_eq!(resp.status(), 404);
    let body: Value = resp.json_body().await;
    assert_eq!(body["error"], "not_found");
}

#[tokio::test]
async fn a_404_page_links_only_to_this_site_whatever_its_path() {
    let app = spawn_app().await;
    for path in [
        "//evil.example/x",
        "/\\evil.example",
        "///evil.example",
        "/\\/evil",
    ] {
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        let resp = app.raw(request.as_bytes()).await;
        assert_eq!(resp.status, 404, "{path}");
        let doc = Html::parse_document(&String::from_utf8(resp.body).unwrap());
        let links: Vec<String> = doc
            .select(&sel("a[href], form[action]"))
            .filter_map(|e| e.value().attr("href").or(e.value().attr("action")))
            .map(str::to_string)
            .collect();
        assert!(links.len() > 3, "{path}: {links:?}");
        for link in &links {
            let site_relative =
                link.starts_with('/') && !link.starts_with("//") && !link.starts_with("/\\")
                    || link.starts_with('#');
            assert!(site_relative, "{path}: {link} leaves the site");
        }
    }
}

#[tokio::test]
async fn the_search_page_finds_names_without_diacritics() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/vardai?q=zygimante", 200).await;
    let form = doc
        .select(&sel("form[method=get][action=\"/vardai\"]"))
        .next();
    assert!(form.is_some(), "a GET form");
    let first = doc.select(&sel("table.results tbody tr")).next().unwrap();
    assert_eq!(text(first.select(&sel("th")).next().unwrap()), "Žygimantė");
    let year = today().year();
    let link = first.select(&sel("td a")).next().unwrap();
    assert_eq!(
        link.value().attr("href"),
        Some(format!("/{year}/02/28").as_str())
    );
    // The query stays in the box and in the language switch.
    let input = doc.select(&sel("input[name=q]")).next().unwrap();
    assert_eq!(input.value().attr("value"), Some("zygimante"));
    let en = doc.select(&sel("nav.langs a[hreflang=en]")).next().unwrap();
    assert_eq!(en.value().attr("href"), Some("/vardai?q=zygimante&lang=en"));

    let doc = page(&app, "/vardai?q=xqzw&lang=en", 200).await;
    assert!(text(doc.select(&sel("main")).next().unwrap()).contains("No such name"));
    let doc = page(&app, "/vardai", 200).await;
    assert_eq!(doc.select(&sel("table.results")).count(), 0);
}

#[tokio::test]
async fn every_link_of_a_month_page_answers() {
    let app = spawn_real_app().await;
    let doc = page(&app, "/2026/12?lang=en", 200).await;
    let links: BTreeSet<String> = doc
        .select(&sel("a[href], link[href]"))
        .map(|a| a.value().attr("href").unwrap().to_string())
        .collect();
    assert!(links.len() > 40, "{links:?}");
    for href in &links {
        assert!(href.starts_with('/'), "no external link: {href}");
        let resp = app.get(href).await;
        assert_eq!(resp.status(), 200, "{href}");
    }
}

#[tokio::test]
async fn pages_are_cacheable_with_strong_etags() {
    let app = spawn_real_app().await;
    let resp = app.get("/2011/02").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(header(&resp, "cache-control"), Some("public, max-age=3600"));
    let etag = header(&resp, "etag").unwrap().to_string();
    assert!(etag.starts_with('"'), "strong: {etag}");
    let again = app
        .client
        .get(format!("{}/2011/02", app.base))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(header(&again, "etag"), Some(etag.as_str()));
    // Another language is another page.
    let en = app.get("/2011/02?lang=en").await;
    assert_ne!(header(&en, "etag"), Some(etag.as_str()));
    // Today's month changes with the day: a short life.
    let home = app.get("/").await;
    assert_eq!(header(&home, "cache-control"), Some("public, max-age=60"));
    // The stylesheet: hashed path, cached for a year.
    let doc = page(&app, "/2011/02", 200).await;
    let css = doc.select(&sel("link[rel=stylesheet]")).next().unwrap();
    let css = css.value().attr("href").unwrap();
    assert!(
        css.starts_with("/static/style.") && css.ends_with(".css"),
        "{css}"
    );
    let resp = app.get(css).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        header(&resp, "content-type"),
        Some("text/css; charset=utf-8")
    );
    assert_eq!(
        header(&resp, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
}

#[tokio::test]
async fn head_is_a_get_without_body_and_pages_are_limited_per_ip() {
    let app = spawn_app_with(AppOptions {
        real_sources: true,
        limits: Some(LimitsConfig {
            pages_per_minute: 2,
            ..LimitsConfig::default()
        }),
        ..AppOptions::default()
    })
    .await;
    let head = app
        .client
        .head(format!("{}/2011/02", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "ratelimit-limit"), Some("2"));
    assert_eq!(header(&head, "ratelimit-remaining"), Some("1"));
    assert!(header(&head, "etag").is_some());
    assert_eq!(app.get("/2011/02").await.status(), 200);
    let refused = app.get("/2011/03").await;
    assert_eq!(refused.status(), 429);
    assert!(header(&refused, "retry-after").is_some());
}

#[tokio::test]
async fn the_favicon_is_served_cached_and_not_counted() {
    let app = spawn_app_with(AppOptions {
        real_sources: true,
        limits: Some(LimitsConfig {
            pages_per_minute: 1,
            ..LimitsConfig::default()
        }),
        ..AppOptions::default()
    })
    .await;
    let mut etag = String::new();
    for _ in 0..3 {
        let resp = app.get("/favicon.ico").await;
        assert_eq!(resp.status(), 200);
        assert_eq!(header(&resp, "content-type"), Some("image/x-icon"));
        assert_eq!(
            header(&resp, "cache-control"),
            Some("public, max-age=604800")
        );
        assert!(header(&resp, "ratelimit-limit").is_none(), "not counted");
        etag = header(&resp, "etag").expect("a strong ETag").to_string();
        let body = resp.bytes().await.unwrap();
        // An ICO file (reserved 0, type 1, one image) holding a PNG.
        assert_eq!(&body[..6], &[0, 0, 1, 0, 1, 0]);
        assert_eq!(&body[22..26], b"\x89PNG");
    }
    let again = app
        .send(
            reqwest::Method::GET,
            "/favicon.ico",
            &[("If-None-Match", etag.as_str())],
        )
        .await;
    assert_eq!(again.status(), 304);
    assert_eq!(
        header(&again, "cache-control"),
        Some("public, max-age=604800")
    );
    // The one page view of the minute is still there, and the page names the icon.
    let doc = page(&app, "/2026/12", 200).await;
    let icon = doc
        .select(&sel("link[rel=icon]"))
        .next()
        .expect("an icon link");
    assert_eq!(icon.value().attr("href"), Some("/favicon.ico"));
    assert_eq!(app.get("/2026/11").await.status(), 429);
}

#[tokio::test]
async fn every_page_has_a_description_in_its_language() {
    let app = spawn_real_app().await;
    let manifest = app.json("/data/manifest.json").await;
    let (first, last) = (
        manifest["first_year"].to_string(),
        manifest["last_year"].to_string(),
    );
    let mut seen = BTreeSet::new();
    for lang in ["lt", "en", "pl", "ru"] {
        for path in [
            "/",
            "/2026",
            "/2026/12",
            "/2026/12/24",
            "/vardai",
            "/nowhere",
        ] {
            let status = if path == "/nowhere" { 404 } else { 200 };
            let doc = page(&app, &format!("{path}?lang={lang}"), status).await;
            let metas: Vec<_> = doc.select(&sel("meta[name=description]")).collect();
            assert_eq!(metas.len(), 1, "{path} {lang}");
            let content = metas[0].value().attr("content").unwrap();
            assert!(
                content.len() > 40 && content.contains(&first) && content.contains(&last),
                "{path} {lang}: {content}"
            );
            assert!(!content.contains('{'), "{path} {lang}: {content}");
            seen.insert(content.to_string());
        }
    }
    assert_eq!(seen.len(), 4, "one description per language: {seen:?}");
}

/// The `dd` of the year page's working-time summary whose `dt` is `label`.
fn summary_value(doc: &Html, label: &str) -> String {
    let rows = sel("section.summary dl div");
    let row = doc
        .select(&rows)
        .find(|row| row.select(&sel("dt")).next().map(text).as_deref() == Some(label))
        .unwrap_or_else(|| panic!("no summary row {label}"));
    text(row.select(&sel("dd")).next().unwrap())
}

#[tokio::test]
async fn the_year_page_counts_any_weekly_hours_and_norm() {
    let app = spawn_real_app().await;
    let (key, _) = app.key(None, None);
    // The form: a plain GET back to the page, the weekly hours and the three norms.
    let doc = page(&app, "/2026?lang=en", 200).await;
    let form = doc.select(&sel("form.contract")).next().unwrap();
    assert_eq!(form.value().attr("method"), Some("get"));
    assert_eq!(form.value().attr("action"), Some("/2026"));
    let hidden: Vec<_> = form
        .select(&sel("input[type=hidden]"))
        .map(|i| {
            (
                i.value().attr("name").unwrap(),
                i.value().attr("value").unwrap(),
            )
        })
        .collect();
    assert_eq!(hidden, [("lang", "en")], "the language is kept");
    let field = form.select(&sel("input#hours_per_week")).next().unwrap();
    assert_eq!(field.value().attr("name"), Some("hours_per_week"));
    assert_eq!(field.value().attr("value"), Some("40"));
    let norms: Vec<_> = form
        .select(&sel("select[name=norm] option"))
        .map(|o| {
            (
                o.value().attr("value").unwrap(),
                o.value().attr("selected").is_some(),
            )
        })
        .collect();
    assert_eq!(
        norms,
        [("full", true), ("reduced", false), ("part_time", false)]
    );
    assert_eq!(doc.select(&sel("form.contract label")).count(), 2);
    assert_eq!(summary_value(&doc, "Working hours"), "2002");

    // What the form sends: the page shows what /working-time answers for the contract.
    for (query, weekly, hours, shortened) in [
        ("hours_per_week=36&norm=reduced", "36 hours", "1807.2", "0"),
        ("hours_per_week=20&norm=part_time", "20 hours", "998", "6"),
        ("hours_per_week=37&norm=reduced", "37 hours", "1857.4", "0"),
    ] {
        let doc = page(&app, &format!("/2026?lang=en&{query}"), 200).await;
        let api = app
            .json_keyed(&format!("/api/v1/working-time?year=2026&{query}"), &key)
            .await;
        assert_eq!(api["total"]["working_hours"].to_string(), hours, "{query}");
        assert_eq!(summary_value(&doc, "Working hours"), hours, "{query}");
        assert_eq!(summary_value(&doc, "Shortened days"), shortened, "{query}");
        assert_eq!(summary_value(&doc, "Working days"), "251", "{query}");
        assert!(doc.select(&sel("form.contract .error")).next().is_none());
        let note = text(doc.select(&sel("#summary-h small")).next().unwrap());
        assert!(note.contains(weekly), "{note}");
    }
    // Lithuanian writes a decimal comma.
    let doc = page(&app, "/2026?hours_per_week=36&norm=reduced", 200).await;
    assert_eq!(summary_value(&doc, "Darbo valandos"), "1807,2");

    // Wrong input: the 40-hour week, a message beside the form, never an error status.
    for (query, words) in [
        ("hours_per_week=36", "choose a reduced norm"),
        ("hours_per_week=36&norm=full", "choose a reduced norm"),
        ("hours_per_week=40&norm=reduced", "enter fewer hours"),
        ("hours_per_week=abc&norm=reduced", "above 0 and at most 40"),
        ("hours_per_week=99&norm=part_time", "above 0 and at most 40"),
        (
            "hours_per_week=36&norm=%3Cscript%3E",
            "above 0 and at most 40",
        ),
    ] {
        let doc = page(&app, &format!("/2026?lang=en&{query}"), 200).await;
        let error = doc.select(&sel("form.contract p.error[role=alert]")).next();
        let error = error.unwrap_or_else(|| panic!("{query}: no message"));
        assert!(text(error).contains(words), "{query}: {}", text(error));
        assert_eq!(summary_value(&doc, "Working hours"), "2002", "{query}");
        let field = doc.select(&sel("input#hours_per_week")).next().unwrap();
        assert_eq!(field.value().attr("aria-invalid"), Some("true"));
    }
}
