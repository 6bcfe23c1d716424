//! The holiday feed: all-day events over a window of years (docs/api.md, `/feeds`). Scope
//! `red`: one event per non-working holiday date (its red holidays' names joined, or the
//! declared day off); scope `all`: one per holiday record (`CATEGORIES` its type) and per
//! declared day off; `shortened=true` adds the shortened days of the 5-day week. A `UID` is
//! the date and what the event is, never the dataset version, so a subscribed calendar
//! updates a renamed event instead of adding a copy.

use kalendorius_dataset::{Date, Lang, TransferKind};

use super::ics::{basic_date, IcsWriter};
use super::params::{HolidayFeedRequest, Scope};
use super::{calendar_head, UID_DOMAIN};
use crate::catalog::{Catalog, HolidayRecord};

/// The calendar's name in `lang`.
fn calendar_name(lang: Lang, scope: Scope) -> &'static str {
    match (scope, lang) {
        (Scope::Red, Lang::Lt) => "Lietuvos šventės ir poilsio dienos",
        (Scope::Red, Lang::En) => "Lithuanian public holidays and days off",
        (Scope::Red, Lang::Pl) => "Święta państwowe i dni wolne na Litwie",
        (Scope::Red, Lang::Ru) => "Государственные праздники и выходные дни Литвы",
        (Scope::All, Lang::Lt) => "Lietuvos šventės ir atmintinos dienos",
        (Scope::All, Lang::En) => "Lithuanian holidays and commemorative days",
        (Scope::All, Lang::Pl) => "Święta i dni pamięci na Litwie",
        (Scope::All, Lang::Ru) => "Праздники и памятные дни Литвы",
    }
}

/// The calendar's description in `lang`.
fn calendar_description(lang: Lang) -> &'static str {
    match lang {
        Lang::Lt => "Iš kalendorius duomenų rinkinio; atnaujinama kasdien.",
        Lang::En => "From the kalendorius dataset; refreshed daily.",
        Lang::Pl => "Z zestawu danych kalendorius; odświeżane codziennie.",
        Lang::Ru => "Из набора данных kalendorius; обновляется ежедневно.",
    }
}

/// The summary of a shortened working day in `lang`.
pub fn shortened_summary(lang: Lang) -> &'static str {
    match lang {
        Lang::Lt => "Sutrumpinta darbo diena",
        Lang::En => "Shortened working day",
        Lang::Pl => "Skrócony dzień pracy",
        Lang::Ru => "Сокращённый рабочий день",
    }
}

/// The `CATEGORIES` of a declared extra day off and of a shortened working day.
const DAY_OFF_CATEGORY: &str = "day_off";
const SHORTENED_CATEGORY: &str = "shortened_workday";

/// One all-day event.
struct Event<'a> {
    date: Date,
    /// What the event is, unique within its date: the UID is `<YYYYMMDD>-<what>@...`.
    what: String,
    summary: String,
    category: Option<&'a str>,
}

/// The calendar text of `request` from the dataset of `catalog`.
pub fn build(request: &HolidayFeedRequest, catalog: &Catalog, stamp: &str) -> String {
    let lang = request.lang;
    let mut ics = IcsWriter::with_capacity(64 * 1024);
    calendar_head(
        &mut ics,
        calendar_name(lang, request.scope),
        calendar_description(lang),
    );
    for year in request.years.clone() {
        // A year the dataset does not serve has no dates.
        for date in catalog.dates_of_year(year) {
            for event in events_of(catalog, date, request) {
                write_event(&mut ics, &event, stamp);
            }
        }
    }
    ics.end("VCALENDAR");
    ics.finish()
}

/// The events of one served date.
fn events_of<'a>(catalog: &'a Catalog, date: Date, request: &HolidayFeedRequest) -> Vec<Event<'a>> {
    let lang = request.lang;
    let mut events = Vec::new();
    let day_off = catalog
        .transfer_on(date)
        .filter(|t| t.kind == TransferKind::DayOff);
    match request.scope {
        Scope::Red => {
            let red: Vec<&HolidayRecord> = catalog.holidays_on(date).filter(|h| h.is_red).collect();
            if !red.is_empty() {
                events.push(Event {
                    date,
                    what: red.iter().map(|h| h.id()).collect::<Vec<_>>().join("+"),
                    summary: red
                        .iter()
                        .map(|h| h.name(lang))
                        .collect::<Vec<_>>()
                        .join(", "),
                    category: None,
                });
            } else if let Some(transfer) = day_off {
                events.push(Event {
                    date,
                    what: "day-off".into(),
                    summary: transfer.name(lang).into(),
                    category: None,
                });
            }
        }
        Scope::All => {
            for holiday in catalog.holidays_on(date) {
                events.push(Event {
                    date,
                    what: holiday.id().into(),
                    summary: holiday.name(lang).into(),
                    category: Some(holiday.kind.as_str()),
                });
            }
            if let Some(transfer) = day_off {
                events.push(Event {
                    date,
                    what: "day-off".into(),
                    summary: transfer.name(lang).into(),
                    category: Some(DAY_OFF_CATEGORY),
                });
            }
        }
    }
    if request.shortened && catalog.status_of(date).shorter_workday {
        events.push(Event {
            date,
            what: "shortened".into(),
            summary: shortened_summary(lang).into(),
            category: Some(SHORTENED_CATEGORY),
        });
    }
    events
}

fn write_event(ics: &mut IcsWriter, event: &Event<'_>, stamp: &str) {
    let date = event.date.naive();
    ics.begin("VEVENT");
    ics.raw(
        "UID",
        &format!("{}-{}@{UID_DOMAIN}", basic_date(date), event.what),
    );
    ics.raw("DTSTAMP", stamp);
    ics.date("DTSTART", date);
    // The end of an all-day event is exclusive: the next day.
    if let Some(next) = date.succ_opt() {
        ics.date("DTEND", next);
    }
    ics.text("SUMMARY", &event.summary);
    if let Some(category) = event.category {
        ics.text("CATEGORIES", category);
    }
    ics.raw("TRANSP", "TRANSPARENT");
    ics.end("VEVENT");
}
