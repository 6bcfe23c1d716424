//! The operations of `/api/v1`, one file each holding its [`endpoint::Endpoint`], listed by the
//! route table (`app::ROUTES`); `endpoint`, `params`, `query`,
//! `context`, `answer`, `records` and `today` are shared.

pub mod answer;
pub mod context;
pub mod day;
pub mod days;
pub mod endpoint;
pub mod holidays;
pub mod holidays_feed;
pub mod holidays_upcoming;
pub mod laisvadienis;
pub mod leave;
pub mod long_weekends;
pub mod moon;
pub mod moon_feed;
pub mod name_days;
pub mod name_days_feed;
pub mod name_search;
pub mod params;
pub mod query;
pub mod records;
pub mod school_holidays;
pub mod school_holidays_feed;
pub mod shift_hours;
pub mod sun;
pub mod today;
pub mod working_days;
pub mod working_days_add;
pub mod working_time;

pub const PREFIX: &str = "/api/v1";

mod prelude {
    pub use kalendorius_dataset::{Date, Lang};
    pub use poem::{Request, Response};
    pub use schemars::{JsonSchema, SchemaGenerator};
    pub use serde::Serialize;

    pub use super::answer;
    pub use super::context::Context;
    pub use super::endpoint::*;
    pub use super::params::*;
    pub use super::query::{self, Query};
    pub use crate::http::errors::{ApiError, ErrorCode};
    pub use crate::limits::PublicEndpoint;
}
