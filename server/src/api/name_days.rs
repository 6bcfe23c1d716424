//! `GET /api/v1/name-days` (docs/api.md, `/name-days`): the names celebrated on a date. Key
//! required.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{DateParam, DocString, LangParam};
use super::responses::{KeyedError, NameDaysDoc};
use super::security::ApiKeyAuth;
use super::today::Today;
use super::{catalog_of, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;

/// The operation.
pub struct NameDaysApi;

#[OpenApi(tag = "ApiTag::Keyed")]
impl NameDaysApi {
    /// Name days of a date
    ///
    /// Names are Lithuanian calendar names in their Lithuanian spelling whatever `lang`
    /// (which is only echoed). Names of February 29 are also celebrated on February 28 of
    /// common years.
    #[oai(path = "/name-days", method = "get", operation_id = "name_days")]
    async fn name_days(
        &self,
        req: &Request,
        _auth: ApiKeyAuth,
        /// The date, `YYYY-MM-DD`.
        #[oai(name = "date")]
        _date: Query<DocString<DateParam>>,
        /// `lt` (default), `en`, `pl`, `ru`; case-insensitive, echoed lower-case; empty
        /// counts as absent.
        #[oai(name = "lang")]
        _lang: Query<Option<DocString<LangParam>>>,
    ) -> Result<Answer<NameDaysDoc>, KeyedError> {
        handle(req, &catalog_of(req), &Today::now())
    }
}

/// Answers a request that has been authenticated and passed the key's rate limiter.
pub fn handle(
    req: &Request,
    catalog: &Catalog,
    today: &Today,
) -> Result<Answer<NameDaysDoc>, KeyedError> {
    let params = Params::parse(req.uri().query(), ["date", "lang", "api_key"])?;
    let date = params::date_or_today(catalog, "date", params.get(0), today)?;
    let lang = params::lang(params.get(1))?;
    Ok(Answer::private(super::wire::name_days(catalog, date, lang)))
}
