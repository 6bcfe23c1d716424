//! `GET /api/v1/working-time`: the working-time norm of a year, month by month, in the 5- or
//! 6-day week of 40 hours. Key required.

use kalendorius_dataset::working_time::{Week, HOURS_PER_WEEK};

use super::prelude::*;
use crate::catalog::Catalog;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/working-time",
    operation_id: "working_time",
    summary: "The working-time norm of a year",
    description: "Working days, non-working days, red holidays, shortened days and working \
                  hours of each month and of the year, and the average month (total / 12, \
                  rounded half up to one decimal, as the minister's annual order publishes \
                  it), for the 40-hour week worked Monday-Friday (`week=5`, 8 hours a day) or \
                  Monday-Saturday (`week=6`, 7 hours Monday-Friday, 5 on Saturday). A working \
                  day before a red holiday is one hour shorter.",
    access: Access::Keyed,
    params: &[YEAR, WEEK],
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<WorkingTime>),
    bad_request: &[
        ErrorCode::MissingParam,
        ErrorCode::InvalidYear,
        ErrorCode::InvalidParam,
    ],
    handle,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct WorkingTime {
    /// Echo of `year`.
    pub year: i32,
    /// Echo of `week` (5 or 6).
    #[schemars(range(min = 5, max = 6))]
    pub week: u8,
    /// Hours per week: 40.
    pub hours_per_week: u8,
    /// January to December.
    pub months: Vec<WorkingMonth>,
    /// The year.
    pub total: WorkingYearTotal,
    /// `total / 12`, as the minister's annual order publishes it.
    pub average_month: AverageMonth,
}

/// One month of `/working-time`.
#[derive(Serialize, JsonSchema)]
pub struct WorkingMonth {
    /// 1 = January ... 12 = December.
    #[schemars(range(min = 1, max = 12))]
    pub month: u32,
    /// Days in the month.
    pub calendar_days: u32,
    /// Days with working hours in the week form.
    pub working_days: u32,
    /// `calendar_days - working_days`.
    pub non_working_days: u32,
    /// Dates of the month carrying a red (non-working) holiday, whatever the weekday.
    pub red_holidays: Vec<Date>,
    /// Working days one hour shorter: the next calendar day carries a red holiday.
    pub shortened_days: Vec<Date>,
    /// The sum of the working hours.
    pub working_hours: u32,
}

/// The year of `/working-time`: the fields of a month summed, the date lists counted.
#[derive(Serialize, JsonSchema, Default)]
pub struct WorkingYearTotal {
    /// Days in the year.
    pub calendar_days: u32,
    /// Working days.
    pub working_days: u32,
    /// `calendar_days - working_days`.
    pub non_working_days: u32,
    /// How many dates carry a red holiday.
    pub red_holidays: u32,
    /// How many working days are one hour shorter.
    pub shortened_days: u32,
    /// Working hours: the annual norm.
    pub working_hours: u32,
}

/// The average month: the year's totals divided by 12, rounded half up to one decimal.
#[derive(Serialize, JsonSchema)]
pub struct AverageMonth {
    /// Working days per month.
    pub working_days: f64,
    /// Working hours per month.
    pub working_hours: f64,
}

fn handle(_: &Request, query: &Query, cx: &Context) -> Result<Response, ApiError> {
    let year = query::year(cx.catalog, "year", query.get(0))?;
    let week = query::week(query.get(1))?;
    // A year's answer does not change within a dataset: built once, then shared.
    let body = cx.catalog.working_year_body(year, week, || {
        answer::to_json(&working_time(cx.catalog, year, week))
    });
    Ok(answer::private(body))
}

fn working_time(catalog: &Catalog, year: i32, week: Week) -> WorkingTime {
    let mut total = WorkingYearTotal::default();
    let months = (1..=12)
        .map(|month| {
            let first = Date::from_ymd(year, month, 1).expect("a served year has every month");
            let next = |d: &Date| d.succ().filter(|d| d.month() == month);
            let dates: Vec<Date> = std::iter::successors(Some(first), next).collect();
            let summary = catalog.working_summary(first, dates[dates.len() - 1], week);
            let dates_where = |keep: &dyn Fn(Date) -> bool| -> Vec<Date> {
                dates.iter().copied().filter(|d| keep(*d)).collect()
            };
            let red_holidays = dates_where(&|d| catalog.working_day(d).is_red());
            total.calendar_days += summary.calendar_days;
            total.working_days += summary.working_days;
            total.non_working_days += summary.non_working_days;
            total.red_holidays += red_holidays.len() as u32;
            total.shortened_days += summary.shortened_days;
            total.working_hours += summary.working_hours;
            WorkingMonth {
                month,
                calendar_days: summary.calendar_days,
                working_days: summary.working_days,
                non_working_days: summary.non_working_days,
                red_holidays,
                shortened_days: dates_where(&|d| catalog.working_day(d).is_shortened(week)),
                working_hours: summary.working_hours,
            }
        })
        .collect();
    let average_month = AverageMonth {
        working_days: f64::from(average_month_tenths(total.working_days)) / 10.0,
        working_hours: f64::from(average_month_tenths(total.working_hours)) / 10.0,
    };
    WorkingTime {
        year,
        week: query::week_number(week),
        hours_per_week: HOURS_PER_WEEK,
        months,
        total,
        average_month,
    }
}

/// `total / 12` rounded half up to one decimal (as the minister's annual order publishes
/// the average month), in tenths: `floor(10 * total / 12 + 1/2)`.
pub fn average_month_tenths(total: u32) -> u32 {
    (20 * total + 12) / 24
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_round_half_up_to_tenths() {
        // The minister's order A1-1274 for 2021: 252 days, 2009 hours (5-day week), 302
        // days, 2004 hours (6-day week).
        assert_eq!(average_month_tenths(252), 210);
        assert_eq!(average_month_tenths(2009), 1674);
        assert_eq!(average_month_tenths(302), 252);
        assert_eq!(average_month_tenths(2004), 1670);
        // 0.05 exactly rounds up: 3 / 12 = 0.25 -> 0.3.
        assert_eq!(average_month_tenths(3), 3);
        // One decimal on the wire, `21.0` included.
        let json = serde_json::to_string(&AverageMonth {
            working_days: f64::from(210) / 10.0,
            working_hours: f64::from(1674) / 10.0,
        })
        .unwrap();
        assert_eq!(json, r#"{"working_days":21.0,"working_hours":167.4}"#);
    }
}
