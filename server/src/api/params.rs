//! A parameter's declaration ([`Param`]: name, document text, [`Kind`] with its bounds and
//! default, and so the codes of a bad value, [`Kind::bad_value`]) and how its value is read
//! by it ([`Param::read`] into any [`FromParam`] type): the OpenAPI document describes the
//! same declaration the handler's parameters are parsed by, so the two cannot drift apart.
//! The shared declarations (`DATE`, `LANG`, ...) follow.

use std::ops::RangeInclusive;

use kalendorius_dataset::contract::Norm;
use kalendorius_dataset::working_time::Week;
use kalendorius_dataset::Date;
use kalendorius_dataset::Lang;

use crate::api::context::Context;
use crate::api::query::{self, Query, SCOPES};
use crate::catalog::HolidayScope;
use crate::http::errors::{ApiError, ErrorCode};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    /// Whether the document marks it required (some are required only without another).
    pub required: bool,
    pub kind: Kind,
    pub description: &'static str,
}

/// The form of a parameter's value: what [`FromParam`] parses and `openapi` describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// `YYYY-MM-DD` of the served range, or `today`.
    Date,
    /// A time in Lithuania to the minute, `YYYY-MM-DDTHH:MM`, local or with its offset.
    LocalTime,
    Year,
    Lang,
    Week,
    /// An integer of `range`; absent is `default`, or missing when there is none.
    Integer {
        range: RangeInclusive<i64>,
        default: Option<i64>,
    },
    Text {
        max_chars: usize,
    },
    /// The slug of a place of the dataset's table (`places.json`); absent is `vilnius`.
    Place,
    /// One of `values` (in the order error messages list them), case-insensitive; absent is
    /// `values[default]`, or depends on other parameters when `default` is `None`.
    Choice {
        values: &'static [&'static str],
        default: Option<usize>,
    },
    /// Hours per week: a number above 0 and at most 40, with at most 2 decimals.
    HoursPerWeek,
    /// A weekly schedule: 5 or 6 comma-separated `H:MM`, Monday first.
    Schedule,
}

impl Kind {
    /// The codes a bad value of this kind is refused with (docs/api.md, Errors): those its
    /// reader gives. An endpoint's 400 codes are made from them (`endpoint::BadRequest`).
    pub const fn bad_value(&self) -> &'static [ErrorCode] {
        match self {
            Kind::Date => &[ErrorCode::InvalidDate],
            Kind::Year => &[ErrorCode::InvalidYear],
            Kind::Lang => &[ErrorCode::InvalidLang],
            // Malformed or no instant in Lithuania; well-formed, a date not answered.
            Kind::LocalTime => &[ErrorCode::InvalidParam, ErrorCode::InvalidDate],
            Kind::Week
            | Kind::Integer { .. }
            | Kind::Text { .. }
            | Kind::Place
            | Kind::Choice { .. }
            | Kind::HoursPerWeek
            | Kind::Schedule => &[ErrorCode::InvalidParam],
        }
    }
}

impl Param {
    /// This parameter's value in `query`, parsed as its kind says into `T`.
    pub fn read<T: FromParam>(&self, query: &Query, cx: &Context) -> Result<T, ApiError> {
        T::from_param(self, query.value(self.name), cx)
    }

    /// As [`Param::read`], `absent` standing in for a value not sent.
    pub fn read_or<T: FromParam>(
        &self,
        query: &Query,
        cx: &Context,
        absent: &str,
    ) -> Result<T, ApiError> {
        T::from_param(self, Some(query.value(self.name).unwrap_or(absent)), cx)
    }
}

/// A type a parameter's value parses into, with the bounds and default of its [`Param`].
pub trait FromParam: Sized {
    /// `value` is `None` when the parameter was not sent (or sent empty).
    fn from_param(param: &Param, value: Option<&str>, cx: &Context) -> Result<Self, ApiError>;
}

/// Absent is `None`; a value sent is parsed as `T`.
impl<T: FromParam> FromParam for Option<T> {
    fn from_param(param: &Param, value: Option<&str>, cx: &Context) -> Result<Self, ApiError> {
        value.map(|v| T::from_param(param, Some(v), cx)).transpose()
    }
}

/// A served date, or `today`.
impl FromParam for Date {
    fn from_param(param: &Param, value: Option<&str>, cx: &Context) -> Result<Self, ApiError> {
        query::date_or_today(cx.catalog, param.name, value, cx.today)
    }
}

/// A served year ([`Kind::Year`]).
impl FromParam for i32 {
    fn from_param(param: &Param, value: Option<&str>, cx: &Context) -> Result<Self, ApiError> {
        query::year(cx.catalog, param.name, value)
    }
}

impl FromParam for Lang {
    fn from_param(_: &Param, value: Option<&str>, _: &Context) -> Result<Self, ApiError> {
        query::lang(value)
    }
}

impl FromParam for Week {
    fn from_param(_: &Param, value: Option<&str>, _: &Context) -> Result<Self, ApiError> {
        query::week(value)
    }
}

impl FromParam for HolidayScope {
    fn from_param(_: &Param, value: Option<&str>, _: &Context) -> Result<Self, ApiError> {
        query::scope(value)
    }
}

/// A [`Kind::Choice`] of `true` and `false`, in that order.
impl FromParam for bool {
    fn from_param(param: &Param, value: Option<&str>, _: &Context) -> Result<Self, ApiError> {
        let Kind::Choice { values, default } = &param.kind else {
            unreachable!("parameter '{}' is read as a choice", param.name)
        };
        debug_assert_eq!(*values, ["true", "false"]);
        let index = query::choice(param.name, value, values, default.unwrap_or(1))?;
        Ok(index == 0)
    }
}

