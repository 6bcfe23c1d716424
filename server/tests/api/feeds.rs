//! The iCalendar feeds (`/api/v1/feeds/*.ics`), read with a real iCalendar parser (`ical`)
//! and checked against the dataset's own year files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ical::parser::ical::component::{IcalCalendar, IcalEvent};
use kalendorius_dataset::{TransferKind, YearFile};

use crate::helpers::*;

/// Years of the feeds' dataset: the shared years plus the current ones (2026 and around).
const FEED_YEARS: std::ops::RangeInclusive<i32> = 2009..=2027;

/// An output root with a dataset of [`FEED_YEARS`] from the fixture sources, built once.
fn feed_dataset() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kalendorius-feeds-dataset");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
        build_dataset(&dir, FEED_YEARS);
        dir
    })
}

async fn spawn_feeds_app(root: &Path) -> TestApp {
    spawn_app_with(AppOptions {
        data: Some(root.to_path_buf()),
        limits: Some(kalendorius_server::limits::LimitsConfig::all(1_000_000)),
        ..AppOptions::default()
    })
    .await
}

/// A year file of the feeds' dataset.
fn year_file(root: &Path, year: i32) -> YearFile {
    let path = root.join("current").join(format!("years/{year}.json"));
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A feed's raw text, checked for the line rules, and its parsed calendar.
pub(crate) struct Feed {
    pub(crate) raw: String,
    pub(crate) calendar: IcalCalendar,
}

impl Feed {
    /// The value of the calendar property `name`.
    fn property(&self, name: &str) -> Option<&str> {
        self.calendar
            .properties
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.value.as_deref())
    }
}

/// The value of `name` in `event` (escapes kept).
pub(crate) fn prop<'a>(event: &'a IcalEvent, name: &str) -> Option<&'a str> {
    event
        .properties
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| p.value.as_deref())
}

/// A TEXT value without its escapes.
pub(crate) fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') | Some('N') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// GET a feed: 200, `text/calendar`, lines of at most 75 octets ended by CRLF, and one
/// calendar that parses.
pub(crate) async fn feed(app: &TestApp, path: &str) -> Feed {
    let resp = app.get(path).await;
    assert_eq!(resp.status(), 200, "GET {path}");
    assert_eq!(
        header(&resp, "content-type"),
        Some("text/calendar; charset=utf-8")
    );
    let raw = String::from_utf8(resp.bytes().await.unwrap().to_vec()).expect("UTF-8");
    assert!(
        raw.ends_with("\r\n"),
        "{path}: the last line ends with CRLF"
    );
    for line in raw.strip_suffix("\r\n").unwrap().split("\r\n") {
        assert!(
            !line.contains('\n') && !line.contains('\r'),
            "{path}: a bare line break in {line:?}"
        );
        assert!(line.len() <= 75, "{path}: {} octets: {line:?}", line.len());
    }
    let mut calendars = ical::IcalParser::new(std::io::BufReader::new(raw.as_bytes()));
    let calendar = calendars
        .next()
        .expect("one calendar")
        .unwrap_or_else(|e| panic!("{path} does not parse: {e}"));
    assert!(calendars.next().is_none(), "{path}: exactly one calendar");
    let feed = Feed { raw, calendar };
    assert_eq!(feed.property("VERSION"), Some("2.0"));
    assert!(feed
        .property("PRODID")
        .is_some_and(|p| p.contains("kalendorius")));
    assert_eq!(feed.property("REFRESH-INTERVAL"), Some("P1D"));
    assert_eq!(feed.property("X-PUBLISHED-TTL"), Some("P1D"));
    for event in &feed.calendar.events {
        for name in ["UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"] {
            assert!(
                prop(event, name).is_some(),
                "{path}: an event without {name}"
            );
        }
        let start = event
            .properties
            .iter()
            .find(|p| p.name == "DTSTART")
            .unwrap();
        let params = start.params.as_ref().expect("DTSTART has VALUE=DATE");
        assert!(params
            .iter()
            .any(|(k, v)| k == "VALUE" && v == &vec!["DATE".to_string()]));
    }
    feed
}

