//! `GET /api/v1/school-holidays`: the pupils' holidays of a calendar year or on a date,
//! optionally for one grade, and whether the data covers that time. Key required.

use kalendorius_dataset::school::MAX_GRADE;

use super::prelude::*;
use super::query::DateOrYear;
use super::records::SchoolPeriod;

pub const GRADE: Param = Param {
    name: "grade",
    required: false,
    kind: Kind::Integer {
        range: 0..=MAX_GRADE as i64,
        default: None,
    },
    description: "One grade: `0` (pre-school) to `12` (gymnasium IV); only the periods of \
                  that grade. Absent: every period, each with its `grades`.",
};

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/school-holidays",
    operation_id: "school_holidays",
    summary: "Pupils' holidays of a year, or on a date",
    description: "The holidays of general education schools as the Minister of Education's \
                  plans set them (docs/data.md §8). Send exactly one of `date` or `year` \
                  (both: `conflicting_params`; neither: `missing_param`); the response \
                  echoes it. `year`: the periods sharing a day with that calendar year (a \
                  Christmas break is in both of its years); `date`: the periods containing \
                  it. Each period runs from its first to its last day off, both inclusive, \
                  the weekend that closes it included. Ordered by start, then first grade. \
                  `covered` is false when any date of the year (or the date) lies outside \
                  the school years in the data, or in one whose grades exclude `grade`: \
                  there the answer is unknown, not \"no holidays\". Checks: `date`/`year`, \
                  then `grade`, then `lang`.",
    access: Access::Keyed,
    params: SchoolHolidaysParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<SchoolHolidays>),
    // Its checks across parameters: neither `date` nor `year`; both.
    bad_request: BadRequest::of(SchoolHolidaysParams::DECLARED)
        .and(&[ErrorCode::MissingParam, ErrorCode::ConflictingParams])
        .codes(),
    handle: serve::<SchoolHolidaysParams>,
};

/// The answer: echoes whichever of `date` or `year` was sent.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SchoolHolidays<'a> {
    /// Sent `date`: the periods containing it.
    OnDate {
        /// Echo of `date`.
        date: Date,
        /// Number of periods.
        count: usize,
        /// The periods.
        periods: Vec<SchoolPeriod<'a>>,
        /// Whether the date lies in a school year of the data (for `grade`, when sent).
        covered: bool,
    },
    /// Sent `year`: the periods sharing a day with it.
    OfYear {
        /// Echo of `year`, as an integer.
        year: i32,
        /// Number of periods.
        count: usize,
        /// The periods.
        periods: Vec<SchoolPeriod<'a>>,
        /// Whether every date of the year lies in a school year of the data (for `grade`,
        /// when sent).
        covered: bool,
    },
}

const ON_DATE: Param = Param {
    required: false,
    description: "A date (`YYYY-MM-DD` or `today`): the periods containing it. `date` and \
                  `year` exclude each other: send exactly one.",
    ..DATE
};

const OF_YEAR: Param = Param {
    required: false,
    description: "A calendar year: the periods sharing a day with it. `year` and `date` \
                  exclude each other: send exactly one.",
    ..YEAR
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SchoolHolidaysParams {
    pub asked: DateOrYear,
    /// Absent: every grade.
    pub grade: Option<u8>,
    pub lang: Lang,
}

impl Params for SchoolHolidaysParams {
    const DECLARED: &'static [Param] = &[ON_DATE, OF_YEAR, GRADE, LANG];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let (date, year) = (query.value(ON_DATE.name), query.value(OF_YEAR.name));
        Ok(SchoolHolidaysParams {
            asked: query::date_or_year(cx.catalog, date, year, cx.today)?,
            grade: GRADE.read(query, cx)?,
            lang: LANG.read(query, cx)?,
        })
    }
}

impl Handler for SchoolHolidaysParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let catalog = cx.catalog;
        let SchoolHolidaysParams { asked, grade, lang } = *self;
        let (from, to) = match asked {
            DateOrYear::Date(date) => (date, date),
            DateOrYear::Year(year) => (
                Date::from_ymd(year, 1, 1).expect("a served year"),
                Date::from_ymd(year, 12, 31).expect("a served year"),
            ),
        };
        let response = answer::private_cached(cx, ENDPOINT.operation_id, self, || {
            let periods = SchoolPeriod::overlapping(catalog, from, to, grade, lang);
            let count = periods.len();
            let covered = catalog.school_holidays.covered(from, to, grade);
            match asked {
                DateOrYear::Date(date) => SchoolHolidays::OnDate {
                    date,
                    count,
                    periods,
                    covered,
                },
                DateOrYear::Year(year) => SchoolHolidays::OfYear {
                    year,
                    count,
                    periods,
                    covered,
                },
            }
        });
        Ok(response)
    }
}
