//! `GET /api/v1/working-days` (docs/api.md, `/working-days`): the working days and hours of
//! an inclusive range of dates, of any length, in constant time. Key required.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{DateParam, DocString, WeekParam};
use super::responses::{WorkingDaysDoc, WorkingError};
use super::security::ApiKeyAuth;
use super::today::Today;
use super::{catalog_of, working_params, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;

/// The operation.
pub struct WorkingDaysApi;

#[OpenApi(tag = "ApiTag::Keyed")]
impl WorkingDaysApi {
    /// Working days and hours between two dates
    ///
    /// Calendar, working and non-working days, shortened days and working hours of the
    /// inclusive range `from`..`to`, by the rules of `/working-time`. Any range of served
    /// dates (no length limit).
    #[oai(path = "/working-days", method = "get", operation_id = "working_days")]
    async fn working_days(
        &self,
        req: &Request,
        _auth: ApiKeyAuth,
        /// First date, inclusive.
        #[oai(name = "from")]
        _from: Query<DocString<DateParam>>,
        /// Last date, inclusive; not earlier than `from`.
        #[oai(name = "to")]
        _to: Query<DocString<DateParam>>,
        /// The week form: `5` (default) or `6`.
        #[oai(name = "week")]
        _week: Query<Option<DocString<WeekParam>>>,
    ) -> Result<Answer<WorkingDaysDoc>, WorkingError> {
        handle(req, &catalog_of(req), &Today::now())
    }
}

/// Answers a request that has been authenticated and passed the key's rate limiter.
pub fn handle(
    req: &Request,
    catalog: &Catalog,
    today: &Today,
) -> Result<Answer<WorkingDaysDoc>, WorkingError> {
    let params = Params::parse(req.uri().query(), ["from", "to", "week", "api_key"])?;
    // Check order (docs/api.md, Errors): missing_param (both), invalid_date, invalid_range,
    // invalid_param (`week`).
    let (from, to) = params::date_range(catalog, params.get(0), params.get(1), today)?;
    let week = working_params::week(params.get(2))?;
    let summary = catalog.working_summary(from, to, week);
    Ok(Answer::private(super::working_wire::working_days(
        from, to, week, summary,
    )))
}
