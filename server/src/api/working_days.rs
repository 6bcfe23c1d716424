//! `GET /api/v1/working-days`: the working days and hours of an inclusive range of dates, of
//! any length: in constant time for the 40-hour week, a walk over the days for another
//! contract. Key required.

use kalendorius_dataset::contract::Contract;

use super::prelude::*;
use super::records::ContractTerms;
use crate::catalog::WorkingSummary;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/working-days",
    operation_id: "working_days",
    summary: "Working days and hours between two dates",
    description: "Calendar, working and non-working days, shortened days and working hours \
                  (and minutes) of the inclusive range `from`..`to`, by the rules of \
                  `/working-time`, for the 40-hour week or the contract of `hours_per_week` \
                  and `norm`, or `schedule`. Any range of served dates (no length limit).",
    access: Access::Keyed,
    params: WorkingDaysParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<WorkingDays>),
    // Its checks across parameters: `from` later than `to`; the contract's.
    bad_request: BadRequest::of(WorkingDaysParams::DECLARED)
        .and(&[ErrorCode::InvalidRange])
        .and(CONTRACT_CHECKS)
        .codes(),
    handle: serve::<WorkingDaysParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct WorkingDays<'a> {
    /// Echo of `from` (resolved when it was `today`).
    pub from: Date,
    /// Echo of `to` (resolved when it was `today`).
    pub to: Date,
    /// Echo of `week` (5 or 6; 6 for a schedule of 6 days).
    #[schemars(range(min = 5, max = 6))]
    pub week: u8,
    #[serde(flatten)]
    pub terms: ContractTerms<'a>,
    #[serde(flatten)]
    pub summary: WorkingSummary,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkingDaysParams {
    pub from: Date,
    pub to: Date,
    pub contract: Contract,
}

impl Params for WorkingDaysParams {
    const DECLARED: &'static [Param] = &[FROM, TO, WEEK, HOURS_PER_WEEK, NORM, SCHEDULE];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let (from, to) = (query.value(FROM.name), query.value(TO.name));
        let (from, to) = query::date_range(cx.catalog, from, to, cx.today)?;
        Ok(WorkingDaysParams {
            from,
            to,
            contract: contract(query)?,
        })
    }
}

impl Handler for WorkingDaysParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let WorkingDaysParams { from, to, contract } = self;
        let (from, to) = (*from, *to);
        // Kept: the contract's terms cite the eve rule's legal bases, a fifth of the
        // request's work to write again for a range asked before.
        Ok(answer::private_cached(
            cx,
            ENDPOINT.operation_id,
            self,
            || WorkingDays {
                from,
                to,
                week: query::week_number(contract.week()),
                terms: ContractTerms::new(cx.catalog, contract, from, to),
                summary: cx.catalog.contract_summary(from, to, contract),
            },
        ))
    }
}
