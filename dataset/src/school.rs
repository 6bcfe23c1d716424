//! The pupils' holidays (mokinių atostogos) of general education schools, as a dataset
//! publishes them (docs/data.md §8): the periods of every school year in the data, and the
//! school years themselves, which say what is known ("covered").
//!
//! They are written twice: every year file carries the periods overlapping its year
//! ([`crate::PublishedYearFile::school_holidays`]), and `school_holidays.json`
//! ([`SchoolHolidaysFile`]) holds all of them with the school years, listed in the manifest
//! like the year files. The server reads the latter (the sled database holds days only).

use serde::{Deserialize, Serialize};

use crate::{Confidence, Date, Lang};

/// The highest grade (gymnasium IV); 0 is pre-school.
pub const MAX_GRADE: u8 = 12;

/// Which holiday of the school year a period is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum SchoolHolidayKind {
    /// Rudens atostogos.
    Autumn,
    /// Žiemos (Kalėdų) atostogos: the Christmas break.
    Christmas,
    /// Žiemos atostogos: the February break.
    Winter,
    /// Pavasario (Velykų) atostogos: the spring (Easter) break.
    Spring,
    /// Vasaros atostogos.
    Summer,
}

impl SchoolHolidayKind {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SchoolHolidayKind::Autumn => "autumn",
            SchoolHolidayKind::Christmas => "christmas",
            SchoolHolidayKind::Winter => "winter",
            SchoolHolidayKind::Spring => "spring",
            SchoolHolidayKind::Summer => "summer",
        }
    }

    /// The name of the holiday in `lang`.
    pub fn name(self, lang: Lang) -> &'static str {
        use SchoolHolidayKind::*;
        match (self, lang) {
            (Autumn, Lang::Lt) => "Rudens atostogos",
            (Autumn, Lang::En) => "Autumn break",
            (Autumn, Lang::Pl) => "Ferie jesienne",
            (Autumn, Lang::Ru) => "Осенние каникулы",
            (Christmas, Lang::Lt) => "Žiemos (Kalėdų) atostogos",
            (Christmas, Lang::En) => "Christmas break",
            (Christmas, Lang::Pl) => "Ferie bożonarodzeniowe",
            (Christmas, Lang::Ru) => "Рождественские каникулы",
            (Winter, Lang::Lt) => "Žiemos atostogos",
            (Winter, Lang::En) => "Winter break",
            (Winter, Lang::Pl) => "Ferie zimowe",
            (Winter, Lang::Ru) => "Зимние каникулы",
            (Spring, Lang::Lt) => "Pavasario (Velykų) atostogos",
            (Spring, Lang::En) => "Spring (Easter) break",
            (Spring, Lang::Pl) => "Ferie wiosenne (wielkanocne)",
            (Spring, Lang::Ru) => "Весенние (пасхальные) каникулы",
            (Summer, Lang::Lt) => "Vasaros atostogos",
            (Summer, Lang::En) => "Summer holidays",
            (Summer, Lang::Pl) => "Wakacje letnie",
            (Summer, Lang::Ru) => "Летние каникулы",
        }
    }
}

/// One holiday period of a school year, for the grades it applies to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchoolHoliday {
    /// Its school year, `YYYY-YYYY`.
    pub school_year: String,
    /// Which holiday.
    pub kind: SchoolHolidayKind,
    /// First day off, inclusive.
    pub start: Date,
    /// Last day off, inclusive: the last day before lessons resume (the weekend that closes
    /// the break included; docs/data.md §8.1).
    pub end: Date,
    /// The grades it applies to (0 = pre-school .. 12), ascending.
    #[schemars(length(min = 1), inner(range(max = 12)))]
    pub grades: Vec<u8>,
    /// The ministry's order (and amendment) it comes from.
    pub source: String,
    /// How sure its dates are (E19): `confirmed` (the order's text, or two or more
    /// independent sources quoting it), `derived` (worked out by the plan's own rule, such
    /// as a summer start from its count of school days) or `uncertain` (sources disagree;
    /// the other reading is in the sources and docs/data.md §8). Absent from files before
    /// schema 8: read as confirmed.
    #[serde(default)]
    pub confidence: Confidence,
}

impl SchoolHoliday {
    /// Whether it applies to `grade` (`None`: to any grade).
    pub fn applies_to(&self, grade: Option<u8>) -> bool {
        grade.is_none_or(|g| self.grades.contains(&g))
    }

    /// Whether it shares a day with `from..=to`.
    pub fn overlaps(&self, from: Date, to: Date) -> bool {
        self.start <= to && from <= self.end
    }
}

/// A school year in the data: on its dates, the data knows the holidays of its grades.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchoolYear {
    /// `YYYY-YYYY`.
    pub id: String,
    /// September 1 of its first year.
    pub start: Date,
    /// August 31 of its second year.
    pub end: Date,
    /// The grades whose holidays the data holds for it, ascending.
    #[schemars(length(min = 1), inner(range(max = 12)))]
    pub grades: Vec<u8>,
    /// Where its plan comes from.
    pub source: String,
}