/// `YYYYMMDD` of a dataset date.
fn basic(date: kalendorius_dataset::Date) -> String {
    date.to_string().replace('-', "")
}

/// Expected red-scope events of `year` in `lang`: start date → summary.
fn expected_red(
    root: &Path,
    year: i32,
    lang: kalendorius_dataset::Lang,
) -> BTreeMap<String, String> {
    let mut expected = BTreeMap::new();
    for day in year_file(root, year).days {
        let red: Vec<&str> = day
            .holidays
            .iter()
            .filter(|h| h.is_red)
            .map(|h| h.name(lang))
            .collect();
        let summary = if !red.is_empty() {
            red.join(", ")
        } else if let Some(t) = day
            .transfer
            .as_ref()
            .filter(|t| t.kind == TransferKind::DayOff)
        {
            match lang {
                kalendorius_dataset::Lang::Lt => t.name_lt.clone(),
                kalendorius_dataset::Lang::En => t.name_en.clone(),
                kalendorius_dataset::Lang::Pl => t.name_pl.clone(),
                kalendorius_dataset::Lang::Ru => t.name_ru.clone(),
            }
        } else {
            continue;
        };
        expected.insert(basic(day.date), summary);
    }
    expected
}

/// Start date → unescaped summary of every event.
fn events_by_date(feed: &Feed) -> BTreeMap<String, String> {
    let mut seen = BTreeMap::new();
    for event in &feed.calendar.events {
        let start = prop(event, "DTSTART").unwrap().to_string();
        let summary = unescape(prop(event, "SUMMARY").unwrap());
        assert!(
            seen.insert(start.clone(), summary).is_none(),
            "two events on {start}"
        );
    }
    seen
}

#[tokio::test]
async fn red_scope_has_one_event_per_red_date_of_2026_with_the_names_of_each_language() {
    let root = feed_dataset();
    let app = spawn_feeds_app(root).await;
    let mut calendar_names = BTreeSet::new();
    for lang in kalendorius_dataset::Lang::ALL {
        let code = lang.code();
        let feed = feed(
            &app,
            &format!("/api/v1/feeds/holidays.ics?lang={code}&from_year=2026&to_year=2026"),
        )
        .await;
        let expected = expected_red(root, 2026, lang);
        assert!(expected.len() >= 10, "2026 has its red days");
        assert_eq!(events_by_date(&feed), expected, "{code}");
        for event in &feed.calendar.events {
            let start = prop(event, "DTSTART").unwrap();
            let end = prop(event, "DTEND").unwrap();
            let next = chrono::NaiveDate::parse_from_str(start, "%Y%m%d")
                .unwrap()
                .succ_opt()
                .unwrap();
            assert_eq!(
                end,
                next.format("%Y%m%d").to_string(),
                "the end is exclusive"
            );
        }
        if lang == kalendorius_dataset::Lang::Ru {
            // Cyrillic takes two octets a character: long lines are folded, and unfold whole.
            assert!(feed.raw.contains("\r\n "), "a folded line");
            let description = feed.property("X-WR-CALDESC").unwrap();
            assert!(description.len() > 75 && description.contains("kalendorius"));
        }
        calendar_names.insert(feed.property("X-WR-CALNAME").unwrap().to_string());
    }
    assert_eq!(
        calendar_names.len(),
        4,
        "a calendar name per language: {calendar_names:?}"
    );
}

