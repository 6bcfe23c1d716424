//! `GET /api/v1/shift-hours`: a shift split for a timesheet by calendar date, kind of day
//! and night hours, in Lithuanian local time across clock changes (E17). Key required. The
//! rule is the dataset crate's (`kalendorius_dataset::shift`); this file parses, looks up
//! and formats.

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone};
use chrono_tz::Tz;
use kalendorius_dataset::shift::{self, LocalTimeError, TimeFormError, ZONE};
use kalendorius_dataset::working_time::{DayKind, Week};

use super::prelude::*;
use super::records::{Holiday, LegalBasis};
use crate::catalog::Catalog;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/shift-hours",
    operation_id: "shift_hours",
    summary: "A shift's hours by date, kind of day and night",
    description: "The minutes of the shift `start`..`end` (at most 72 hours, local times in \
                  Lithuania) split by calendar date and by kind of day (working day, the \
                  week's rest day, holiday: a red holiday or a declared day off) in the \
                  5- or 6-day week of `/working-time`, with the night minutes (22:00-06:00 \
                  local wall time), each also in hours to two decimals; exact across clock \
                  changes. Cites the provisions that set the rates of night, rest-day and \
                  holiday work; pay itself is the employer's.",
    access: Access::Keyed,
    params: ShiftParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<ShiftHours>),
    // Its checks across parameters: `end` not later than `start`; more than 72 hours.
    bad_request: BadRequest::of(ShiftParams::DECLARED)
        .and(&[ErrorCode::InvalidRange, ErrorCode::RangeTooLarge])
        .codes(),
    handle: serve::<ShiftParams>,
};

const START: Param = Param {
    name: "start",
    required: true,
    kind: Kind::LocalTime,
    description: "When the shift begins: `YYYY-MM-DDTHH:MM` local time in Lithuania, or with \
                  its offset (`+02:00`, `+03:00`, `Z`). A local time the spring change skips \
                  is refused, as is one the autumn change repeats unless its offset is given.",
};

const END: Param = Param {
    name: "end",
    description: "When the shift ends, in the form of `start`: later than `start`, at most \
                  72 hours after it.",
    ..START
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct ShiftHours<'a> {
    /// When the shift begins: local time with its offset (RFC 3339).
    pub start: LocalInstant,
    /// When it ends (its last minute is the one before).
    pub end: LocalInstant,
    /// Echo of `week` (5 or 6).
    #[schemars(range(min = 5, max = 6))]
    pub week: u8,
    /// Language of the names and citations (lower-case).
    pub lang: Lang,
    /// The time zone of every local time: `Europe/Vilnius`.
    pub time_zone: &'static str,
    /// The release of the IANA tz database this server's build carries, e.g. `2025b`.
    pub tzdb_version: &'static str,
    /// Elapsed minutes, exact (420 for 22:00-06:00 on the spring change's night, 540 on the
    /// autumn one's).
    pub minutes: u32,
    /// `minutes` in hours, rounded half up to two decimals.
    pub hours: f64,
    /// Minutes from 22:00 to 06:00 local wall time.
    pub night_minutes: u32,
    /// In hours.
    pub night_hours: f64,
    /// Minutes on holidays: red holidays and declared days off.
    pub holiday_minutes: u32,
    /// In hours.
    pub holiday_hours: f64,
    /// Minutes on the week's rest days that are no holidays.
    pub rest_day_minutes: u32,
    /// In hours.
    pub rest_day_hours: f64,
    /// Minutes on working days.
    pub working_day_minutes: u32,
    /// In hours.
    pub working_day_hours: f64,
    /// One entry per calendar date the shift touches, in date order.
    pub days: Vec<ShiftDay<'a>>,
    /// The provisions in force on the shift's dates that define night work and holidays and
    /// set the rates of night, rest-day and holiday work (none before 2003).
    pub basis: Vec<LegalBasis<'a>>,
}

