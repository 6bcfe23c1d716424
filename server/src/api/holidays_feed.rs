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
    params: &[
        Param {
            description: "Language of the names and of the calendar's name: `lt` (default), \
                          `en`, `pl`, `ru`; case-insensitive; empty counts as absent.",
            ..LANG
        },
        Param {
            description: "`red` (default): non-working holiday dates; `all`: every holiday. \
                          Case-insensitive; empty counts as absent.",
            ..SCOPE
        },
        Param {
            name: "shortened",
            required: false,
            kind: Kind::Choice {
                values: &["true", "false"],
                default: Some(1),
            },
            description: "`true`: also list the shortened working days; default `false`. \
                          Case-insensitive; empty counts as absent.",
        },
        Param {
            name: "from_year",
            required: false,
            description: "First year of the feed (default: last year); at most 30 years \
                          from `from_year` to `to_year`.",
            ..YEAR
        },
        Param {
            name: "to_year",
            required: false,
            description: "Last year of the feed (default: five years ahead).",
            ..YEAR
        },
    ],
    answer: AnswerKind::Calendar,
    bad_request: &[
        ErrorCode::InvalidYear,
        ErrorCode::InvalidLang,
        ErrorCode::InvalidParam,
    ],
    handle,
};

/// The feed's window counts years of Europe/Vilnius from the request's `today`.
fn handle(req: &Request, query: &Query, cx: &Context) -> Result<Response, ApiError> {
    let lang = query::lang(query.get(0))?;
    let scope = query::scope(query.get(1))?;
    let shortened = query::choice("shortened", query.get(2), &["true", "false"], 1)? == 0;
    let year = |i: usize, name| match query.get(i) {
        Some(value) => query::year(cx.catalog, name, Some(value)).map(Some),
        None => Ok(None),
    };
    let (from, to) = (year(3, "from_year")?, year(4, "to_year")?);
    let request = FeedRequest::Holidays(HolidayFeedRequest {
        lang,
        scope,
        shortened,
        years: window(cx.catalog, cx.today.current().year(), from, to)?,
    });
    Ok(answer::feed(req, cx, request))
}
