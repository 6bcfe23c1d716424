//! The pupils' holidays' feed: one all-day event per holiday period of every school year.
//! The UID is what identifies the period in the sources
//! (`school-2025-2026-spring-g1-10@kalendorius`), so a corrected date replaces the event.

use kalendorius_dataset::Lang;

use super::ics::{self, Event};
use super::UID_DOMAIN;
use crate::catalog::Catalog;
use crate::i18n::TEXTS;

/// The grades as inclusive ranges, in order: `[1..4, 11..12]`.
pub fn grade_ranges(grades: &[u8]) -> Vec<(u8, u8)> {
    grades
        .chunk_by(|a, b| *b == a + 1)
        .map(|run| (run[0], run[run.len() - 1]))
        .collect()
}

/// The grades in words in `lang`: "1–10 kl.", "grades 1–10", "grade 11".
pub fn grades_text(grades: &[u8], lang: Lang) -> String {
    let ranges: Vec<String> = grade_ranges(grades)
        .into_iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        })
        .collect();
    let key = match grades {
        [_] => "grade_one",
        _ => "grades_many",
    };
    TEXTS.fill(lang, key, &[("list", &ranges.join(", "))])
}

pub fn build(grade: Option<u8>, lang: Lang, catalog: &Catalog, stamp: &str) -> String {
    let name = TEXTS.text(lang, "feed_school_holidays");
    let name = match grade {
        Some(g) => format!("{name} ({})", grades_text(&[g], lang)),
        None => name.to_string(),
    };
    let periods = catalog.school_holidays.periods.iter();
    let events = periods.filter(|p| p.applies_to(grade)).filter_map(|p| {
        let kind = p.kind.name(lang);
        let grades: Vec<String> = grade_ranges(&p.grades)
            .into_iter()
            .map(|(a, b)| format!("{a}-{b}"))
            .collect();
        let (year, id) = (&p.school_year, p.kind.as_str());
        Some(Event {
            uid: format!("school-{year}-{id}-g{}@{UID_DOMAIN}", grades.join("_")),
            start: p.start.naive(),
            end: p.end.naive().succ_opt()?,
            rule: None,
            summary: match grade {
                Some(_) => kind.to_string(),
                None => format!("{kind} ({})", grades_text(&p.grades, lang)),
            },
            description: Some(format!("{} {kind}. {}", p.school_year, p.source)),
            category: Some("SCHOOL"),
        })
    });
    let description = TEXTS.text(lang, "feed_school_holidays_description");
    ics::calendar(&name, description, stamp, 16 * 1024, events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_are_written_as_ranges() {
        assert_eq!(grade_ranges(&[1, 2, 3, 4, 11, 12]), [(1, 4), (11, 12)]);
        assert_eq!(grades_text(&[1, 2, 3], Lang::Lt), "1–3 kl.");
        assert_eq!(grades_text(&[11], Lang::En), "grade 11");
        assert_eq!(grades_text(&[1, 2, 5], Lang::En), "grades 1–2, 5");
    }
}
