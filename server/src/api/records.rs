//! The parts several answers share: a holiday, a legal basis, a pupils' holiday period and
//! the terms of a working-time answer, borrowed from the catalog in the answer's language;
//! the moon and the clock change of a date, and the sky's date-times.

use kalendorius_dataset::contract::{Contract, Hours, Norm};
use kalendorius_dataset::moon::{self, DayPhase};
use kalendorius_dataset::{
    civil_time, Basis, Confidence, Date, HolidayType, Lang, SchoolHolidayKind,
};
use schemars::JsonSchema;
use serde::Serialize;

use crate::catalog::Catalog;

/// A holiday on a date. `/holidays` carries all four names; `/day` only `name_lt` and
/// `name_en` beside the name in `lang`.
#[derive(Serialize, JsonSchema)]
pub struct Holiday<'a> {
    /// The date.
    pub date: Date,
    /// Name in the requested language.
    pub name: &'a str,
    /// Lithuanian name.
    pub name_lt: &'a str,
    /// English name.
    pub name_en: &'a str,
    /// Polish name (`/holidays` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_pl: Option<&'a str>,
    /// Russian name (`/holidays` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_ru: Option<&'a str>,
    /// Category; independent of `is_red`.
    #[serde(rename = "type")]
    pub kind: HolidayType,
    /// True if the holiday made the day non-working under the law in force on that date.
    /// Use this, never `type`, to decide whether a day is non-working.
    pub is_red: bool,
    /// When red: how sure it is that the day is non-working (`confirmed`, `derived`,
    /// `uncertain`); `null` when not red.
    pub confidence: Option<Confidence>,
    /// When red: the provisions that make the day non-working on that date; empty when not
    /// red.
    pub basis: Vec<LegalBasis<'a>>,
}

impl<'a> Holiday<'a> {
    /// The holidays on `date`, with every name (`all_names`) or only lt and en.
    pub fn on(
        catalog: &'a Catalog,
        date: Date,
        lang: Lang,
        all_names: bool,
    ) -> impl Iterator<Item = Self> + 'a {
        catalog.holidays_on(date).map(move |h| Holiday {
            date,
            name: h.name(lang),
            name_lt: h.name(Lang::Lt),
            name_en: h.name(Lang::En),
            name_pl: all_names.then(|| h.name(Lang::Pl)),
            name_ru: all_names.then(|| h.name(Lang::Ru)),
            kind: h.kind,
            is_red: h.is_red,
            confidence: h.confidence,
            basis: h.basis.iter().map(|b| LegalBasis::new(b, lang)).collect(),
        })
    }
}

/// A provision that makes a day non-working or shorter (docs/data.md §2.8).
#[derive(Serialize, JsonSchema)]
pub struct LegalBasis<'a> {
    /// The citation in the requested language, e.g. "Labour Code (XII-2603) art. 123(1)(13)".
    pub text: &'a str,
    /// The act's id in the dataset's register: its number, or a descriptive id
    /// (`gov-transfer-2010`) when the number was not found.
    pub act: &'a str,
    /// The act's official number, when known.
    pub number: Option<&'a str>,
    /// The article, as printed (`"123"`, `"162¹"`); `null` when the act is cited whole.
    pub article: Option<&'a str>,
    /// The part of the article.
    pub part: Option<u32>,
    /// The item of the part.
    pub item: Option<u32>,
    /// The act's official text in the register of legal acts (its page, or the consolidated
    /// text of the act it amends), to check the citation; `null` where none was found.
    pub url: Option<&'a str>,
    /// How sure the citation is: `confirmed`, `derived` (worked out, e.g. an item number)
    /// or `uncertain`.
    pub confidence: Confidence,
}

impl<'a> LegalBasis<'a> {
    pub fn new(b: &'a Basis, lang: Lang) -> Self {
        LegalBasis {
            text: b.text(lang),
            act: &b.act,
            number: b.number.as_deref(),
            article: b.article.as_deref(),
            part: b.part,
            item: b.item,
            url: b.url.as_deref(),
            confidence: b.confidence,
        }
    }
}

/// A pupils' holiday period (docs/data.md §8): the first and last day off, both inclusive.
#[derive(Serialize, JsonSchema)]
pub struct SchoolPeriod<'a> {
    /// Which holiday: `autumn`, `christmas`, `winter`, `spring` (Easter) or `summer`.
    pub kind: SchoolHolidayKind,
    /// Its name in the requested language.
    pub name: &'static str,
    /// First day off.
    pub start: Date,
    /// Last day off (the weekend that closes the break included).
    pub end: Date,
    /// The grades it applies to, ascending (0 = pre-school .. 12).
    #[schemars(inner(range(max = 12)))]
    pub grades: &'a [u8],
    /// How sure its dates are: `confirmed`, `derived` (worked out by the plan's own rule,
    /// e.g. a summer start from its count of school days) or `uncertain` (sources disagree).
    pub confidence: Confidence,
}

