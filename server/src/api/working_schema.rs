//! The bodies of the working-time endpoints as the OpenAPI document describes them
//! (docs/api.md, Working time), each with an example. The bodies are written as bytes by
//! `crate::api::working_wire`; the `openapi` integration test validates real responses
//! against these schemas.

use poem_openapi::types::Example;
use poem_openapi::Object;

use super::doc_types::{DocString, IsoDate};

/// A date of an example.
fn date(text: &str) -> DocString<IsoDate> {
    DocString::new(text)
}

/// One month of `/working-time`.
#[derive(Object)]
pub struct WorkingMonth {
    /// 1 = January ... 12 = December.
    #[oai(validator(minimum(value = "1"), maximum(value = "12")))]
    pub month: u8,
    /// Days in the month.
    pub calendar_days: u32,
    /// Days with working hours in the week form.
    pub working_days: u32,
    /// `calendar_days - working_days`.
    pub non_working_days: u32,
    /// Dates of the month carrying a red (non-working) holiday, whatever the weekday.
    pub red_holidays: Vec<DocString<IsoDate>>,
    /// Working days one hour shorter: the next calendar day carries a red holiday.
    pub shortened_days: Vec<DocString<IsoDate>>,
    /// The sum of the working hours.
    pub working_hours: u32,
}

/// The year of `/working-time`: the fields of a month summed, the date lists counted.
#[derive(Object)]
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
#[derive(Object)]
pub struct AverageMonth {
    /// Working days per month.
    pub working_days: f64,
    /// Working hours per month.
    pub working_hours: f64,
}

/// The `/working-time` response.
#[derive(Object)]
#[oai(example)]
pub struct WorkingTime {
    /// Echo of `year`.
    pub year: i32,
    /// Echo of `week` (5 or 6).
    #[oai(validator(minimum(value = "5"), maximum(value = "6")))]
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

impl Example for WorkingTime {
    /// The first month of 2026 (the others omitted), and the year, in the 5-day week.
    fn example() -> Self {
        WorkingTime {
            year: 2026,
            week: 5,
            hours_per_week: 40,
            months: vec![WorkingMonth {
                month: 1,
                calendar_days: 31,
                working_days: 21,
                non_working_days: 10,
                red_holidays: vec![date("2026-01-01")],
                shortened_days: vec![],
                working_hours: 168,
            }],
            total: WorkingYearTotal {
                calendar_days: 365,
                working_days: 251,
                non_working_days: 114,
                red_holidays: 16,
                shortened_days: 6,
                working_hours: 2002,
            },
            average_month: AverageMonth {
                working_days: 20.9,
                working_hours: 166.8,
            },
        }
    }
}

/// The `/working-days` response.
#[derive(Object)]
#[oai(example)]
pub struct WorkingDays {
    /// Echo of `from` (resolved when it was `today`).
    pub from: DocString<IsoDate>,
    /// Echo of `to` (resolved when it was `today`).
    pub to: DocString<IsoDate>,
    /// Echo of `week` (5 or 6).
    #[oai(validator(minimum(value = "5"), maximum(value = "6")))]
    pub week: u8,
    /// Days in the range.
    pub calendar_days: u32,
    /// Working days in the range.
    pub working_days: u32,
    /// `calendar_days - working_days`.
    pub non_working_days: u32,
    /// How many working days of the range are one hour shorter.
    pub shortened_days: u32,
    /// Working hours in the range.
    pub working_hours: u32,
}

impl Example for WorkingDays {
    fn example() -> Self {
        WorkingDays {
            from: date("2026-12-01"),
            to: date("2026-12-31"),
            week: 5,
            calendar_days: 31,
            working_days: 21,
            non_working_days: 10,
            shortened_days: 2,
            working_hours: 166,
        }
    }
}

/// The `/working-days/add` response.
#[derive(Object)]
#[oai(example)]
pub struct WorkingDaysAdded {
    /// Echo of `date` (resolved when it was `today`).
    pub date: DocString<IsoDate>,
    /// Echo of `days`.
    pub days: i32,
    /// Echo of `week` (5 or 6).
    #[oai(validator(minimum(value = "5"), maximum(value = "6")))]
    pub week: u8,
    /// The date `days` working days from `date`.
    pub result: DocString<IsoDate>,
}

impl Example for WorkingDaysAdded {
    fn example() -> Self {
        WorkingDaysAdded {
            date: date("2026-12-20"),
            days: 10,
            week: 5,
            result: date("2027-01-06"),
        }
    }
}