/// One calendar date of a shift.
#[derive(Serialize, JsonSchema)]
pub struct ShiftDay<'a> {
    /// The local date.
    pub date: Date,
    /// The shift's first instant on the date.
    pub from: LocalInstant,
    /// The instant after its last minute on the date (the next midnight, or `end`).
    pub to: LocalInstant,
    /// `working_day`, `rest_day` or `holiday` (a red holiday or a declared day off), in the
    /// week form asked for.
    pub kind: DayKind,
    /// Minutes of the shift on the date.
    pub minutes: u32,
    /// In hours, rounded half up to two decimals.
    pub hours: f64,
    /// Of them, minutes from 22:00 to 06:00.
    pub night_minutes: u32,
    /// In hours.
    pub night_hours: f64,
    /// The holidays on the date, red or not, in the order and form of `/day` (names in
    /// `lang`).
    pub holidays: Vec<Holiday<'a>>,
    /// A working day one hour shorter in the week form: the next day is a red holiday.
    pub shorter_workday: bool,
}

/// An instant written as local time in Lithuania with its offset,
/// `2026-10-25T03:30:00+02:00`.
pub struct LocalInstant(DateTime<Tz>);

impl Serialize for LocalInstant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0.format("%Y-%m-%dT%H:%M:%S%:z"))
    }
}

impl JsonSchema for LocalInstant {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "LocalInstant".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "An instant as local time in Lithuania with its offset (RFC 3339).",
            "type": "string",
            "format": "date-time",
        })
    }
}

/// The same instants in any of their forms are equal (`DateTime` compares instants), so
/// they share one cached answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShiftParams {
    pub start: DateTime<Tz>,
    pub end: DateTime<Tz>,
    pub week: Week,
    pub lang: Lang,
}

impl Params for ShiftParams {
    const DECLARED: &'static [Param] = &[START, END, WEEK, LANG];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let (start, end) = shift_times(query, cx.catalog)?;
        Ok(ShiftParams {
            start,
            end,
            week: WEEK.read(query, cx)?,
            lang: LANG.read(query, cx)?,
        })
    }
}

impl Handler for ShiftParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let ShiftParams {
            start,
            end,
            week,
            lang,
        } = *self;
        Ok(answer::private_cached(
            cx,
            ENDPOINT.operation_id,
            self,
            || shift_hours(cx.catalog, start, end, week, lang),
        ))
    }
}

/// `start` and `end`: both sent, each a time answered, `end` later and at most
/// [`shift::MAX_MINUTES`] after.
fn shift_times(query: &Query, catalog: &Catalog) -> Result<(DateTime<Tz>, DateTime<Tz>), ApiError> {
    let (start, end) = (query.value(START.name), query.value(END.name));
    if start.is_some() && end.is_none() {
        return Err(query::missing(END.name, FORM));
    }
    let start = time(catalog, START.name, start)?;
    let end = time(catalog, END.name, end)?;
    let minutes = (end - start).num_minutes();
    if minutes <= 0 {
        return Err(ApiError::new(
            ErrorCode::InvalidRange,
            format!(
                "parameter 'end' ({}) must be later than parameter 'start' ({})",
                rfc3339(end),
                rfc3339(start)
            ),
        ));
    }
    if minutes > shift::MAX_MINUTES {
        return Err(ApiError::new(
            ErrorCode::RangeTooLarge,
            format!(
                "the shift from {} to {} lasts {minutes} minutes; at most 72 hours ({} minutes) are answered",
                rfc3339(start),
                rfc3339(end),
                shift::MAX_MINUTES
            ),
        ));
    }
    Ok((start, end))
}

