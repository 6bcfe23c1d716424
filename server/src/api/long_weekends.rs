//! `GET /api/v1/long-weekends`: the long weekends of a year and the bridges that join them
//! for a number of leave days, as the catalog computed them. Key required.

use super::prelude::*;
use crate::catalog::{Catalog, MAX_LEAVE_DAYS};

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/long-weekends",
    operation_id: "long_weekends",
    summary: "Long weekends and bridge days of a year",
    description: "With the status of every day (`/laisvadienis`, 5-day week): a *rest run* \
                  is a maximal run of consecutive non-working days; a *period* is one rest \
                  run, or several consecutive rest runs joined by taking every working day \
                  between them as leave (a shortened day counts as one leave day). Listed: \
                  the periods that start in `year`, are at least 3 calendar days long, take \
                  at most `max_leave_days` leave days and hold at least one date carrying a \
                  red holiday or a declared extra day off; sorted by `start`, then by \
                  `leave_day_count`. A period may end in the next year (Christmas to New \
                  Year). The served range cuts a period: a rest run is taken to end on the \
                  last served date (2100-12-31).",
    access: Access::Keyed,
    params: LongWeekendsParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<LongWeekends>),
    bad_request: BadRequest::of(LongWeekendsParams::DECLARED).codes(),
    handle: serve::<LongWeekendsParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct LongWeekends<'a> {
    /// Echo of `year`.
    pub year: i32,
    /// Echo of `max_leave_days`.
    #[schemars(range(min = 0, max = 10))]
    pub max_leave_days: usize,
    /// Number of periods.
    pub count: usize,
    /// The periods, by `start`, then by `leave_day_count`.
    pub periods: Vec<LongWeekend<'a>>,
}

/// One period: a long weekend, or rest runs joined by leave days.
#[derive(Serialize, JsonSchema)]
pub struct LongWeekend<'a> {
    /// First day off.
    pub start: Date,
    /// Last day off (may be in the next year).
    pub end: Date,
    /// Calendar days from `start` to `end`, both counted.
    #[schemars(range(min = 3))]
    pub days_off: u32,
    /// The working days to take as leave, in date order.
    pub leave_days: &'a [Date],
    /// Number of `leave_days`.
    pub leave_day_count: usize,
    /// Each red holiday and declared extra day off inside, by date.
    pub holidays: Vec<PeriodHoliday<'a>>,
}

/// A red holiday or declared extra day off inside a period.
#[derive(Serialize, JsonSchema)]
pub struct PeriodHoliday<'a> {
    /// Its date.
    pub date: Date,
    /// Its name in `lang`.
    pub name: &'a str,
}

const START_YEAR: Param = Param {
    description: "The year the periods start in.",
    ..YEAR
};

const MAX_LEAVE: Param = Param {
    name: "max_leave_days",
    required: false,
    kind: Kind::Integer {
        range: 0..=MAX_LEAVE_DAYS as i64,
        default: Some(0),
    },
    description: "Most leave days a period may take: an integer from 0 (default: the long \
                  weekends alone) to 10.",
};

params! {
    pub struct LongWeekendsParams {
        year: i32 = START_YEAR,
        max_leave_days: usize = MAX_LEAVE,
        lang: Lang = LANG,
    }
}

impl Handler for LongWeekendsParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        Ok(answer::private_cached(
            cx,
            ENDPOINT.operation_id,
            self,
            || long_weekends(cx.catalog, self),
        ))
    }
}

fn long_weekends<'c>(catalog: &'c Catalog, params: &LongWeekendsParams) -> LongWeekends<'c> {
    let LongWeekendsParams {
        year,
        max_leave_days,
        lang,
    } = *params;
    let periods: Vec<LongWeekend> = catalog
        .long_weekends(year, max_leave_days)
        .map(|p| LongWeekend {
            start: p.start,
            end: p.end,
            days_off: p.days_off(),
            leave_days: &p.leave_days,
            leave_day_count: p.leave_days.len(),
            holidays: p
                .marked
                .iter()
                .flat_map(|&date| {
                    let names = catalog.day_off_names(date, lang);
                    names.map(move |name| PeriodHoliday { date, name })
                })
                .collect(),
        })
        .collect();
    LongWeekends {
        year,
        max_leave_days,
        count: periods.len(),
        periods,
    }
}
