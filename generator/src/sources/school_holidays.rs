//! `school_holidays.toml`: the pupils' holidays of each school year (issue 21, E13; format in
//! sources/README.md, "School holidays"). Parsed and validated into a generator-side type,
//! then written into the dataset in its published form ([`SchoolHolidays::published`]).

use std::collections::HashMap;
use std::path::Path;

use chrono::NaiveDate;
use serde::Deserialize;
use toml::Spanned;

use super::diagnostics::line_of;
use super::toml_src::{self, Place};
use super::{Diagnostics, Origin};
use crate::error::SourceErrorKind;
use kalendorius_dataset::Confidence;

/// The highest grade (gymnasium IV); 0 is pre-school.
pub const MAX_GRADE: u8 = 12;

/// Which holiday of the school year a period is: the dataset's own kind.
pub use kalendorius_dataset::SchoolHolidayKind;

/// The kind named `s` in the file.
fn parse_kind(s: &str) -> Option<SchoolHolidayKind> {
    use SchoolHolidayKind::*;
    [Autumn, Christmas, Winter, Spring, Summer]
        .into_iter()
        .find(|k| k.as_str() == s)
}

/// An inclusive range of grades, 0..=12.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GradeRange {
    /// First grade.
    pub from: u8,
    /// Last grade, `>= from`.
    pub to: u8,
}

impl GradeRange {
    /// Whether `grade` is in the range.
    pub fn contains(&self, grade: u8) -> bool {
        (self.from..=self.to).contains(&grade)
    }
}

/// A validated school year.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchoolYearDef {
    /// `YYYY-YYYY`.
    pub id: String,
    /// Sep 1 of the first year.
    pub start: NaiveDate,
    /// Aug 31 of the second year.
    pub end: NaiveDate,
    /// The grades the year's data speaks for.
    pub grades: Vec<GradeRange>,
    /// Where it comes from.
    pub source: String,
}

/// A validated holiday period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchoolHolidayDef {
    /// The id of its school year.
    pub school_year: String,
    /// Its kind.
    pub kind: SchoolHolidayKind,
    /// First day off, inclusive.
    pub start: NaiveDate,
    /// Last day off, inclusive.
    pub end: NaiveDate,
    /// The grades it applies to.
    pub grades: Vec<GradeRange>,
    /// Where it comes from.
    pub source: String,
    /// How sure its dates are (E19).
    pub confidence: Confidence,
    /// Where it is defined.
    pub origin: Origin,
}

