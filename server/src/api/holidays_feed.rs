//! `GET /api/v1/feeds/holidays.ics`: the holidays as an iCalendar feed. Public.

use chrono::Datelike;

use super::prelude::*;
use crate::feeds::{window, FeedRequest, HolidayFeedRequest};

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/feeds/holidays.ics",
    operation_id: "holidays_feed",
    summary: "Holidays as an iCalendar feed",
    description: "A calendar to subscribe to (`webcal://`): all-day events, refreshed daily. \
                  `scope=red` (default): one event per non-working holiday date (red \
                  holidays, with the names joined when two fall on one date, and declared \
                  extra days off); `scope=all`: one event per holiday of every type \
                  (`CATEGORIES` is its type) and per declared extra day off. `shortened=true` \
                  adds the shortened working days of the 5-day week. Years: from last year to \
                  five years ahead (in Europe/Vilnius), within the dataset, unless \
                  `from_year`/`to_year` say otherwise (at most 30 years, else \
                  `invalid_year`). A UID stays the same across dataset versions for the same \
                  holiday on the same date.",
    access: Access::Public(PublicEndpoint::Feeds),
    params: HolidaysFeedParams::DECLARED,
    answer: AnswerKind::Calendar,
    // Its checks across parameters: `from_year` later than `to_year`, or more than 30 years.
    bad_request: BadRequest::of(HolidaysFeedParams::DECLARED)
        .and(&[ErrorCode::InvalidYear])
        .codes(),
    handle: serve::<HolidaysFeedParams>,
};

const FEED_LANG: Param = Param {
    description: "Language of the names and of the calendar's name: `lt` (default), `en`, \
                  `pl`, `ru`; case-insensitive; empty counts as absent.",
    ..LANG
};

const FEED_SCOPE: Param = Param {
    description: "`red` (default): non-working holiday dates; `all`: every holiday. \
                  Case-insensitive; empty counts as absent.",
    ..SCOPE
};

const SHORTENED: Param = Param {
    name: "shortened",
    required: false,
    kind: Kind::Choice {
        values: &["true", "false"],
        default: Some(1),
    },
    description: "`true`: also list the shortened working days; default `false`. \
                  Case-insensitive; empty counts as absent.",
};

const FROM_YEAR: Param = Param {
    name: "from_year",
    required: false,
    description: "First year of the feed (default: last year); at most 30 years from \
                  `from_year` to `to_year`.",
    ..YEAR
};

const TO_YEAR: Param = Param {
    name: "to_year",
    required: false,
    description: "Last year of the feed (default: five years ahead).",
    ..YEAR
};

/// The feed asked for, its window of years resolved.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HolidaysFeedParams(HolidayFeedRequest);

impl Params for HolidaysFeedParams {
    const DECLARED: &'static [Param] = &[FEED_LANG, FEED_SCOPE, SHORTENED, FROM_YEAR, TO_YEAR];

    /// The window counts years of Europe/Vilnius from the request's `today`.
    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let lang = FEED_LANG.read(query, cx)?;
        let scope = FEED_SCOPE.read(query, cx)?;
        let shortened = SHORTENED.read(query, cx)?;
        let from = FROM_YEAR.read(query, cx)?;
        let to = TO_YEAR.read(query, cx)?;
        Ok(HolidaysFeedParams(HolidayFeedRequest {
            lang,
            scope,
            shortened,
            years: window(cx.catalog, cx.today.current().year(), from, to)?,
        }))
    }
}

impl Handler for HolidaysFeedParams {
    fn handle(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        let request = FeedRequest::Holidays(self.0.clone());
        Ok(answer::feed(req, cx, request))
    }
}
