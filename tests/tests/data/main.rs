//! Checks on the real curated data (`sources/`): they fail when the data goes wrong, not only
//! when the code does. The dataset is built once per run from the repository's sources and
//! read back through the dataset crate, as the server reads it.
//!
//! Expectations are encoded here independently of the sources: the period table of the
//! legal history (docs/data.md §2.1) and a separate Easter
//! algorithm.

mod expected;
mod working_time;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::OnceLock;

use chrono::{Datelike, NaiveDate, Weekday};
use kalendorius_dataset::{open_dataset, Day, HolidayType};
use kalendorius_generator::{build, BuildOptions};

/// The years whose published files [`year_file`] keeps, as bytes.
const KEPT_FILES: std::ops::RangeInclusive<i32> = 1990..=2030;

/// The published file `years/YYYY.json` of a year in [`KEPT_FILES`], parsed as plain JSON
/// (not through the dataset crate): what a downstream consumer reads.
fn year_file(y: i32) -> serde_json::Value {
    let bytes = built().1.get(&y).unwrap_or_else(|| panic!("{y} not kept"));
    serde_json::from_slice(bytes).unwrap()
}

/// Every day 1583..2100 of the real data, by date.
fn days() -> &'static BTreeMap<NaiveDate, Day> {
    &built().0
}

/// The real data built once: every day read back through the dataset crate, and the bytes
/// of the published year files of [`KEPT_FILES`] (the build's directory is temporary).
#[allow(clippy::type_complexity)]
fn built() -> &'static (BTreeMap<NaiveDate, Day>, BTreeMap<i32, Vec<u8>>) {
    static BUILT: OnceLock<(BTreeMap<NaiveDate, Day>, BTreeMap<i32, Vec<u8>>)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let out = tempfile::tempdir().unwrap();
        let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sources");
        build(&BuildOptions {
            sources,
            out: out.path().to_path_buf(),
            years: None,
            keep: kalendorius_generator::versions::DEFAULT_KEEP,
        })
        .expect("the repository's sources build");
        let mut days = BTreeMap::new();
        let dataset = open_dataset(out.path()).unwrap();
        dataset
            .read_days(|d| {
                days.insert(d.date.naive(), d);
            })
            .unwrap();
        let files = KEPT_FILES
            .map(|y| {
                let path = dataset.path.join(kalendorius_dataset::layout::year_file(y));
                (y, std::fs::read(path).unwrap())
            })
            .collect();
        (days, files)
    })
}

fn year(y: i32) -> impl Iterator<Item = &'static Day> {
    days()
        .range(
            NaiveDate::from_ymd_opt(y, 1, 1).unwrap()..=NaiveDate::from_ymd_opt(y, 12, 31).unwrap(),
        )
        .map(|(_, d)| d)
}

#[test]
fn covers_every_day_1583_to_2100() {
    assert_eq!(days().len(), 189_196);
    assert_eq!(days().keys().next().unwrap().to_string(), "1583-01-01");
    assert_eq!(days().keys().last().unwrap().to_string(), "2100-12-31");
}

#[test]
fn every_day_has_a_name_day() {
    for d in days().values() {
        assert!(!d.name_days.is_empty(), "{} has no name day", d.date);
    }
}

#[test]
fn every_holiday_has_four_names_a_source_and_a_consistent_id() {
    let mut kinds: HashMap<&str, HolidayType> = HashMap::new();
    for d in days().values() {
        let mut ids = BTreeSet::new();
        for h in &d.holidays {
            for name in [&h.name_lt, &h.name_en, &h.name_pl, &h.name_ru] {
                assert!(!name.trim().is_empty(), "{} {}: empty name", d.date, h.id);
            }
            assert!(
                !h.source.trim().is_empty(),
                "{} {}: no source",
                d.date,
                h.id
            );
            assert!(ids.insert(&h.id), "{}: id {} twice", d.date, h.id);
            // One id is one record: its type never changes.
            assert_eq!(*kinds.entry(&h.id).or_insert(h.kind), h.kind, "{}", h.id);
        }
    }
    assert!(kinds.len() >= 100, "only {} distinct holidays", kinds.len());
}

#[test]
fn red_dates_follow_the_legal_periods_1990_to_2100() {
    for y in 1990..=2100 {
        let actual: BTreeSet<NaiveDate> = year(y)
            .filter(|d| d.holidays.iter().any(|h| h.is_red))
            .map(|d| d.date.naive())
            .collect();
        assert_eq!(actual, expected::red_dates(y), "red dates of {y}");
    }
    // And nothing is red before the law of 1990-10-25.
    for d in days().range(..NaiveDate::from_ymd_opt(1990, 10, 25).unwrap()) {
        assert!(d.1.holidays.iter().all(|h| !h.is_red), "{} is red", d.0);
    }
}

