//! `GET /api/v1/holidays/upcoming`: the next holiday dates from a date. Key required.

use super::prelude::*;
use super::records::Holiday;
use super::today::TODAY;
use crate::catalog::{Catalog, HolidayScope};

pub const MAX_COUNT: i64 = 50;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/holidays/upcoming",
    operation_id: "holidays_upcoming",
    summary: "The next holiday dates from a date",
    description: "The next `count` holiday dates on or after `from` (default: today in \
                  Europe/Vilnius), in date order. `scope=red` (default): dates carrying a red \
                  holiday or a declared extra day off; `scope=all`: dates carrying any holiday \
                  record (or a declared extra day off). Each date has `days_until` (0 on \
                  `from` itself), its `laisvadienis` (as `/laisvadienis` says), every holiday \
                  record of the date as `/holidays?date=` gives them (`is_red` tells which \
                  make it a day off), and `declared_day_off`, the name of a declared extra day \
                  off (else null). The search ends at the last served date (2100-12-31): fewer \
                  dates then, never an error; `count` is the number of dates listed.",
    access: Access::Keyed,
    params: UpcomingParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<UpcomingHolidays>),
    bad_request: BadRequest::of(UpcomingParams::DECLARED).codes(),
    handle: serve::<UpcomingParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct UpcomingHolidays<'a> {
    /// Echo of `from` (resolved when it was `today` or absent).
    pub from: Date,
    /// Echo of `scope`, lower-case.
    pub scope: HolidayScope,
    /// Number of dates listed (fewer than `count` asked when the served range ends).
    pub count: usize,
    /// The dates, in order.
    pub dates: Vec<UpcomingDate<'a>>,
}

/// One holiday date.
#[derive(Serialize, JsonSchema)]
pub struct UpcomingDate<'a> {
    /// The date.
    pub date: Date,
    /// Calendar days from `from` (0 on `from` itself).
    pub days_until: u32,
    /// Non-working day (as `/laisvadienis` says).
    pub laisvadienis: bool,
    /// Every holiday of the date, in the order and form of `/holidays?date=`.
    pub holidays: Vec<Holiday<'a>>,
    /// Name (in `lang`) of the declared extra day off on the date, else null.
    pub declared_day_off: Option<&'a str>,
}

const SEARCHED_FROM: Param = Param {
    required: false,
    description: "First date searched, `YYYY-MM-DD` or `today` (the default), inclusive.",
    ..FROM
};

const COUNT: Param = Param {
    name: "count",
    required: false,
    kind: Kind::Integer {
        range: 1..=MAX_COUNT,
        default: Some(5),
    },
    description: "How many dates at most: an integer from 1 to 50, default 5.",
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UpcomingParams {
    pub from: Date,
    pub count: usize,
    pub scope: HolidayScope,
    pub lang: Lang,
}

impl Params for UpcomingParams {
    const DECLARED: &'static [Param] = &[SEARCHED_FROM, COUNT, SCOPE, LANG];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        Ok(UpcomingParams {
            from: SEARCHED_FROM.read_or(query, cx, TODAY)?,
            count: COUNT.read(query, cx)?,
            scope: SCOPE.read(query, cx)?,
            lang: LANG.read(query, cx)?,
        })
    }
}

impl Handler for UpcomingParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        Ok(answer::private_cached(
            cx,
            ENDPOINT.operation_id,
            self,
            || upcoming(cx.catalog, self),
        ))
    }
}

fn upcoming<'c>(catalog: &'c Catalog, params: &UpcomingParams) -> UpcomingHolidays<'c> {
    let UpcomingParams {
        from,
        count,
        scope,
        lang,
    } = *params;
    let dates: Vec<UpcomingDate> = catalog
        .holiday_dates_from(from, scope, count)
        .map(|date| UpcomingDate {
            date,
            days_until: from.days_until(date) as u32,
            laisvadienis: catalog.status_of(date).laisvadienis,
            holidays: Holiday::on(catalog, date, lang, true).collect(),
            declared_day_off: catalog.declared_day_off(date).map(|t| t.name(lang)),
        })
        .collect();
    UpcomingHolidays {
        from,
        scope,
        count: dates.len(),
        dates,
    }
}
