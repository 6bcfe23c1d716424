//! `GET /api/v1/days`: the status of every date of an inclusive range. Public.

use serde::Deserialize;

use super::prelude::*;
use crate::catalog::DayEntry;
use crate::http::caching;
use crate::http::errors::JSON_CONTENT_TYPE;

pub const MAX_DAYS: i64 = 366;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/days",
    operation_id: "days",
    summary: "Working-day status of every date in a range",
    description: "The batch form of `/laisvadienis`: the two agree field by field on every \
                  date. `from == to` gives one day; at most 366 days per request.",
    access: Access::Public(PublicEndpoint::Days),
    params: DaysParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<DaysRange>),
    // Its checks across parameters: `from` later than `to`; more than 366 days.
    bad_request: BadRequest::of(DaysParams::DECLARED)
        .and(&[ErrorCode::InvalidRange, ErrorCode::RangeTooLarge])
        .codes(),
    handle: serve::<DaysParams>,
};

/// The answer. (The catalog writes it from precomputed years; a test holds those bytes to
/// this type's JSON.)
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DaysRange<'a> {
    /// Echo of `from`.
    pub from: Date,
    /// Echo of `to`.
    pub to: Date,
    /// Number of days returned (1 to 366).
    pub count: u32,
    /// One entry per day of the range, in date order.
    #[serde(borrow)]
    pub days: Vec<DayEntry<'a>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DaysParams {
    pub from: Date,
    pub to: Date,
}

impl Params for DaysParams {
    const DECLARED: &'static [Param] = &[FROM, TO];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let (from, to) = query::date_range(
            cx.catalog,
            query.value(FROM.name),
            query.value(TO.name),
            cx.today,
        )?;
        query::at_most_days(from, to, MAX_DAYS)?;
        Ok(DaysParams { from, to })
    }
}

impl Handler for DaysParams {
    fn handle(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        // Taken apart whole, so that a new parameter cannot be left out of the ETag.
        let DaysParams { from, to } = *self;
        let etag = caching::etag(&cx.catalog.etag_tag, &[from, to]);
        Ok(answer::public(req, etag, JSON_CONTENT_TYPE, || {
            cx.catalog.days_json(from, to)
        }))
    }
}
