//! The documented responses of the operations: status, payload and headers.
//!
//! The success types here only describe: the operations answer with `super::answer::Answer`,
//! which writes exactly the documented response directly and borrows its description from
//! these types (so their variants are never built). The error types are built as they are;
//! each error response's schema lists only the codes of its status, with an example of one.
//!
//! Headers every response carries (`X-Dataset-Version`, `Access-Control-Allow-Origin`) and the
//! rate-limit headers are added by `crate::app` for all responses alike; they are listed here
//! so the document shows them.

use poem_openapi::ApiResponse;

use super::doc_types::{ErrorCodes, ErrorDoc};
use super::name_search::NameSearch;
use super::payload::JsonBytes;
use super::schema::{DayDetails, DayStatus, DaysRange, Holidays, NameDays};
use super::working_schema::{WorkingDays, WorkingDaysAdded, WorkingTime};
use crate::api::params;
use crate::app;
use crate::feeds::api::CalendarText;
use crate::http::errors::{self, ApiError, ErrorCode};
use crate::limits::Window;

/// Declares the 200/304 response of a public endpoint: a JSON body of `$schema`, or any
/// other `payload`.
macro_rules! public_response {
    ($name:ident, $schema:ty, $what:literal) => {
        public_response!($name, payload JsonBytes<$schema>, $what);
    };
    ($name:ident, payload $payload:ty, $what:literal) => {
        #[doc = concat!("Responses of ", $what, " (the description of its `Answer`).")]
        #[derive(ApiResponse)]
        #[allow(dead_code, reason = "describes `Answer`, which builds the response")]
        #[oai(
            header(
                name = "X-Dataset-Version",
                ty = "String",
                description = "Version of the dataset that answered."
            ),
            header(
                name = "RateLimit-Limit",
                ty = "u64",
                description = "Limit of the tightest window (per IP)."
            ),
            header(
                name = "RateLimit-Remaining",
                ty = "u64",
                description = "Requests left in that window."
            ),
            header(
                name = "RateLimit-Reset",
                ty = "u64",
                description = "Seconds until that window frees capacity."
            )
        )]
        pub enum $name {
            /// Success. Cacheable: `Cache-Control: public, max-age=3600` and a strong ETag.
            #[oai(status = 200)]
            Ok(
                $payload,
                #[oai(header = "ETag")] String,
                #[oai(header = "Cache-Control")] String,
            ),
            /// `If-None-Match` matched the current ETag.
            #[oai(status = 304)]
            NotModified(
                #[oai(header = "ETag")] String,
                #[oai(header = "Cache-Control")] String,
            ),
        }
    };
}

public_response!(LaisvadienisDoc, DayStatus, "/laisvadienis");
public_response!(DaysDoc, DaysRange, "/days");
public_response!(FeedDoc, payload CalendarText, "the calendar feeds");

/// Declares the responses of a keyed endpoint: with a date parameter (so `today`, and the
/// 304 of a revalidated `today` answer), or `without_date`.
macro_rules! keyed_response {
    ($name:ident, $schema:ty, $what:literal) => {
        keyed_response!(@declare $name, $what, {
            /// Success (`Cache-Control: private`). When a date parameter was `today`:
            /// `Cache-Control: private, max-age=60` and an `ETag` of the resolved date.
            #[oai(status = 200)]
            Ok(
                JsonBytes<$schema>,
                #[oai(header = "Cache-Control")] String,
                #[oai(header = "ETag")] Option<String>,
            ),
            /// Only when a date parameter was `today`: `If-None-Match` matched the ETag of
            /// the resolved date.
            #[oai(status = 304)]
            NotModified(
                #[oai(header = "ETag")] String,
                #[oai(header = "Cache-Control")] String,
            ),
        });
    };
    (without_date $name:ident, $schema:ty, $what:literal) => {
        keyed_response!(@declare $name, $what, {
            /// Success (`Cache-Control: private`).
            #[oai(status = 200)]
            Ok(JsonBytes<$schema>, #[oai(header = "Cache-Control")] String),
        });
    };
    (@declare $name:ident, $what:literal, { $($variants:tt)* }) => {
        #[doc = concat!("Responses of ", $what, " (the description of its `Answer`).")]
        #[derive(ApiResponse)]
        #[allow(dead_code, reason = "describes `Answer`, which builds the response")]
        #[oai(
            header(
                name = "X-Dataset-Version",
                ty = "String",
                description = "Version of the dataset that answered."
            ),
            header(
                name = "RateLimit-Limit",
                ty = "u64",
                description = "Limit of the tightest window of the key."
            ),
            header(
                name = "RateLimit-Remaining",
                ty = "u64",
                description = "Requests left in that window."
            ),
            header(
                name = "RateLimit-Reset",
                ty = "u64",
                description = "Seconds until that window frees capacity."
            )
        )]
        pub enum $name {
            $($variants)*
        }
    };
}

keyed_response!(HolidaysDoc, Holidays, "/holidays");
keyed_response!(NameDaysDoc, NameDays, "/name-days");
keyed_response!(DayDoc, DayDetails, "/day");
keyed_response!(WorkingDaysDoc, WorkingDays, "/working-days");
keyed_response!(WorkingDaysAddedDoc, WorkingDaysAdded, "/working-days/add");

