//! `GET /api/v1/working-days/add`: the date a number of working days after (or before) a
//! date, for deadlines. Key required.

use super::prelude::*;

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
    params: &[
        Param {
            description: "The date counted from, `YYYY-MM-DD` or `today`.",
            ..DATE
        },
        Param {
            name: "days",
            required: true,
            kind: Kind::Integer(-MAX_ADD_DAYS..=MAX_ADD_DAYS),
            description: "How many working days to add: an integer from -100000 to 100000.",
        },
        WEEK,
    ],
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<WorkingDaysAdded>),
    bad_request: &[
        ErrorCode::MissingParam,
        ErrorCode::InvalidDate,
        ErrorCode::InvalidParam,
        ErrorCode::OutOfRange,
    ],
    handle,
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

fn handle(_: &Request, query: &Query, cx: &Context) -> Result<Response, ApiError> {
    let catalog = cx.catalog;
    if query.get(0).is_none() {
        return Err(query::missing("date", "YYYY-MM-DD"));
    }
    let Some(days) = query.get(1) else {
        return Err(query::missing("days", "an integer"));
    };
    let date = query::date_or_today(catalog, "date", query.get(0), cx.today)?;
    let days = query::integer("days", days, -MAX_ADD_DAYS, MAX_ADD_DAYS)?;
    let week = query::week(query.get(2))?;
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
