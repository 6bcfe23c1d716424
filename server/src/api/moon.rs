//! `GET /api/v1/moon`: the principal phases of the moon in a year. Key required.

use kalendorius_dataset::civil_time;
use kalendorius_dataset::moon::{phases_between, PrincipalPhase};

use super::prelude::*;
use super::records::{local_minute, utc_minute, Instant};

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/moon",
    operation_id: "moon",
    summary: "The moon's principal phases in a year",
    description: "New moon, first quarter, full moon and last quarter, every one whose \
                  instant falls in the calendar year in Vilnius, in time order, by Meeus's \
                  algorithm (Astronomical Algorithms, ch. 49): within 2 minutes of an \
                  ephemeris (docs/api.md, \"Sun and moon\"). Times rounded to the minute; \
                  from 1920 on. Checks: `year`, then `lang`.",
    access: Access::Keyed,
    params: MoonParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<MoonYear>),
    bad_request: BadRequest::of(MoonParams::DECLARED).codes(),
    handle: serve::<MoonParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct MoonYear {
    /// Echo of `year`.
    pub year: i32,
    /// Language of the names.
    pub lang: Lang,
    /// Number of phases (49 to 51).
    pub count: usize,
    /// The phases, in time order.
    pub phases: Vec<MoonPhase>,
}

/// One principal phase.
#[derive(Serialize, JsonSchema)]
pub struct MoonPhase {
    /// Which phase.
    pub phase: PrincipalPhase,
    /// Its name in `lang`.
    pub name: &'static str,
    /// Its instant in UTC, to the minute.
    #[schemars(extend("format" = "date-time"))]
    pub utc: Instant,
    /// The same instant in Lithuania's legal time.
    #[schemars(extend("format" = "date-time"))]
    pub local: Instant,
}

/// The phases of the Vilnius calendar year `year`.
pub fn phases_of_year(year: i32, lang: Lang) -> Vec<MoonPhase> {
    let first = Date::from_ymd(year, 1, 1).expect("a served year");
    let last = Date::from_ymd(year, 12, 31).expect("a served year");
    phases_between(first, last)
        .into_iter()
        .map(|p| MoonPhase {
            phase: p.phase,
            name: p.phase.name(lang),
            utc: utc_minute(p.utc),
            local: local_minute(p.utc),
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MoonParams {
    pub year: i32,
    pub lang: Lang,
}

impl Params for MoonParams {
    const DECLARED: &'static [Param] = &[YEAR, LANG];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        Ok(MoonParams {
            year: sky_year(YEAR.read(query, cx)?)?,
            lang: LANG.read(query, cx)?,
        })
    }
}

impl Handler for MoonParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let MoonParams { year, lang } = *self;
        Ok(answer::private_cached(
            cx,
            ENDPOINT.operation_id,
            self,
            || {
                let phases = phases_of_year(year, lang);
                MoonYear {
                    year,
                    lang,
                    count: phases.len(),
                    phases,
                }
            },
        ))
    }
}

/// Refuses a year before the sky is served.
fn sky_year(year: i32) -> Result<i32, ApiError> {
    if year < civil_time::FIRST_YEAR {
        return Err(ApiError::new(
            ErrorCode::InvalidYear,
            format!(
                "parameter 'year' is {year}: the moon's phases are given from {} on (before \
                 October 1919 Lithuania's clocks kept local mean time, which RFC 3339 cannot \
                 write)",
                civil_time::FIRST_YEAR
            ),
        ));
    }
    Ok(year)
}
