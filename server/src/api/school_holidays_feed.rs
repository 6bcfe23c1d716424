//! `GET /api/v1/feeds/school-holidays.ics`: the pupils' holidays as an iCalendar feed. Public.

use super::prelude::*;
use super::school_holidays::{grade, GRADE};
use crate::feeds::FeedRequest;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/feeds/school-holidays.ics",
    operation_id: "school_holidays_feed",
    summary: "Pupils' holidays as an iCalendar feed",
    description: "One multi-day all-day event per holiday period of every school year in the \
                  data (`DTEND` is the day after the last day off), its summary the \
                  holiday's name and, without `grade`, the grades it applies to. A UID is \
                  built from the school year, the kind and the grades, so it stays the same \
                  across dataset versions.",
    access: Access::Public(PublicEndpoint::Feeds),
    params: &[
        Param {
            description: "One grade, `0` (pre-school) to `12`: only its periods. Absent: \
                          every period.",
            ..GRADE
        },
        Param {
            description: "Language of the summaries and of the calendar's name: `lt` \
                          (default), `en`, `pl`, `ru`; case-insensitive; empty counts as \
                          absent.",
            ..LANG
        },
    ],
    answer: AnswerKind::Calendar,
    bad_request: &[ErrorCode::InvalidLang, ErrorCode::InvalidParam],
    handle,
};

fn handle(req: &Request, query: &Query, cx: &Context) -> Result<Response, ApiError> {
    let request = FeedRequest::SchoolHolidays {
        grade: grade(query.get(0))?,
        lang: query::lang(query.get(1))?,
    };
    Ok(answer::feed(req, cx, request))
}