#[test]
fn red_holiday_records_per_year_match_the_period_table() {
    let count = |y| {
        year(y)
            .map(|d| d.holidays.iter().filter(|h| h.is_red).count())
            .sum::<usize>()
    };
    // docs/data.md §2.1: 9 holidays (1990-10-25 list), 11 (1996-97), 10, 11 (from
    // 2000-07-14), 12 (from 2001-05-23), 13 (2003), 14 (2008), 15 (2011), 16 (2020). Easter
    // Sunday and Monday count as two.
    for (y, n) in [
        (1991, 9),
        (1997, 11),
        (1999, 10),
        (2001, 11),
        (2002, 12),
        (2003, 13),
        (2008, 14),
        (2011, 15),
        (2020, 16),
        (2026, 16),
    ] {
        assert_eq!(count(y), n, "red holiday records in {y}");
    }
}

#[test]
fn holiday_names_of_2022_05_01_follow_the_labour_code_order() {
    let d = &days()[&NaiveDate::from_ymd_opt(2022, 5, 1).unwrap()];
    assert_eq!(
        d.holiday_name.as_deref(),
        Some("Tarptautinė darbo diena, Motinos diena")
    );
}

#[test]
fn moveable_days_fall_on_their_weekday() {
    let expected: &[(&str, Weekday)] = &[
        ("velykos", Weekday::Sun),
        ("antroji-velyku-diena", Weekday::Mon),
        ("uzgavenes", Weekday::Tue),
        ("pelenu-diena", Weekday::Wed),
        ("verbu-sekmadienis", Weekday::Sun),
        ("didysis-ketvirtadienis", Weekday::Thu),
        ("didysis-penktadienis", Weekday::Fri),
        ("didysis-sestadienis", Weekday::Sat),
        ("atvelykis", Weekday::Sun),
        ("sestines", Weekday::Sun),
        ("sekmines", Weekday::Sun),
        ("devintines", Weekday::Sun),
        ("motinos-diena", Weekday::Sun),
        ("tevo-diena", Weekday::Sun),
        ("advento-pradzia", Weekday::Sun),
    ];
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for d in days().values() {
        for h in &d.holidays {
            if let Some((id, weekday)) = expected.iter().find(|(id, _)| *id == h.id) {
                assert_eq!(d.date.weekday(), *weekday, "{id} on {}", d.date);
                *seen.entry(id).or_default() += 1;
            }
        }
    }
    // Easter and its offsets exist in every year.
    assert_eq!(seen["velykos"], 518);
    assert_eq!(seen["uzgavenes"], 518);
    assert_eq!(seen["devintines"], 518);
    for d in days()
        .values()
        .filter(|d| d.holidays.iter().any(|h| h.id == "velykos"))
    {
        assert_eq!(
            d.date.naive(),
            expected::easter(d.date.year()),
            "Easter {}",
            d.date.year()
        );
    }
}

#[test]
fn transfers_change_only_what_they_declare() {
    let mut transfers = 0;
    for d in days().values() {
        if let Some(t) = &d.transfer {
            transfers += 1;
            assert!(!t.source.is_empty() && !t.name_ru.is_empty(), "{}", d.date);
            match t.kind {
                kalendorius_dataset::TransferKind::DayOff => {
                    assert!(d.laisvadienis && !d.is_weekend, "{}", d.date)
                }
                kalendorius_dataset::TransferKind::WorkingDay => {
                    assert!(!d.laisvadienis && d.is_weekend, "{}", d.date)
                }
            }
        }
    }
    assert!(transfers >= 20, "only {transfers} transfers");
    // The confirmed ones (docs/data.md §2.2, §2.3), and the decided 2011 pair.
    for (date, off) in [
        ("1999-07-05", true),
        ("1999-07-03", false),
        // Resolution No. 1413 of 2005-12-22 [S93].
        ("2006-07-07", true),
        ("2006-07-01", false),
        // Resolution No. 1405 of 2007-12-27: its three transfers [S92].
        ("2008-03-10", true),
        ("2008-03-15", false),
        ("2008-05-02", true),
        ("2008-05-10", false),
        ("2008-06-23", true),
        ("2008-06-28", false),
        ("2008-05-05", true),
        ("2010-12-24", true),
        ("2011-02-19", false),
        // Decided rather than confirmed (sources/transfers.toml, docs/data.md §2.3): the 2011
        // bridge day (derived) and its working Saturday (uncertain, decided in the 2026 review).
        ("2011-10-31", true),
        ("2011-11-05", false),
    ] {
        let d = &days()[&NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap()];
        assert!(d.transfer.is_some(), "{date} has no transfer");
        assert_eq!(d.laisvadienis, off, "{date}");
    }
    // 2008-06-23 is a declared day off before Midsummer (Tue Jun 24): nothing is shortened
    // by the eve rule in the 5-day week, and Sat Jun 28 is a full working day.
    let on = |date: &str| &days()[&NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap()];
    assert!(!on("2008-06-20").shorter_workday && !on("2008-06-23").shorter_workday);
    assert_eq!(on("2008-06-28").working_hours_5, 8);
}