#[tokio::test]
async fn two_red_holidays_on_one_date_make_one_event_with_joined_escaped_names() {
    let app = spawn_feeds_app(feed_dataset()).await;
    let feed = feed(
        &app,
        "/api/v1/feeds/holidays.ics?from_year=2022&to_year=2022",
    )
    .await;
    let may_first: Vec<&IcalEvent> = feed
        .calendar
        .events
        .iter()
        .filter(|e| prop(e, "DTSTART") == Some("20220501"))
        .collect();
    assert_eq!(may_first.len(), 1);
    let summary = prop(may_first[0], "SUMMARY").unwrap();
    assert_eq!(
        summary, "Tarptautinė darbo diena\\, Motinos diena",
        "the comma is escaped"
    );
    assert!(feed
        .raw
        .contains("SUMMARY:Tarptautinė darbo diena\\, Motinos diena\r\n"));
    let status = app.json("/api/v1/laisvadienis?date=2022-05-01").await;
    assert_eq!(unescape(summary), status["holiday_name"].as_str().unwrap());
    let uid = prop(may_first[0], "UID").unwrap();
    assert!(uid.starts_with("20220501-"), "{uid}");
}

#[tokio::test]
async fn a_declared_day_off_is_an_event_of_the_red_scope() {
    let app = spawn_feeds_app(feed_dataset()).await;
    for lang in ["lt", "en"] {
        let feed = feed(
            &app,
            &format!("/api/v1/feeds/holidays.ics?lang={lang}&from_year=2010&to_year=2010"),
        )
        .await;
        let events = events_by_date(&feed);
        let christmas_eve = events
            .get("20101224")
            .expect("2010-12-24 was declared a day off");
        let expected = &expected_red(
            feed_dataset(),
            2010,
            kalendorius_dataset::Lang::parse(lang).unwrap(),
        )["20101224"];
        assert_eq!(christmas_eve, expected);
    }
    // In 2010 Christmas Eve was not red: the day off is a transfer's.
    let day = &year_file(feed_dataset(), 2010).days[357];
    assert_eq!(day.date.to_string(), "2010-12-24");
    assert!(day.holidays.iter().all(|h| !h.is_red));
}

#[tokio::test]
async fn shortened_days_are_listed_only_when_asked() {
    let root = feed_dataset();
    let app = spawn_feeds_app(root).await;
    let shortened: BTreeSet<String> = year_file(root, 2026)
        .days
        .iter()
        .filter(|d| d.shorter_workday)
        .map(|d| basic(d.date))
        .collect();
    assert!(!shortened.is_empty());
    let category = |feed: &Feed| -> BTreeSet<String> {
        feed.calendar
            .events
            .iter()
            .filter(|e| prop(e, "CATEGORIES") == Some("shortened_workday"))
            .map(|e| prop(e, "DTSTART").unwrap().to_string())
            .collect()
    };
    let with = feed(
        &app,
        "/api/v1/feeds/holidays.ics?shortened=true&from_year=2026&to_year=2026",
    )
    .await;
    assert_eq!(category(&with), shortened);
    let red = expected_red(root, 2026, kalendorius_dataset::Lang::Lt).len();
    assert_eq!(with.calendar.events.len(), red + shortened.len());
    let without = feed(
        &app,
        "/api/v1/feeds/holidays.ics?shortened=false&from_year=2026&to_year=2026",
    )
    .await;
    assert!(category(&without).is_empty());
    assert_eq!(without.calendar.events.len(), red);
}

