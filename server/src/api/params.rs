//! Query parameters: parsed from the raw query string, once, by our own rules (docs/api.md,
//! Conventions and Errors).
//!
//! poem-openapi's extractors document the parameters (see `api::doc_params`) but do not
//! decide anything, because the rules here are not theirs: a parameter sent twice is an error
//! (`invalid_param`) rather than "take the first"; an empty value (`date=`) counts as absent;
//! unknown parameters are ignored; and each failure has its own code and message. The typed
//! results are the dataset crate's boundary newtypes ([`Date`], [`Year`], [`Lang`]).

use std::borrow::Cow;

use kalendorius_dataset::{Date, DateError, Lang, Year};

use crate::api::today::{Today, TODAY};
use crate::catalog::Catalog;
use crate::http::errors::{ApiError, ErrorCode};

/// Longest part of a client's value quoted back in a message.
const ECHO_MAX_CHARS: usize = 40;

/// The values of the parameters an endpoint knows, in the order it names them.
///
/// Invariant: `values[i]` is the single non-empty value of `names[i]`, or `None` when it was
/// absent or empty.
#[derive(Debug)]
pub struct Params<'q, const N: usize> {
    values: [Option<Cow<'q, str>>; N],
}

impl<'q, const N: usize> Params<'q, N> {
    /// Picks `names` out of a raw query string. A known name that occurs more than once
    /// (even with equal or empty values) is `invalid_param`; everything else is ignored.
    pub fn parse(query: Option<&'q str>, names: [&str; N]) -> Result<Self, ApiError> {
        let mut values: [Option<Cow<'q, str>>; N] = std::array::from_fn(|_| None);
        let mut seen = [false; N];
        for (name, value) in pairs(query.unwrap_or("")) {
            let Some(i) = names.iter().position(|n| *n == name) else {
                continue;
            };
            if seen[i] {
                return Err(ApiError::new(
                    ErrorCode::InvalidParam,
                    format!(
                        "parameter '{}' was given more than once; send it exactly once",
                        names[i]
                    ),
                ));
            }
            seen[i] = true;
            if !value.is_empty() {
                values[i] = Some(value);
            }
        }
        Ok(Params { values })
    }

    /// The value of the `i`-th name.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.values[i].as_deref()
    }
}

/// The decoded `name=value` pairs of a query string, as `form_urlencoded::parse` gives them.
/// A query with nothing to decode (no `%`, no `+`: nearly all) is split in place instead,
/// which gives the same pairs without copying or re-checking them.
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

/// A required parameter that is absent or empty.
pub fn missing(name: &str, form: &str) -> ApiError {
    ApiError::new(
        ErrorCode::MissingParam,
        format!("parameter '{name}' is required, in the form {form}"),
    )
}

/// Parses a date parameter and checks that the catalog serves it.
pub fn date(catalog: &Catalog, name: &str, value: Option<&str>) -> Result<Date, ApiError> {
    let value = value.ok_or_else(|| missing(name, "YYYY-MM-DD"))?;
    let invalid = |what: &str| {
        ApiError::new(
            ErrorCode::InvalidDate,
            format!(
                "parameter '{name}' must be a real date in YYYY-MM-DD form between {} and {}, or 'today', got '{}'{what}",
                catalog.first(),
                catalog.last(),
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

/// Parses a date parameter that may also be `today` (resolved by `today`, in Vilnius), and
/// checks that the catalog serves it.
pub fn date_or_today(
    catalog: &Catalog,
    name: &str,
    value: Option<&str>,
    today: &Today,
) -> Result<Date, ApiError> {
    if value != Some(TODAY) {
        return date(catalog, name, value);
    }
    let resolved = today.date();
    match Date::from_naive(resolved) {
        Ok(date) if catalog.contains(date) => Ok(date),
        _ => Err(ApiError::new(
            ErrorCode::InvalidDate,
            format!(
                "parameter '{name}' is 'today', {resolved} in Vilnius, which is outside the dates served ({} to {})",
                catalog.first(),
                catalog.last()
            ),
        )),
    }
}

/// Parses the inclusive range `from`..`to` (each a date or `today`): both required, both
/// served, `from` not later than `to`. Refuses in the order of docs/api.md, Errors:
/// `missing_param` (`from`, then `to`), `invalid_date`, `invalid_range`.
pub fn date_range(
    catalog: &Catalog,
    from: Option<&str>,
    to: Option<&str>,
    today: &Today,
) -> Result<(Date, Date), ApiError> {
    if from.is_none() {
        return Err(missing("from", "YYYY-MM-DD"));
    }
    if to.is_none() {
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

/// Parses the `year` parameter of `/holidays`. The caller has checked presence.
pub fn year(catalog: &Catalog, value: &str) -> Result<Year, ApiError> {
    let (first, last) = (catalog.first().year(), catalog.last().year());
    let invalid = || {
        ApiError::new(
            ErrorCode::InvalidYear,
            format!(
                "parameter 'year' must be a year between {first} and {last} in plain digits (no sign, no leading zero), got '{}'",
                echo(value)
            ),
        )
    };
    match Year::parse(value) {
        // Not plain digits, outside 1583..2100, or outside the years this dataset covers.
        Ok(year) if (first..=last).contains(&year.get()) => Ok(year),
        _ => Err(invalid()),
    }
}

/// Parses `lang`: absent means `lt`; matched case-insensitively.
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
        let p = Params::parse(Some("date=&x=1&x=2"), ["date"]).unwrap();
        assert_eq!(p.get(0), None);
        let err = Params::parse(Some("date=2024-01-01&date=2024-01-01"), ["date"]).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParam);
        let err = Params::parse(Some("date=&date="), ["date"]).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParam);
    }

    #[test]
    fn values_are_percent_decoded() {
        let p = Params::parse(Some("lang=%45N&date=2024%2D01%2D01"), ["date", "lang"]).unwrap();
        assert_eq!(p.get(0), Some("2024-01-01"));
        assert_eq!(p.get(1), Some("EN"));
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
}