/// A [`Kind::Integer`] within its range, absent its default.
impl FromParam for i64 {
    fn from_param(param: &Param, value: Option<&str>, _: &Context) -> Result<Self, ApiError> {
        let Kind::Integer { range, default } = &param.kind else {
            unreachable!("parameter '{}' is read as an integer", param.name)
        };
        match (value, default) {
            (Some(v), _) => query::integer(param.name, v, *range.start(), *range.end()),
            (None, Some(default)) => Ok(*default),
            (None, None) => Err(query::missing(param.name, "an integer")),
        }
    }
}

/// Integers whose declared range fits a smaller type are read into it.
macro_rules! narrow_integer {
    ($($small:ty),*) => {$(
        impl FromParam for $small {
            fn from_param(
                param: &Param,
                value: Option<&str>,
                cx: &Context,
            ) -> Result<Self, ApiError> {
                let n = i64::from_param(param, value, cx)?;
                Ok(<$small>::try_from(n).expect("the declared range fits the type"))
            }
        }
    )*};
}

narrow_integer!(u8, u32, usize);

/// A place of the dataset's table, by its position there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlaceIndex(pub usize);

impl FromParam for PlaceIndex {
    fn from_param(_: &Param, value: Option<&str>, cx: &Context) -> Result<Self, ApiError> {
        query::place(cx.catalog, value).map(PlaceIndex)
    }
}

pub const DATE: Param = Param {
    name: "date",
    required: true,
    kind: Kind::Date,
    description: "The date, `YYYY-MM-DD`, or `today` (in Europe/Vilnius).",
};

pub const FROM: Param = Param {
    name: "from",
    description: "First date, `YYYY-MM-DD` or `today`, inclusive.",
    ..DATE
};

pub const TO: Param = Param {
    name: "to",
    description: "Last date, `YYYY-MM-DD` or `today`, inclusive; not earlier than `from`.",
    ..DATE
};

pub const YEAR: Param = Param {
    name: "year",
    required: true,
    kind: Kind::Year,
    description: "The year.",
};

pub const LANG: Param = Param {
    name: "lang",
    required: false,
    kind: Kind::Lang,
    description: "Language of the names: `lt` (default), `en`, `pl`, `ru`; case-insensitive; \
                  empty counts as absent.",
};

pub const WEEK: Param = Param {
    name: "week",
    required: false,
    kind: Kind::Week,
    description: "The week form: `5` (default, Monday-Friday) or `6` (Monday-Saturday).",
};

pub const SCOPE: Param = Param {
    name: "scope",
    required: false,
    kind: Kind::Choice {
        values: SCOPES,
        default: Some(0),
    },
    description: "`red` (default): non-working holiday dates; `all`: dates of every \
                  holiday. Case-insensitive; empty counts as absent.",
};

pub const PLACE: Param = Param {
    name: "place",
    required: false,
    kind: Kind::Place,
    description: "The municipality centre whose sun is computed, by its slug (`vilnius` by \
                  default, `klaipeda`, `zarasai`, `vilniaus-rajonas` ...): the 60 places and \
                  their slugs are listed in docs/api.md (\"Places\") and in the \
                  `invalid_param` error of an unknown slug.",
};

pub const HOURS_PER_WEEK: Param = Param {
    name: "hours_per_week",
    required: false,
    kind: Kind::HoursPerWeek,
    description: "Hours per week of the contract: a number above 0 and at most 40, with at most \
                  2 decimals (`36`, `38.25`); default 40. Below 40, `norm` is required. Not \
                  with `schedule`.",
};

pub const NORM: Param = Param {
    name: "norm",
    required: false,
    kind: Kind::Choice {
        values: Norm::NAMES,
        default: None,
    },
    description: "The working-time norm: `full` (the 40-hour week; the default at 40 hours), \
                  `reduced` (a statutory reduced norm, Labour Code art. 112: no eve day is \
                  shortened) or `part_time` (an agreed shorter week, art. 40: an eve day is \
                  one hour shorter, never below zero). Required below 40 hours; \
                  case-insensitive.",
};

pub const SCHEDULE: Param = Param {
    name: "schedule",
    required: false,
    kind: Kind::Schedule,
    description: "Each working weekday's length instead of `hours_per_week`: 5 (Monday-Friday) \
                  or 6 (Monday-Saturday, the 6-day week's rules) comma-separated `H:MM`, \
                  Monday first, each at most `24:00` (`8:15,8:15,8:15,8:15,7:00`); a `0:00` \
                  weekday is not worked. `hours_per_week` is its sum. Not with \
                  `hours_per_week`; with `week`, the same number of days.",
};

/// The contract parameters, in their check order ([`query::contract`]).
pub const CONTRACT: [Param; 4] = [WEEK, HOURS_PER_WEEK, NORM, SCHEDULE];

/// The codes of the checks across the [`CONTRACT`] parameters ([`query::contract`]):
/// `hours_per_week` with `schedule`, or a schedule's days not those of `week`; no `norm`
/// below 40 hours; a `norm` that does not fit the hours, or a schedule over 40 hours or
/// without a working minute.
pub const CONTRACT_CHECKS: &[ErrorCode] = &[
    ErrorCode::ConflictingParams,
    ErrorCode::MissingParam,
    ErrorCode::InvalidParam,
];

/// The contract of the [`CONTRACT`] parameters.
pub fn contract(query: &Query) -> Result<kalendorius_dataset::contract::Contract, ApiError> {
    let [week, hours, norm, schedule] = CONTRACT.map(|p| query.value(p.name));
    query::contract(week, hours, norm, schedule)
}
