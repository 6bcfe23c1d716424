//! The one query extractor: [`Query`] holds the raw values of an endpoint's parameters (a
//! parameter sent twice is `invalid_param`, an empty value counts as absent, unknown ones are
//! ignored); the typed readers below parse them, each endpoint in its documented check order.

use std::borrow::Cow;

use kalendorius_dataset::contract::{
    parse_centihours, parse_schedule, Contract, ContractError, Norm, MAX_CENTIHOURS,
};
use kalendorius_dataset::places::DEFAULT_PLACE;
use kalendorius_dataset::working_time::Week;
use kalendorius_dataset::{civil_time, Date, DateError, Lang, Year};

use crate::api::today::{Today, TODAY};
use crate::catalog::{Catalog, HolidayScope};
use crate::http::errors::{ApiError, ErrorCode};

/// Longest part of a client's value quoted back in a message.
const ECHO_MAX_CHARS: usize = 40;

/// Most parameters an endpoint declares, plus `api_key`.
const MAX_PARAMS: usize = 8;

/// The single non-empty value of each of an endpoint's parameters, by name.
#[derive(Debug)]
pub struct Query<'q> {
    names: [&'static str; MAX_PARAMS],
    values: [Option<Cow<'q, str>>; MAX_PARAMS],
}

impl<'q> Query<'q> {
    /// Picks `names` (at most [`MAX_PARAMS`]) out of a raw query string.
    pub fn parse(
        query: Option<&'q str>,
        names: impl Iterator<Item = &'static str>,
    ) -> Result<Self, ApiError> {
        let mut declared = [""; MAX_PARAMS];
        let mut count = 0;
        for name in names {
            declared[count] = name;
            count += 1;
        }
        let declared_names = &declared[..count];
        let mut values: [Option<Cow<'q, str>>; MAX_PARAMS] = std::array::from_fn(|_| None);
        let mut seen = [false; MAX_PARAMS];
        for (name, value) in pairs(query.unwrap_or("")) {
            let Some(i) = declared_names.iter().position(|n| *n == name) else {
                continue;
            };
            if std::mem::replace(&mut seen[i], true) {
                return Err(ApiError::new(
                    ErrorCode::InvalidParam,
                    format!("parameter '{name}' was given more than once; send it exactly once"),
                ));
            }
            if !value.is_empty() {
                values[i] = Some(value);
            }
        }
        Ok(Query {
            names: declared,
            values,
        })
    }

    /// The value of the declared parameter `name`, `None` when absent or empty.
    pub fn value(&self, name: &str) -> Option<&str> {
        let i = self.names.iter().position(|n| *n == name);
        debug_assert!(i.is_some(), "parameter '{name}' is not declared");
        i.and_then(|i| self.values[i].as_deref())
    }
}

/// The decoded `name=value` pairs of a query, as `form_urlencoded::parse` gives them (split
/// in place, as nearly always, when there is nothing to decode).
fn pairs(query: &str) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    let plain = !query.bytes().any(|b| b == b'%' || b == b'+');
    let split = plain.then(|| {
        query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
            .map(|(name, value)| (Cow::Borrowed(name), Cow::Borrowed(value)))
    });
    let decoded = (!plain).then(|| form_urlencoded::parse(query.as_bytes()));
    split
        .into_iter()
        .flatten()
        .chain(decoded.into_iter().flatten())
}

/// Quotes a client's value back, shortened and on a character boundary.
pub fn echo(value: &str) -> String {
    match value.char_indices().nth(ECHO_MAX_CHARS) {
        Some((cut, _)) => format!("{}...", &value[..cut]),
        None => value.to_string(),
    }
}

pub fn missing(name: &str, form: &str) -> ApiError {
    ApiError::new(
        ErrorCode::MissingParam,
        format!("parameter '{name}' is required, in the form {form}"),
    )
}

/// Refuses with `missing_param` the first of `required` (name, form) not sent: for the
/// endpoints that check each is present before reading any.
pub fn all_present(query: &Query, required: &[(&str, &str)]) -> Result<(), ApiError> {
    match required
        .iter()
        .find(|(name, _)| query.value(name).is_none())
    {
        Some((name, form)) => Err(missing(name, form)),
        None => Ok(()),
    }
}

/// Parses a date parameter, `YYYY-MM-DD` or `today`, that the catalog serves.
pub fn date_or_today(
    catalog: &Catalog,
    name: &str,
    value: Option<&str>,
    today: &Today,
) -> Result<Date, ApiError> {
    let value = value.ok_or_else(|| missing(name, "YYYY-MM-DD"))?;
    let (first, last) = (catalog.first, catalog.last);
    if value == TODAY {
        let resolved = today.date();
        return match Date::from_naive(resolved) {
            Ok(date) if catalog.contains(date) => Ok(date),
            _ => Err(ApiError::new(
                ErrorCode::InvalidDate,
                format!(
                    "parameter '{name}' is 'today', {resolved} in Vilnius, which is outside the dates served ({first} to {last})"
                ),
            )),
        };
    }
    let invalid = |what: &str| {
        ApiError::new(
            ErrorCode::InvalidDate,
            format!(
                "parameter '{name}' must be a real date in YYYY-MM-DD form between {first} and {last}, or 'today', got '{}'{what}",
                echo(value)
            ),
        )
    };
    match Date::parse(value) {
        Ok(date) if catalog.contains(date) => Ok(date),
        Ok(_) | Err(DateError::OutOfRange) => Err(invalid(" (outside the range served)")),
        Err(DateError::NotReal) => Err(invalid(" (no such day)")),
        Err(_) => Err(invalid("")),
    }
}

/// Parses the inclusive range `from`..`to`, refusing with `missing_param` (`from`, then
/// `to`), `invalid_date`, then `invalid_range`.
pub fn date_range(
    catalog: &Catalog,
    from: Option<&str>,
    to: Option<&str>,
    today: &Today,
) -> Result<(Date, Date), ApiError> {
    if from.is_some() && to.is_none() {
        return Err(missing("to", "YYYY-MM-DD"));
    }
    let from = date_or_today(catalog, "from", from, today)?;
    let to = date_or_today(catalog, "to", to, today)?;
    if from > to {
        return Err(ApiError::new(
            ErrorCode::InvalidRange,
            format!("parameter 'from' ({from}) must not be later than parameter 'to' ({to})"),
        ));
    }
    Ok((from, to))
}

/// Refuses with `range_too_large` a range `from..=to` of more than `max` days.
pub fn at_most_days(from: Date, to: Date, max: i64) -> Result<(), ApiError> {
    let days = from.days_until(to) + 1;
    if days > max {
        return Err(ApiError::new(
            ErrorCode::RangeTooLarge,
            format!(
                "the range from 'from' ({from}) to 'to' ({to}) spans {days} days; at most {max} days are allowed per request"
            ),
        ));
    }
    Ok(())
}

/// Parses a year parameter: plain digits, a year the catalog serves.
pub fn year(catalog: &Catalog, name: &str, value: Option<&str>) -> Result<i32, ApiError> {
    let value = value.ok_or_else(|| missing(name, "YYYY"))?;
    let (first, last) = (catalog.first.year(), catalog.last.year());
    match Year::parse(value) {
        Ok(year) if (first..=last).contains(&year.get()) => Ok(year.get()),
        _ => Err(ApiError::new(
            ErrorCode::InvalidYear,
            format!(
                "parameter '{name}' must be a year between {first} and {last} in plain digits (no sign, no leading zero), got '{}'",
                echo(value)
            ),
        )),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DateOrYear {
    Date(Date),
    Year(i32),
}

/// Reads the pair `date`/`year`, of which exactly one must be sent.
pub fn date_or_year(
    catalog: &Catalog,
    date: Option<&str>,
    year_value: Option<&str>,
    today: &Today,
) -> Result<DateOrYear, ApiError> {
    match (date, year_value) {
        (Some(_), Some(_)) => Err(ApiError::new(
            ErrorCode::ConflictingParams,
            "parameters 'date' and 'year' exclude each other; send exactly one of them",
        )),
        (None, None) => Err(ApiError::new(
            ErrorCode::MissingParam,
            "one of the parameters 'date' (YYYY-MM-DD) or 'year' (an integer) is required",
        )),
        (Some(_), None) => date_or_today(catalog, "date", date, today).map(DateOrYear::Date),
        (None, Some(_)) => year(catalog, "year", year_value).map(DateOrYear::Year),
    }
}

/// Parses `lang`, case-insensitive: absent means `lt`.
pub fn lang(value: Option<&str>) -> Result<Lang, ApiError> {
    match value {
        None => Ok(Lang::Lt),
        Some(v) => Lang::parse(v).map_err(|_| {
            ApiError::new(
                ErrorCode::InvalidLang,
                format!(
                    "parameter 'lang' must be one of lt, en, pl, ru, got '{}'",
                    echo(v)
                ),
            )
        }),
    }
}

/// Parses `place`: a slug of the dataset's places, absent meaning `vilnius`; its position
/// in the table.
pub fn place(catalog: &Catalog, value: Option<&str>) -> Result<usize, ApiError> {
    let slug = value.unwrap_or(DEFAULT_PLACE);
    let places = &catalog.places.places;
    places.iter().position(|p| p.slug == slug).ok_or_else(|| {
        ApiError::new(
            ErrorCode::InvalidParam,
            format!(
                "parameter 'place' must be the slug of a municipality centre, got '{}'; the \
                 places (docs/api.md, \"Places\"): {}",
                echo(slug),
                catalog
                    .places
                    .places
                    .iter()
                    .map(|p| p.slug.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })
}

/// Refuses a date before the sky is served ([`civil_time::FIRST_YEAR`]).
pub fn sky_date(name: &str, date: Date) -> Result<Date, ApiError> {
    if civil_time::served(date) {
        return Ok(date);
    }
    Err(ApiError::new(
        ErrorCode::InvalidDate,
        format!(
            "parameter '{name}' is {date}: the sun and moon are given from {}-01-01 on (before \
             October 1919 Lithuania's clocks kept local mean time, which RFC 3339 cannot write)",
            civil_time::FIRST_YEAR
        ),
    ))
}

/// The words of `scope`, in [`HolidayScope`] order.
pub const SCOPES: &[&str] = &["red", "all"];

/// Parses `scope`: absent means [`HolidayScope::Red`].
pub fn scope(value: Option<&str>) -> Result<HolidayScope, ApiError> {
    let scopes = [HolidayScope::Red, HolidayScope::All];
    Ok(scopes[choice("scope", value, SCOPES, 0)?])
}

/// Parses `week`: absent means the 5-day week.
pub fn week(value: Option<&str>) -> Result<Week, ApiError> {
    match value {
        None | Some("5") => Ok(Week::Five),
        Some("6") => Ok(Week::Six),
        Some(other) => Err(ApiError::new(
            ErrorCode::InvalidParam,
            format!(
                "parameter 'week' must be 5 (Monday-Friday) or 6 (Monday-Saturday), got '{}'",
                echo(other)
            ),
        )),
    }
}

/// The week form as answers write it: 5 or 6.
pub fn week_number(week: Week) -> u8 {
    match week {
        Week::Five => 5,
        Week::Six => 6,
    }
}

/// Parses `hours_per_week` ([`parse_centihours`]: one spelling per number, as the
/// integers). In hundredths of an hour.
pub fn hours_per_week(value: &str) -> Result<u32, ApiError> {
    parse_centihours(value)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidParam,
                format!(
                    "parameter 'hours_per_week' must be a number above 0 and at most 40 with at most 2 decimals, in plain digits (36, 38.5, 38.25; not 36.0 or 036), got '{}'",
                    echo(value)
                ),
            )
        })
}

/// Parses `schedule` ([`parse_schedule`]): 5 or 6 comma-separated `H:MM`, Monday first. In
/// minutes.
pub fn schedule(value: &str) -> Result<Vec<u32>, ApiError> {
    parse_schedule(value).ok_or_else(|| {
        ApiError::new(
            ErrorCode::InvalidParam,
            format!(
                "parameter 'schedule' must be 5 (Monday-Friday) or 6 (Monday-Saturday) comma-separated H:MM of at most 24:00, Monday first (8:15,8:15,8:15,8:15,7:00), got '{}'",
                echo(value)
            ),
        )
    })
}

/// Parses `norm`: absent is `None` (decided by the hours).
pub fn norm(value: Option<&str>) -> Result<Option<Norm>, ApiError> {
    match value {
        None => Ok(None),
        some => Ok(Some(Norm::ALL[choice("norm", some, Norm::NAMES, 0)?])),
    }
}

/// The contract of the working-time parameters, in their check order: `week`,
/// `hours_per_week`, `norm` and `schedule` each well-formed; then `hours_per_week` and
/// `schedule` not both, the schedule's days those of `week`; then the norm fitting the hours.
pub fn contract(
    week_value: Option<&str>,
    hours_value: Option<&str>,
    norm_value: Option<&str>,
    schedule_value: Option<&str>,
) -> Result<Contract, ApiError> {
    let week_form = week(week_value)?;
    let centihours = hours_value.map(hours_per_week).transpose()?;
    let norm = norm(norm_value)?;
    let schedule = schedule_value.map(schedule).transpose()?;
    let (result, of_what) = match (centihours, schedule) {
        (Some(_), Some(_)) => {
            return Err(ApiError::new(
                ErrorCode::ConflictingParams,
                "parameters 'hours_per_week' and 'schedule' exclude each other: the schedule's sum is its hours per week; send one of them",
            ))
        }
        (None, Some(days)) => {
            let schedule_week = if days.len() == 6 { Week::Six } else { Week::Five };
            if week_value.is_some() && schedule_week != week_form {
                return Err(ApiError::new(
                    ErrorCode::ConflictingParams,
                    format!(
                        "parameter 'schedule' gives {} days, parameter 'week' is {}: send 5 days for week=5, 6 for week=6, or leave 'week' out",
                        days.len(),
                        week_number(week_form)
                    ),
                ));
            }
            let total: u32 = days.iter().sum();
            let hours = format!("{} hours", kalendorius_dataset::contract::Hours(total.into()));
            (Contract::of_schedule(&days, norm), format!("the schedule's sum ({hours})"))
        }
        (hours, None) => {
            let centihours = hours.unwrap_or(MAX_CENTIHOURS);
            (Contract::of_hours(week_form, centihours, norm), "hours_per_week".to_string())
        }
    };
    result.map_err(|error| contract_error(error, &of_what))
}

fn contract_error(error: ContractError, of_what: &str) -> ApiError {
    let invalid = |message: String| ApiError::new(ErrorCode::InvalidParam, message);
    match error {
        ContractError::NormMissing => ApiError::new(
            ErrorCode::MissingParam,
            format!(
                "parameter 'norm' is required when {of_what} is below 40: 'reduced' for a statutory reduced norm (teachers' 36 hours, Labour Code art. 112: no eve day is shortened) or 'part_time' for an agreed part-time week (art. 40: an eve day is one hour shorter)"
            ),
        ),
        ContractError::FullNotForty => invalid(format!(
            "parameter 'norm' is 'full', the 40-hour week, but {of_what} is below 40: send norm=reduced or norm=part_time"
        )),
        ContractError::NotShorter(norm) => invalid(format!(
            "parameter 'norm' is '{}', a week shorter than 40 hours, but {of_what} is 40: send hours_per_week below 40, or norm=full",
            norm.as_str()
        )),
        ContractError::OverForty => invalid(format!(
            "parameter 'schedule' is longer than the 40-hour week, the longest norm: {of_what}"
        )),
        ContractError::Empty => invalid(
            "parameter 'schedule' has no working minute; give at least one weekday's hours"
                .to_string(),
        ),
    }
}

/// Parses an integer parameter from `min` to `max`, written as every integer parameter and
/// year is (docs/api.md, Conventions): plain digits, a `-` before a negative one, no leading
/// zero, no `+` (one spelling per number, so one cache entry and one ETag per answer).
pub fn integer(name: &str, value: &str, min: i64, max: i64) -> Result<i64, ApiError> {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let plain = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && value != "-0";
    match value.parse::<i64>() {
        Ok(n) if plain && (min..=max).contains(&n) => Ok(n),
        _ => Err(ApiError::new(
            ErrorCode::InvalidParam,
            format!(
                "parameter '{name}' must be an integer from {min} to {max} in plain digits (no leading zero, no '+'), got '{}'",
                echo(value)
            ),
        )),
    }
}

/// Parses one of `choices` (case-insensitive) as its index; absent is `default`.
pub fn choice(
    name: &str,
    value: Option<&str>,
    choices: &[&str],
    default: usize,
) -> Result<usize, ApiError> {
    let Some(value) = value else {
        return Ok(default);
    };
    choices
        .iter()
        .position(|c| c.eq_ignore_ascii_case(value))
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidParam,
                format!(
                    "parameter '{name}' must be {}, got '{}'",
                    choices.join(" or "),
                    echo(value)
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_queries_split_as_form_urlencoded_parses_them() {
        for query in [
            "",
            "date=2024-01-01",
            "a=1&&b=2&",
            "&&",
            "=x&y=&z",
            "date=2024-01-01&date=2024-01-02",
            "a=b=c&lang=EN",
            "x=%41&y=a+b",
            "%64ate=2024-01-01",
            "ą=č&name=Jonas",
        ] {
            let ours: Vec<(String, String)> = pairs(query)
                .map(|(n, v)| (n.into_owned(), v.into_owned()))
                .collect();
            let theirs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
                .map(|(n, v)| (n.into_owned(), v.into_owned()))
                .collect();
            assert_eq!(ours, theirs, "{query:?}");
        }
    }

    #[test]
    fn duplicates_are_refused_and_empty_is_absent() {
        let p = Query::parse(Some("date=&x=1&x=2"), ["date"].into_iter()).unwrap();
        assert_eq!(p.value("date"), None);
        let err = Query::parse(
            Some("date=2024-01-01&date=2024-01-01"),
            ["date"].into_iter(),
        )
        .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParam);
        let err = Query::parse(Some("date=&date="), ["date"].into_iter()).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParam);
    }

    #[test]
    fn values_are_percent_decoded() {
        let p = Query::parse(
            Some("lang=%45N&date=2024%2D01%2D01"),
            ["date", "lang"].into_iter(),
        )
        .unwrap();
        assert_eq!(p.value("date"), Some("2024-01-01"));
        assert_eq!(p.value("lang"), Some("EN"));
    }

    #[test]
    fn echo_is_bounded_and_char_safe() {
        let long = "ž".repeat(100);
        let e = echo(&long);
        assert!(e.ends_with("...") && e.chars().count() == ECHO_MAX_CHARS + 3);
        assert_eq!(echo("abc"), "abc");
    }

    #[test]
    fn lang_is_case_insensitive_and_defaults_to_lt() {
        assert_eq!(lang(None).unwrap(), Lang::Lt);
        assert_eq!(lang(Some("EN")).unwrap(), Lang::En);
        assert_eq!(lang(Some("de")).unwrap_err().code, ErrorCode::InvalidLang);
    }

    #[test]
    fn week_is_5_or_6_and_defaults_to_5() {
        assert_eq!(week(None).unwrap(), Week::Five);
        assert_eq!(week(Some("6")).unwrap(), Week::Six);
        for bad in ["7", "05", "five", " 5"] {
            assert_eq!(week(Some(bad)).unwrap_err().code, ErrorCode::InvalidParam);
        }
    }

    #[test]
    fn hours_per_week_has_one_spelling() {
        for (text, centihours) in [
            ("36", 3600),
            ("38.5", 3850),
            ("38.25", 3825),
            ("0.05", 5),
            ("40", 4000),
            ("0.5", 50),
        ] {
            assert_eq!(hours_per_week(text).unwrap(), centihours, "{text}");
        }
        for bad in [
            "0", "0.0", "40.01", "41", "36.0", "36.50", "036", "06", ".5", "36.", "3.6e1", "+36",
            "-36", " 36", "36.125", "",
        ] {
            assert_eq!(
                hours_per_week(bad).unwrap_err().code,
                ErrorCode::InvalidParam,
                "{bad}"
            );
        }
    }

    #[test]
    fn schedules_are_5_or_6_days_of_h_mm() {
        assert_eq!(
            schedule("8:15,8:15,8:15,8:15,7:00").unwrap(),
            [495, 495, 495, 495, 420]
        );
        assert_eq!(
            schedule("0:00,24:00,1:05,10:30,7:00,5:00").unwrap(),
            [0, 1440, 65, 630, 420, 300]
        );
        for bad in [
            "8:00,8:00,8:00,8:00",
            "8:00,8:00,8:00,8:00,8:00,8:00,8:00",
            "8:60,8:00,8:00,8:00,8:00",
            "8,8,8,8,8",
            "24:01,8:00,8:00,8:00,8:00",
            "8:0,8:00,8:00,8:00,8:00",
            "100:00,8:00,8:00,8:00,8:00",
            "8:00,,8:00,8:00,8:00",
            "-1:00,8:00,8:00,8:00,8:00",
        ] {
            assert_eq!(
                schedule(bad).unwrap_err().code,
                ErrorCode::InvalidParam,
                "{bad}"
            );
        }
    }

    #[test]
    fn integers_are_bounded_and_plain() {
        let days = |value| integer("days", value, -100_000, 100_000);
        assert_eq!(days("0").unwrap(), 0);
        assert_eq!(days("-100000").unwrap(), -100_000);
        assert_eq!(days("100000").unwrap(), 100_000);
        for bad in [
            "100001",
            "-100001",
            "+5",
            "1.5",
            "",
            "-",
            "1e3",
            "99999999999999999999",
            "010",
            "-05",
            "-0",
            "00",
        ] {
            assert_eq!(
                days(bad).unwrap_err().code,
                ErrorCode::InvalidParam,
                "{bad}"
            );
        }
    }
}
