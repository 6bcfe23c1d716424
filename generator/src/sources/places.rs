//! `places.csv`: the centres of the municipalities whose sun the service computes (format in
//! sources/README.md, "Places"), validated into the dataset's [`PlacesFile`].

use std::collections::HashSet;
use std::path::Path;

use kalendorius_dataset::places::{DEFAULT_PLACE, LATITUDES, LONGITUDES};
use kalendorius_dataset::{Confidence, Place, PlaceNames, PlacesFile, SCHEMA_VERSION};

use super::Diagnostics;
use crate::error::SourceErrorKind;

/// The columns, in this order.
const COLUMNS: [&str; 10] = [
    "slug",
    "municipality",
    "lt",
    "en",
    "pl",
    "ru",
    "latitude",
    "longitude",
    "source",
    "confidence",
];

/// Parses the place table; problems go to `diag` with their line and column.
pub fn parse(file: &Path, text: &str, diag: &mut Diagnostics) -> PlacesFile {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .flexible(false)
        .from_reader(text.as_bytes());
    // Comments count for line numbers: the header is the first other line.
    let header_line = text
        .lines()
        .position(|l| !l.starts_with('#'))
        .map_or(1, |i| i + 1);
    let errors_before = diag.len();
    match reader.headers() {
        Ok(h) if h.iter().eq(COLUMNS) => {}
        Ok(h) => {
            diag.at_line(
                file,
                header_line,
                None,
                SourceErrorKind::UnknownField,
                format!(
                    "the header is '{}', expected '{}'",
                    h.iter().collect::<Vec<_>>().join(","),
                    COLUMNS.join(",")
                ),
            );
            return PlacesFile::default();
        }
        Err(e) => {
            diag.at_line(file, 1, None, SourceErrorKind::Syntax, e.to_string());
            return PlacesFile::default();
        }
    }
    let mut slugs = HashSet::new();
    let mut places = Vec::new();
    for (line, record) in diag.csv_records(file, &mut reader) {
        let field = |c: usize| record.get(c).unwrap_or("").trim();
        let before = diag.len();
        let mut bad = |column: &str, kind, message: String| {
            diag.at_line(file, line, Some(column.to_string()), kind, message)
        };
        let slug = field(0);
        let slug_ok = !slug.is_empty()
            && slug
                .split('-')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase()));
        if !slug_ok {
            bad(
                "slug",
                SourceErrorKind::BadValue,
                format!("slug '{slug}' is not lower-case a-z words joined by '-'"),
            );
        } else if !slugs.insert(slug.to_string()) {
            bad(
                "slug",
                SourceErrorKind::DuplicateId,
                format!("slug '{slug}' is listed twice"),
            );
        }
        for (column, c) in [
            ("municipality", 1),
            ("lt", 2),
            ("en", 3),
            ("pl", 4),
            ("ru", 5),
        ] {
            if field(c).is_empty() {
                bad(
                    column,
                    SourceErrorKind::MissingTranslation,
                    format!("{column} is empty: every place has its four names and municipality"),
                );
            }
        }
        let mut coordinate = |column: &str, c: usize, range: &std::ops::RangeInclusive<f64>| {
            let value = field(c).parse::<f64>().ok().filter(|v| v.is_finite());
            match value {
                Some(v) if range.contains(&v) => Some(v),
                Some(v) => {
                    bad(
                        column,
                        SourceErrorKind::OutOfRange,
                        format!(
                            "{column} {v} lies outside Lithuania ({}..{})",
                            range.start(),
                            range.end()
                        ),
                    );
                    None
                }
                None => {
                    bad(
                        column,
                        SourceErrorKind::BadValue,
                        format!("{column} '{}' is not a number of degrees", field(c)),
                    );
                    None
                }
            }
        };
        let latitude = coordinate("latitude", 6, &LATITUDES);
        let longitude = coordinate("longitude", 7, &LONGITUDES);
        if field(8).is_empty() {
            bad(
                "source",
                SourceErrorKind::BadValue,
                "source is empty: name where the coordinates come from".into(),
            );
        }
        let confidence = match field(9) {
            "confirmed" => Some(Confidence::Confirmed),
            "derived" => Some(Confidence::Derived),
            "uncertain" => Some(Confidence::Uncertain),
            other => {
                bad(
                    "confidence",
                    SourceErrorKind::BadValue,
                    format!("confidence '{other}' must be confirmed, derived or uncertain"),
                );
                None
            }
        };
        if let (Some(latitude), Some(longitude), Some(confidence), true) =
            (latitude, longitude, confidence, diag.len() == before)
        {
            places.push(Place {
                slug: slug.to_string(),
                municipality: field(1).to_string(),
                name: PlaceNames {
                    lt: field(2).to_string(),
                    en: field(3).to_string(),
                    pl: field(4).to_string(),
                    ru: field(5).to_string(),
                },
                latitude,
                longitude,
                source: field(8).to_string(),
                confidence,
            });
        }
    }
    if diag.len() == errors_before && !slugs.contains(DEFAULT_PLACE) {
        diag.at_line(
            file,
            header_line,
            Some("slug".to_string()),
            SourceErrorKind::MissingField,
            format!("the default place '{DEFAULT_PLACE}' is missing"),
        );
    }
    PlacesFile {
        schema_version: SCHEMA_VERSION,
        places,
    }
}
