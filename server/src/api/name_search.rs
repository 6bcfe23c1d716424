//! `GET /api/v1/name-days/search`: the days a name is celebrated, found ignoring case and
//! diacritics by the catalog's [`crate::name_index::NameIndex`], which writes each match's
//! JSON once, at load. Key required.

use serde_json::value::RawValue;

use super::prelude::*;
use crate::name_index::{NameMatch, MAX_MATCHES, MAX_QUERY_CHARS};

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/name-days/search",
    operation_id: "name_days_search",
    summary: "Days of a name",
    description: "The calendar names matching `name`, ignoring case and diacritics \
                  (`zygimante` finds `Žygimantė`): names equal to the query first, then names \
                  starting with it, then names containing it, each group in alphabetical order \
                  of the folded name; at most 50. Each match lists the days (`MM-DD`, calendar \
                  order) the name is celebrated every year (a February 29 name is also \
                  celebrated on February 28 of common years). No match is a 200 with `count` 0.",
    access: Access::Keyed,
    params: NameSearchParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<NameSearch>),
    bad_request: BadRequest::of(NameSearchParams::DECLARED).codes(),
    handle: serve::<NameSearchParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct NameSearch<'a> {
    /// Echo of `name`, as sent.
    pub query: &'a str,
    /// Number of matches (0 to 50).
    pub count: usize,
    /// Exact matches first, then names starting with the query, then names containing it.
    #[schemars(with = "Vec<NameMatch>")]
    pub matches: Vec<&'a RawValue>,
}

const NAME: Param = Param {
    name: "name",
    required: true,
    kind: Kind::Text {
        max_chars: MAX_QUERY_CHARS,
    },
    description: "A name or part of one, 1 to 64 characters; case and diacritics are ignored. \
                  Empty or blank is `missing_param`, longer `invalid_param`.",
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NameSearchParams {
    /// As sent (echoed so), not blank, at most [`MAX_QUERY_CHARS`] characters.
    pub name: Box<str>,
}

impl Params for NameSearchParams {
    const DECLARED: &'static [Param] = &[NAME];

    fn parse(query: &Query, _: &Context) -> Result<Self, ApiError> {
        let name = query
            .value(NAME.name)
            .filter(|v| !v.trim().is_empty())
            .ok_or_else(|| {
                query::missing(NAME.name, "a name or part of one, 1 to 64 characters")
            })?;
        if name.chars().count() > MAX_QUERY_CHARS {
            return Err(ApiError::new(
                ErrorCode::InvalidParam,
                format!(
                    "parameter 'name' must be at most {MAX_QUERY_CHARS} characters, got '{}'",
                    query::echo(name)
                ),
            ));
        }
        Ok(NameSearchParams { name: name.into() })
    }
}

impl Handler for NameSearchParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let matches = cx
            .catalog
            .name_index
            .search_json(self.name.trim(), MAX_MATCHES);
        Ok(answer::private(answer::to_json(&NameSearch {
            query: &self.name,
            count: matches.len(),
            matches,
        })))
    }
}
