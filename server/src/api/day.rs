//! `GET /api/v1/day`: everything about one date. Key required.

use kalendorius_dataset::Reason;

use super::prelude::*;
use super::records::{ClockChangeRecord, Holiday, LegalBasis, MoonOnDay, SchoolPeriod};
use crate::catalog::NameDayRecord;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/day",
    operation_id: "day",
    summary: "Everything about a date",
    description: "Day of week (0 = Sunday), weekend flag, ISO week, the day's status with \
                  the legal bases that decide it, the holidays (with Lithuanian and English \
                  names and the name in `lang`, a red one with its basis), the name days and \
                  the pupils' holiday periods containing the date, for every grade \
                  (`/school-holidays` says whether the date is covered), the moon's phase \
                  and the change of the clocks on that date, if any.",
    access: Access::Keyed,
    params: DayParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<DayDetails>),
    bad_request: BadRequest::of(DayParams::DECLARED).codes(),
    handle: serve::<DayParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct DayDetails<'a> {
    /// The date.
    pub date: Date,
    /// Language used for holiday names (lower-case).
    pub lang: Lang,
    /// 0 = Sunday, 1 = Monday, ... 6 = Saturday.
    #[schemars(range(min = 0, max = 6))]
    pub day_of_week: u8,
    /// True for Saturday or Sunday.
    pub is_weekend: bool,
    /// ISO 8601 week number.
    #[schemars(range(min = 1, max = 53))]
    pub week_number: u8,
    /// Whether the date is a working day, and why.
    pub status: Status<'a>,
    /// Holidays on the date, in the order of `/holidays?date=` (without `name_pl` and
    /// `name_ru`).
    pub holidays: Vec<Holiday<'a>>,
    /// Name days of the date.
    pub name_days: Vec<&'a NameDayRecord>,
    /// The pupils' holiday periods containing the date, for every grade (names in `lang`);
    /// empty on a school day and on a date outside the school years of the data.
    pub school_holidays: Vec<SchoolPeriod<'a>>,
    /// The moon's phase on the date (its name in `lang`) and the lit fraction of its disc.
    pub moon: MoonOnDay,
    /// The change of the clocks on the date (summer time), `null` on every other date and
    /// before 1920.
    pub clock_change: Option<ClockChangeRecord>,
}

/// The status of the date (as `/laisvadienis` gives it, the 5-day week) and its legal bases.
#[derive(Serialize, JsonSchema)]
pub struct Status<'a> {
    /// Non-working day.
    pub laisvadienis: bool,
    /// Why it is non-working: `saturday`, `sunday` or `public_holiday`; `null` on a
    /// working day.
    pub reason: Option<Reason>,
    /// A working day one hour shorter: the next day is a red holiday.
    pub shorter_workday: bool,
    /// The provisions that decide the day, in `lang`, each with its confidence: those of
    /// its red holidays, of a declared day off or working day, and the eve rule on a
    /// shortened day. Empty on an ordinary working day or weekend day (docs/data.md §2.8).
    pub basis: Vec<LegalBasis<'a>>,
}

params! {
    pub struct DayParams {
        date: Date = DATE,
        lang: Lang = LANG,
    }
}

impl Handler for DayParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let DayParams { date, lang } = *self;
        let catalog = cx.catalog;
        let calendar = catalog.calendar_of(date);
        let status = catalog.status_of(date);
        let response = answer::private_cached(cx, ENDPOINT.operation_id, self, || DayDetails {
            date,
            lang,
            day_of_week: calendar.day_of_week,
            is_weekend: calendar.is_weekend,
            week_number: calendar.iso_week,
            status: Status {
                laisvadienis: status.laisvadienis,
                reason: status.reason,
                shorter_workday: status.shorter_workday,
                basis: catalog
                    .bases_of(date)
                    .into_iter()
                    .map(|b| LegalBasis::new(b, lang))
                    .collect(),
            },
            holidays: Holiday::on(catalog, date, lang, false).collect(),
            name_days: catalog.name_days_on(date).collect(),
            school_holidays: SchoolPeriod::overlapping(catalog, date, date, None, lang),
            moon: MoonOnDay::on(date, lang),
            clock_change: ClockChangeRecord::on(date),
        });
        Ok(response)
    }
}
