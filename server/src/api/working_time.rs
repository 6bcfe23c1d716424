//! `GET /api/v1/working-time`: the working-time norm of a year, month by month, in the 5- or
//! 6-day week, for the 40-hour week or another contract. Key required.

use kalendorius_dataset::contract::{Contract, Hours};

use super::prelude::*;
use super::records::ContractTerms;
use crate::catalog::{Catalog, WorkingSummary};

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/working-time",
    operation_id: "working_time",
    summary: "The working-time norm of a year",
    description: "Working days, non-working days, red holidays, shortened days and working \
                  hours (and minutes) of each month and of the year, and the average month \
                  (total / 12, rounded half up to one decimal, as the minister's annual order \
                  publishes it), for the 40-hour week worked Monday-Friday (`week=5`, 8 hours \
                  a day) or Monday-Saturday (`week=6`, 7 hours Monday-Friday, 5 on Saturday), \
                  or for another contract: `hours_per_week` with `norm`, or a `schedule`. A \
                  day's length is `hours_per_week / 5` (5-day week) or the 40-hour split \
                  scaled by `hours_per_week / 40` (6-day week), in whole minutes rounded half \
                  up. A working day before a red holiday is one hour shorter (never below \
                  zero) for `full` and `part_time`, not for `reduced` (Labour Code art. 112).",
    access: Access::Keyed,
    params: WorkingTimeParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<WorkingTime>),
    // Its checks across parameters: the contract's.
    bad_request: BadRequest::of(WorkingTimeParams::DECLARED)
        .and(CONTRACT_CHECKS)
        .codes(),
    handle: serve::<WorkingTimeParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct WorkingTime<'a> {
    /// Echo of `year`.
    pub year: i32,
    /// Echo of `week` (5 or 6; 6 for a schedule of 6 days).
    #[schemars(range(min = 5, max = 6))]
    pub week: u8,
    #[serde(flatten)]
    pub terms: ContractTerms<'a>,
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
    /// Working days one hour shorter: the next calendar day carries a red holiday (none
    /// for `norm=reduced`).
    pub shortened_days: Vec<Date>,
    /// The sum of the working hours: `working_minutes / 60`, to 2 decimals.
    pub working_hours: Hours,
    /// The sum of the working minutes.
    pub working_minutes: u64,
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
    /// Working hours: the annual norm (`working_minutes / 60`, to 2 decimals).
    pub working_hours: Hours,
    /// Working minutes.
    pub working_minutes: u64,
}

/// The average month: the year's totals divided by 12, rounded half up to one decimal (the
/// minutes to a whole minute).
#[derive(Serialize, JsonSchema)]
pub struct AverageMonth {
    /// Working days per month.
    pub working_days: f64,
    /// Working hours per month.
    pub working_hours: f64,
    /// Working minutes per month.
    pub working_minutes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkingTimeParams {
    pub year: i32,
    pub contract: Contract,
}

impl Params for WorkingTimeParams {
    const DECLARED: &'static [Param] = &[YEAR, WEEK, HOURS_PER_WEEK, NORM, SCHEDULE];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        Ok(WorkingTimeParams {
            year: YEAR.read(query, cx)?,
            contract: contract(query)?,
        })
    }
}

impl Handler for WorkingTimeParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        Ok(answer::private_cached(
            cx,
            ENDPOINT.operation_id,
            self,
            || working_time(cx.catalog, self.year, &self.contract),
        ))
    }
}

fn working_time<'a>(catalog: &'a Catalog, year: i32, contract: &'a Contract) -> WorkingTime<'a> {
    let mut total = WorkingYearTotal::default();
    let months = (1..=12)
        .map(|month| {
            let first = Date::from_ymd(year, month, 1).expect("a served year has every month");
            let next = |d: &Date| d.succ().filter(|d| d.month() == month);
            let dates: Vec<Date> = std::iter::successors(Some(first), next).collect();
            let summary: WorkingSummary =
                catalog.contract_summary(first, dates[dates.len() - 1], contract);
            let dates_where = |keep: &dyn Fn(Date) -> bool| -> Vec<Date> {
                dates.iter().copied().filter(|d| keep(*d)).collect()
            };
            let red_holidays = dates_where(&|d| catalog.working_day(d).is_red());
            let shortened_days = dates_where(&|d| {
                let day = catalog.working_day(d);
                day.is_shortened_for(d.weekday(), contract)
            });
            total.calendar_days += summary.calendar_days;
            total.working_days += summary.working_days;
            total.non_working_days += summary.non_working_days;
            total.red_holidays += red_holidays.len() as u32;
            total.shortened_days += summary.shortened_days;
            total.working_minutes += summary.working_minutes;
            WorkingMonth {
                month,
                calendar_days: summary.calendar_days,
                working_days: summary.working_days,
                non_working_days: summary.non_working_days,
                red_holidays,
                shortened_days,
                working_hours: summary.working_hours,
                working_minutes: summary.working_minutes,
            }
        })
        .collect();
    total.working_hours = Hours(total.working_minutes);
    let hours_tenths = average_month_tenths(total.working_minutes, 60);
    let average_month = AverageMonth {
        working_days: average_month_tenths(total.working_days.into(), 1) as f64 / 10.0,
        working_hours: hours_tenths as f64 / 10.0,
        working_minutes: (total.working_minutes + 6) / 12,
    };
    let (first, last) = (
        Date::from_ymd(year, 1, 1).expect("a served year"),
        Date::from_ymd(year, 12, 31).expect("a served year"),
    );
    WorkingTime {
        year,
        week: query::week_number(contract.week()),
        terms: ContractTerms::new(catalog, contract, first, last),
        months,
        total,
        average_month,
    }
}

/// `total / 12` rounded half up to one decimal (as the minister's annual order publishes
/// the average month), in tenths, from `total` in units of `1 / per_unit` (minutes: 60;
/// whole days: 1): `floor(10 * total / (12 * per_unit) + 1/2)`.
pub fn average_month_tenths(total: u64, per_unit: u64) -> u64 {
    (20 * total + 12 * per_unit) / (24 * per_unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_round_half_up_to_tenths() {
        // The minister's order A1-1274 for 2021: 252 days, 2009 hours (5-day week), 302
        // days, 2004 hours (6-day week).
        assert_eq!(average_month_tenths(252, 1), 210);
        assert_eq!(average_month_tenths(2009 * 60, 60), 1674);
        assert_eq!(average_month_tenths(302, 1), 252);
        assert_eq!(average_month_tenths(2004 * 60, 60), 1670);
        // 0.05 exactly rounds up: 3 / 12 = 0.25 -> 0.3.
        assert_eq!(average_month_tenths(3, 1), 3);
        // 36 hours reduced, 2026: 1807.2 h / 12 = 150.6.
        assert_eq!(average_month_tenths(108_432, 60), 1506);
        // One decimal on the wire, `21.0` included.
        let json = serde_json::to_string(&AverageMonth {
            working_days: f64::from(210) / 10.0,
            working_hours: f64::from(1674) / 10.0,
            working_minutes: 10045,
        })
        .unwrap();
        assert_eq!(
            json,
            r#"{"working_days":21.0,"working_hours":167.4,"working_minutes":10045}"#
        );
    }
}
