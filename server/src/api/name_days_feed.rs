//! `GET /api/v1/feeds/name-days.ics`: the name days as an iCalendar feed. Public.

use super::prelude::*;
use crate::feeds::FeedRequest;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/feeds/name-days.ics",
    operation_id: "name_days_feed",
    summary: "Name days as an iCalendar feed",
    description: "One yearly recurring all-day event per calendar day with that day's names, \
                  so the feed is small and never ends. The names of February 29 repeat on the \
                  last day of February (`RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1`): February \
                  28 in a common year, as elsewhere in the API.",
    access: Access::Public(PublicEndpoint::Feeds),
    params: NameDaysFeedParams::DECLARED,
    answer: AnswerKind::Calendar,
    bad_request: BadRequest::of(NameDaysFeedParams::DECLARED).codes(),
    handle: serve::<NameDaysFeedParams>,
};

const FEED_LANG: Param = Param {
    description: "Language of the summaries and of the calendar's name: `lt` (default), `en`, \
                  `pl`, `ru` (case-insensitive; empty counts as absent); the names are \
                  Lithuanian in every language.",
    ..LANG
};

params! {
    pub struct NameDaysFeedParams {
        lang: Lang = FEED_LANG,
    }
}

impl Handler for NameDaysFeedParams {
    fn handle(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        let request = FeedRequest::NameDays { lang: self.lang };
        Ok(answer::feed(req, cx, request))
    }
}
