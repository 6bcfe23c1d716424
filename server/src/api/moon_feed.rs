//! `GET /api/v1/feeds/moon.ics`: the moon's principal phases as an iCalendar feed. Public.

use chrono::Datelike;
use kalendorius_dataset::civil_time;

use super::prelude::*;
use crate::feeds::{FeedRequest, YEARS_AFTER, YEARS_BEFORE};

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/feeds/moon.ics",
    operation_id: "moon_feed",
    summary: "The moon's phases as an iCalendar feed",
    description: "One all-day event per principal phase (new moon, first quarter, full moon, \
                  last quarter) on its date in Vilnius, the local time of the phase in the \
                  summary (`🌕 Pilnatis 12:03`) and the exact instant in the description, \
                  from 1 January of last year to 31 December five years ahead (years in \
                  Europe/Vilnius), clipped to the dataset's range. A UID is built from the \
                  phase and its date.",
    access: Access::Public(PublicEndpoint::Feeds),
    params: MoonFeedParams::DECLARED,
    answer: AnswerKind::Calendar,
    bad_request: BadRequest::of(MoonFeedParams::DECLARED).codes(),
    handle: serve::<MoonFeedParams>,
};

const FEED_LANG: Param = Param {
    description: "Language of the summaries and of the calendar's name: `lt` (default), `en`, \
                  `pl`, `ru`; case-insensitive; empty counts as absent.",
    ..LANG
};

params! {
    pub struct MoonFeedParams {
        lang: Lang = FEED_LANG,
    }
}

impl Handler for MoonFeedParams {
    fn handle(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        feed(req, cx, self.lang)
    }
}

/// The feed of the phases from last year to five years ahead (in Vilnius), clipped.
fn feed(req: &Request, cx: &Context, lang: Lang) -> Result<Response, ApiError> {
    let this_year = cx.today.current().year();
    let catalog = cx.catalog;
    let first = Date::from_ymd(this_year - YEARS_BEFORE, 1, 1)
        .unwrap_or(catalog.first)
        .max(catalog.first)
        .max(Date::from_ymd(civil_time::FIRST_YEAR, 1, 1).expect("a real date"));
    let last = Date::from_ymd(this_year + YEARS_AFTER, 12, 31)
        .unwrap_or(catalog.last)
        .min(catalog.last);
    Ok(answer::feed(
        req,
        cx,
        FeedRequest::Moon { first, last, lang },
    ))
}
