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
    // 2000-07-14), 12 (from 2001-05-23), 13 (Jun 24, red from 2004), 14 (Father's Day, from
    // 2009), 15 (2011), 16 (2020). Easter Sunday and Monday count as two.
    for (y, n) in [
        (1991, 9),
        (1997, 11),
        (1999, 10),
        (2001, 11),
        (2002, 12),
        (2003, 12),
        (2004, 13),
        (2008, 13),
        (2009, 14),
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
        red > 1500 && shortened > 700 && transfers == 28,
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
    // Christmas Eve 2026: Labour Code XII-2603 art. 123(1)(13), numbered so by XIII-2415
    // (2020); its eve, the eve rule of the code in force (art. 112(6), as XIV-3034 worded it
    // from 2024-10-25), and in 2016 the 2002 code's.
    let kucios = &on("2026-12-24").holidays[0];
    assert_eq!(
        kucios.basis[0].text_lt,
        "Darbo kodekso (XII-2603) 123 str. 1 d. 13 p. (Nr. XIII-2415 redakcija)"
    );
    assert_eq!(kucios.basis[0].confidence, Confidence::Confirmed);
    let eve = &on("2026-12-23").shorter_workday_basis[0];
    assert_eq!(
        (
            eve.act.as_str(),
            eve.article.as_deref(),
            eve.part,
            eve.amended_by.as_deref()
        ),
        ("XII-2603", Some("112"), Some(6), Some("XIV-3034"))
    );
    // Before XIV-3034 came into force: part 6 as XIV-1032 renumbered it (eve of May 1).
    assert_eq!(
        on("2024-04-30").shorter_workday_basis[0]
            .amended_by
            .as_deref(),
        Some("XIV-1032")
    );
    assert_eq!(on("2016-12-23").shorter_workday_basis[0].act, "IX-926");
    // The first red day of the Republic rests on Law I-712.
    assert_eq!(on("1991-01-01").holidays[0].basis[0].act, "I-712");
}

/// The red holiday of `id` on `date`, if any.
fn red_holiday(date: &str, id: &str) -> Option<&'static kalendorius_dataset::Holiday> {
    on(date).holidays.iter().find(|h| h.id == id && h.is_red)
}

#[test]
fn fathers_day_is_red_from_2009_not_in_2008() {
    // The amendment voted on 2008-05-13 came into force on 2009-01-01 (docs/data.md §2.1):
    // Sun 2008-06-01 is an ordinary Sunday, Mon 2008-06-02 an ordinary working day (no day in
    // lieu), and Sat 2008-05-31 is not shortened in the 6-day week.
    assert!(on("2008-06-01")
        .holidays
        .iter()
        .any(|h| h.id == "tevo-diena"));
    assert!(red_holiday("2008-06-01", "tevo-diena").is_none());
    let monday = on("2008-06-02");
    assert!(monday.transfer.is_none() && !monday.laisvadienis);
    assert_eq!((monday.working_hours_5, monday.working_hours_6), (8, 7));
    assert!(!on("2008-05-31").shorter_workday_6);
    // The first red Father's Day, with the amending act and its item of art. 162(1).
    let first = red_holiday("2009-06-07", "tevo-diena").expect("Father's Day 2009 is red");
    assert_eq!(first.basis[0].item, Some(7));
    assert_eq!(
        first.basis[0].amended_by.as_deref(),
        Some("labour-code-amendment-tevo-diena")
    );
    // In 2008 the items after Mother's Day keep the numbers of the 2004 text: Jun 24 = 7.
    let jonines = red_holiday("2008-06-24", "jonines").unwrap();
    assert_eq!(jonines.basis[0].item, Some(7));
    assert_eq!(
        red_holiday("2009-06-24", "jonines").unwrap().basis[0].item,
        Some(8)
    );
}