// /working-time has no date parameter, so no `today`.
keyed_response!(without_date WorkingTimeDoc, WorkingTime, "/working-time");
// The name search has no date parameter, so no `today`.
keyed_response!(without_date NameSearchDoc, NameSearch, "/name-days/search");

/// Failures of a public endpoint.
#[derive(ApiResponse)]
pub enum PublicError {
    /// A parameter is missing, repeated or malformed, or the `Host` header is missing or
    /// repeated.
    #[oai(status = 400)]
    BadRequest(JsonBytes<ErrorDoc<PublicBadRequest>>),
    /// A per-IP window is exhausted. Uses no quota.
    #[oai(
        status = 429,
        header(name = "Retry-After", ty = "u64", description = "Seconds to wait.")
    )]
    TooManyRequests(JsonBytes<ErrorDoc<PublicTooManyRequests>>),
}

/// Declares the failures of a keyed endpoint whose 400 carries the codes of `$bad_request`
/// (described by `$doc`), and their construction from the handlers' refusals.
macro_rules! keyed_error {
    ($(#[$meta:meta])* $name:ident, $bad_request:ty, $doc:literal) => {
        $(#[$meta])*
        #[derive(ApiResponse)]
        pub enum $name {
            #[doc = $doc]
            #[oai(status = 400)]
            BadRequest(JsonBytes<ErrorDoc<$bad_request>>),
            /// No key, an unknown or revoked key, or an expired one.
            #[oai(status = 401)]
            Unauthorized(JsonBytes<ErrorDoc<KeyedUnauthorized>>),
            /// A window of the key is exhausted. Uses no quota.
            #[oai(
                status = 429,
                header(name = "Retry-After", ty = "u64", description = "Seconds to wait.")
            )]
            TooManyRequests(JsonBytes<ErrorDoc<KeyedTooManyRequests>>),
            /// The key cannot be checked now: the shared state store (Redis, when several
            /// server processes share keys and limits) cannot be reached. Uses no quota;
            /// retry shortly.
            #[oai(status = 503)]
            ServiceUnavailable(JsonBytes<ErrorDoc<KeyedUnavailable>>),
        }

        impl From<ApiError> for $name {
            fn from(err: ApiError) -> Self {
                debug_assert_eq!(err.code.status(), 400, "handlers only refuse parameters");
                $name::BadRequest(JsonBytes::new(err.body()))
            }
        }
    };
}

keyed_error!(
    /// Failures of a keyed endpoint.
    KeyedError,
    KeyedBadRequest,
    "A parameter is missing, repeated, conflicting or malformed, or the `Host` header is \
     missing or repeated."
);
keyed_error!(
    /// Failures of a working-time endpoint.
    WorkingError,
    WorkingBadRequest,
    "A parameter is missing, repeated or malformed, a range is reversed, a result falls \
     outside the served dates, or the `Host` header is missing or repeated."
);

/// Declares the codes of one error response (see [`ErrorCodes`]); the type's name is the
/// schema's.
macro_rules! error_codes {
    ($name:ident, $description:literal, [$($code:ident),+ $(,)?], $example:expr) => {
        #[doc = $description]
        pub struct $name;
        impl ErrorCodes for $name {
            const NAME: &'static str = stringify!($name);
            const DESCRIPTION: &'static str = $description;
            const CODES: &'static [ErrorCode] = &[$(ErrorCode::$code),+];
            fn example() -> ApiError {
                $example
            }
        }
    };
}

error_codes!(
    PublicBadRequest,
    "A refused request to a public endpoint.",
    [
        MissingParam,
        InvalidDate,
        InvalidRange,
        RangeTooLarge,
        InvalidParam,
        InvalidHost
    ],
    params::missing("date", "YYYY-MM-DD")
);
error_codes!(
    PublicTooManyRequests,
    "A per-IP window is exhausted.",
    [RateLimitMinute, RateLimitMonth],
    app::rate_limited(Window::Minute, app::PER_ADDRESS)
);
error_codes!(
    KeyedBadRequest,
    "A refused request to a keyed endpoint.",
    [
        MissingParam,
        InvalidDate,
        InvalidYear,
        ConflictingParams,
        InvalidLang,
        InvalidParam,
        InvalidHost,
    ],
    params::missing("date", "YYYY-MM-DD")
);
error_codes!(
    WorkingBadRequest,
    "A refused request to a working-time endpoint.",
    [
        MissingParam,
        InvalidDate,
        InvalidYear,
        InvalidRange,
        InvalidParam,
        OutOfRange,
        InvalidHost,
    ],
    params::missing("year", "YYYY")
);
error_codes!(
    KeyedUnauthorized,
    "The API key is missing, unknown, revoked or expired.",
    [MissingKey, InvalidKey, ExpiredKey],
    errors::missing_key()
);
error_codes!(
    KeyedTooManyRequests,
    "A window of the API key is exhausted.",
    [RateLimitMinute, RateLimitDay],
    app::rate_limited(Window::Minute, app::PER_KEY)
);

error_codes!(
    KeyedUnavailable,
    "The API key cannot be checked now: the shared state store cannot be reached.",
    [StateUnavailable],
    errors::state_unavailable()
);

impl From<ApiError> for PublicError {
    fn from(err: ApiError) -> Self {
        debug_assert_eq!(err.code.status(), 400, "handlers only refuse parameters");
        PublicError::BadRequest(JsonBytes::new(err.body()))
    }
}
