//! The operations of `/api/v1`, one file per endpoint, and the OpenAPI document built from
//! them.
//!
//! Each endpoint file holds one [`endpoint::Endpoint`]: its path, its words for the
//! document, who may call it, its parameters (the names the query is read by and what the
//! document says of them), the type of its answer (a serde struct whose `JsonSchema` is the
//! document's schema, so the JSON and its schema come from one definition) and its handler.
//! The route table (`ROUTES`, in the app module above) lists them; the gate finds one by path, runs
//! authentication and the limits, then calls its handler; `openapi` writes the document
//! from the same table. Adding an endpoint is one file here, one line in the route table
//! and its tests.
//!
//! Below the endpoint files: `endpoint` (what an operation is), `query` (the one query
//! extractor), `answer` (writing successful responses), `records` (answer parts several
//! endpoints share) and `today`.

pub mod answer;
pub mod day;
pub mod days;
pub mod endpoint;
pub mod holidays;
pub mod holidays_feed;
pub mod holidays_upcoming;
pub mod laisvadienis;
pub mod long_weekends;
pub mod name_days;
pub mod name_days_feed;
pub mod name_search;
pub mod openapi;
pub mod query;
pub mod records;
pub mod school_holidays;
pub mod school_holidays_feed;
pub mod today;
pub mod working_days;
pub mod working_days_add;
pub mod working_time;

/// Where the operations are mounted.
pub const PREFIX: &str = "/api/v1";
