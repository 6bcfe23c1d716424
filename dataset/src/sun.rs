//! Sunrise, sunset, solar noon and civil twilight of a place on a date.
//!
//! The algorithm is NOAA's solar calculator (NOAA Global Monitoring Laboratory, "NOAA Solar
//! Calculator" and its spreadsheet, https://gml.noaa.gov/grad/solcalc/calcdetails.html),
//! itself from Jean Meeus, *Astronomical Algorithms* (2nd ed., 1998), ch. 25 (the sun's
//! position, low accuracy) and ch. 28 (the equation of time). Sunrise and sunset are when the
//! sun's centre is 0.833° below the horizon (34′ of refraction and 16′ of semi-diameter),
//! civil dawn and dusk when it is 6° below. Each event is computed twice, the second time
//! with the sun's position at the first estimate, as NOAA's calculator does: that keeps every
//! time within a minute of an ephemeris for Lithuania's latitudes (the tests compare with
//! PyEphem, `tests/fixtures/astronomy/`). Refraction is the standard one; the real horizon,
//! the weather and the height of the observer can move the observed times by a minute or two.
//!
//! No well-kept Rust crate was found that does this and Meeus ch. 49 both, with the
//! accuracy documented; the calculation is short, so it lives here, beside the moon's.

use chrono::{DateTime, Duration, NaiveTime, Utc};

use crate::civil_time::julian_day;
use crate::Date;

/// The sun's centre 0.833° below the horizon: sunrise and sunset.
const SUNRISE_ZENITH: f64 = 90.833;
/// The sun's centre 6° below the horizon: civil dawn and dusk.
const CIVIL_ZENITH: f64 = 96.0;

/// Where the sun is seen from: degrees north and east.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observer {
    /// Latitude, degrees, north positive.
    pub latitude: f64,
    /// Longitude, degrees, east positive.
    pub longitude: f64,
}

/// The sun's day at one place: every instant in UTC, `None` where the sun does not reach the
/// altitude that day (the polar day or night, which Lithuania never sees).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SunDay {
    /// The sun's centre at 6° below the horizon, rising.
    pub civil_dawn: Option<DateTime<Utc>>,
    /// The sun's upper limb at the horizon (0.833° for the centre), rising.
    pub sunrise: Option<DateTime<Utc>>,
    /// The sun at its highest, due south.
    pub solar_noon: DateTime<Utc>,
    /// The sun's upper limb at the horizon, setting.
    pub sunset: Option<DateTime<Utc>>,
    /// The sun's centre at 6° below the horizon, setting.
    pub civil_dusk: Option<DateTime<Utc>>,
}

/// The sun on the UTC day of `date` at `observer` (for Lithuania the local date: its events
/// all fall between 00:00 and 24:00 UTC).
pub fn sun_day(date: Date, observer: Observer) -> SunDay {
    let midnight = date.naive().and_time(NaiveTime::MIN).and_utc();
    let at_minutes = |minutes: f64| midnight + Duration::milliseconds((minutes * 60000.0) as i64);
    // Solar noon: the sun's position at the noon of the estimate.
    let noon = transit_minutes(
        century(midnight, 720.0 - 4.0 * observer.longitude),
        observer,
    );
    let noon = transit_minutes(century(midnight, noon), observer);
    let event = |zenith: f64, rising: bool| {
        let sign = if rising { -1.0 } else { 1.0 };
        let mut minutes = noon;
        for _ in 0..2 {
            let t = century(midnight, minutes);
            let hour_angle = hour_angle(t, observer.latitude, zenith)?;
            minutes = transit_minutes(t, observer) + sign * 4.0 * hour_angle;
        }
        Some(at_minutes(minutes))
    };
    SunDay {
        civil_dawn: event(CIVIL_ZENITH, true),
        sunrise: event(SUNRISE_ZENITH, true),
        solar_noon: at_minutes(noon),
        sunset: event(SUNRISE_ZENITH, false),
        civil_dusk: event(CIVIL_ZENITH, false),
    }
}

/// Julian centuries since J2000.0 at `minutes` after `midnight` (UT; the difference from
/// TT, about a minute, moves the sun by less than a second of time).
fn century(midnight: DateTime<Utc>, minutes: f64) -> f64 {
    (julian_day(midnight) + minutes / 1440.0 - 2451545.0) / 36525.0
}

/// The sun's declination (degrees) and the equation of time (minutes) at century `t`.
fn position(t: f64) -> (f64, f64) {
    let mean_longitude = (280.46646 + t * (36000.76983 + t * 0.0003032)).rem_euclid(360.0);
    let mean_anomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t);
    let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t);
    let m = mean_anomaly.to_radians();
    let centre = m.sin() * (1.914602 - t * (0.004817 + 0.000014 * t))
        + (2.0 * m).sin() * (0.019993 - 0.000101 * t)
        + (3.0 * m).sin() * 0.000289;
    let true_longitude = mean_longitude + centre;
    let omega = (125.04 - 1934.136 * t).to_radians();
    let apparent_longitude = true_longitude - 0.00569 - 0.00478 * omega.sin();
    let mean_obliquity =
        23.0 + (26.0 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60.0) / 60.0;
    let obliquity = (mean_obliquity + 0.00256 * omega.cos()).to_radians();
    let declination = (obliquity.sin() * apparent_longitude.to_radians().sin()).asin();
    let y = (obliquity / 2.0).tan().powi(2);
    let l0 = mean_longitude.to_radians();
    let equation_of_time = 4.0
        * (y * (2.0 * l0).sin() - 2.0 * eccentricity * m.sin()
            + 4.0 * eccentricity * y * m.sin() * (2.0 * l0).cos()
            - 0.5 * y * y * (4.0 * l0).sin()
            - 1.25 * eccentricity * eccentricity * (2.0 * m).sin())
        .to_degrees();
    (declination.to_degrees(), equation_of_time)
}

/// Minutes after 00:00 UTC at which the sun crosses the meridian, with its position at `t`.
fn transit_minutes(t: f64, observer: Observer) -> f64 {
    720.0 - 4.0 * observer.longitude - position(t).1
}

/// The hour angle (degrees) at which the sun's centre reaches `zenith`, `None` when it
/// does not that day.
fn hour_angle(t: f64, latitude: f64, zenith: f64) -> Option<f64> {
    let declination = position(t).0.to_radians();
    let latitude = latitude.to_radians();
    let cos_h = zenith.to_radians().cos() / (latitude.cos() * declination.cos())
        - latitude.tan() * declination.tan();
    (-1.0..=1.0)
        .contains(&cos_h)
        .then(|| cos_h.acos().to_degrees())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_polar_night_has_no_sunrise() {
        let svalbard = Observer {
            latitude: 78.22,
            longitude: 15.65,
        };
        let day = sun_day(Date::parse("2026-12-21").unwrap(), svalbard);
        assert_eq!((day.sunrise, day.sunset), (None, None));
        let day = sun_day(Date::parse("2026-06-21").unwrap(), svalbard);
        assert_eq!((day.sunrise, day.civil_dusk), (None, None));
    }
}
