//! `GET /api/v1/name-days`: the names celebrated on a date. Key required.

use super::prelude::*;
use crate::catalog::NameDayRecord;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/name-days",
    operation_id: "name_days",
    summary: "Name days of a date",
    description: "Names are Lithuanian calendar names in their Lithuanian spelling whatever \
                  `lang` (which is only echoed). Names of February 29 are also celebrated on \
                  February 28 of common years.",
    access: Access::Keyed,
    params: NameDaysParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<NameDays>),
    bad_request: BadRequest::of(NameDaysParams::DECLARED).codes(),
    handle: serve::<NameDaysParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct NameDays<'a> {
    /// Echo of `date`.
    pub date: Date,
    /// Language used (lower-case). Names are not translated.
    pub lang: Lang,
    /// Number of names.
    pub count: usize,
    /// The names.
    pub name_days: Vec<&'a NameDayRecord>,
}

const ECHOED_LANG: Param = Param {
    description: "`lt` (default), `en`, `pl`, `ru`; case-insensitive, echoed lower-case; \
                  empty counts as absent.",
    ..LANG
};

params! {
    pub struct NameDaysParams {
        date: Date = DATE,
        lang: Lang = ECHOED_LANG,
    }
}

impl Handler for NameDaysParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let name_days: Vec<_> = cx.catalog.name_days_on(self.date).collect();
        Ok(answer::private(answer::to_json(&NameDays {
            date: self.date,
            lang: self.lang,
            count: name_days.len(),
            name_days,
        })))
    }
}