/// `school_holidays.json`: every school year in the data and all their periods.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchoolHolidaysFile {
    /// [`crate::SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// The school years in the data, in date order; a date outside all of them is unknown.
    pub school_years: Vec<SchoolYear>,
    /// Every period, ordered by start, then first grade.
    pub periods: Vec<SchoolHoliday>,
}

impl SchoolHolidaysFile {
    /// Whether every date of `from..=to` lies in a school year of the data whose grades
    /// include `grade` (`None`: any grade): docs/data.md §8.2.
    pub fn covered(&self, from: Date, to: Date, grade: Option<u8>) -> bool {
        let mut next = Some(from);
        while let Some(date) = next.filter(|d| *d <= to) {
            let Some(year) = self.school_years.iter().find(|y| {
                y.start <= date && date <= y.end && grade.is_none_or(|g| y.grades.contains(&g))
            }) else {
                return false;
            };
            next = year.end.succ();
            if year.end >= to {
                return true;
            }
        }
        true
    }

    /// The periods sharing a day with `from..=to` that apply to `grade` (`None`: all), in
    /// file order.
    pub fn overlapping(
        &self,
        from: Date,
        to: Date,
        grade: Option<u8>,
    ) -> impl Iterator<Item = &SchoolHoliday> {
        self.periods
            .iter()
            .filter(move |p| p.overlaps(from, to) && p.applies_to(grade))
    }

    /// Checks what a reader relies on: the schema version, dates in order, grades within
    /// 0..=12 and ascending, every period inside a school year of the file.
    pub fn check(&self) -> Result<(), String> {
        if self.schema_version != crate::SCHEMA_VERSION {
            return Err(format!(
                "schema version {}, expected {}",
                self.schema_version,
                crate::SCHEMA_VERSION
            ));
        }
        let grades_ok = |g: &[u8]| {
            !g.is_empty() && g.windows(2).all(|w| w[0] < w[1]) && g.iter().all(|&n| n <= MAX_GRADE)
        };
        for y in &self.school_years {
            if y.start > y.end || !grades_ok(&y.grades) {
                return Err(format!("school year {} is malformed", y.id));
            }
        }
        for p in &self.periods {
            let inside = self
                .school_years
                .iter()
                .any(|y| y.id == p.school_year && y.start <= p.start && p.end <= y.end);
            if p.start > p.end || !grades_ok(&p.grades) || !inside {
                return Err(format!(
                    "period {} {} {}..{} is malformed or outside its school year",
                    p.school_year,
                    p.kind.as_str(),
                    p.start,
                    p.end
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    fn file() -> SchoolHolidaysFile {
        let year = |a: i32, grades: Vec<u8>| SchoolYear {
            id: format!("{a}-{}", a + 1),
            start: Date::from_ymd(a, 9, 1).unwrap(),
            end: Date::from_ymd(a + 1, 8, 31).unwrap(),
            grades,
            source: "test".into(),
        };
        SchoolHolidaysFile {
            schema_version: crate::SCHEMA_VERSION,
            school_years: vec![
                year(2024, (1..=12).collect()),
                year(2025, (1..=12).collect()),
            ],
            periods: vec![SchoolHoliday {
                school_year: "2025-2026".into(),
                kind: SchoolHolidayKind::Christmas,
                start: d("2025-12-22"),
                end: d("2026-01-04"),
                grades: (1..=12).collect(),
                source: "test".into(),
                confidence: crate::Confidence::Uncertain,
            }],
        }
    }

    #[test]
    fn covered_needs_every_date_in_a_school_year_of_the_grade() {
        let f = file();
        assert!(f.covered(d("2025-01-01"), d("2025-12-31"), None));
        assert!(f.covered(d("2024-09-01"), d("2026-08-31"), Some(5)));
        assert!(!f.covered(d("2026-01-01"), d("2026-12-31"), None));
        assert!(!f.covered(d("2024-08-31"), d("2024-09-01"), None));
        assert!(!f.covered(d("2025-05-05"), d("2025-05-05"), Some(0)));
        assert!(f.check().is_ok());
    }

    #[test]
    fn overlapping_crosses_the_new_year() {
        let f = file();
        assert_eq!(
            f.overlapping(d("2026-01-01"), d("2026-12-31"), None)
                .count(),
            1
        );
        assert_eq!(
            f.overlapping(d("2025-01-01"), d("2025-12-31"), Some(3))
                .count(),
            1
        );
        assert_eq!(
            f.overlapping(d("2025-01-01"), d("2025-12-21"), None)
                .count(),
            0
        );
        assert_eq!(
            f.overlapping(d("2026-01-04"), d("2026-01-04"), Some(0))
                .count(),
            0
        );
    }
}
