//! The moon's feed: one all-day event per principal phase on its date in Vilnius, the local
//! time in the summary (`🌕 Pilnatis 12:03`), as a paper calendar marks it. The UID is the
//! phase and its date (`moon-full_moon-20260103@kalendorius`): computed, not curated, so it
//! changes only if the algorithm moves a phase across midnight.

use kalendorius_dataset::civil_time::local_minute;
use kalendorius_dataset::moon::phases_between;
use kalendorius_dataset::{Date, Lang};

use super::ics::{self, Event};
use super::UID_DOMAIN;
use crate::i18n::TEXTS;

/// The phases of the dates `from..=to` in `lang`.
pub fn build(from: Date, to: Date, lang: Lang, stamp: &str) -> String {
    let events = phases_between(from, to).into_iter().filter_map(|p| {
        let local = local_minute(p.utc);
        let date = local.date_naive();
        let name = p.phase.name(lang);
        Some(Event {
            uid: format!(
                "moon-{}-{}@{UID_DOMAIN}",
                p.phase.as_str(),
                ics::basic_date(date)
            ),
            start: date,
            end: date.succ_opt()?,
            rule: None,
            summary: format!("{} {name} {}", p.phase.symbol(), local.format("%H:%M")),
            description: Some(format!(
                "{name}: {} ({} UTC)",
                kalendorius_dataset::civil_time::rfc3339(&local),
                p.utc.format("%Y-%m-%d %H:%M")
            )),
            category: Some("MOON"),
        })
    });
    let name = TEXTS.text(lang, "feed_moon");
    let description = TEXTS.text(lang, "feed_moon_description");
    ics::calendar(name, description, stamp, 40 * 1024, events)
}
