//! Day status on the fixture (docs/api.md, Day status): reason precedence, the shortened
//! working day, calendar fields, ordering and the Feb 29 name-day rule.

use kalendorius_dataset::{HolidayType, Reason};

use crate::helpers::{build_into, copy_tree, day, fixture_days, fixture_sources};

#[test]
fn the_spec_shortened_day_table() {
    // Holiday on a Tuesday (2024-12-24): Monday is shortened.
    assert_eq!(day("2024-12-24").day_of_week, 2);
    assert!(day("2024-12-23").shorter_workday);
    // On a Wednesday (2025-12-24): Tuesday.
    assert_eq!(day("2025-12-24").day_of_week, 3);
    assert!(day("2025-12-23").shorter_workday);
    assert!(!day("2025-12-22").shorter_workday);
    // On a Saturday (2024-07-06): Friday.
    assert_eq!(day("2024-07-06").day_of_week, 6);
    assert!(day("2024-07-05").shorter_workday);
    // On a Sunday (2025-07-06): none; Saturday is already non-working.
    assert_eq!(day("2025-07-06").day_of_week, 0);
    assert!(!day("2025-07-05").shorter_workday && day("2025-07-05").laisvadienis);
    assert!(!day("2025-07-04").shorter_workday);
    // On a Monday (2026-07-06): none.
    assert_eq!(day("2026-07-06").day_of_week, 1);
    for date in ["2026-07-03", "2026-07-04", "2026-07-05"] {
        assert!(!day(date).shorter_workday, "{date}");
    }
}

#[test]
fn a_red_holiday_is_never_itself_shortened_and_a_transfer_does_not_shorten() {
    // Dec 24 (red, Tuesday) is the eve of Dec 25 but a non-working day.
    assert!(!day("2024-12-24").shorter_workday);
    // Before 2011 Dec 24 was a working eve of Christmas.
    assert!(day("2009-12-24").shorter_workday);
    // 2010-12-23 precedes a declared day off, not a red holiday.
    assert!(!day("2010-12-23").shorter_workday);
}

#[test]
fn shorter_workday_only_on_working_days_before_red_days() {
    let days: Vec<_> = fixture_days().values().collect();
    for pair in days.windows(2) {
        let next_red = pair[1].holidays.iter().any(|h| h.is_red);
        assert_eq!(
            pair[0].shorter_workday,
            !pair[0].laisvadienis && next_red,
            "{}",
            pair[0].date
        );
    }
}

#[test]
fn reason_precedence_holiday_then_sunday_then_saturday() {
    assert_eq!(day("2022-01-01").reason, Some(Reason::PublicHoliday)); // a Saturday
    assert_eq!(day("2023-01-01").reason, Some(Reason::PublicHoliday)); // a Sunday
    assert_eq!(day("2022-01-02").reason, Some(Reason::Sunday));
    assert_eq!(day("2022-01-08").reason, Some(Reason::Saturday));
    assert_eq!(day("2022-01-04").reason, None);
    assert_eq!(day("2022-01-08").holiday_name, None);
    for d in fixture_days().values() {
        assert_eq!(d.laisvadienis, d.reason.is_some(), "{}", d.date);
        assert_eq!(
            d.holiday_name.is_some(),
            d.reason == Some(Reason::PublicHoliday),
            "{}",
            d.date
        );
        if d.is_weekend && d.transfer.is_none() {
            assert!(
                d.laisvadienis,
                "every weekend day is non-working: {}",
                d.date
            );
        }
    }
}

#[test]
fn calendar_fields() {
    let d = day("2021-01-01");
    assert_eq!((d.day_of_week, d.iso_week, d.is_weekend), (5, 53, false));
    let d = day("2022-01-01");
    assert_eq!((d.day_of_week, d.iso_week, d.is_weekend), (6, 52, true));
    let d = day("2026-01-01");
    assert_eq!((d.day_of_week, d.iso_week), (4, 1));
    let d = day("2026-11-22");
    assert_eq!((d.day_of_week, d.iso_week, d.is_weekend), (0, 47, true));
}

#[test]
fn holidays_are_ordered_red_first_then_type_then_name() {
    for d in fixture_days().values() {
        let keys: Vec<_> = d
            .holidays
            .iter()
            .map(|h| (!h.is_red, h.kind, h.name_lt.clone()))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{}", d.date);
    }
    // Easter-relative and weekday rules land where they should.
    let uzgavenes = day("2026-02-17");
    assert_eq!(uzgavenes.day_of_week, 2);
    assert!(uzgavenes
        .holidays
        .iter()
        .any(|h| h.id == "uzgavenes" && h.kind == HolidayType::Traditional));
    assert!(day("2026-07-26")
        .holidays
        .iter()
        .any(|h| h.id == "juros-diena"));
}

#[test]
fn feb_29_names_show_on_feb_28_in_common_years() {
    let names = |date: &str| -> Vec<String> {
        day(date).name_days.iter().map(|n| n.name.clone()).collect()
    };
    assert_eq!(names("2023-02-28"), ["Romanas", "Gustis", "Tolvaldas"]);
    assert_eq!(names("2024-02-28"), ["Romanas"]);
    assert_eq!(names("2024-02-29"), ["Gustis", "Tolvaldas"]);
}

