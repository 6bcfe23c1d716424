//! `GET /api/v1/holidays` (docs/api.md, `/holidays`): the holidays of a date or of a year.
//! Key required.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{DocString, LangParam, OptionalDateParam, YearParam};
use super::responses::{HolidaysDoc, KeyedError};
use super::security::ApiKeyAuth;
use super::today::Today;
use super::{catalog_of, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;
use crate::http::errors::{ApiError, ErrorCode};

/// The operation.
pub struct HolidaysApi;

#[OpenApi(tag = "ApiTag::Keyed")]
impl HolidaysApi {
    /// Holidays on a date, or in a year
    ///
    /// Send exactly one of `date` or `year` (both: `conflicting_params`; neither:
    /// `missing_param`). The response echoes the one sent: `date` as a string or `year` as an
    /// integer. Holidays are ordered by date, then red before non-red, then type (public,
    /// traditional, religious, school, other), then Lithuanian name. `is_red` follows the
    /// law in force on each date.
    #[oai(path = "/holidays", method = "get", operation_id = "holidays")]
    async fn holidays(
        &self,
        req: &Request,
        _auth: ApiKeyAuth,
        /// A date: the holidays on that date. `date` and `year` exclude each other: send
        /// exactly one (both: `conflicting_params`; neither: `missing_param`).
        #[oai(name = "date")]
        _date: Query<DocString<OptionalDateParam>>,
        /// A year: all its holidays. `year` and `date` exclude each other: send exactly one
        /// (both: `conflicting_params`; neither: `missing_param`).
        #[oai(name = "year")]
        _year: Query<Option<DocString<YearParam>>>,
        /// Language of `name`: `lt` (default), `en`, `pl`, `ru`; case-insensitive; empty
        /// counts as absent.
        #[oai(name = "lang")]
        _lang: Query<Option<DocString<LangParam>>>,
    ) -> Result<Answer<HolidaysDoc>, KeyedError> {
        handle(req, &catalog_of(req), &Today::now())
    }
}

/// Answers a request that has been authenticated and passed the key's rate limiter.
pub fn handle(
    req: &Request,
    catalog: &Catalog,
    today: &Today,
) -> Result<Answer<HolidaysDoc>, KeyedError> {
    let params = Params::parse(req.uri().query(), ["date", "year", "lang", "api_key"])?;
    let body = match (params.get(0), params.get(1)) {
        (Some(_), Some(_)) => {
            return Err(ApiError::new(
                ErrorCode::ConflictingParams,
                "parameters 'date' and 'year' exclude each other; send exactly one of them",
            )
            .into())
        }
        (None, None) => {
            return Err(ApiError::new(
                ErrorCode::MissingParam,
                "one of the parameters 'date' (YYYY-MM-DD) or 'year' (an integer) is required",
            )
            .into())
        }
        (Some(date), None) => {
            let date = params::date_or_today(catalog, "date", Some(date), today)?;
            let lang = params::lang(params.get(2))?;
            super::wire::holidays_on_date(catalog, date, lang)
        }
        (None, Some(year)) => {
            let year = params::year(catalog, year)?;
            let lang = params::lang(params.get(2))?;
            super::wire::holidays_of_year(catalog, year.get(), lang)
        }
    };
    Ok(Answer::private(body))
}
