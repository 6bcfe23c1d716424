//! `GET /api/v1/working-days`: the working days and hours of an inclusive range of dates, of
//! any length, in constant time. Key required.

use super::prelude::*;
use crate::catalog::WorkingSummary;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/working-days",
    operation_id: "working_days",
    summary: "Working days and hours between two dates",
    description: "Calendar, working and non-working days, shortened days and working hours \
                  of the inclusive range `from`..`to`, by the rules of `/working-time`. Any \
                  range of served dates (no length limit).",
    access: Access::Keyed,
    params: &[FROM, TO, WEEK],
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<WorkingDays>),
    bad_request: &[
        ErrorCode::MissingParam,
        ErrorCode::InvalidDate,
        ErrorCode::InvalidRange,
        ErrorCode::InvalidParam,
    ],
    handle,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct WorkingDays {
    /// Echo of `from` (resolved when it was `today`).
    pub from: Date,
    /// Echo of `to` (resolved when it was `today`).
    pub to: Date,
    /// Echo of `week` (5 or 6).
    #[schemars(range(min = 5, max = 6))]
    pub week: u8,
    #[serde(flatten)]
    pub summary: WorkingSummary,
}

fn handle(_: &Request, query: &Query, cx: &Context) -> Result<Response, ApiError> {
    let (from, to) = query::date_range(cx.catalog, query.get(0), query.get(1), cx.today)?;
    let week = query::week(query.get(2))?;
    Ok(answer::private(answer::to_json(&WorkingDays {
        from,
        to,
        week: query::week_number(week),
        summary: cx.catalog.working_summary(from, to, week),
    })))
}