impl<'a> SchoolPeriod<'a> {
    /// The periods of `grade` (`None`: of every grade) sharing a day with `from..=to`.
    pub fn overlapping(
        catalog: &'a Catalog,
        from: Date,
        to: Date,
        grade: Option<u8>,
        lang: Lang,
    ) -> Vec<Self> {
        let periods = catalog.school_holidays.overlapping(from, to, grade);
        periods
            .map(|p| SchoolPeriod {
                kind: p.kind,
                name: p.kind.name(lang),
                start: p.start,
                end: p.end,
                grades: &p.grades,
                confidence: p.confidence,
            })
            .collect()
    }
}

/// A date-time as the sky's answers write it: RFC 3339 to the minute (seconds `00`), with
/// the offset of Lithuania's legal time (`local`) or `Z` (`utc`).
pub type Instant = String;

/// RFC 3339 in UTC to the minute (`2026-03-29T01:00:00Z`).
pub fn utc_minute(at: chrono::DateTime<chrono::Utc>) -> Instant {
    civil_time::round_minute(at)
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// RFC 3339 in Lithuania's legal time to the minute (`2026-04-08T06:34:00+03:00`).
pub fn local_minute(at: chrono::DateTime<chrono::Utc>) -> Instant {
    civil_time::rfc3339(&civil_time::local_minute(at))
}

/// The moon on a date (`/day`).
#[derive(Serialize, JsonSchema)]
pub struct MoonOnDay {
    /// A principal phase on the day it falls on (in Vilnius), otherwise the stretch
    /// between two of them.
    pub phase: DayPhase,
    /// The phase's name in `lang`.
    pub name: &'static str,
    /// The illuminated fraction of the moon's disc at 12:00 in Vilnius, 0 to 1, to three
    /// decimals.
    #[schemars(range(min = 0, max = 1))]
    pub illuminated: f64,
}

impl MoonOnDay {
    pub fn on(date: Date, lang: Lang) -> MoonOnDay {
        let moon = moon::day_moon(date);
        MoonOnDay {
            phase: moon.phase,
            name: moon.phase.name(lang),
            illuminated: (moon.illuminated * 1000.0).round() / 1000.0,
        }
    }
}

/// A change of the clocks on a date: at `utc` the clocks go from `before` to `after`.
#[derive(Serialize, JsonSchema)]
pub struct ClockChangeRecord {
    /// The instant of the change, UTC.
    #[schemars(extend("format" = "date-time"))]
    pub utc: Instant,
    /// What the clocks showed as the change came, with the old offset
    /// (`2026-03-29T03:00:00+02:00`).
    #[schemars(extend("format" = "date-time"))]
    pub before: Instant,
    /// What they show from it, with the new offset (`2026-03-29T04:00:00+03:00`).
    #[schemars(extend("format" = "date-time"))]
    pub after: Instant,
    /// Minutes the clocks move: `60` forward (summer time begins), `-60` back.
    pub minutes: i64,
}

impl ClockChangeRecord {
    /// The change on `date`, if any (none known before 1920).
    pub fn on(date: Date) -> Option<ClockChangeRecord> {
        civil_time::clock_change(date).map(|change| ClockChangeRecord {
            utc: change.utc.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            before: civil_time::rfc3339(&change.before),
            after: civil_time::rfc3339(&change.after),
            minutes: change.minutes(),
        })
    }
}

/// The contract a working-time answer counts for, and the eve rule it follows.
#[derive(Serialize, JsonSchema)]
pub struct ContractTerms<'a> {
    /// Hours per week: echo of `hours_per_week` (40 by default), or the sum of `schedule`.
    pub hours_per_week: Hours,
    /// Echo of `norm`: `full`, `reduced` or `part_time`.
    pub norm: Norm,
    /// The minutes of each working weekday, Monday first: 5 entries in the 5-day week, 6 in
    /// the 6-day week (`schedule`, or `hours_per_week` spread as docs/api.md says).
    #[schemars(length(min = 5, max = 6))]
    pub schedule_minutes: &'a [u32],
    /// Whether the working day before a red holiday is shorter for this norm, and why.
    pub eve_rule: EveRule<'a>,
}

/// The eve rule as it applies to the contract (Labour Code art. 112).
#[derive(Serialize, JsonSchema)]
pub struct EveRule<'a> {
    /// True for `full` and `part_time`: a working day before a red holiday is one hour
    /// shorter (never below zero); false for `reduced`, which the rule excepts.
    pub shortened: bool,
    /// The provisions of the eve rule in force over the dates answered, as the data cites
    /// them on its eve days (Lithuanian texts); empty when no eve day is served before the
    /// last date.
    pub basis: Vec<LegalBasis<'a>>,
}

impl<'a> ContractTerms<'a> {
    /// The terms of `contract` over `from..=to`.
    pub fn new(catalog: &'a Catalog, contract: &'a Contract, from: Date, to: Date) -> Self {
        let basis = catalog.eve_bases_in(from, to).into_iter();
        ContractTerms {
            hours_per_week: Hours(contract.minutes_per_week().into()),
            norm: contract.norm(),
            schedule_minutes: contract.schedule(),
            eve_rule: EveRule {
                shortened: contract.norm().shortens_eve(),
                basis: basis.map(|b| LegalBasis::new(b, Lang::Lt)).collect(),
            },
        }
    }
}