#[tokio::test]
async fn the_all_scope_has_one_event_per_holiday_record_with_its_type() {
    let root = feed_dataset();
    let app = spawn_feeds_app(root).await;
    let feed = feed(
        &app,
        "/api/v1/feeds/holidays.ics?scope=all&lang=en&from_year=2010&to_year=2012",
    )
    .await;
    let mut expected: BTreeMap<(String, String), String> = BTreeMap::new();
    for year in 2010..=2012 {
        for day in year_file(root, year).days {
            for h in &day.holidays {
                expected.insert(
                    (basic(day.date), h.name_en.clone()),
                    h.kind.as_str().to_string(),
                );
            }
            if let Some(t) = day
                .transfer
                .as_ref()
                .filter(|t| t.kind == TransferKind::DayOff)
            {
                expected.insert((basic(day.date), t.name_en.clone()), "day_off".to_string());
            }
        }
    }
    let seen: BTreeMap<(String, String), String> = feed
        .calendar
        .events
        .iter()
        .map(|e| {
            (
                (
                    prop(e, "DTSTART").unwrap().to_string(),
                    unescape(prop(e, "SUMMARY").unwrap()),
                ),
                prop(e, "CATEGORIES").unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        seen.len(),
        feed.calendar.events.len(),
        "no two events alike"
    );
    assert_eq!(seen, expected);
    let uids: BTreeSet<&str> = feed
        .calendar
        .events
        .iter()
        .map(|e| prop(e, "UID").unwrap())
        .collect();
    assert_eq!(uids.len(), feed.calendar.events.len(), "UIDs are unique");
}

#[tokio::test]
async fn the_default_window_is_last_year_to_five_ahead_within_the_dataset() {
    use chrono::Datelike;
    let root = feed_dataset();
    let app = spawn_feeds_app(root).await;
    let this_year = kalendorius_server::clock::vilnius_date(std::time::SystemTime::now()).year();
    let years = (this_year - 1).max(*FEED_YEARS.start())..=(this_year + 5).min(*FEED_YEARS.end());
    let feed = feed(&app, "/api/v1/feeds/holidays.ics").await;
    let expected: usize = years
        .clone()
        .map(|y| expected_red(root, y, kalendorius_dataset::Lang::Lt).len())
        .sum();
    assert_eq!(feed.calendar.events.len(), expected, "years {years:?}");
    // A known window, the years given.
    let known = feed_events(
        &app,
        "/api/v1/feeds/holidays.ics?from_year=2012&to_year=2014",
    )
    .await;
    let expected: usize = (2012..=2014)
        .map(|y| expected_red(root, y, kalendorius_dataset::Lang::Lt).len())
        .sum();
    assert_eq!(known, expected);
    // One bound given: the other is the default one, moved to it if they would cross.
    let until = feed_events(&app, "/api/v1/feeds/holidays.ics?to_year=2010").await;
    assert_eq!(
        until,
        expected_red(root, 2010, kalendorius_dataset::Lang::Lt).len()
    );
}

async fn feed_events(app: &TestApp, path: &str) -> usize {
    feed(app, path).await.calendar.events.len()
}

#[tokio::test]
async fn bad_parameters_are_json_errors() {
    let app = spawn_feeds_app(feed_dataset()).await;
    let cases = [
        ("from_year=2000", "invalid_year"),
        ("to_year=2101", "invalid_year"),
        ("from_year=2020&to_year=2019", "invalid_year"),
        ("from_year=02020", "invalid_year"),
        ("scope=some", "invalid_param"),
        ("shortened=yes", "invalid_param"),
        ("lang=de", "invalid_lang"),
        ("lang=en&lang=lt", "invalid_param"),
    ];
    for (query, code) in cases {
        let message = assert_error(
            app.get(&format!("/api/v1/feeds/holidays.ics?{query}"))
                .await,
            400,
            code,
        )
        .await;
        assert!(!message.is_empty());
    }
    assert_error(
        app.get("/api/v1/feeds/name-days.ics?lang=xx").await,
        400,
        "invalid_lang",
    )
    .await;
    assert_error(
        app.get("/api/v1/feeds/holidays.ics/").await,
        404,
        "not_found",
    )
    .await;
}

#[tokio::test]
async fn name_days_repeat_every_year_and_february_29_falls_on_the_last_day_of_february() {
    let root = feed_dataset();
    let app = spawn_feeds_app(root).await;
    // The names of a leap year of the dataset, by month and day.
    let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for day in year_file(root, 2024).days {
        if !day.name_days.is_empty() {
            expected.insert(
                day.date.to_string()[5..].replace('-', ""),
                day.name_days.iter().map(|n| n.name.clone()).collect(),
            );
        }
    }
    assert!(expected.contains_key("0229"));
    for lang in ["lt", "en", "pl", "ru"] {
        let feed = feed(&app, &format!("/api/v1/feeds/name-days.ics?lang={lang}")).await;
        assert_eq!(feed.calendar.events.len(), expected.len(), "{lang}");
        for event in &feed.calendar.events {
            let start = prop(event, "DTSTART").unwrap();
            let month_day = &start[4..];
            let names = &expected[month_day];
            let summary = unescape(prop(event, "SUMMARY").unwrap());
            assert!(
                summary.ends_with(&names.join(", ")),
                "{summary} has {names:?}"
            );
            let rule = prop(event, "RRULE").unwrap();
            if month_day == "0229" {
                assert_eq!(rule, "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1");
                assert!(chrono::NaiveDate::parse_from_str(start, "%Y%m%d").is_ok());
            } else {
                assert_eq!(rule, "FREQ=YEARLY");
            }
            assert_eq!(
                prop(event, "UID").unwrap(),
                format!("name-days-{month_day}@kalendorius")
            );
        }
    }
    assert_eq!(
        feed(&app, "/api/v1/feeds/name-days.ics?lang=en")
            .await
            .property("X-WR-CALNAME"),
        Some("Lithuanian name days")
    );
}

#[tokio::test]
async fn uids_stay_the_same_across_dataset_versions() {
    // A second dataset from sources where one holiday's English name changed: another
    // dataset version, the same holidays on the same dates.
    let tmp = tempfile::tempdir().unwrap();
    let sources = tmp.path().join("sources");
    copy_dir(&fixture_sources(), &sources);
    let red = sources.join("holidays/red.toml");
    let text = std::fs::read_to_string(&red).unwrap();
    assert!(text.contains("en = \"New Year's Day\""));
    std::fs::write(
        &red,
        text.replace("en = \"New Year's Day\"", "en = \"New Year\""),
    )
    .unwrap();
    let out = tmp.path().join("output");
    kalendorius_generator::build(&kalendorius_generator::BuildOptions {
        sources,
        out: out.clone(),
        years: Some(FEED_YEARS),
        keep: kalendorius_generator::versions::DEFAULT_KEEP,
    })
    .unwrap();

    let old = spawn_feeds_app(feed_dataset()).await;
    let new = spawn_feeds_app(&out).await;
    for query in [
        "lang=en&from_year=2020&to_year=2023",
        "scope=all&lang=en&shortened=true&from_year=2020&to_year=2023",
    ] {
        let path = format!("/api/v1/feeds/holidays.ics?{query}");
        let (a, b) = (old.get(&path).await, new.get(&path).await);
        assert_ne!(
            header(&a, "x-dataset-version"),
            header(&b, "x-dataset-version")
        );
        assert_ne!(header(&a, "etag"), header(&b, "etag"));
        let by_uid = |feed: &Feed| -> BTreeMap<String, (String, String)> {
            feed.calendar
                .events
                .iter()
                .map(|e| {
                    (
                        prop(e, "UID").unwrap().to_string(),
                        (
                            prop(e, "DTSTART").unwrap().to_string(),
                            unescape(prop(e, "SUMMARY").unwrap()),
                        ),
                    )
                })
                .collect()
        };
        let (a, b) = (
            by_uid(&feed(&old, &path).await),
            by_uid(&feed(&new, &path).await),
        );
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "{query}"
        );
        let mut renamed = 0;
        for (uid, (start, summary)) in &a {
            assert_eq!(&b[uid].0, start);
            if summary != &b[uid].1 {
                assert_eq!(
                    (summary.as_str(), b[uid].1.as_str()),
                    ("New Year's Day", "New Year")
                );
                renamed += 1;
            }
        }
        assert_eq!(
            renamed, 4,
            "{query}: one New Year's Day a year, updated in place"
        );
    }
}

#[tokio::test]
async fn feeds_are_public_cacheable_and_counted_per_address() {
    let app = spawn_app().await;
    let path = "/api/v1/feeds/holidays.ics?from_year=2020&to_year=2024";
    let resp = app.get(path).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(header(&resp, "cache-control"), Some("public, max-age=3600"));
    assert_eq!(header_u64(&resp, "ratelimit-limit"), 60);
    assert_eq!(header(&resp, "access-control-allow-origin"), Some("*"));
    let tag = header(&resp, "etag").unwrap().to_string();
    assert!(tag.starts_with('"'), "a strong tag");
    let body = resp.bytes().await.unwrap();
    // Built once: the same bytes and tag again.
    let again = app.get(path).await;
    assert_eq!(header(&again, "etag"), Some(tag.as_str()));
    assert_eq!(again.bytes().await.unwrap(), body);
    let cached = app
        .send(reqwest::Method::GET, path, &[("If-None-Match", &tag)])
        .await;
    assert_eq!(cached.status(), 304);
    let head = app.send(reqwest::Method::HEAD, path, &[]).await;
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "etag"), Some(tag.as_str()));
    assert_eq!(header_u64(&head, "content-length"), body.len() as u64);
    let gz = app
        .send(reqwest::Method::GET, path, &[("Accept-Encoding", "gzip")])
        .await;
    assert_eq!(header(&gz, "content-encoding"), Some("gzip"));
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&gz.bytes().await.unwrap()[..]),
        &mut plain,
    )
    .unwrap();
    assert_eq!(plain, body);
}

