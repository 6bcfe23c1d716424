//! `GET /api/v1/working-days/add` (docs/api.md, `/working-days/add`): the date a number
//! of working days after (or before) a date, for deadlines. Key required.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::OpenApi;

use super::answer::Answer;
use super::doc_types::{AddDaysParam, DateParam, DocString, WeekParam};
use super::responses::{WorkingDaysAddedDoc, WorkingError};
use super::security::ApiKeyAuth;
use super::today::Today;
use super::{catalog_of, working_params, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;
use crate::http::errors::{ApiError, ErrorCode};

/// The operation.
pub struct WorkingDaysAddApi;

#[OpenApi(tag = "ApiTag::Keyed")]
impl WorkingDaysAddApi {
    /// The date N working days after or before a date
    ///
    /// `days > 0`: the N-th working day after `date` (not counting `date`); `days < 0`: the
    /// |N|-th working day before it; `days = 0`: `date` itself when it is a working day,
    /// else the next working day (a term whose last day is a rest day ends on the next
    /// working day, Civil Code art. 1.121). Working days by the rules of `/working-time`.
    /// A result outside the served dates is `out_of_range`.
    #[oai(
        path = "/working-days/add",
        method = "get",
        operation_id = "working_days_add"
    )]
    async fn working_days_add(
        &self,
        req: &Request,
        _auth: ApiKeyAuth,
        /// The date counted from.
        #[oai(name = "date")]
        _date: Query<DocString<DateParam>>,
        /// How many working days to add: an integer from -100000 to 100000.
        #[oai(name = "days")]
        _days: Query<DocString<AddDaysParam>>,
        /// The week form: `5` (default) or `6`.
        #[oai(name = "week")]
        _week: Query<Option<DocString<WeekParam>>>,
    ) -> Result<Answer<WorkingDaysAddedDoc>, WorkingError> {
        handle(req, &catalog_of(req), &Today::now())
    }
}

/// Answers a request that has been authenticated and passed the key's rate limiter.
pub fn handle(
    req: &Request,
    catalog: &Catalog,
    today: &Today,
) -> Result<Answer<WorkingDaysAddedDoc>, WorkingError> {
    let params = Params::parse(req.uri().query(), ["date", "days", "week", "api_key"])?;
    // Check order (docs/api.md, Errors): missing_param (both), invalid_date, invalid_param
    // (days, then week), out_of_range.
    if params.get(0).is_none() {
        return Err(params::missing("date", "YYYY-MM-DD").into());
    }
    let Some(days) = params.get(1) else {
        return Err(params::missing("days", "an integer").into());
    };
    let date = params::date_or_today(catalog, "date", params.get(0), today)?;
    let days = working_params::days(days)?;
    let week = working_params::week(params.get(2))?;
    let result = catalog.add_working_days(date, days, week).ok_or_else(|| {
        ApiError::new(
            ErrorCode::OutOfRange,
            format!(
                "{days} working days from {date} fall outside the dates served ({} to {})",
                catalog.first(),
                catalog.last()
            ),
        )
    })?;
    Ok(Answer::private(super::working_wire::working_days_added(
        date, days, week, result,
    )))
}
