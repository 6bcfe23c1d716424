//! `GET /api/v1/feeds/holidays.ics` and `GET /api/v1/feeds/name-days.ics` (docs/api.md,
//! `/feeds`): the answers and their OpenAPI description. Public, limited per client IP.
//!
//! As for the other operations, `crate::app` calls [`holidays`] and [`name_days`]
//! directly after its rate limiter; the poem-openapi operations only put the endpoints,
//! their parameters and their `text/calendar` answer into the document.

use std::sync::Arc;

use chrono::Datelike;

use poem::http::header;
use poem::{IntoResponse, Request, Response};
use poem_openapi::param::Query;
use poem_openapi::payload::Payload;
use poem_openapi::registry::{MetaResponses, MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::{ApiResponse, OpenApi};
use serde_json::Value;

use super::{params, Feeds, CONTENT_TYPE};
use crate::api::answer::Answer;
use crate::api::doc_types::{DocString, ErrorCodes, ErrorDoc, LangParam, StringDoc};
use crate::api::payload::JsonBytes;
use crate::api::responses::{FeedDoc, PublicTooManyRequests};
use crate::api::today::Today;
use crate::api::{catalog_of, ApiTag};
use crate::catalog::Catalog;
use crate::http::caching;
use crate::http::errors::{ApiError, ErrorCode};

/// Answers a `/feeds/holidays.ics` request that has passed the rate limiter.
/// The feed's window is counted in years of Europe/Vilnius from the request's `today`.
pub fn holidays(
    req: &Request,
    catalog: &Catalog,
    feeds: &Feeds,
    today: &Today,
) -> Result<Answer<FeedDoc>, FeedError> {
    let this_year = today.current().year();
    let request = params::holidays(req, catalog, this_year)?;
    answer(req, catalog, feeds, request, this_year)
}

/// Answers a `/feeds/name-days.ics` request that has passed the rate limiter.
pub fn name_days(
    req: &Request,
    catalog: &Catalog,
    feeds: &Feeds,
    today: &Today,
) -> Result<Answer<FeedDoc>, FeedError> {
    let request = params::name_days(req)?;
    answer(req, catalog, feeds, request, today.current().year())
}

fn answer(
    req: &Request,
    catalog: &Catalog,
    feeds: &Feeds,
    request: params::FeedRequest,
    this_year: i32,
) -> Result<Answer<FeedDoc>, FeedError> {
    let feed = feeds.feed(request, catalog, this_year);
    if caching::not_modified(req.headers(), &feed.etag) {
        return Ok(Answer::not_modified(feed.etag.clone()));
    }
    Ok(Answer::public_typed(
        feed.body.clone(),
        CONTENT_TYPE,
        feed.etag.clone(),
    ))
}

/// The operations, for the document.
pub struct FeedsApi;

#[OpenApi(tag = "ApiTag::Public")]
impl FeedsApi {
    /// Holidays as an iCalendar feed
    ///
    /// A calendar to subscribe to (`webcal://`): all-day events, refreshed daily. `scope=red`
    /// (default): one event per non-working holiday date (red holidays, with the names
    /// joined when two fall on one date, and declared extra days off); `scope=all`: one
    /// event per holiday of every type (`CATEGORIES` is its type) and per declared extra day
    /// off. `shortened=true` adds the shortened working days of the 5-day week. Years: from
    /// last year to five years ahead (in Europe/Vilnius), within the dataset, unless
    /// `from_year`/`to_year` say otherwise (at most 30 years, else `invalid_year`). A UID
    /// stays the same across dataset versions for the same holiday on the same date. No key
    /// needed; limited per client IP to 60 requests per minute and 10 000 per calendar
    /// month (UTC).
    #[oai(
        path = "/feeds/holidays.ics",
        method = "get",
        operation_id = "holidays_feed"
    )]
    async fn holidays_feed(
        &self,
        req: &Request,
        /// Language of the names and of the calendar's name: `lt` (default), `en`, `pl`,
        /// `ru`; case-insensitive; empty counts as absent.
        #[oai(name = "lang")]
        _lang: Query<Option<DocString<LangParam>>>,
        /// `red` (default): non-working holiday dates; `all`: every holiday.
        #[oai(name = "scope")]
        _scope: Query<Option<DocString<ScopeParam>>>,
        /// `true`: also list the shortened working days; default `false`.
        #[oai(name = "shortened")]
        _shortened: Query<Option<DocString<ShortenedParam>>>,
        /// First year of the feed (default: last year).
        #[oai(name = "from_year")]
        _from_year: Query<Option<DocString<FeedYearParam>>>,
        /// Last year of the feed (default: five years ahead).
        #[oai(name = "to_year")]
        _to_year: Query<Option<DocString<FeedYearParam>>>,
    ) -> Result<Answer<FeedDoc>, FeedError> {
        holidays(req, &catalog_of(req), &feeds_of(req), &Today::now())
    }

    /// Name days as an iCalendar feed
    ///
    /// One yearly recurring all-day event per calendar day with that day's names, so the
    /// feed is small and never ends. The names of February 29 repeat on the last day of
    /// February (`RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1`): February 28 in a common year,
    /// as elsewhere in the API. No key needed; limited per client IP to 60 requests per
    /// minute and 10 000 per calendar month (UTC).
    #[oai(
        path = "/feeds/name-days.ics",
        method = "get",
        operation_id = "name_days_feed"
    )]
    async fn name_days_feed(
        &self,
        req: &Request,
        /// Language of the summaries and of the calendar's name: `lt` (default), `en`,
        /// `pl`, `ru` (case-insensitive; empty counts as absent); the names are Lithuanian
        /// in every language.
        #[oai(name = "lang")]
        _lang: Query<Option<DocString<LangParam>>>,
    ) -> Result<Answer<FeedDoc>, FeedError> {
        name_days(req, &catalog_of(req), &feeds_of(req), &Today::now())
    }
}

