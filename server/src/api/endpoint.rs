//! What an operation is: the one definition its gate, its handler and the OpenAPI document
//! read ([`Endpoint`]), its parameters ([`Param`], [`Kind`]) and what a handler answers from
//! ([`Context`]). The parameters several operations share are here too.

use poem::{Request, Response};

use crate::api::query::{Query, SCOPES};
use crate::api::today::Today;
use crate::catalog::Catalog;
use crate::feeds::Feeds;
use crate::http::errors::{ApiError, ErrorCode};
use crate::limits::PublicEndpoint;

/// One operation: everything the gate, the handler and the document need to know of it.
pub struct Endpoint {
    /// The path under [`PREFIX`].
    pub path: &'static str,
    /// The document's `operationId`.
    pub operation_id: &'static str,
    pub summary: &'static str,
    /// What it answers and by which rules (Markdown).
    pub description: &'static str,
    /// Who may call it and how it is counted.
    pub access: Access,
    /// Its query parameters, in the order they are checked.
    pub params: &'static [Param],
    /// What a success carries.
    pub answer: AnswerKind,
    /// The codes its 400 may carry (`invalid_host` is added for every endpoint).
    pub bad_request: &'static [ErrorCode],
    /// Answers a request that passed the gate, from its query.
    pub handle: fn(&Request, &Query, &Context) -> Result<Response, ApiError>,
}

impl Endpoint {
    /// Reads the parameters (and `api_key` on a keyed endpoint) from the query of `req` and
    /// answers it.
    pub fn answer(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        let names = self.params.iter().map(|p| p.name);
        let api_key = (self.access == Access::Keyed).then_some("api_key");
        let query = Query::parse(req.uri().query(), names.chain(api_key))?;
        (self.handle)(req, &query, cx)
    }

    /// The per-IP counter of a public endpoint; `None` for a keyed one.
    pub fn public(&self) -> Option<PublicEndpoint> {
        match self.access {
            Access::Public(counter) => Some(counter),
            Access::Keyed => None,
        }
    }

    /// Whether a success may be a 304 (it carries an ETag): a public answer always does, a
    /// keyed one when a date parameter was `today`.
    pub fn revalidates(&self) -> bool {
        matches!(self.access, Access::Public(_)) || self.params.iter().any(|p| p.kind == Kind::Date)
    }
}

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, counted per client IP by this counter.
    Public(PublicEndpoint),
    /// The holder of an API key, counted per key.
    Keyed,
}

/// What a successful answer carries.
pub enum AnswerKind {
    /// JSON of this schema: `SchemaGenerator::subschema_for` of the answer type.
    Json(fn(&mut schemars::SchemaGenerator) -> schemars::Schema),
    /// An iCalendar text.
    Calendar,
}

/// A query parameter: the name it is read by and what the document says of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The name in the query string.
    pub name: &'static str,
    /// Whether the document marks it required (some are required only without another).
    pub required: bool,
    pub kind: Kind,
    /// One or two sentences for the document.
    pub description: &'static str,
}

/// The form of a parameter's value (`query` parses each one; `openapi` describes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `YYYY-MM-DD` of the served range, or `today`.
    Date,
    /// A year of the served range, in plain digits.
    Year,
    /// `lt`, `en`, `pl` or `ru`, case-insensitive.
    Lang,
    /// The week form, 5 or 6.
    Week,
    /// An integer from `min` to `max`.
    Integer { min: i64, max: i64 },
    /// Text of 1 to `max_chars` characters.
    Text { max_chars: usize },
    /// One of `values` (in the order error messages list them), case-insensitive; absent is
    /// `values[default]`.
    Choice {
        values: &'static [&'static str],
        default: usize,
    },
}

/// The date of the single-date operations.
pub const DATE: Param = Param {
    name: "date",
    required: true,
    kind: Kind::Date,
    description: "The date, `YYYY-MM-DD`, or `today` (in Europe/Vilnius).",
};

/// The first date of a range.
pub const FROM: Param = Param {
    name: "from",
    required: true,
    kind: Kind::Date,
    description: "First date, `YYYY-MM-DD` or `today`, inclusive.",
};

/// The last date of a range.
pub const TO: Param = Param {
    name: "to",
    required: true,
    kind: Kind::Date,
    description: "Last date, `YYYY-MM-DD` or `today`, inclusive; not earlier than `from`.",
};

/// The `lang` parameter of every endpoint that writes names.
pub const LANG: Param = Param {
    name: "lang",
    required: false,
    kind: Kind::Lang,
    description: "Language of the names: `lt` (default), `en`, `pl`, `ru`; case-insensitive; \
                  empty counts as absent.",
};

/// The `week` parameter of the working-time endpoints.
pub const WEEK: Param = Param {
    name: "week",
    required: false,
    kind: Kind::Week,
    description: "The week form: `5` (default, Monday-Friday) or `6` (Monday-Saturday).",
};

/// The `scope` parameter of the holiday dates ([`crate::api::query::scope`]).
pub const SCOPE: Param = Param {
    name: "scope",
    required: false,
    kind: Kind::Choice {
        values: SCOPES,
        default: 0,
    },
    description: "`red` (default): non-working holiday dates; `all`: dates of every \
                  holiday. Case-insensitive; empty counts as absent.",
};

/// The 400 codes of an operation on a date with names in a language.
pub const DATE_AND_LANG_ERRORS: &[ErrorCode] = &[
    ErrorCode::MissingParam,
    ErrorCode::InvalidDate,
    ErrorCode::InvalidLang,
    ErrorCode::InvalidParam,
];

/// What a handler answers from: the dataset in service when the request arrived, the
/// request's `today` (in Vilnius) and the built feeds.
pub struct Context<'a> {
    pub catalog: &'a Catalog,
    pub today: &'a Today,
    pub feeds: &'a Feeds,
}
