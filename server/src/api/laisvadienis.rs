//! `GET /api/v1/laisvadienis` (docs/api.md, `/laisvadienis`): the working-day status of one
//! date. Public.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{DateParam, DocString};
use super::responses::{LaisvadienisDoc, PublicError};
use super::today::Today;
use super::{catalog_of, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;
use crate::http::caching;

/// The operation.
pub struct LaisvadienisApi;

#[OpenApi(tag = "ApiTag::Public")]
impl LaisvadienisApi {
    /// Is this date a working day?
    ///
    /// Non-working (`laisvadienis: true`) on every Saturday (unless declared a working day),
    /// Sunday, red public holiday and declared extra day off. `shorter_workday` is true on a
    /// workday whose next calendar day carries a red holiday. No key needed; limited per
    /// client IP to 60 requests per minute and 10 000 per calendar month (UTC).
    #[oai(path = "/laisvadienis", method = "get", operation_id = "laisvadienis")]
    async fn laisvadienis(
        &self,
        req: &Request,
        /// The date.
        #[oai(name = "date")]
        _date: Query<DocString<DateParam>>,
    ) -> Result<Answer<LaisvadienisDoc>, PublicError> {
        handle(req, &catalog_of(req), &Today::now())
    }
}

/// Answers a request that has passed the rate limiter, from `catalog`.
pub fn handle(
    req: &Request,
    catalog: &Catalog,
    today: &Today,
) -> Result<Answer<LaisvadienisDoc>, PublicError> {
    let params = Params::parse(req.uri().query(), ["date"])?;
    let date = params::date_or_today(catalog, "date", params.get(0), today)?;
    let etag = caching::etag(catalog.etag_tag(), &[date]);
    if caching::not_modified(req.headers(), &etag) {
        return Ok(Answer::not_modified(etag));
    }
    Ok(Answer::public(catalog.status_json(date), etag))
}
