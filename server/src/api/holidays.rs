//! `GET /api/v1/holidays`: the holidays of a date or of a year. Key required.

use super::prelude::*;
use super::query::DateOrYear;
use super::records::Holiday;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/holidays",
    operation_id: "holidays",
    summary: "Holidays on a date, or in a year",
    description: "Send exactly one of `date` or `year` (both: `conflicting_params`; neither: \
                  `missing_param`). The response echoes the one sent: `date` as a string or \
                  `year` as an integer. Holidays are ordered by date, then red before non-red, \
                  then type (public, traditional, religious, school, other), then Lithuanian \
                  name. `is_red` follows the law in force on each date.",
    access: Access::Keyed,
    params: HolidaysParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<Holidays>),
    // Its checks across parameters: neither `date` nor `year`; both.
    bad_request: BadRequest::of(HolidaysParams::DECLARED)
        .and(&[ErrorCode::MissingParam, ErrorCode::ConflictingParams])
        .codes(),
    handle: serve::<HolidaysParams>,
};

/// The answer: echoes whichever of `date` or `year` was sent.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Holidays<'a> {
    /// Sent `date`: the holidays on it, red first, then by type (public, traditional,
    /// religious, school, other), then by Lithuanian name.
    OnDate {
        /// Echo of `date`.
        date: Date,
        /// Number of holidays.
        count: usize,
        /// The holidays.
        holidays: Vec<Holiday<'a>>,
    },
    /// Sent `year`: its holidays by date; within a date, in the order of `?date=`.
    OfYear {
        /// Echo of `year`, as an integer.
        year: i32,
        /// Number of holidays.
        count: usize,
        /// The holidays.
        holidays: Vec<Holiday<'a>>,
    },
}

const ON_DATE: Param = Param {
    required: false,
    description: "A date (`YYYY-MM-DD` or `today`): the holidays on that date. `date` and \
                  `year` exclude each other: send exactly one.",
    ..DATE
};

const OF_YEAR: Param = Param {
    required: false,
    description: "A year: all its holidays. `year` and `date` exclude each other: send \
                  exactly one.",
    ..YEAR
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HolidaysParams {
    pub asked: DateOrYear,
    pub lang: Lang,
}

impl Params for HolidaysParams {
    const DECLARED: &'static [Param] = &[ON_DATE, OF_YEAR, LANG];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let (date, year) = (query.value(ON_DATE.name), query.value(OF_YEAR.name));
        Ok(HolidaysParams {
            asked: query::date_or_year(cx.catalog, date, year, cx.today)?,
            lang: LANG.read(query, cx)?,
        })
    }
}

impl Handler for HolidaysParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let (catalog, lang) = (cx.catalog, self.lang);
        let answer = match self.asked {
            DateOrYear::Date(date) => {
                let holidays: Vec<_> = Holiday::on(catalog, date, lang, true).collect();
                Holidays::OnDate {
                    date,
                    count: holidays.len(),
                    holidays,
                }
            }
            DateOrYear::Year(year) => {
                let holidays: Vec<_> = catalog
                    .dates_of_year(year)
                    .flat_map(|date| Holiday::on(catalog, date, lang, true))
                    .collect();
                Holidays::OfYear {
                    year,
                    count: holidays.len(),
                    holidays,
                }
            }
        };
        Ok(answer::private(answer::to_json(&answer)))
    }
}
