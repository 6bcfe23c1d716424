//! `GET /api/v1/day` (docs/api.md, `/day`): everything about one date. Key required.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{DateParam, DocString, LangParam};
use super::responses::{DayDoc, KeyedError};
use super::security::ApiKeyAuth;
use super::today::Today;
use super::{catalog_of, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;

/// The operation.
pub struct DayApi;

#[OpenApi(tag = "ApiTag::Keyed")]
impl DayApi {
    /// Everything about a date
    ///
    /// Day of week (0 = Sunday), weekend flag, ISO week, the holidays (with Lithuanian and
    /// English names and the name in `lang`) and the name days.
    #[oai(path = "/day", method = "get", operation_id = "day")]
    async fn day(
        &self,
        req: &Request,
        _auth: ApiKeyAuth,
        /// The date, `YYYY-MM-DD`.
        #[oai(name = "date")]
        _date: Query<DocString<DateParam>>,
        /// Language of holiday `name`: `lt` (default), `en`, `pl`, `ru`; case-insensitive;
        /// empty counts as absent.
        #[oai(name = "lang")]
        _lang: Query<Option<DocString<LangParam>>>,
    ) -> Result<Answer<DayDoc>, KeyedError> {
        handle(req, &catalog_of(req), &Today::now())
    }
}

/// Answers a request that has been authenticated and passed the key's rate limiter.
pub fn handle(
    req: &Request,
    catalog: &Catalog,
    today: &Today,
) -> Result<Answer<DayDoc>, KeyedError> {
    let params = Params::parse(req.uri().query(), ["date", "lang", "api_key"])?;
    let date = params::date_or_today(catalog, "date", params.get(0), today)?;
    let lang = params::lang(params.get(1))?;
    Ok(Answer::private(super::wire::day(catalog, date, lang)))
}
