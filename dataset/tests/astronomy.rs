//! The sun and moon against PyEphem's figures (`tests/fixtures/astronomy/`, written by
//! `make_fixtures.py` there): sun times within a minute, phase instants within two, the
//! illuminated fraction within 0.005.

use std::collections::HashMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use kalendorius_dataset::moon::{self, PrincipalPhase};
use kalendorius_dataset::sun::{sun_day, Observer};
use kalendorius_dataset::Date;

fn repository_file(path: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of a CSV file without comments, header skipped.
fn rows(path: &str) -> Vec<Vec<String>> {
    repository_file(path)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn utc(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// The places of the source table by slug.
fn places() -> HashMap<String, Observer> {
    rows("sources/places.csv")
        .into_iter()
        .map(|r| {
            let observer = Observer {
                latitude: r[6].parse().unwrap(),
                longitude: r[7].parse().unwrap(),
            };
            (r[0].clone(), observer)
        })
        .collect()
}

#[test]
fn sun_times_are_within_a_minute_of_pyephem() {
    let places = places();
    let fixture = rows("tests/fixtures/astronomy/sun.csv");
    assert!(
        fixture.len() > 800,
        "the fixture has {} rows",
        fixture.len()
    );
    let mut worst = 0;
    for row in &fixture {
        let (place, date, event, expected) = (&row[0], &row[1], &row[2], utc(&row[3]));
        let day = sun_day(Date::parse(date).unwrap(), places[place]);
        let computed = match event.as_str() {
            "civil_dawn" => day.civil_dawn,
            "sunrise" => day.sunrise,
            "solar_noon" => Some(day.solar_noon),
            "sunset" => day.sunset,
            "civil_dusk" => day.civil_dusk,
            other => panic!("unknown event {other}"),
        }
        .unwrap_or_else(|| panic!("{place} {date}: no {event}"));
        let off = (computed - expected).num_seconds().abs();
        worst = worst.max(off);
        assert!(
            off <= 60,
            "{place} {date} {event}: {computed} against PyEphem's {expected}"
        );
    }
    eprintln!(
        "sun: worst difference {worst} s over {} events",
        fixture.len()
    );
}

#[test]
fn principal_phases_are_within_two_minutes_of_pyephem() {
    let fixture = rows("tests/fixtures/astronomy/moon.csv");
    assert!(fixture.len() > 290);
    let first = Date::parse("1920-01-01").unwrap();
    let computed: Vec<_> = [1920, 1955, 2000, 2026, 2027, 2100]
        .into_iter()
        .flat_map(|year| {
            let from = Date::from_ymd(year, 1, 1).unwrap().max(first);
            moon::phases_between(from, Date::from_ymd(year, 12, 31).unwrap())
        })
        .collect();
    let mut worst = 0;
    for row in &fixture {
        let expected = utc(&row[1]);
        let nearest = computed
            .iter()
            .min_by_key(|p| (p.utc - expected).num_seconds().abs())
            .unwrap();
        let off = (nearest.utc - expected).num_seconds().abs();
        worst = worst.max(off);
        assert_eq!(nearest.phase.as_str(), row[0], "at {expected}");
        assert!(
            off <= 120,
            "{}: {} against PyEphem's {expected}",
            row[0],
            nearest.utc
        );
    }
    eprintln!(
        "moon: worst difference {worst} s over {} phases",
        fixture.len()
    );
}

#[test]
fn a_year_has_its_phases_in_order_and_each_kind_in_turn() {
    let phases = moon::phases_between(
        Date::parse("2026-01-01").unwrap(),
        Date::parse("2026-12-31").unwrap(),
    );
    assert!((48..=51).contains(&phases.len()), "{}", phases.len());
    for pair in phases.windows(2) {
        assert!(pair[0].utc < pair[1].utc);
        let next = PrincipalPhase::ALL
            .iter()
            .position(|&p| p == pair[0].phase)
            .unwrap();
        assert_eq!(pair[1].phase, PrincipalPhase::ALL[(next + 1) % 4]);
    }
}

#[test]
fn illuminated_fraction_is_within_half_a_percent_of_pyephem() {
    for row in rows("tests/fixtures/astronomy/illuminated.csv") {
        let expected: f64 = row[1].parse().unwrap();
        let day = moon::day_moon(Date::parse(&row[0]).unwrap());
        assert!(
            (day.illuminated - expected).abs() <= 0.005,
            "{}: {} against PyEphem's {expected}",
            row[0],
            day.illuminated
        );
    }
}
