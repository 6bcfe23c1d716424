//! The operations of `/api/v1`, one file per endpoint, and the OpenAPI document built
//! from them (with the two calendar feeds of `crate::feeds`, which follow the same pattern).
//!
//! Each endpoint file has a `handle(req, catalog)` function that answers a request which
//! has already passed `crate::app`'s gate (rate limiter, and authentication for the keyed
//! ones), and a poem-openapi operation that declares the endpoint (parameters, responses,
//! security schemes) and calls the same `handle`. `crate::app` calls `handle` directly: it
//! has already matched the path, so routing the request again through the poem-openapi
//! service would only cost time (about a fifth of a small request's). The document
//! therefore describes exactly the functions that answer, and the `openapi` integration
//! test checks every documented status and schema against real responses.

pub mod answer;
pub mod day;
pub mod days;
pub mod doc_types;
pub mod holidays;
pub mod laisvadienis;
pub mod name_days;
pub mod name_search;
pub mod params;
pub mod payload;
pub mod responses;
pub mod schema;
pub mod security;
pub mod today;
pub mod wire;
pub mod working_days;
pub mod working_days_add;
pub mod working_params;
pub mod working_schema;
pub mod working_time;
pub mod working_wire;

use std::sync::Arc;

use poem::Request;
use poem_openapi::OpenApiService;

use crate::catalog::Catalog;

/// Where the operations are mounted.
pub const PREFIX: &str = "/api/v1";

/// Operation groups in the document.
#[derive(poem_openapi::Tags)]
pub enum ApiTag {
    /// Working-day status; no key, limited per client IP.
    Public,
    /// Holidays, name days, day details and working time; API key required, limited per key.
    Keyed,
}

/// All operations together.
pub type Api = (
    laisvadienis::LaisvadienisApi,
    days::DaysApi,
    holidays::HolidaysApi,
    name_days::NameDaysApi,
    day::DayApi,
    working_time::WorkingTimeApi,
    working_days::WorkingDaysApi,
    working_days_add::WorkingDaysAddApi,
    name_search::NameSearchApi,
    crate::feeds::api::FeedsApi,
);

/// The service: the operations mounted under [`PREFIX`], with its document.
pub fn service() -> OpenApiService<Api, ()> {
    OpenApiService::new(
        (
            laisvadienis::LaisvadienisApi,
            days::DaysApi,
            holidays::HolidaysApi,
            name_days::NameDaysApi,
            day::DayApi,
            working_time::WorkingTimeApi,
            working_days::WorkingDaysApi,
            working_days_add::WorkingDaysAddApi,
            name_search::NameSearchApi,
            crate::feeds::api::FeedsApi,
        ),
        "kalendorius",
        env!("CARGO_PKG_VERSION"),
    )
    .description(DESCRIPTION)
    .url_prefix(PREFIX)
}

const DESCRIPTION: &str = "Lithuanian calendar data: working-day status, public and other \
holidays, and name days for every date from 1583 to 2100. All responses are JSON (the \
calendar feeds under `/feeds` answer `text/calendar`); answers of 1 KiB or more are gzip- or \
brotli-compressed as `Accept-Encoding` allows, with an ETag per encoding; every non-2xx \
response is `{\"error\": code, \"message\": sentence}`, except the empty-bodied 400, \
414 and 431 the HTTP layer sends itself for a request it cannot parse (a malformed request \
line or header, a target longer than 65 534 bytes, more than 100 headers). An HTTP/1.1 \
request needs exactly one `Host` header (else 400 `invalid_host`). GET and HEAD on every \
endpoint (HEAD counts like GET), OPTIONS answers CORS preflight without key or quota. \
Unknown query parameters are ignored; a parameter sent twice is `invalid_param`; an empty \
value counts as absent. Rate-limited responses carry `RateLimit-Limit`, \
`RateLimit-Remaining` and `RateLimit-Reset` (seconds) for the tightest window; a 429 adds \
`Retry-After` and uses no quota. Keyed endpoints check the key (401) before the limits \
(429) before the parameters (400), so a 400 counts against the key's quota.";

/// The catalog a request is answered from when an operation is mounted as a poem-openapi
/// service (with the catalog in the request's extensions); `crate::app` passes it directly.
pub fn catalog_of(req: &Request) -> Arc<Catalog> {
    req.extensions()
        .get::<Arc<Catalog>>()
        .cloned()
        .expect("the catalog is in the extensions of a request to a mounted operation")
}
