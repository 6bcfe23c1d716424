//! What an operation is ([`Endpoint`]), its parameters ([`Param`], [`Kind`], the shared
//! ones too) and what its handler answers from ([`Context`]).

use std::ops::RangeInclusive;

use poem::{Request, Response};

use kalendorius_dataset::contract::Norm;

use crate::api::query::{Query, SCOPES};
use crate::api::today::Today;
use crate::catalog::Catalog;
use crate::feeds::Feeds;
use crate::http::errors::{ApiError, ErrorCode};
use crate::limits::PublicEndpoint;

/// One operation: what the gate, the handler and the OpenAPI document know of it.
pub struct Endpoint {
    /// The path under [`PREFIX`].
    pub path: &'static str,
    /// The document's `operationId`, also the key of its cached answers.
    pub operation_id: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub access: Access,
    /// Its query parameters, in the order they are checked.
    pub params: &'static [Param],
    pub answer: AnswerKind,
    /// The codes its 400 may carry (`invalid_host` is added for every endpoint).
    pub bad_request: &'static [ErrorCode],
    pub handle: fn(&Request, &Query, &Context) -> Result<Response, ApiError>,
}

impl Endpoint {
    /// Answers `req`, its query read with `api_key` when keyed (so a repeated key is refused).
    pub fn answer(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        let names = self.params.iter().map(|p| p.name);
        let api_key = (self.access == Access::Keyed).then_some("api_key");
        let query = Query::parse(req.uri().query(), names.chain(api_key))?;
        let response = (self.handle)(req, &query, cx)?;
        // An answer that used `today` is cacheable for a minute only.
        let keyed = self.access == Access::Keyed;
        let identity = || self.request_identity(&query);
        Ok(cx.today.finish(response, req, cx.catalog, keyed, identity))
    }

    /// What identifies a request to this operation apart from the dataset and `today`: its
    /// operation id and the value of each parameter given (never the key).
    fn request_identity(&self, query: &Query) -> Vec<u8> {
        let mut identity = self.operation_id.as_bytes().to_vec();
        for (i, param) in self.params.iter().enumerate() {
            if let Some(value) = query.get(i) {
                identity.push(0);
                identity.extend_from_slice(param.name.as_bytes());
                identity.push(b'=');
                identity.extend_from_slice(value.as_bytes());
            }
        }
        identity
    }

    /// Whether a success may be a 304 (it carries an ETag): a public answer always does, a
    /// keyed one when a date parameter was `today`.
    pub fn revalidates(&self) -> bool {
        matches!(self.access, Access::Public(_)) || self.params.iter().any(|p| p.kind == Kind::Date)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, counted per client IP by this counter.
    Public(PublicEndpoint),
    /// The holder of an API key, counted per key.
    Keyed,
}

pub enum AnswerKind {
    /// JSON of the schema of `SchemaGenerator::subschema_for` of the answer type.
    Json(fn(&mut schemars::SchemaGenerator) -> schemars::Schema),
    Calendar,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    /// Whether the document marks it required (some are required only without another).
    pub required: bool,
    pub kind: Kind,
    pub description: &'static str,
}

/// The form of a parameter's value (`query` parses it, `openapi` describes it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// `YYYY-MM-DD` of the served range, or `today`.
    Date,
    /// A time in Lithuania to the minute, `YYYY-MM-DDTHH:MM`, local or with its offset.
    LocalTime,
    Year,
    Lang,
    Week,
    Integer(RangeInclusive<i64>),
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

pub const DATE_AND_LANG_ERRORS: &[ErrorCode] = &[
    ErrorCode::MissingParam,
    ErrorCode::InvalidDate,
    ErrorCode::InvalidLang,
    ErrorCode::InvalidParam,
];

/// What a handler answers from: the dataset in service at arrival, its `today`, the feeds.
pub struct Context<'a> {
    pub catalog: &'a Catalog,
    pub today: &'a Today,
    pub feeds: &'a Feeds,
}
