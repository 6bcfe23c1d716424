//! `GET /api/v1/working-time` (docs/api.md, `/working-time`): the working-time norm of a
//! year, month by month, in the 5- or 6-day week of 40 hours. Key required.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{DocString, RequiredYearParam, WeekParam};
use super::responses::{WorkingError, WorkingTimeDoc};
use super::security::ApiKeyAuth;
use super::{catalog_of, working_params, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;

/// The operation.
pub struct WorkingTimeApi;

#[OpenApi(tag = "ApiTag::Keyed")]
impl WorkingTimeApi {
    /// The working-time norm of a year
    ///
    /// Working days, non-working days, red holidays, shortened days and working hours of
    /// each month and of the year, and the average month (total / 12, rounded half up to one
    /// decimal, as the minister's annual order publishes it), for the 40-hour week worked
    /// Monday-Friday (`week=5`, 8 hours a day) or Monday-Saturday (`week=6`, 7 hours
    /// Monday-Friday, 5 on Saturday). A working day before a red holiday is one hour shorter.
    #[oai(path = "/working-time", method = "get", operation_id = "working_time")]
    async fn working_time(
        &self,
        req: &Request,
        _auth: ApiKeyAuth,
        /// The year.
        #[oai(name = "year")]
        _year: Query<DocString<RequiredYearParam>>,
        /// The week form: `5` (default) or `6`.
        #[oai(name = "week")]
        _week: Query<Option<DocString<WeekParam>>>,
    ) -> Result<Answer<WorkingTimeDoc>, WorkingError> {
        handle(req, &catalog_of(req))
    }
}

/// Answers a request that has been authenticated and passed the key's rate limiter.
pub fn handle(req: &Request, catalog: &Catalog) -> Result<Answer<WorkingTimeDoc>, WorkingError> {
    let params = Params::parse(req.uri().query(), ["year", "week", "api_key"])?;
    let year = params
        .get(0)
        .ok_or_else(|| params::missing("year", "YYYY"))?;
    let year = params::year(catalog, year)?;
    let week = working_params::week(params.get(1))?;
    let body = catalog.working_year_body(year.get(), week, || {
        super::working_wire::working_time(catalog, year.get(), week)
    });
    Ok(Answer::private(body))
}