fn shift_hours(
    catalog: &Catalog,
    start: DateTime<Tz>,
    end: DateTime<Tz>,
    week: Week,
    lang: Lang,
) -> ShiftHours<'_> {
    let served = |date: NaiveDate| Date::from_naive(date).expect("a date checked served");
    let split = shift::shift(start, end, |date| {
        catalog.working_day(served(date)).kind(week)
    });
    let mut basis: Vec<LegalBasis> = Vec::new();
    for day in &split.days {
        for b in shift::provisions_on(day.part.date) {
            if !basis.iter().any(|known| known.text == b.text(lang)) {
                basis.push(LegalBasis::new(b, lang));
            }
        }
    }
    let days = split.days.iter().map(|day| {
        let (part, date) = (day.part, served(day.part.date));
        ShiftDay {
            date,
            from: LocalInstant(part.from),
            to: LocalInstant(part.to),
            kind: day.kind,
            minutes: part.minutes,
            hours: shift::hours(part.minutes),
            night_minutes: part.night_minutes,
            night_hours: shift::hours(part.night_minutes),
            holidays: Holiday::on(catalog, date, lang, false).collect(),
            shorter_workday: catalog.working_day(date).is_shortened(week),
        }
    });
    ShiftHours {
        start: LocalInstant(start),
        end: LocalInstant(end),
        week: query::week_number(week),
        lang,
        time_zone: ZONE.name(),
        tzdb_version: shift::TZDB_VERSION,
        minutes: split.minutes,
        hours: shift::hours(split.minutes),
        night_minutes: split.night_minutes,
        night_hours: shift::hours(split.night_minutes),
        holiday_minutes: split.holiday_minutes,
        holiday_hours: shift::hours(split.holiday_minutes),
        rest_day_minutes: split.rest_day_minutes,
        rest_day_hours: shift::hours(split.rest_day_minutes),
        working_day_minutes: split.working_day_minutes,
        working_day_hours: shift::hours(split.working_day_minutes),
        days: days.collect(),
        basis,
    }
}

/// The accepted form, as messages name it.
const FORM: &str = "YYYY-MM-DDTHH:MM (local time in Lithuania) or with its offset \
                    (YYYY-MM-DDTHH:MM+02:00, +03:00 or Z)";

/// Reads a time parameter: its form, then whether it names one instant in Lithuania, then
/// whether its local date is answered.
fn time(catalog: &Catalog, name: &str, value: Option<&str>) -> Result<DateTime<Tz>, ApiError> {
    let value = value.ok_or_else(|| query::missing(name, FORM))?;
    let invalid = |why: &str| {
        ApiError::new(
            ErrorCode::InvalidParam,
            format!(
                "parameter '{name}' must be {FORM}{why}, got '{}'",
                query::echo(value)
            ),
        )
    };
    let (local, offset) = shift::parse_time(value).map_err(|e| match e {
        TimeFormError::Malformed => invalid(""),
        TimeFormError::Seconds => invalid(", in whole minutes (seconds :00 or left out)"),
    })?;
    let instant = match offset {
        Some(offset) => match offset.from_local_datetime(&local) {
            chrono::LocalResult::Single(t) => t.with_timezone(&ZONE),
            _ => return Err(invalid("")),
        },
        None => shift::local(local).map_err(|e| unresolved(name, local, e))?,
    };
    let date = instant.date_naive();
    let first = shift::first_date().max(catalog.first.naive());
    let last = shift::last_date().min(catalog.last.naive());
    if !(first..=last).contains(&date) {
        return Err(ApiError::new(
            ErrorCode::InvalidDate,
            format!(
                "parameter '{name}' must fall on a date from {first} to {last} (the dates answered), got '{}'",
                query::echo(value)
            ),
        ));
    }
    Ok(instant)
}

/// The message of a local time the clocks skip or repeat.
fn unresolved(name: &str, local: NaiveDateTime, error: LocalTimeError) -> ApiError {
    let wall = local.format("%Y-%m-%dT%H:%M");
    let message = match error {
        LocalTimeError::Gap {
            from,
            to,
            before,
            after,
        } => format!(
            "parameter '{name}': {wall} does not exist in Lithuania: on {} clocks jump from {} to {} ({before} to {after})",
            from.date(),
            from.format("%H:%M"),
            to.format("%H:%M"),
        ),
        LocalTimeError::Ambiguous { first, second } => format!(
            "parameter '{name}': {wall} happens twice in Lithuania, at {} and again at {} after the clocks go back; send it with its offset: {wall}{} or {wall}{}",
            first.offset(),
            second.offset(),
            first.offset(),
            second.offset(),
        ),
    };
    ApiError::new(ErrorCode::InvalidParam, message)
}

fn rfc3339(instant: DateTime<Tz>) -> String {
    instant.format("%Y-%m-%dT%H:%M%:z").to_string()
}