#[test]
fn midsummer_2003_is_a_working_day() {
    // The amendment that added Jun 24 came after 2003-06-24 (docs/data.md §4): the day is an
    // ordinary Tuesday, its eve not shortened; 2004-06-24 is red.
    let day = on("2003-06-24");
    assert!(!day.laisvadienis && red_holiday("2003-06-24", "jonines").is_none());
    assert_eq!((day.working_hours_5, day.working_hours_6), (8, 7));
    assert!(!on("2003-06-23").shorter_workday && !on("2003-06-23").shorter_workday_6);
    assert!(red_holiday("2004-06-24", "jonines").is_some());
    // Until then the Code's list had no Jun 24: Jul 6 2003 was item 7, from 2003-07-25 item 8.
    let item = |date| red_holiday(date, "valstybes-diena").unwrap().basis[0].item;
    assert_eq!((item("2003-07-06"), item("2004-07-06")), (Some(7), Some(8)));
}

#[test]
fn statehood_day_has_its_2019_name_from_2019_05_08() {
    // XIII-2092 reworded art. 123(1)(9) from 2019-05-08 (docs/data.md §2.1).
    let name = |date| {
        let h = on(date)
            .holidays
            .iter()
            .find(|h| h.id == "valstybes-diena")
            .unwrap();
        (h.name_lt.as_str(), h.name_en.as_str())
    };
    assert_eq!(
        name("2018-07-06"),
        (
            "Valstybės (Lietuvos karaliaus Mindaugo karūnavimo) diena",
            "Statehood Day (Coronation of King Mindaugas)"
        )
    );
    for date in ["2019-07-06", "2026-07-06", "2100-07-06"] {
        assert_eq!(
            name(date).0,
            "Valstybės (Lietuvos karaliaus Mindaugo karūnavimo) ir Tautiškos giesmės diena",
            "{date}"
        );
    }
    assert_eq!(
        name("1996-07-06").0,
        "Mindaugo karūnavimo – Valstybės diena"
    );
    let basis = &red_holiday("2019-07-06", "valstybes-diena").unwrap().basis[0];
    assert_eq!(basis.amended_by.as_deref(), Some("XIII-2092"));
    let before = &red_holiday("2018-07-06", "valstybes-diena").unwrap().basis[0];
    assert_eq!(before.amended_by, None);
}

/// Labour Code XII-2603 art. 123(1) as in force today, copied from the register's
/// consolidated text (items 9 as XIII-2092 worded it, 12-14 as XIII-2415 numbered them):
/// "Paprastai nedirbama šiomis švenčių dienomis: …". A change of the law changes this text.
const ARTICLE_123_1: &str = "\
1) sausio 1-ąją – Naujųjų metų dieną;
2) vasario 16-ąją – Lietuvos valstybės atkūrimo dieną;
3) kovo 11-ąją – Lietuvos nepriklausomybės atkūrimo dieną;
4) sekmadienį ir pirmadienį – krikščionių Velykų (pagal vakarietiškąją tradiciją) dienomis;
5) gegužės 1-ąją – Tarptautinę darbo dieną;
6) pirmąjį gegužės sekmadienį – Motinos dieną;
7) pirmąjį birželio sekmadienį – Tėvo dieną;
8) birželio 24-ąją – Rasos ir Joninių dieną;
9) liepos 6-ąją – Valstybės (Lietuvos karaliaus Mindaugo karūnavimo) ir Tautiškos giesmės dieną;
10) rugpjūčio 15-ąją – Žolinę (Švč. Mergelės Marijos ėmimo į dangų dieną);
11) lapkričio 1-ąją – Visų Šventųjų dieną;
12) lapkričio 2-ąją – Mirusiųjų atminimo (Vėlinių) dieną;
13) gruodžio 24-ąją – Kūčių dieną;
14) gruodžio 25-ąją ir 26-ąją – Kalėdų dienomis.";

/// The nominative of an item's accusative wording: a word's final -ą and -ę become -a and
/// -ė ("Tarptautinę darbo dieną" -> "Tarptautinė darbo diena").
fn nominative(accusative: &str) -> String {
    let chars: Vec<char> = accusative.chars().collect();
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let ends_word = chars.get(i + 1).is_none_or(|n| !n.is_alphabetic());
            match c {
                'ą' if ends_word => 'a',
                'ę' if ends_word => 'ė',
                c => c,
            }
        })
        .collect()
}

