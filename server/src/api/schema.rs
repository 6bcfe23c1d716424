//! The response bodies as the OpenAPI document describes them (docs/api.md, Day status
//! and Endpoints).
//!
//! Field order and names are the wire format. Public bodies are written as bytes by
//! `crate::catalog`, keyed bodies by `crate::api::wire`; the `openapi` integration test
//! validates real responses of every endpoint against these schemas, which keeps the three in
//! step.

use poem_openapi::{Object, Union};

use super::doc_types::{
    DocString, GenderCode, HolidayKind, IsoDate, LangCode, Nullable, ReasonCode,
};

/// Status of one date.
#[derive(Object)]
pub struct DayStatus {
    /// The date.
    pub date: DocString<IsoDate>,
    /// True on every Saturday (unless declared a working day), Sunday, red holiday and
    /// declared extra day off.
    pub laisvadienis: bool,
    /// `public_holiday` when a red holiday or declared day off falls on the date (even on a
    /// weekend), else `sunday`, else `saturday`, else null.
    pub reason: Nullable<DocString<ReasonCode>>,
    /// Lithuanian name(s) of the red holiday(s) on the date, joined with ", " in Labour Code
    /// order; null exactly when `reason` is not `public_holiday`.
    pub holiday_name: Nullable<String>,
    /// True exactly when the day is a workday and the next calendar day carries a red
    /// holiday (the workday is one hour shorter).
    pub shorter_workday: bool,
}

/// One day of `/days`; agrees field by field with `/laisvadienis`.
#[derive(Object)]
pub struct DayEntry {
    /// The date.
    pub date: DocString<IsoDate>,
    /// As in `/laisvadienis` (Saturdays are non-working).
    pub laisvadienis: bool,
    /// As in `/laisvadienis`.
    pub holiday_name: Nullable<String>,
    /// As in `/laisvadienis`.
    pub shorter_workday: bool,
}

/// The `/days` response.
#[derive(Object)]
pub struct DaysRange {
    /// Echo of `from`.
    pub from: DocString<IsoDate>,
    /// Echo of `to`.
    pub to: DocString<IsoDate>,
    /// Number of days returned (1 to 366).
    pub count: u32,
    /// One entry per day of the range, in date order.
    pub days: Vec<DayEntry>,
}

/// A holiday in `/holidays`.
#[derive(Object)]
pub struct Holiday {
    /// The date.
    pub date: DocString<IsoDate>,
    /// Name in the requested language.
    pub name: String,
    /// Lithuanian name.
    pub name_lt: String,
    /// English name.
    pub name_en: String,
    /// Polish name.
    pub name_pl: String,
    /// Russian name.
    pub name_ru: String,
    /// Category; independent of `is_red`.
    #[oai(rename = "type")]
    pub kind: DocString<HolidayKind>,
    /// True if the holiday made the day non-working under the law in force on that date.
    /// Use this, never `type`, to decide whether a day is non-working.
    pub is_red: bool,
}

/// A holiday in `/day`: as in `/holidays`, without the Polish and Russian names.
#[derive(Object)]
pub struct DayHoliday {
    /// The date.
    pub date: DocString<IsoDate>,
    /// Name in the requested language.
    pub name: String,
    /// Lithuanian name.
    pub name_lt: String,
    /// English name.
    pub name_en: String,
    /// Category; independent of `is_red`.
    #[oai(rename = "type")]
    pub kind: DocString<HolidayKind>,
    /// True if the holiday made the day non-working.
    pub is_red: bool,
}

/// `/holidays?date=...`.
#[derive(Object)]
pub struct HolidaysOnDate {
    /// Echo of `date`.
    pub date: DocString<IsoDate>,
    /// Number of holidays.
    pub count: u32,
    /// Holidays, red first, then by type (public, traditional, religious, school, other),
    /// then by Lithuanian name.
    pub holidays: Vec<Holiday>,
}

/// `/holidays?year=...`.
#[derive(Object)]
pub struct HolidaysOfYear {
    /// Echo of `year`, as an integer.
    pub year: i32,
    /// Number of holidays.
    pub count: u32,
    /// Holidays by date; within a date, in the order of `/holidays?date=`.
    pub holidays: Vec<Holiday>,
}

/// The `/holidays` response: echoes whichever of `date` or `year` was sent.
#[derive(Union)]
pub enum Holidays {
    /// Sent `date`.
    OnDate(HolidaysOnDate),
    /// Sent `year`.
    OfYear(HolidaysOfYear),
}

/// A name day. Names are Lithuanian calendar names whatever `lang`.
#[derive(Object)]
pub struct NameDay {
    /// The name celebrated.
    pub name: String,
    /// `m` or `f`.
    pub gender: DocString<GenderCode>,
}

/// The `/name-days` response.
#[derive(Object)]
pub struct NameDays {
    /// Echo of `date`.
    pub date: DocString<IsoDate>,
    /// Language used (lower-case). Names are not translated.
    pub lang: DocString<LangCode>,
    /// Number of names.
    pub count: u32,
    /// The names.
    pub name_days: Vec<NameDay>,
}

/// The `/day` response.
#[derive(Object)]
pub struct DayDetails {
    /// The date.
    pub date: DocString<IsoDate>,
    /// Language used for holiday names (lower-case).
    pub lang: DocString<LangCode>,
    /// 0 = Sunday, 1 = Monday, ... 6 = Saturday.
    #[oai(validator(minimum(value = "0"), maximum(value = "6")))]
    pub day_of_week: u8,
    /// True for Saturday or Sunday.
    pub is_weekend: bool,
    /// ISO 8601 week number.
    #[oai(validator(minimum(value = "1"), maximum(value = "53")))]
    pub week_number: u8,
    /// Holidays on the date, in the order of `/holidays?date=`.
    pub holidays: Vec<DayHoliday>,
    /// Name days of the date.
    pub name_days: Vec<NameDay>,
}
