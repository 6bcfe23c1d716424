//! `GET /api/v1/leave`: the dates of N working days of annual leave from a date (Labour Code
//! art. 126): red holidays and declared days off inside do not count. Key required.

use kalendorius_dataset::leave::{self, MAX_DAYS, MIN_DAYS};

use super::long_weekends::PeriodHoliday;
use super::prelude::*;
use super::records::LegalBasis;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/leave",
    operation_id: "leave",
    summary: "The dates of annual leave of N working days",
    description: "Annual leave is counted in working days (Labour Code art. 126(2): at least \
                  20 in the 5-day week, 24 in the 6-day week): the first leave day is `start`, \
                  or the next working day when `start` is not one (`start_moved`); the leave \
                  ends on the `days`-th working day from there, and the employee returns on \
                  the next working day. Red holidays and declared extra days off inside are \
                  not leave days (`holidays` names them); working days by the rules of \
                  `/working-time` (`week=6`: Saturdays are working days). A leave ending \
                  outside the served dates is `out_of_range`.",
    access: Access::Keyed,
    params: &[
        Param {
            name: "start",
            description: "The first day asked for, `YYYY-MM-DD` or `today`.",
            ..DATE
        },
        Param {
            name: "days",
            required: true,
            kind: Kind::Integer(MIN_DAYS as i64..=MAX_DAYS as i64),
            description: "Working days of leave: an integer from 1 to 366.",
        },
        WEEK,
        LANG,
    ],
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<Leave>),
    bad_request: &[
        ErrorCode::MissingParam,
        ErrorCode::InvalidDate,
        ErrorCode::InvalidParam,
        ErrorCode::InvalidLang,
        ErrorCode::OutOfRange,
    ],
    handle,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct Leave<'a> {
    /// The first leave day: `start` itself, or the next working day when it is not one.
    pub start: Date,
    /// Whether `start` was not a working day, so the leave begins later.
    pub start_moved: bool,
    /// Echo of `days`: working days of leave.
    #[schemars(range(min = 1, max = 366))]
    pub days: u32,
    /// Echo of `week` (5 or 6).
    #[schemars(range(min = 5, max = 6))]
    pub week: u8,
    /// The last leave day.
    pub end: Date,
    /// The first working day after the leave: the day the employee returns.
    pub return_date: Date,
    /// Calendar days from `start` to `end`, both counted.
    pub calendar_days: u32,
    /// The red holidays and declared extra days off of the week form from `start` to
    /// `end`, by date (names in `lang`): days inside the leave that are not leave days.
    pub holidays: Vec<PeriodHoliday<'a>>,
    /// The provision that counts annual leave in working days.
    pub basis: Vec<LegalBasis<'static>>,
}

fn handle(_: &Request, query: &Query, cx: &Context) -> Result<Response, ApiError> {
    let catalog = cx.catalog;
    if query.get(0).is_none() {
        return Err(query::missing("start", "YYYY-MM-DD"));
    }
    let Some(days) = query.get(1) else {
        return Err(query::missing("days", "an integer from 1 to 366"));
    };
    let asked = query::date_or_today(catalog, "start", query.get(0), cx.today)?;
    let days = query::integer("days", days, MIN_DAYS.into(), MAX_DAYS.into())? as u32;
    let week = query::week(query.get(2))?;
    let lang = query::lang(query.get(3))?;
    let outside = || {
        ApiError::new(
            ErrorCode::OutOfRange,
            format!(
                "{days} working days of leave from {asked} end outside the dates served ({} to {})",
                catalog.first, catalog.last
            ),
        )
    };
    // The first leave day, the last (days - 1 working days later), and the day after.
    let start = catalog
        .add_working_days(asked, 0, week)
        .ok_or_else(outside)?;
    let end = catalog
        .add_working_days(start, i64::from(days) - 1, week)
        .ok_or_else(outside)?;
    let return_date = catalog.add_working_days(end, 1, week).ok_or_else(outside)?;
    let holidays = std::iter::successors(Some(start), |d| d.succ().filter(|d| *d <= end))
        .filter(|&d| catalog.working_day(d).hours(week) == 0)
        .flat_map(|date| {
            let names = catalog.day_off_names(date, lang);
            names.map(move |name| PeriodHoliday { date, name })
        })
        .collect();
    Ok(answer::private(answer::to_json(&Leave {
        start,
        start_moved: start != asked,
        days,
        week: query::week_number(week),
        end,
        return_date,
        calendar_days: start.days_until(end) as u32 + 1,
        holidays,
        basis: vec![LegalBasis::new(leave::basis(), lang)],
    })))
}