#[test]
fn every_red_holiday_of_this_year_is_named_as_its_article_words_it() {
    // Each red holiday names the item of art. 123(1) that lists it (its basis); the name
    // must be that item's wording, so a rename of the law cannot go unnoticed again. A
    // two-day feast ("… dienomis") names its first day by the feast and the second
    // "Antroji … diena" (sources/holidays/red.toml, header).
    let items: BTreeMap<u32, &str> = ARTICLE_123_1
        .lines()
        .map(|line| {
            let (number, rest) = line.split_once(") ").unwrap();
            let wording = rest.split_once(" – ").unwrap().1;
            (
                number.parse().unwrap(),
                wording.trim_end_matches([';', '.']),
            )
        })
        .collect();
    let this_year = chrono::Utc::now().year();
    let mut checked = 0;
    for day in year(this_year) {
        for h in day.holidays.iter().filter(|h| h.is_red) {
            let basis = h.basis.last().unwrap();
            assert_eq!(
                (basis.act.as_str(), basis.article.as_deref(), basis.part),
                ("XII-2603", Some("123"), Some(1)),
                "{} {}",
                day.date,
                h.id
            );
            let wording = items[&basis.item.unwrap()];
            match wording.strip_suffix(" dienomis") {
                Some(feast) => {
                    // "krikščionių Velykų (pagal …)" -> "Velykų".
                    let before_note = feast.split(" (").next().unwrap();
                    let genitive = before_note.split(' ').next_back().unwrap();
                    let stem = genitive.trim_end_matches('ų');
                    assert!(
                        h.name_lt == format!("Antroji {genitive} diena")
                            || h.name_lt.starts_with(stem),
                        "{} {}: {:?} for {wording:?}",
                        day.date,
                        h.id,
                        h.name_lt
                    );
                }
                None => assert_eq!(h.name_lt, nominative(wording), "{} {}", day.date, h.id),
            }
            checked += 1;
        }
    }
    // The 14 items, Easter and Christmas two days each: 16 records.
    assert_eq!(checked, 16, "red holiday records of {this_year}");
}

#[test]
fn every_basis_of_this_year_links_the_acts_official_text() {
    // Item 9 of issue 33: a reader can check each citation in the register.
    let this_year = chrono::Utc::now().year();
    for day in year(this_year) {
        let bases = day
            .holidays
            .iter()
            .flat_map(|h| &h.basis)
            .chain(&day.shorter_workday_basis);
        for b in bases {
            let url = b
                .url
                .as_deref()
                .unwrap_or_else(|| panic!("{} {b:?}", day.date));
            assert!(url.starts_with("https://e-seimas.lrs.lt/"), "{url}");
        }
    }
}

#[test]
fn school_year_2026_2027_is_published_with_its_confidence() {
    // E19: the plan V-559 sets it; its Christmas start is disputed and its summers derived
    // from the plan's counts of school days (docs/data.md §8.3).
    let file = year_file(2027);
    let periods: Vec<(String, String, String, String)> = file["school_holidays"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["school_year"] == "2026-2027")
        .map(|p| {
            let s = |k: &str| p[k].as_str().unwrap().to_string();
            (s("kind"), s("start"), s("end"), s("confidence"))
        })
        .collect();
    let expected = [
        ("christmas", "2026-12-23", "2027-01-03", "uncertain"),
        ("winter", "2027-02-15", "2027-02-21", "confirmed"),
        ("spring", "2027-03-22", "2027-03-29", "confirmed"),
        ("spring", "2027-03-29", "2027-04-04", "confirmed"),
        ("summer", "2027-06-08", "2027-08-31", "derived"),
        ("summer", "2027-06-12", "2027-08-31", "derived"),
        ("summer", "2027-06-15", "2027-08-31", "derived"),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(k, s, e, c)| (k.to_string(), s.to_string(), e.to_string(), c.to_string()))
        .collect();
    assert_eq!(periods, expected);
    let autumn = &year_file(2026)["school_holidays"];
    assert!(autumn
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["kind"] == "autumn"
            && p["start"] == "2026-11-02"
            && p["end"] == "2026-11-08"
            && p["confidence"] == "confirmed"));
    // No summer is ever confirmed from a day count alone in the plans of 2025-2027.
    for y in [2026, 2027] {
        for p in year_file(y)["school_holidays"].as_array().unwrap() {
            if p["kind"] == "summer" && p["start"].as_str().unwrap() > "2026-06-01" {
                assert_ne!(p["confidence"], "confirmed", "{p}");
            }
        }
    }
}
