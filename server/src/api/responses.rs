//! The documented responses of the operations: status, payload and headers.
//!
//! The success types here only describe: the operations answer with `super::answer::Answer`,
//! which writes exactly the documented response directly and borrows its description from
//! these types (so their variants are never built). The error types are built as they are.
//!
//! Headers every response carries (`X-Dataset-Version`, `Access-Control-Allow-Origin`) and the
//! rate-limit headers are added by `crate::app` for all responses alike; they are listed here
//! so the document shows them.

use poem_openapi::ApiResponse;

use super::payload::JsonBytes;
use super::schema::{DayDetails, DayStatus, DaysRange, Holidays, NameDays};
use crate::errors::{ApiError, ErrorBody};

/// Declares the 200/304 response of a public endpoint.
macro_rules! public_response {
    ($name:ident, $schema:ty, $what:literal) => {
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
                JsonBytes<$schema>,
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

/// Declares the 200 response of a keyed endpoint.
macro_rules! keyed_response {
    ($name:ident, $schema:ty, $what:literal) => {
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
            /// Success (`Cache-Control: private`).
            #[oai(status = 200)]
            Ok(JsonBytes<$schema>, #[oai(header = "Cache-Control")] String),
        }
    };
}

keyed_response!(HolidaysDoc, Holidays, "/holidays");
keyed_response!(NameDaysDoc, NameDays, "/name-days");
keyed_response!(DayDoc, DayDetails, "/day");

/// Failures of a public endpoint.
#[derive(ApiResponse)]
pub enum PublicError {
    /// A parameter is missing, repeated or malformed (`missing_param`, `invalid_date`,
    /// `invalid_range`, `range_too_large`, `invalid_param`), or the `Host` header is
    /// missing or repeated (`invalid_host`).
    #[oai(status = 400)]
    BadRequest(JsonBytes<ErrorBody>),
    /// A per-IP window is exhausted (`rate_limit_minute`, `rate_limit_month`). Uses no quota.
    #[oai(
        status = 429,
        header(name = "Retry-After", ty = "u64", description = "Seconds to wait.")
    )]
    TooManyRequests(JsonBytes<ErrorBody>),
}

/// Failures of a keyed endpoint.
#[derive(ApiResponse)]
pub enum KeyedError {
    /// A parameter is missing, repeated, conflicting or malformed (`missing_param`,
    /// `invalid_date`, `invalid_year`, `conflicting_params`, `invalid_lang`, `invalid_param`),
    /// or the `Host` header is missing or repeated (`invalid_host`).
    #[oai(status = 400)]
    BadRequest(JsonBytes<ErrorBody>),
    /// No key (`missing_key`), an unknown or revoked key (`invalid_key`), or an expired one
    /// (`expired_key`).
    #[oai(status = 401)]
    Unauthorized(JsonBytes<ErrorBody>),
    /// A window of the key is exhausted (`rate_limit_minute`, `rate_limit_day`). Uses no
    /// quota.
    #[oai(
        status = 429,
        header(name = "Retry-After", ty = "u64", description = "Seconds to wait.")
    )]
    TooManyRequests(JsonBytes<ErrorBody>),
}

impl From<ApiError> for PublicError {
    fn from(err: ApiError) -> Self {
        debug_assert_eq!(err.code.status(), 400, "handlers only refuse parameters");
        PublicError::BadRequest(JsonBytes::new(err.body()))
    }
}

impl From<ApiError> for KeyedError {
    fn from(err: ApiError) -> Self {
        debug_assert_eq!(err.code.status(), 400, "handlers only refuse parameters");
        KeyedError::BadRequest(JsonBytes::new(err.body()))
    }
}
