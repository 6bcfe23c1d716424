//! `GET /api/v1/name-days/search` (docs/api.md, `/name-days/search`): the days a name is
//! celebrated, found ignoring case and diacritics. Key required.
//!
//! The matching is the catalog's [`crate::name_index::NameIndex`]; this file checks the
//! parameter and writes the answer.

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::registry::MetaSchema;
use poem_openapi::types::Example;
use poem_openapi::{Object, OpenApi};

use super::answer::Answer;
use super::doc_types::{DocString, GenderCode, StringDoc};
use super::responses::{KeyedError, NameSearchDoc};
use super::security::ApiKeyAuth;
use super::{catalog_of, ApiTag};
use crate::api::params::{self, Params};
use crate::catalog::Catalog;
use crate::http::errors::{ApiError, ErrorCode};
use crate::name_index::MAX_MATCHES;

/// Longest `name` accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 64;

/// The operation.
pub struct NameSearchApi;

#[OpenApi(tag = "ApiTag::Keyed")]
impl NameSearchApi {
    /// Days of a name
    ///
    /// The calendar names matching `name`, ignoring case and diacritics (`zygimante` finds
    /// `Žygimantė`): names equal to the query first, then names starting with it, then names
    /// containing it, each group in alphabetical order of the folded name; at most 50. Each
    /// match lists the days (`MM-DD`, calendar order) the name is celebrated every year (a
    /// February 29 name is also celebrated on February 28 of common years). No match is a 200
    /// with `count` 0.
    #[oai(
        path = "/name-days/search",
        method = "get",
        operation_id = "name_days_search"
    )]
    async fn name_days_search(
        &self,
        req: &Request,
        _auth: ApiKeyAuth,
        /// The name or a part of it, 1 to 64 characters.
        #[oai(name = "name")]
        _name: Query<DocString<NameParam>>,
    ) -> Result<Answer<NameSearchDoc>, KeyedError> {
        handle(req, &catalog_of(req))
    }
}

/// Answers a request that has been authenticated and passed the key's rate limiter.
pub fn handle(req: &Request, catalog: &Catalog) -> Result<Answer<NameSearchDoc>, KeyedError> {
    let params = Params::parse(req.uri().query(), ["name", "api_key"])?;
    let query = name(params.get(0))?;
    Ok(Answer::private(body(catalog, query)))
}

/// Checks the `name` parameter: present, not blank, at most [`MAX_QUERY_CHARS`].
pub fn name(value: Option<&str>) -> Result<&str, ApiError> {
    let value = value
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| params::missing("name", "a name or part of one, 1 to 64 characters"))?;
    if value.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::new(
            ErrorCode::InvalidParam,
            format!(
                "parameter 'name' must be at most {MAX_QUERY_CHARS} characters, got '{}'",
                params::echo(value)
            ),
        ));
    }
    Ok(value)
}

/// The JSON answer for `query`: the matches' objects are written once, at load.
fn body(catalog: &Catalog, query: &str) -> Vec<u8> {
    let matches = catalog.name_index().search_json(query.trim(), MAX_MATCHES);
    let size: usize = matches.iter().map(|m| m.len() + 1).sum();
    let mut out = Vec::with_capacity(48 + query.len() + size);
    out.extend_from_slice(b"{\"query\":");
    serde_json::to_writer(&mut out, query).expect("a string always serializes");
    out.extend_from_slice(b",\"count\":");
    out.extend_from_slice(itoa::Buffer::new().format(matches.len()).as_bytes());
    out.extend_from_slice(b",\"matches\":[");
    for (i, object) in matches.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(object.as_bytes());
    }
    out.extend_from_slice(b"]}");
    out
}

/// The `name` query parameter.
pub struct NameParam;
impl StringDoc for NameParam {
    const NAME: &'static str = "name_param";
    fn schema() -> MetaSchema {
        MetaSchema {
            description: Some(
                "A name or part of one; case and diacritics are ignored. Empty or blank is \
                 `missing_param`, more than 64 characters `invalid_param`.",
            ),
            min_length: Some(1),
            max_length: Some(MAX_QUERY_CHARS),
            ..MetaSchema::new("string")
        }
    }
}

/// `MM-DD`.
pub struct MonthDayCode;
impl StringDoc for MonthDayCode {
    const NAME: &'static str = "month_day";
    fn schema() -> MetaSchema {
        MetaSchema {
            description: Some("A day of the year, MM-DD."),
            pattern: Some(r"^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$".into()),
            ..MetaSchema::new("string")
        }
    }
}

/// A name that matched.
#[derive(Object)]
pub struct NameMatch {
    /// The calendar name, in its Lithuanian spelling.
    pub name: String,
    /// `m` or `f`.
    pub gender: DocString<GenderCode>,
    /// The days it is celebrated, `MM-DD`, in calendar order.
    pub dates: Vec<DocString<MonthDayCode>>,
}

/// The `/name-days/search` response.
#[derive(Object)]
#[oai(example)]
pub struct NameSearch {
    /// Echo of `name`, as sent.
    pub query: String,
    /// Number of matches (0 to 50).
    pub count: u32,
    /// Exact matches first, then names starting with the query, then names containing it.
    pub matches: Vec<NameMatch>,
}

impl Example for NameSearch {
    fn example() -> Self {
        let name_match = |name: &str, gender: &str, dates: &[&str]| NameMatch {
            name: name.into(),
            gender: DocString::new(gender),
            dates: dates.iter().map(|d| DocString::new(*d)).collect(),
        };
        NameSearch {
            query: "jonas".into(),
            count: 3,
            matches: vec![
                name_match("Jonas", "m", &["06-24"]),
                name_match("Damijonas", "m", &["04-12", "09-27"]),
                name_match("Fabijonas", "m", &["01-20"]),
            ],
        }
    }
}
