//! `GET /api/v1/working-days/add`: the date a number of working days after (or before) a
//! date, for deadlines. Key required.

use kalendorius_dataset::working_time::Week;

use super::prelude::*;
use crate::catalog::Catalog;

/// The largest `|days|` (about 385 years of working days).
pub const MAX_ADD_DAYS: i64 = 100_000;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/working-days/add",
    operation_id: "working_days_add",
    summary: "The date N working days after or before a date",
    description: "`days > 0`: the N-th working day after `date` (not counting `date`); \
                  `days < 0`: the |N|-th working day before it; `days = 0`: `date` itself when \
                  it is a working day, else the next working day (a term whose last day is a \
                  rest day ends on the next working day, Civil Code art. 1.121). Working days \
                  by the rules of `/working-time`. A result outside the served dates is \
                  `out_of_range`.",
    access: Access::Keyed,
    params: AddParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<WorkingDaysAdded>),
    // Its checks across parameters: a result outside the served dates.
    bad_request: BadRequest::of(AddParams::DECLARED)
        .and(&[ErrorCode::OutOfRange])
        .codes(),
    handle: serve::<AddParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct WorkingDaysAdded {
    /// Echo of `date` (resolved when it was `today`).
    pub date: Date,
    /// Echo of `days`.
    pub days: i64,
    /// Echo of `week` (5 or 6).
    #[schemars(range(min = 5, max = 6))]
    pub week: u8,
    /// The working day reached.
    pub result: Date,
}

const COUNTED_FROM: Param = Param {
    description: "The date counted from, `YYYY-MM-DD` or `today`.",
    ..DATE
};

const DAYS: Param = Param {
    name: "days",
    required: true,
    kind: Kind::Integer {
        range: -MAX_ADD_DAYS..=MAX_ADD_DAYS,
        default: None,
    },
    description: "How many working days to add: an integer from -100000 to 100000.",
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AddParams {
    pub date: Date,
    pub days: i64,
    pub week: Week,
}

impl Params for AddParams {
    const DECLARED: &'static [Param] = &[COUNTED_FROM, DAYS, WEEK];

    /// Both required parameters are checked present before either is read.
    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let required = [(COUNTED_FROM.name, "YYYY-MM-DD"), (DAYS.name, "an integer")];
        query::all_present(query, &required)?;
        Ok(AddParams {
            date: COUNTED_FROM.read(query, cx)?,
            days: DAYS.read(query, cx)?,
            week: WEEK.read(query, cx)?,
        })
    }
}

impl Handler for AddParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        add(cx.catalog, self)
    }
}

fn add(catalog: &Catalog, params: &AddParams) -> Result<Response, ApiError> {
    let AddParams { date, days, week } = *params;
    let result = catalog.add_working_days(date, days, week).ok_or_else(|| {
        ApiError::new(
            ErrorCode::OutOfRange,
            format!(
                "{days} working days from {date} fall outside the dates served ({} to {})",
                catalog.first, catalog.last
            ),
        )
    })?;
    Ok(answer::private(answer::to_json(&WorkingDaysAdded {
        date,
        days,
        week: query::week_number(week),
        result,
    })))
}
