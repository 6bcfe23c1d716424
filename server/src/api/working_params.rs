//! The parameters of the working-time endpoints (docs/api.md, Working time): the week form
//! `week` and the day count `days` of `/working-days/add`. Dates and years are parsed by
//! `crate::api::params` like everywhere else.

use kalendorius_dataset::working_time::Week;

use crate::api::params::echo;
use crate::http::errors::{ApiError, ErrorCode};

/// The largest `|days|` of `/working-days/add` (about 385 years of working days).
pub const MAX_ADD_DAYS: i64 = 100_000;

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

/// The number a week form is written as in responses.
pub fn week_number(week: Week) -> u8 {
    match week {
        Week::Five => 5,
        Week::Six => 6,
    }
}

/// Parses `days`: an integer from -[`MAX_ADD_DAYS`] to [`MAX_ADD_DAYS`], in plain digits
/// with an optional leading `-`. The caller has checked presence.
pub fn days(value: &str) -> Result<i64, ApiError> {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match value.parse::<i64>() {
        Ok(n) if plain && n.abs() <= MAX_ADD_DAYS => Ok(n),
        _ => Err(ApiError::new(
            ErrorCode::InvalidParam,
            format!(
                "parameter 'days' must be an integer from -{MAX_ADD_DAYS} to {MAX_ADD_DAYS}, got '{}'",
                echo(value)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn week_is_5_or_6_and_defaults_to_5() {
        assert_eq!(week(None).unwrap(), Week::Five);
        assert_eq!(week(Some("6")).unwrap(), Week::Six);
        for bad in ["7", "05", "five", " 5"] {
            assert_eq!(week(Some(bad)).unwrap_err().code, ErrorCode::InvalidParam);
        }
    }

    #[test]
    fn days_is_a_bounded_plain_integer() {
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
        ] {
            assert_eq!(
                days(bad).unwrap_err().code,
                ErrorCode::InvalidParam,
                "{bad}"
            );
        }
    }
}