#[test]
fn the_six_day_week_follows_exactly_the_days_in_lieu_of_sunday_holidays() {
    // Labour Code art. 162¹ moved the rest days of art. 161 (the 6-day week's is Sunday);
    // government transfers move a Saturday rest day (docs/data.md §2.2, §2.3). Worked out
    // from the calendar, not from the sources: a day off is in lieu of a Sunday holiday when
    // the run of red days just before it contains a Sunday.
    let mut in_lieu_of_sunday = Vec::new();
    for d in days().values() {
        let Some(t) = &d.transfer else { continue };
        if t.kind != kalendorius_dataset::TransferKind::DayOff {
            assert!(!t.six_day_week, "{}", d.date);
            continue;
        }
        let mut date = d.date.naive().pred_opt().unwrap();
        let mut after_sunday = false;
        while days()[&date].carries_red_holiday() {
            after_sunday |= date.weekday() == Weekday::Sun;
            date = date.pred_opt().unwrap();
        }
        assert_eq!(t.six_day_week, after_sunday, "{}", d.date);
        if after_sunday {
            in_lieu_of_sunday.push(d.date.to_string());
        }
    }
    assert_eq!(
        in_lieu_of_sunday,
        [
            "2006-01-02",
            "2006-04-18",
            "2006-05-08",
            "2007-03-12",
            "2007-04-10",
            "2007-05-07",
            "2007-06-25",
            "2008-03-25",
            "2008-05-05",
            "2008-06-02",
            "2008-07-07",
        ]
    );
}

/// The day of a date of the real data.
fn on(date: &str) -> &'static Day {
    &days()[&NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap()]
}

#[test]
fn every_red_date_shortened_day_and_transfer_names_its_legal_basis() {
    use kalendorius_dataset::Confidence;
    let (mut red, mut shortened, mut transfers) = (0, 0, 0);
    for day in days().values() {
        for h in day.holidays.iter().filter(|h| h.is_red) {
            red += 1;
            assert!(
                !h.basis.is_empty() && h.confidence.is_some(),
                "{} {}",
                day.date,
                h.id
            );
            for b in &h.basis {
                assert!(
                    !b.text_lt.is_empty()
                        && !b.text_en.is_empty()
                        && !b.text_pl.is_empty()
                        && !b.text_ru.is_empty(),
                    "{} {b:?}",
                    day.date
                );
            }
        }
        if day.shorter_workday || day.shorter_workday_6 {
            shortened += 1;
            assert_eq!(day.shorter_workday_basis.len(), 1, "{}", day.date);
        } else {
            assert!(day.shorter_workday_basis.is_empty(), "{}", day.date);
        }
        if let Some(t) = &day.transfer {
            transfers += 1;
            assert!(!t.basis.is_empty(), "{}", day.date);
        }
    }
    // Every red date from the first holiday of 1991 to 2100 is among them.
    for y in 1991..=2100 {
        assert!(
            year(y).any(|d| d.holidays.iter().any(|h| h.is_red)),
            "{y} has red dates"
        );
    }
    assert!(
        red > 1500 && shortened > 700 && transfers == 29,
        "{red} {shortened} {transfers}"
    );

    // The day in lieu of Mother's Day 2008 (Sunday May 4): art. 162¹ as X-458 worded it, as
    // sure as the sources say (confirmed: the 2008 order lists it).
    let t = on("2008-05-05").transfer.as_ref().unwrap();
    assert_eq!(t.basis[0].act, "IX-926");
    assert_eq!(t.basis[0].article.as_deref(), Some("162¹"));
    assert_eq!(t.basis[0].amended_by.as_deref(), Some("X-458"));
    assert_eq!(t.confidence, Confidence::Confirmed);
    // The working Saturday of 2011-11-05 is a documented choice.
    let t = on("2011-11-05").transfer.as_ref().unwrap();
    assert_eq!(t.confidence, Confidence::Uncertain);
    assert_eq!(t.basis[0].confidence, Confidence::Uncertain);
    // Christmas Eve 2026: Labour Code XII-2603 art. 123(1)(13); its eve, the eve rule of
    // the code in force (art. 112(6) since 2023), and in 2016 the 2002 code's.
    let kucios = &on("2026-12-24").holidays[0];
    assert_eq!(
        kucios.basis[0].text_lt,
        "Darbo kodekso (XII-2603) 123 str. 1 d. 13 p."
    );
    let eve = &on("2026-12-23").shorter_workday_basis[0];
    assert_eq!(
        (eve.act.as_str(), eve.article.as_deref(), eve.part),
        ("XII-2603", Some("112"), Some(6))
    );
    assert_eq!(on("2016-12-23").shorter_workday_basis[0].act, "IX-926");
    // The first red day of the Republic rests on Law I-712.
    assert_eq!(on("1991-01-01").holidays[0].basis[0].act, "I-712");
}
