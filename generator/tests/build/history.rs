//! History on the fixture: `is_red` follows the law in force on each date, and
//! transfers apply on top.

use kalendorius_dataset::{Reason, TransferKind};

use crate::helpers::day;

fn holiday<'a>(date: &str, id: &str) -> &'a kalendorius_dataset::Holiday {
    day(date)
        .holidays
        .iter()
        .find(|h| h.id == id)
        .unwrap_or_else(|| panic!("{id} not listed on {date}"))
}

#[test]
fn all_souls_day_is_red_from_2020_and_listed_non_red_before() {
    let before = holiday("2019-11-02", "veliniu-diena");
    assert!(!before.is_red);
    assert_eq!(day("2019-11-02").reason, Some(Reason::Saturday));
    assert!(holiday("2020-11-02", "veliniu-diena").is_red);
    let d = day("2020-11-02");
    assert!(d.laisvadienis);
    assert_eq!(d.reason, Some(Reason::PublicHoliday));
    assert_eq!(
        d.holiday_name.as_deref(),
        Some("Mirusiųjų atminimo (Vėlinių) diena")
    );
}

#[test]
fn christmas_eve_is_red_from_2011() {
    assert!(!holiday("2009-12-24", "kuciu-diena").is_red);
    assert!(!day("2009-12-24").laisvadienis);
    assert!(!holiday("2010-12-24", "kuciu-diena").is_red);
    assert!(holiday("2011-12-24", "kuciu-diena").is_red);
    assert!(holiday("2024-12-24", "kuciu-diena").is_red);
}

#[test]
fn fathers_day_is_red_from_2008() {
    assert!(!holiday("2007-06-03", "tevo-diena").is_red);
    assert!(holiday("2008-06-01", "tevo-diena").is_red);
    // Not listed before it was observed.
    assert!(day("1995-06-04")
        .holidays
        .iter()
        .all(|h| h.id != "tevo-diena"));
}

#[test]
fn may_day_follows_its_gaps() {
    assert!(holiday("1996-05-01", "tarptautine-darbo-diena").is_red);
    assert!(holiday("1997-05-01", "tarptautine-darbo-diena").is_red);
    assert!(!holiday("1999-05-01", "tarptautine-darbo-diena").is_red);
    assert!(!holiday("2001-05-01", "tarptautine-darbo-diena").is_red);
    assert!(
        !day("2001-05-01").laisvadienis,
        "2001-05-01 was a Tuesday and a working day"
    );
    assert!(holiday("2002-05-01", "tarptautine-darbo-diena").is_red);
}

#[test]
fn nothing_is_red_before_the_law_of_1990_10_25() {
    let d = day("1990-01-01");
    assert!(!holiday("1990-01-01", "naujieji-metai").is_red);
    assert!(!d.laisvadienis, "1990-01-01 was a Monday");
    assert!(day("1989-12-25").holidays.iter().all(|h| !h.is_red));
    assert!(holiday("1990-12-25", "kaledos").is_red);
}

#[test]
fn former_names_apply_until_their_last_day() {
    assert_eq!(
        holiday("1995-11-01", "visu-sventuju-diena").name_lt,
        "Visų Šventųjų ir mirusiųjų minėjimo (Vėlinių) diena"
    );
    assert_eq!(
        day("1995-11-01").holiday_name.as_deref(),
        Some("Visų Šventųjų ir mirusiųjų minėjimo (Vėlinių) diena")
    );
    let later = holiday("1998-11-01", "visu-sventuju-diena");
    assert_eq!(later.name_lt, "Visų Šventųjų diena");
    // Other languages fall back to the current names.
    assert_eq!(
        holiday("1995-11-01", "visu-sventuju-diena").name_en,
        later.name_en
    );
}

#[test]
fn christmas_eve_2010_is_an_extra_day_off() {
    let d = day("2010-12-24");
    assert!(d.laisvadienis);
    assert_eq!(d.reason, Some(Reason::PublicHoliday));
    assert_eq!(
        d.holiday_name.as_deref(),
        Some("Kūčių diena (perkelta poilsio diena)")
    );
    assert_eq!(
        d.transfer.as_ref().map(|t| t.kind),
        Some(TransferKind::DayOff)
    );
}

#[test]
fn a_declared_working_saturday_is_a_working_day() {
    let d = day("2011-02-19");
    assert_eq!(d.day_of_week, 6);
    assert!(!d.laisvadienis);
    assert_eq!(d.reason, None);
    assert_eq!(d.holiday_name, None);
    assert_eq!(
        d.transfer.as_ref().map(|t| t.kind),
        Some(TransferKind::WorkingDay)
    );
}

#[test]
fn may_day_and_mothers_day_on_2022_05_01() {
    let d = day("2022-05-01");
    assert_eq!(d.reason, Some(Reason::PublicHoliday));
    assert_eq!(
        d.holiday_name.as_deref(),
        Some("Tarptautinė darbo diena, Motinos diena")
    );
    let ids: Vec<&str> = d.holidays.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["tarptautine-darbo-diena", "motinos-diena"]);
    assert!(d.holidays.iter().all(|h| h.is_red));
}