#[test]
fn working_hours_of_both_weeks() {
    let hours = |date: &str| {
        let d = day(date);
        (
            d.working_hours_5,
            d.shorter_workday,
            d.working_hours_6,
            d.shorter_workday_6,
        )
    };
    // An ordinary Monday, Saturday and Sunday.
    assert_eq!(hours("2025-07-14"), (8, false, 7, false));
    assert_eq!(hours("2025-07-12"), (0, false, 5, false));
    assert_eq!(hours("2025-07-13"), (0, false, 0, false));
    // Friday before a Saturday holiday (2024-07-06): shortened in both weeks.
    assert_eq!(hours("2024-07-05"), (7, true, 6, true));
    // Saturday before a Sunday holiday (2025-07-06): shortened in the 6-day week only.
    assert_eq!(hours("2025-07-05"), (0, false, 4, true));
    // A red holiday on a Saturday: worked in neither week.
    assert_eq!(hours("2024-07-06"), (0, false, 0, false));
    // The day before a declared day off (2010-12-24) is not shortened; the day off is off in
    // the 5-day week. It is a government transfer (`six_day_week` unset): the 6-day week
    // works it as usual, shortened before Christmas.
    assert_eq!(hours("2010-12-23"), (8, false, 7, false));
    assert_eq!(hours("2010-12-24"), (0, false, 6, true));
    assert!(!day("2010-12-24").transfer.as_ref().unwrap().six_day_week);
    // Its working Saturday is a full day in the 5-day week, an ordinary Saturday in the 6-day.
    assert_eq!(hours("2011-02-19"), (8, false, 5, false));
}

#[test]
fn a_day_off_the_six_day_week_follows_is_off_in_both_weeks() {
    // The fixture's 2010-12-24 marked `six_day_week = true` (as a day in lieu of a Sunday
    // holiday is): off in both weeks, and the published transfer says so.
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let path = sources.path().join("transfers.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let find = "date = \"2010-12-24\"\nkind = \"day_off\"\n";
    assert!(text.contains(find));
    std::fs::write(
        &path,
        text.replace(find, &format!("{find}six_day_week = true\n")),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    build_into(sources.path(), out.path(), Some((2010, 2010))).unwrap();
    let mut found = None;
    kalendorius_dataset::open_dataset(out.path())
        .unwrap()
        .read_days(|d| {
            if d.date.to_string() == "2010-12-24" {
                found = Some(d);
            }
        })
        .unwrap();
    let d = found.unwrap();
    assert!(d.transfer.as_ref().unwrap().six_day_week);
    assert_eq!(
        (d.working_hours_5, d.working_hours_6, d.shorter_workday_6),
        (0, 0, false)
    );
}

#[test]
fn working_hours_follow_the_rule_of_the_dataset_crate() {
    use kalendorius_dataset::working_time::{working_time, DayFacts};
    let days: Vec<_> = fixture_days().values().collect();
    for pair in days.windows(2) {
        let rule = working_time(DayFacts::of(pair[0], pair[1].carries_red_holiday()));
        assert_eq!(pair[0].working_time(), rule, "{}", pair[0].date);
    }
}

#[test]
fn each_non_working_or_shortened_day_names_its_legal_basis() {
    use kalendorius_dataset::Confidence;
    // A red holiday: the Labour Code's item, rendered in the four languages.
    let kucios = &day("2024-12-24").holidays[0];
    assert_eq!(kucios.id, "kuciu-diena");
    assert_eq!(kucios.confidence, Some(Confidence::Confirmed));
    let [b] = kucios.basis.as_slice() else {
        panic!("{:?}", kucios.basis)
    };
    assert_eq!(
        [&b.text_lt, &b.text_en, &b.text_pl, &b.text_ru],
        [
            "Darbo kodekso (XII-2603) 123 str. 1 d. 13 p.",
            "Labour Code (XII-2603) art. 123(1)(13)",
            "art. 123 ust. 1 pkt 13 Kodeksu pracy (XII-2603)",
            "п. 13 ч. 1 ст. 123 Трудового кодекса (XII-2603)",
        ]
    );
    assert_eq!(
        (b.act.as_str(), b.part, b.item),
        ("XII-2603", Some(1), Some(13))
    );
    // The same holiday before 2017 rests on the other provision of its chain.
    let new_year = &day("2010-01-01").holidays[0];
    assert_eq!(new_year.basis[0].text_en, "Law on Holidays (I-712) art. 4");
    // A holiday that is not red has neither.
    let h = &day("2024-02-13").holidays[0];
    assert_eq!(h.id, "uzgavenes");
    assert!(
        !h.is_red && h.basis.is_empty() && h.confidence.is_none(),
        "{h:?}"
    );
    // A transfer: its resolution, cited by name when it has no number.
    let t = day("2010-12-24").transfer.as_ref().unwrap();
    assert_eq!(t.basis[0].act, "gov-transfer-2010");
    assert_eq!(t.basis[0].text_en, "Government resolution of December 2010");
    let t = day("2008-05-02").transfer.as_ref().unwrap();
    assert_eq!(t.basis[0].confidence, Confidence::Confirmed);
    // A shortened day: the eve rule of its date, with that period's confidence.
    let eve = &day("2024-12-23").shorter_workday_basis;
    assert_eq!(eve.len(), 1);
    assert_eq!(eve[0].text_en, "Labour Code (XII-2603) art. 112(5)");
    assert_eq!(eve[0].confidence, Confidence::Confirmed);
    let old_eve = &day("2009-12-24").shorter_workday_basis;
    assert_eq!(old_eve[0].act, "I-712");
    assert_eq!(old_eve[0].confidence, Confidence::Uncertain);
    // Nothing else carries one.
    assert!(day("2024-12-20").shorter_workday_basis.is_empty());
}
