//! The holiday feed over a window of years: scope `red`, one event per non-working holiday
//! date; scope `all`, one per holiday record and per declared day off. A `UID` is the date
//! and what the event is, never the dataset version, so a subscribed calendar updates a
//! renamed event instead of adding a copy.

use kalendorius_dataset::Date;

use super::ics::{self, basic_date, Event};
use super::{HolidayFeedRequest, UID_DOMAIN};
use crate::catalog::{Catalog, HolidayRecord, HolidayScope};
use crate::i18n::TEXTS;

const DAY_OFF_CATEGORY: &str = "day_off";
const SHORTENED_CATEGORY: &str = "shortened_workday";

pub fn build(request: &HolidayFeedRequest, catalog: &Catalog, stamp: &str) -> String {
    let years = request.years.clone();
    let dates = years.flat_map(|year| catalog.dates_of_year(year));
    let events = dates.flat_map(|date| events_of(catalog, date, request));
    let name = match request.scope {
        HolidayScope::Red => "feed_holidays_red",
        HolidayScope::All => "feed_holidays_all",
    };
    let name = TEXTS.text(request.lang, name);
    let description = TEXTS.text(request.lang, "feed_holidays_description");
    ics::calendar(name, description, stamp, 64 * 1024, events)
}

fn events_of<'a>(catalog: &'a Catalog, date: Date, request: &HolidayFeedRequest) -> Vec<Event<'a>> {
    let lang = request.lang;
    let day = date.naive();
    // The UID is `<YYYYMMDD>-<what>@...`, `what` unique within its date.
    let event = |what: &str, summary: String, category: Option<&'a str>| Event {
        uid: format!("{}-{what}@{UID_DOMAIN}", basic_date(day)),
        start: day,
        end: day.succ_opt().expect("a served date has a next day"),
        summary,
        category,
        ..Default::default()
    };
    let mut events = Vec::new();
    let day_off = catalog.declared_day_off(date);
    match request.scope {
        HolidayScope::Red => {
            let red: Vec<&HolidayRecord> = catalog.holidays_on(date).filter(|h| h.is_red).collect();
            if !red.is_empty() {
                let ids: Vec<&str> = red.iter().map(|h| &*h.id).collect();
                let names: Vec<&str> = red.iter().map(|h| h.name(lang)).collect();
                events.push(event(&ids.join("+"), names.join(", "), None));
            } else if let Some(transfer) = day_off {
                events.push(event("day-off", transfer.name(lang).into(), None));
            }
        }
        HolidayScope::All => {
            for holiday in catalog.holidays_on(date) {
                let category = Some(holiday.kind.as_str());
                events.push(event(&holiday.id, holiday.name(lang).into(), category));
            }
            if let Some(transfer) = day_off {
                let name = transfer.name(lang).into();
                events.push(event("day-off", name, Some(DAY_OFF_CATEGORY)));
            }
        }
    }
    if request.shortened && catalog.status_of(date).shorter_workday {
        let summary = TEXTS.text(lang, "feed_shortened").into();
        events.push(event("shortened", summary, Some(SHORTENED_CATEGORY)));
    }
    events
}