/// The parsed file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchoolHolidays {
    /// School years in file order.
    pub years: Vec<SchoolYearDef>,
    /// Periods ordered by start, then file order.
    pub periods: Vec<SchoolHolidayDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSrc {
    #[serde(default)]
    school_year: Vec<Spanned<YearSrc>>,
    #[serde(default)]
    period: Vec<Spanned<PeriodSrc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct YearSrc {
    id: Spanned<String>,
    start: Spanned<String>,
    end: Spanned<String>,
    grades: Spanned<Vec<GradesSrc>>,
    source: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GradesSrc {
    from: i64,
    to: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PeriodSrc {
    school_year: Spanned<String>,
    kind: Spanned<String>,
    start: Spanned<String>,
    end: Spanned<String>,
    ordered_end: Option<Spanned<String>>,
    grades: Spanned<Vec<GradesSrc>>,
    source: Spanned<String>,
    confidence: Option<Spanned<String>>,
    #[allow(dead_code)]
    note: Option<String>,
}

fn grades(
    place: &Place,
    value: &Spanned<Vec<GradesSrc>>,
    diag: &mut Diagnostics,
) -> Option<Vec<GradeRange>> {
    let at = value.span().start;
    if value.get_ref().is_empty() {
        place.error(
            diag,
            at,
            "grades",
            SourceErrorKind::OutOfRange,
            "grades is empty",
        );
        return None;
    }
    let mut out = Vec::new();
    for g in value.get_ref() {
        let ok = |n: i64| (0..=i64::from(MAX_GRADE)).contains(&n);
        if !ok(g.from) || !ok(g.to) || g.from > g.to {
            place.error(
                diag,
                at,
                "grades",
                SourceErrorKind::OutOfRange,
                format!(
                    "grades {}..{} not a range within 0..{MAX_GRADE}",
                    g.from, g.to
                ),
            );
            return None;
        }
        out.push(GradeRange {
            from: g.from as u8,
            to: g.to as u8,
        });
    }
    Some(out)
}

fn year_id(id: &str) -> Option<i32> {
    let (a, b) = id.split_once('-')?;
    let a: i32 = a.parse().ok()?;
    let b: i32 = b.parse().ok()?;
    (a.to_string().len() == 4 && b == a + 1).then_some(a)
}

/// Parses the school holidays file; problems go to `diag`.
pub fn parse(file: &Path, text: &str, diag: &mut Diagnostics) -> SchoolHolidays {
    let Some(parsed) = toml_src::parse_file::<FileSrc>(file, text, diag) else {
        return SchoolHolidays::default();
    };
    let mut out = SchoolHolidays::default();
    let mut year_line: HashMap<String, usize> = HashMap::new();
    for (i, y) in parsed.school_year.iter().enumerate() {
        let src = y.get_ref();
        let place = Place {
            file,
            text,
            key: format!("school_year[{i}] (id {})", src.id.get_ref()),
        };
        let before = diag.len();
        let id = src.id.get_ref().clone();
        let first = year_id(&id);
        if first.is_none() {
            place.error(
                diag,
                src.id.span().start,
                "id",
                SourceErrorKind::BadValue,
                format!("id '{id}' is not YYYY-YYYY with consecutive years"),
            );
        }
        if let Some(line) = year_line.insert(id.clone(), line_of(text, src.id.span().start)) {
            place.error(
                diag,
                src.id.span().start,
                "id",
                SourceErrorKind::DuplicateId,
                format!("school year {id} twice (the first is at line {line})"),
            );
        }
        let start = toml_src::date(&place, "start", &src.start, diag);
        let end = toml_src::date(&place, "end", &src.end, diag);
        if let (Some(a), Some(s), Some(e)) = (first, start, end) {
            let (ws, we) = (
                NaiveDate::from_ymd_opt(a, 9, 1),
                NaiveDate::from_ymd_opt(a + 1, 8, 31),
            );
            if Some(s) != ws || Some(e) != we {
                place.error(
                    diag,
                    src.start.span().start,
                    "start",
                    SourceErrorKind::OutOfRange,
                    format!(
                        "school year {id} runs {a}-09-01..{}-08-31, not {s}..{e}",
                        a + 1
                    ),
                );
            }
        }
        let g = grades(&place, &src.grades, diag);
        let source = toml_src::source(&place, &src.source, diag);
        if diag.len() == before {
            if let (Some(start), Some(end), Some(grades)) = (start, end, g) {
                out.years.push(SchoolYearDef {
                    id,
                    start,
                    end,
                    grades,
                    source,
                });
            }
        }
    }
    let years: HashMap<&str, &SchoolYearDef> =
        out.years.iter().map(|y| (y.id.as_str(), y)).collect();
    let mut periods = Vec::new();
    for (i, p) in parsed.period.iter().enumerate() {
        let src = p.get_ref();
        let place = Place {
            file,
            text,
            key: format!(
                "period[{i}] ({} {})",
                src.school_year.get_ref(),
                src.kind.get_ref()
            ),
        };
        let before = diag.len();
        let year = years.get(src.school_year.get_ref().as_str()).copied();
        if year.is_none() && !year_line.contains_key(src.school_year.get_ref()) {
            place.error(
                diag,
                src.school_year.span().start,
                "school_year",
                SourceErrorKind::BadValue,
                format!(
                    "no [[school_year]] '{}' in this file",
                    src.school_year.get_ref()
                ),
            );
        }
        let kind = parse_kind(src.kind.get_ref());
        if kind.is_none() {
            place.error(
                diag,
                src.kind.span().start,
                "kind",
                SourceErrorKind::BadValue,
                format!(
                    "unknown kind '{}' (expected autumn, christmas, winter, spring or summer)",
                    src.kind.get_ref()
                ),
            );
        }
        let start = toml_src::date(&place, "start", &src.start, diag);
        let end = toml_src::date(&place, "end", &src.end, diag);
        let ordered_end = src
            .ordered_end
            .as_ref()
            .and_then(|o| toml_src::date(&place, "ordered_end", o, diag));
        if let (Some(s), Some(e)) = (start, end) {
            if s > e {
                place.error(
                    diag,
                    src.end.span().start,
                    "end",
                    SourceErrorKind::OutOfRange,
                    format!("end {e} is before start {s}"),
                );
            } else if let Some(y) = year {
                if s < y.start || e > y.end {
                    place.error(
                        diag,
                        src.start.span().start,
                        "start",
                        SourceErrorKind::OutOfRange,
                        format!(
                            "{s}..{e} is not inside school year {} ({}..{})",
                            y.id, y.start, y.end
                        ),
                    );
                }
            }
            if let Some(o) = ordered_end {
                if o > e || o < s {
                    place.error(
                        diag,
                        src.ordered_end.as_ref().map_or(0, |o| o.span().start),
                        "ordered_end",
                        SourceErrorKind::OutOfRange,
                        format!("ordered_end {o} is not within {s}..{e}"),
                    );
                }
            }
        }
        let g = grades(&place, &src.grades, diag);
        if let (Some(g), Some(y)) = (&g, year) {
            if let Some(bad) = g
                .iter()
                .find(|r| !(r.from..=r.to).all(|n| y.grades.iter().any(|yr| yr.contains(n))))
            {
                place.error(
                    diag,
                    src.grades.span().start,
                    "grades",
                    SourceErrorKind::OutOfRange,
                    format!(
                        "grades {}..{} are not all among school year {}'s grades",
                        bad.from, bad.to, y.id
                    ),
                );
            }
        }
        let confidence = toml_src::confidence(&place, &src.confidence, diag);
        let source = toml_src::source(&place, &src.source, diag);
        if diag.len() != before {
            continue;
        }
        if let (Some(kind), Some(start), Some(end), Some(grades)) = (kind, start, end, g) {
            let line = line_of(text, src.start.span().start);
            periods.push((
                SchoolHolidayDef {
                    school_year: src.school_year.get_ref().clone(),
                    kind,
                    start,
                    end,
                    grades,
                    source,
                    confidence,
                    origin: Origin {
                        file: file.to_path_buf(),
                        line,
                        key: place.key.clone(),
                    },
                },
                src.start.span().start,
            ));
        }
    }
    // No two periods of one school year may overlap for the same grade.
    for (j, (b, at)) in periods.iter().enumerate() {
        for (a, _) in &periods[..j] {
            if a.school_year != b.school_year || a.start > b.end || b.start > a.end {
                continue;
            }
            let shared = (0..=MAX_GRADE).find(|&n| {
                a.grades.iter().any(|r| r.contains(n)) && b.grades.iter().any(|r| r.contains(n))
            });
            if let Some(n) = shared {
                let place = Place {
                    file,
                    text,
                    key: b.origin.key.clone(),
                };
                place.error(
                    diag,
                    *at,
                    "start",
                    SourceErrorKind::OverlappingPeriods,
                    format!(
                        "{}..{} overlaps {}..{} (line {}) for grade {n}",
                        b.start, b.end, a.start, a.end, a.origin.line
                    ),
                );
            }
        }
    }
    out.periods = periods.into_iter().map(|(p, _)| p).collect();
    out.periods.sort_by_key(|p| p.start);
    out
}

impl SchoolHolidays {
    /// The published form ([`kalendorius_dataset::SchoolHolidaysFile`]): grades as lists,
    /// periods by start, then first grade. Dates outside 1583..2100 (which no dataset serves)
    /// are left out.
    pub fn published(&self) -> kalendorius_dataset::SchoolHolidaysFile {
        use kalendorius_dataset::{Date, SchoolHoliday, SchoolYear, SCHEMA_VERSION};
        let list = |ranges: &[GradeRange]| {
            let mut grades: Vec<u8> = ranges.iter().flat_map(|r| r.from..=r.to).collect();
            grades.sort_unstable();
            grades.dedup();
            grades
        };
        let dates = |a: NaiveDate, b: NaiveDate| {
            Some((Date::from_naive(a).ok()?, Date::from_naive(b).ok()?))
        };
        let school_years = self
            .years
            .iter()
            .filter_map(|y| {
                let (start, end) = dates(y.start, y.end)?;
                Some(SchoolYear {
                    id: y.id.clone(),
                    start,
                    end,
                    grades: list(&y.grades),
                    source: y.source.clone(),
                })
            })
            .collect();
        let mut periods: Vec<SchoolHoliday> = self
            .periods
            .iter()
            .filter_map(|p| {
                let (start, end) = dates(p.start, p.end)?;
                Some(SchoolHoliday {
                    school_year: p.school_year.clone(),
                    kind: p.kind,
                    start,
                    end,
                    grades: list(&p.grades),
                    source: p.source.clone(),
                    confidence: p.confidence,
                })
            })
            .collect();
        periods.sort_by_key(|p| (p.start, p.grades.first().copied()));
        kalendorius_dataset::SchoolHolidaysFile {
            schema_version: SCHEMA_VERSION,
            school_years,
            periods,
        }
    }
}
