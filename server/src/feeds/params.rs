//! What a feed request asks for (the cache key of a built feed), and the window of years a
//! holiday feed covers. The feed endpoints of the API read
//! the query into these.

use std::ops::RangeInclusive;

use kalendorius_dataset::Lang;

use crate::catalog::Catalog;
use crate::http::errors::{ApiError, ErrorCode};

/// The most years one holiday feed covers.
pub const MAX_YEARS: i32 = 30;

/// Years before the current one that the default window covers.
pub const YEARS_BEFORE: i32 = 1;

/// Years after the current one that the default window covers.
pub const YEARS_AFTER: i32 = 5;

/// Which holidays a holiday feed lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// One event per non-working holiday date: red holidays and declared extra days off.
    Red,
    /// One event per holiday record of every type (and per declared extra day off).
    All,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HolidayFeedRequest {
    /// Language of names and of the calendar's name.
    pub lang: Lang,
    pub scope: Scope,
    /// Whether shortened working days (5-day week) are listed too.
    pub shortened: bool,
    /// The years covered (may be empty when the dataset ends before the default window).
    pub years: RangeInclusive<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FeedRequest {
    Holidays(HolidayFeedRequest),
    NameDays {
        /// Language of the summaries and of the calendar's name.
        lang: Lang,
    },
    SchoolHolidays {
        grade: Option<u8>,
        /// Language of the summaries and of the calendar's name.
        lang: Lang,
    },
}

/// The years of a holiday feed. Without `from`/`to`: last year to five years ahead, clipped
/// to the dataset. A missing bound is the default one, moved to the given bound when it
/// would otherwise cross it. At most [`MAX_YEARS`] years, `from` not after `to`.
pub fn window(
    catalog: &Catalog,
    this_year: i32,
    from: Option<i32>,
    to: Option<i32>,
) -> Result<RangeInclusive<i32>, ApiError> {
    let (first, last) = (catalog.first().year(), catalog.last().year());
    let default_from = (this_year - YEARS_BEFORE).max(first);
    let default_to = (this_year + YEARS_AFTER).min(last);
    let (from, to) = match (from, to) {
        (None, None) => return Ok(default_from..=default_to),
        (Some(from), None) => (from, default_to.max(from)),
        (None, Some(to)) => (default_from.min(to), to),
        (Some(from), Some(to)) => (from, to),
    };
    if from > to {
        return Err(ApiError::new(
            ErrorCode::InvalidYear,
            format!(
                "parameter 'from_year' ({from}) must not be later than parameter 'to_year' ({to})"
            ),
        ));
    }
    let span = to - from + 1;
    if span > MAX_YEARS {
        return Err(ApiError::new(
            ErrorCode::InvalidYear,
            format!(
                "the feed from {from} to {to} spans {span} years; at most {MAX_YEARS} years are allowed (set 'from_year' and 'to_year')"
            ),
        ));
    }
    Ok(from..=to)
}
