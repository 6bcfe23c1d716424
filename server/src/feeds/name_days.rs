//! The name-day feed: one all-day event per calendar day with its names, repeating yearly,
//! so it is small and never ends. The names come from the leap year nearest this one; the
//! February 29 event repeats on the last day of February, so common years show them on
//! February 28 as the project does.

use chrono::NaiveDate;
use kalendorius_dataset::Lang;

use super::ics::{self, Event};
use super::UID_DOMAIN;
use crate::catalog::Catalog;
use crate::i18n::TEXTS;

/// The year every event starts from: a leap year, so February 29 exists.
const FIRST_OCCURRENCE_YEAR: i32 = 2000;

pub fn build(lang: Lang, catalog: &Catalog, this_year: i32, stamp: &str) -> String {
    let leap_year = catalog
        .years()
        .filter(|&y| NaiveDate::from_ymd_opt(y, 2, 29).is_some())
        .min_by_key(|&y| (y - this_year).abs());
    let days = leap_year.into_iter().flat_map(|y| catalog.dates_of_year(y));
    // What a summary starts with in `lang` (the names themselves are Lithuanian).
    let prefix = TEXTS.text(lang, "feed_name_day");
    let events = days.filter_map(|day| {
        let names: Vec<&str> = catalog.name_days_on(day).map(|n| &*n.name).collect();
        if names.is_empty() {
            return None;
        }
        let (month, day) = (day.month(), day.day());
        let first = NaiveDate::from_ymd_opt(FIRST_OCCURRENCE_YEAR, month, day)
            .expect("every day of a leap year exists in the year 2000");
        Some(Event {
            uid: format!("name-days-{month:02}{day:02}@{UID_DOMAIN}"),
            start: first,
            end: first.succ_opt().expect("2000 has a next day"),
            rule: Some(if (month, day) == (2, 29) {
                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"
            } else {
                "FREQ=YEARLY"
            }),
            summary: format!("{prefix}: {}", names.join(", ")),
            ..Default::default()
        })
    });
    let name = TEXTS.text(lang, "feed_name_days");
    let description = TEXTS.text(lang, "feed_name_days_description");
    ics::calendar(name, description, stamp, 96 * 1024, events)
}
