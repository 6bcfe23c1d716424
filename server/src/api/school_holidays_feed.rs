//! `GET /api/v1/feeds/school-holidays.ics`: the pupils' holidays as an iCalendar feed. Public.

use super::prelude::*;
use super::school_holidays::GRADE;
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
    params: SchoolHolidaysFeedParams::DECLARED,
    answer: AnswerKind::Calendar,
    bad_request: BadRequest::of(SchoolHolidaysFeedParams::DECLARED).codes(),
    handle: serve::<SchoolHolidaysFeedParams>,
};

const FEED_GRADE: Param = Param {
    description: "One grade, `0` (pre-school) to `12`: only its periods. Absent: every \
                  period.",
    ..GRADE
};

const FEED_LANG: Param = Param {
    description: "Language of the summaries and of the calendar's name: `lt` (default), `en`, \
                  `pl`, `ru`; case-insensitive; empty counts as absent.",
    ..LANG
};

params! {
    pub struct SchoolHolidaysFeedParams {
        grade: Option<u8> = FEED_GRADE,
        lang: Lang = FEED_LANG,
    }
}

impl Handler for SchoolHolidaysFeedParams {
    fn handle(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        let request = FeedRequest::SchoolHolidays {
            grade: self.grade,
            lang: self.lang,
        };
        Ok(answer::feed(req, cx, request))
    }
}
