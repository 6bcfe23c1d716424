//! `GET /api/v1/leave`: the dates of N working days of annual leave from a date (Labour Code
//! art. 126): red holidays and declared days off inside do not count. Key required.

use kalendorius_dataset::leave::{self, LeaveDays, MAX_DAYS, MIN_DAYS};

use super::long_weekends::PeriodHoliday;
use kalendorius_dataset::working_time::Week;

use super::prelude::*;
use super::records::LegalBasis;
use crate::catalog::Catalog;

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
    params: LeaveParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<Leave>),
    // Its checks across parameters: a leave from `start` ending outside the served dates.
    bad_request: BadRequest::of(LeaveParams::DECLARED)
        .and(&[ErrorCode::OutOfRange])
        .codes(),
    handle: serve::<LeaveParams>,
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

const START: Param = Param {
    name: "start",
    description: "The first day asked for, `YYYY-MM-DD` or `today`.",
    ..DATE
};

const DAYS: Param = Param {
    name: "days",
    required: true,
    kind: Kind::Integer {
        range: MIN_DAYS as i64..=MAX_DAYS as i64,
        default: None,
    },
    description: "Working days of leave: an integer from 1 to 366.",
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LeaveParams {
    /// The first day asked for.
    pub start: Date,
    pub days: u32,
    pub week: Week,
    pub lang: Lang,
}

impl Params for LeaveParams {
    const DECLARED: &'static [Param] = &[START, DAYS, WEEK, LANG];

    /// Both required parameters are checked present before either is read.
    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let required = [
            (START.name, "YYYY-MM-DD"),
            (DAYS.name, "an integer from 1 to 366"),
        ];
        query::all_present(query, &required)?;
        Ok(LeaveParams {
            start: START.read(query, cx)?,
            days: DAYS.read(query, cx)?,
            week: WEEK.read(query, cx)?,
            lang: LANG.read(query, cx)?,
        })
    }
}

impl Handler for LeaveParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        leave(cx.catalog, self)
    }
}

fn leave(catalog: &Catalog, params: &LeaveParams) -> Result<Response, ApiError> {
    let LeaveParams {
        start: asked,
        days,
        week,
        lang,
    } = *params;
    let outside = || {
        ApiError::new(
            ErrorCode::OutOfRange,
            format!(
                "{days} working days of leave from {asked} end outside the dates served ({} to {})",
                catalog.first, catalog.last
            ),
        )
    };
    let leave_days = catalog.leave_days(asked, days, week).ok_or_else(outside)?;
    let LeaveDays {
        start,
        end,
        return_date,
    } = leave_days;
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
