//! `GET /api/v1/sun`: sunrise, sunset, solar noon, civil twilight and day length at a
//! municipality centre, on a date or every date of a range. Key required.

use kalendorius_dataset::sun::sun_day;
use kalendorius_dataset::Place;

use super::prelude::*;
use super::records::{local_minute, Instant};

/// The longest range of one request.
pub const MAX_DAYS: i64 = 366;

pub const ENDPOINT: Endpoint = Endpoint {
    path: "/sun",
    operation_id: "sun",
    summary: "Sunrise, sunset and twilight at a place",
    description: "The sun's day at a municipality centre (`place`, Vilnius by default), \
                  computed by NOAA's solar calculator: within a minute of an ephemeris \
                  (docs/api.md, \"Sun and moon\"). Sunrise and sunset are when the sun's \
                  upper limb meets a sea-level horizon (the centre 0.833° below it), civil \
                  dawn and dusk when the centre is 6° below. Times are local (Europe/Vilnius, \
                  with the offset of that instant), rounded to the minute. Send `date`, or \
                  `from` and `to` (at most 366 days, from 1920 on); `date` with `from` or \
                  `to` is `conflicting_params`. Checks: the dates, then `place`.",
    access: Access::Keyed,
    params: SunParams::DECLARED,
    answer: AnswerKind::Json(SchemaGenerator::subschema_for::<SunDays>),
    // Its checks across parameters: `date` with `from` or `to`; neither, or `from` without
    // `to`; `from` later than `to`; more than 366 days.
    bad_request: BadRequest::of(SunParams::DECLARED)
        .and(&[
            ErrorCode::ConflictingParams,
            ErrorCode::MissingParam,
            ErrorCode::InvalidRange,
            ErrorCode::RangeTooLarge,
        ])
        .codes(),
    handle: serve::<SunParams>,
};

/// The answer.
#[derive(Serialize, JsonSchema)]
pub struct SunDays<'a> {
    /// The place.
    pub place: PlaceRecord<'a>,
    /// The first date (`date` when one was sent).
    pub from: Date,
    /// The last date.
    pub to: Date,
    /// Number of days (1 to 366).
    pub count: u32,
    /// One entry per date, in date order.
    pub days: Vec<SunEntry>,
}

/// The place of an answer.
#[derive(Serialize, JsonSchema)]
pub struct PlaceRecord<'a> {
    /// Its slug.
    pub slug: &'a str,
    /// Its Lithuanian name.
    pub name: &'a str,
    /// The municipality whose centre it is.
    pub municipality: &'a str,
    /// Degrees north.
    pub latitude: f64,
    /// Degrees east.
    pub longitude: f64,
}

impl<'a> PlaceRecord<'a> {
    pub fn new(place: &'a Place) -> PlaceRecord<'a> {
        PlaceRecord {
            slug: &place.slug,
            name: &place.name.lt,
            municipality: &place.municipality,
            latitude: place.latitude,
            longitude: place.longitude,
        }
    }
}

/// The sun on one date. A time is `null` when the sun does not reach that altitude that
/// day, which never happens in Lithuania.
#[derive(Serialize, JsonSchema)]
pub struct SunEntry {
    /// The date.
    pub date: Date,
    /// The sun's centre 6° below the horizon, rising.
    #[schemars(extend("format" = "date-time"))]
    pub civil_dawn: Option<Instant>,
    /// The sun's upper limb at the horizon, rising.
    #[schemars(extend("format" = "date-time"))]
    pub sunrise: Option<Instant>,
    /// The sun at its highest.
    #[schemars(extend("format" = "date-time"))]
    pub solar_noon: Instant,
    /// The sun's upper limb at the horizon, setting.
    #[schemars(extend("format" = "date-time"))]
    pub sunset: Option<Instant>,
    /// The sun's centre 6° below the horizon, setting.
    #[schemars(extend("format" = "date-time"))]
    pub civil_dusk: Option<Instant>,
    /// From `sunrise` to `sunset` as written (whole minutes).
    pub day_length_minutes: Option<i64>,
}

impl SunEntry {
    pub fn new(date: Date, place: &Place) -> SunEntry {
        let day = sun_day(date, place.observer());
        let rounded = |at: Option<chrono::DateTime<chrono::Utc>>| {
            at.map(kalendorius_dataset::civil_time::round_minute)
        };
        let (sunrise, sunset) = (rounded(day.sunrise), rounded(day.sunset));
        SunEntry {
            date,
            civil_dawn: day.civil_dawn.map(local_minute),
            sunrise: sunrise.map(local_minute),
            solar_noon: local_minute(day.solar_noon),
            sunset: sunset.map(local_minute),
            civil_dusk: day.civil_dusk.map(local_minute),
            day_length_minutes: sunrise
                .zip(sunset)
                .map(|(up, down)| (down - up).num_minutes()),
        }
    }
}

const ON_DATE: Param = Param {
    required: false,
    description: "One date, `YYYY-MM-DD` or `today`, from 1920 on. Excludes `from` and `to`.",
    ..DATE
};

const RANGE_FROM: Param = Param {
    required: false,
    ..FROM
};

const RANGE_TO: Param = Param {
    required: false,
    ..TO
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SunParams {
    /// `date` twice when it was sent.
    pub from: Date,
    pub to: Date,
    pub place: PlaceIndex,
}

impl Params for SunParams {
    const DECLARED: &'static [Param] = &[ON_DATE, RANGE_FROM, RANGE_TO, PLACE];

    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError> {
        let (from, to) = dates(query, cx)?;
        Ok(SunParams {
            from,
            to,
            place: PLACE.read(query, cx)?,
        })
    }
}

impl Handler for SunParams {
    fn handle(&self, _: &Request, cx: &Context) -> Result<Response, ApiError> {
        let SunParams { from, to, place } = *self;
        let place = &cx.catalog.places.places[place.0];
        Ok(answer::private_cached(
            cx,
            ENDPOINT.operation_id,
            self,
            || {
                let days: Vec<SunEntry> = std::iter::successors(Some(from), |d| d.succ())
                    .take_while(|d| *d <= to)
                    .map(|date| SunEntry::new(date, place))
                    .collect();
                SunDays {
                    place: PlaceRecord::new(place),
                    from,
                    to,
                    count: days.len() as u32,
                    days,
                }
            },
        ))
    }
}

/// `date`, or `from` and `to`: not both, one of them, then served, from 1920 on and at
/// most [`MAX_DAYS`] days.
fn dates(query: &Query, cx: &Context) -> Result<(Date, Date), ApiError> {
    let catalog = cx.catalog;
    let date = query.value(ON_DATE.name);
    let (range_from, range_to) = (query.value(RANGE_FROM.name), query.value(RANGE_TO.name));
    let (from, to) = match (date, range_from.or(range_to)) {
        (Some(_), Some(_)) => {
            return Err(ApiError::new(
                ErrorCode::ConflictingParams,
                "parameter 'date' excludes 'from' and 'to'; send 'date', or 'from' and 'to'",
            ))
        }
        (Some(_), None) => {
            let date: Date = ON_DATE.read(query, cx)?;
            (date, date)
        }
        (None, Some(_)) => query::date_range(catalog, range_from, range_to, cx.today)?,
        (None, None) => {
            return Err(ApiError::new(
                ErrorCode::MissingParam,
                "parameter 'date' (YYYY-MM-DD), or 'from' and 'to', is required",
            ))
        }
    };
    let first = if date.is_some() { ON_DATE } else { RANGE_FROM };
    let from = query::sky_date(first.name, from)?;
    query::at_most_days(from, to, MAX_DAYS)?;
    Ok((from, to))
}