#[tokio::test]
async fn school_holidays_feed_has_one_multi_day_event_per_period() {
    let app = spawn_real_app().await;
    let all = feed(&app, "/api/v1/feeds/school-holidays.ics?lang=en").await;
    assert_eq!(
        all.property("X-WR-CALNAME"),
        Some("Lithuanian school holidays")
    );
    let event = |feed: &Feed, uid: &str| -> (String, String, String) {
        let e = feed
            .calendar
            .events
            .iter()
            .find(|e| prop(e, "UID") == Some(uid))
            .unwrap_or_else(|| panic!("no event {uid}"));
        (
            prop(e, "DTSTART").unwrap().to_string(),
            prop(e, "DTEND").unwrap().to_string(),
            unescape(prop(e, "SUMMARY").unwrap()),
        )
    };
    // DTEND is the day after the last day off; the two spring breaks of 2025-2026 apart.
    assert_eq!(
        event(&all, "school-2025-2026-spring-g1-10@kalendorius"),
        (
            "20260330".into(),
            "20260407".into(),
            "Spring (Easter) break (grades 1–10)".into()
        )
    );
    assert_eq!(
        event(&all, "school-2025-2026-spring-g11-12@kalendorius"),
        (
            "20260406".into(),
            "20260413".into(),
            "Spring (Easter) break (grades 11–12)".into()
        )
    );
    // Across the new year.
    assert_eq!(
        event(&all, "school-2025-2026-christmas-g1-12@kalendorius").1,
        "20260105"
    );
    let uids: std::collections::BTreeSet<&str> = all
        .calendar
        .events
        .iter()
        .map(|e| prop(e, "UID").unwrap())
        .collect();
    assert_eq!(uids.len(), all.calendar.events.len(), "UIDs are unique");
    // One grade: only its periods, the same UIDs.
    let grade = feed(&app, "/api/v1/feeds/school-holidays.ics?grade=11").await;
    assert!(grade
        .calendar
        .events
        .iter()
        .all(|e| uids.contains(prop(e, "UID").unwrap())));
    assert!(grade.calendar.events.len() < all.calendar.events.len());
    assert_eq!(
        event(&grade, "school-2025-2026-spring-g11-12@kalendorius").2,
        "Pavasario (Velykų) atostogos"
    );
    assert!(!grade
        .raw
        .contains("UID:school-2025-2026-spring-g1-10@kalendorius"));
    // Public, and refused like the other feeds.
    let resp = app.get("/api/v1/feeds/school-holidays.ics?grade=13").await;
    assert_error(resp, 400, "invalid_param").await;
}
