//! `GET /api/v1/laisvadienis`: the working-day status of one date. Public.

use super::prelude::*;
use crate::catalog::DayStatus;
use crate::http::caching;
use crate::http::errors::JSON_CONTENT_TYPE;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/laisvadienis",
    operation_id: "laisvadienis",
    summary: "Is this date a working day?",
    description: "Non-working (`laisvadienis: true`) on every Saturday (unless declared a \
                  working day), Sunday, red public holiday and declared extra day off. \
                  `shorter_workday` is true on a workday whose next calendar day carries a red \
                  holiday.",
    access: Access::Public(PublicEndpoint::Laisvadienis),
    params: LaisvadienisParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<DayStatus>),
    bad_request: BadRequest::of(LaisvadienisParams::DECLARED).codes(),
    handle: serve::<LaisvadienisParams>,
};

params! {
    pub struct LaisvadienisParams {
        date: Date = DATE,
    }
}

impl Handler for LaisvadienisParams {
    fn handle(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        // Taken apart whole, so that a new parameter cannot be left out of the ETag.
        let LaisvadienisParams { date } = *self;
        let etag = caching::etag(&cx.catalog.etag_tag, &[date]);
        Ok(answer::public(req, etag, JSON_CONTENT_TYPE, || {
            cx.catalog.status_json(date)
        }))
    }
}
