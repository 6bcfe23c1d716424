//! `GET /api/v1/days` (docs/api.md, `/days`): the status of every date of an inclusive
//! range. Public.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{DateParam, DocString};
use super::responses::{DaysDoc, PublicError};
use super::today::Today;
use super::{catalog_of, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;
use crate::http::caching;
use crate::http::errors::{ApiError, ErrorCode};

/// Longest range served in one request, in days.
pub const MAX_DAYS: i64 = 366;

/// The operation.
pub struct DaysApi;

#[OpenApi(tag = "ApiTag::Public")]
impl DaysApi {
    /// Working-day status of every date in a range
    ///
    /// The batch form of `/laisvadienis`: the two agree field by field on every date.
    /// `from == to` gives one day; at most 366 days per request. No key needed; limited per
    /// client IP to 20 requests per minute and 2 000 per calendar month (UTC).
    #[oai(path = "/days", method = "get", operation_id = "days")]
    async fn days(
        &self,
        req: &Request,
        /// First date, `YYYY-MM-DD`, inclusive.
        #[oai(name = "from")]
        _from: Query<DocString<DateParam>>,
        /// Last date, `YYYY-MM-DD`, inclusive; not earlier than `from`.
        #[oai(name = "to")]
        _to: Query<DocString<DateParam>>,
    ) -> Result<Answer<DaysDoc>, PublicError> {
        handle(req, &catalog_of(req), &Today::now())
    }
}

/// Answers a request that has passed the rate limiter, from `catalog`.
pub fn handle(
    req: &Request,
    catalog: &Catalog,
    today: &Today,
) -> Result<Answer<DaysDoc>, PublicError> {
    let params = Params::parse(req.uri().query(), ["from", "to"])?;
    // Check order (docs/api.md, Errors): missing_param (both), invalid_date, invalid_range,
    // range_too_large.
    let (from, to) = params::date_range(catalog, params.get(0), params.get(1), today)?;
    let days = from.days_until(to) + 1;
    if days > MAX_DAYS {
        return Err(ApiError::new(
                ErrorCode::RangeTooLarge,
                format!(
                    "the range from 'from' ({from}) to 'to' ({to}) spans {days} days; at most {MAX_DAYS} days are allowed per request"
                ),
            )
            .into());
    }
    let etag = caching::etag(catalog.etag_tag(), &[from, to]);
    if caching::not_modified(req.headers(), &etag) {
        return Ok(Answer::not_modified(etag));
    }
    Ok(Answer::public(catalog.days_json(from, to), etag))
}