/// The feeds when the operations are mounted as a poem-openapi service (in the request's
/// extensions); `crate::app` passes its own.
fn feeds_of(req: &Request) -> Arc<Feeds> {
    req.extensions()
        .get::<Arc<Feeds>>()
        .cloned()
        .expect("the feeds are in the extensions of a request to a mounted operation")
}

/// The `scope` parameter.
pub struct ScopeParam;
impl StringDoc for ScopeParam {
    const NAME: &'static str = "scope_param";
    const REQUIRED: bool = false;
    fn schema() -> MetaSchema {
        choice(
            ["red", "all"],
            "Case-insensitive; empty counts as absent (so `red`).",
        )
    }
}

/// The `shortened` parameter.
pub struct ShortenedParam;
impl StringDoc for ShortenedParam {
    const NAME: &'static str = "shortened_param";
    const REQUIRED: bool = false;
    fn schema() -> MetaSchema {
        choice(
            ["false", "true"],
            "Case-insensitive; empty counts as absent (so `false`).",
        )
    }
}

/// A string parameter of two `values`, the first being the default.
fn choice(values: [&str; 2], description: &'static str) -> MetaSchema {
    MetaSchema {
        description: Some(description),
        default: Some(Value::String(values[0].into())),
        enum_items: values.iter().map(|v| Value::String((*v).into())).collect(),
        ..MetaSchema::new("string")
    }
}

/// `from_year` and `to_year`.
pub struct FeedYearParam;
impl StringDoc for FeedYearParam {
    const NAME: &'static str = "feed_year_param";
    const REQUIRED: bool = false;
    fn schema() -> MetaSchema {
        MetaSchema {
            description: Some(
                "In plain digits, a year of the dataset; at most 30 years from `from_year` to `to_year`.",
            ),
            minimum: Some(f64::from(kalendorius_dataset::FIRST_YEAR)),
            maximum: Some(f64::from(kalendorius_dataset::LAST_YEAR)),
            ..MetaSchema::new_with_format("integer", "int32")
        }
    }
}

/// An iCalendar body.
pub struct CalendarText;

impl Payload for CalendarText {
    const CONTENT_TYPE: &'static str = CONTENT_TYPE;

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            description: Some("An iCalendar (RFC 5545) calendar."),
            ..MetaSchema::new("string")
        }))
    }
}

impl IntoResponse for CalendarText {
    fn into_response(self) -> Response {
        Response::builder()
            .header(header::CONTENT_TYPE, CONTENT_TYPE)
            .finish()
    }
}

/// Failures of a feed (the description of [`FeedError`]).
#[derive(ApiResponse)]
#[allow(dead_code, reason = "describes `FeedError`, which builds the response")]
pub enum FeedErrorDoc {
    /// A parameter is repeated or malformed, a year is outside the dataset or the window
    /// too long, or the `Host` header is missing or repeated.
    #[oai(status = 400)]
    BadRequest(JsonBytes<ErrorDoc<FeedBadRequest>>),
    /// A per-IP window is exhausted. Uses no quota.
    #[oai(
        status = 429,
        header(name = "Retry-After", ty = "u64", description = "Seconds to wait.")
    )]
    TooManyRequests(JsonBytes<ErrorDoc<PublicTooManyRequests>>),
}

/// A refused feed request: the API's JSON error.
#[derive(Debug)]
pub struct FeedError(pub ApiError);

impl From<ApiError> for FeedError {
    fn from(err: ApiError) -> Self {
        FeedError(err)
    }
}

impl IntoResponse for FeedError {
    fn into_response(self) -> Response {
        self.0.into_response()
    }
}

impl std::fmt::Display for FeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for FeedError {}

impl poem::error::ResponseError for FeedError {
    fn status(&self) -> poem::http::StatusCode {
        self.0.code.status()
    }

    fn as_response(&self) -> Response {
        self.0.clone().into_response()
    }
}

impl ApiResponse for FeedError {
    fn meta() -> MetaResponses {
        FeedErrorDoc::meta()
    }

    fn register(registry: &mut Registry) {
        FeedErrorDoc::register(registry);
    }
}

/// The codes of a refused feed request.
pub struct FeedBadRequest;
impl ErrorCodes for FeedBadRequest {
    const NAME: &'static str = "FeedBadRequest";
    const DESCRIPTION: &'static str = "A refused request to a feed.";
    const CODES: &'static [ErrorCode] = &[
        ErrorCode::InvalidYear,
        ErrorCode::InvalidLang,
        ErrorCode::InvalidParam,
        ErrorCode::InvalidHost,
    ];
    fn example() -> ApiError {
        ApiError::new(
            ErrorCode::InvalidYear,
            "the feed from 1990 to 2030 spans 41 years; at most 30 years are allowed (set 'from_year' and 'to_year')",
        )
    }
}
