//! The records of a dataset: one [`Day`] per calendar date, with everything the API serves
//! about it already decided by the generator (docs/api.md, Day status).
//!
//! The JSON of these types is the dataset format: each [`Day`] is one line of its year's
//! file and one value of the sled `days` tree.

use serde::{Deserialize, Serialize};

use crate::basis::{Basis, Confidence};
use crate::school::SchoolHoliday;
use crate::{Date, Lang};

/// Category of a holiday. Independent of whether it is a non-working day: that is
/// [`Holiday::is_red`]. The declaration order is the order of types in a date's list of
/// holidays (docs/api.md, `/holidays`).
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
pub enum HolidayType {
    /// A state holiday or state commemoration.
    Public,
    /// A folk or family tradition (Užgavėnės, Mother's Day, Kūčios).
    Traditional,
    /// A church feast.
    Religious,
    /// A school-calendar day.
    School,
    /// Any other commemorative or professional day.
    Other,
}

impl HolidayType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            HolidayType::Public => "public",
            HolidayType::Traditional => "traditional",
            HolidayType::Religious => "religious",
            HolidayType::School => "school",
            HolidayType::Other => "other",
        }
    }
}

/// Why a day is non-working (precedence: holiday, then Sunday, then Saturday).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// A Saturday that is not a declared working day.
    Saturday,
    /// A Sunday.
    Sunday,
    /// A red holiday or a declared extra day off falls on the date.
    PublicHoliday,
}

impl Reason {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Saturday => "saturday",
            Reason::Sunday => "sunday",
            Reason::PublicHoliday => "public_holiday",
        }
    }
}

/// Grammatical gender of a calendar name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Gender {
    /// Masculine.
    #[serde(rename = "m")]
    Male,
    /// Feminine.
    #[serde(rename = "f")]
    Female,
}

impl Gender {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Gender::Male => "m",
            Gender::Female => "f",
        }
    }
}

/// A holiday as it stands on one date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Holiday {
    /// Stable id of the source record.
    pub id: String,
    /// Category.
    #[serde(rename = "type")]
    pub kind: HolidayType,
    /// True when the law in force on this date made it a non-working day.
    pub is_red: bool,
    /// Lithuanian name in the wording in force on this date.
    pub name_lt: String,
    /// English name.
    pub name_en: String,
    /// Polish name.
    pub name_pl: String,
    /// Russian name.
    pub name_ru: String,
    /// Where the fact comes from: the red period's source when red, else the record's.
    pub source: String,
    /// When red: how sure it is that the day is non-working (the red period's confidence);
    /// `None` when not red.
    #[serde(default)]
    pub confidence: Option<Confidence>,
    /// When red: the provisions that make it non-working on this date (docs/data.md
    /// §2.8); empty when not red.
    #[serde(default)]
    pub basis: Vec<Basis>,
}

impl Holiday {
    /// The name in a language.
    pub fn name(&self, lang: Lang) -> &str {
        lang.pick([&self.name_lt, &self.name_en, &self.name_pl, &self.name_ru])
    }
}

/// What a one-off transfer declares (docs/data.md §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TransferKind {
    /// An extra non-working day (a bridge day, a day in lieu).
    DayOff,
    /// A weekend day declared a working day.
    WorkingDay,
}

/// A government transfer or statutory day in lieu on one date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Transfer {
    /// Day off or working day.
    pub kind: TransferKind,
    /// Whether the 6-day week (Monday-Saturday) follows the transfer too. True only for a
    /// day in lieu of a holiday on a Sunday (Labour Code art. 162¹, 2006-2008): that article
    /// moved the rest days of art. 161, and Sunday is the 6-day week's only one. False for a
    /// day in lieu of a Saturday holiday and for the government's transfers, which move a
    /// Saturday rest day the 6-day week does not have (docs/data.md §2.2, §2.3): a 6-day
    /// worker works that weekday as usual, and a declared working Saturday is an ordinary
    /// Saturday for them either way. Always false on a working day.
    pub six_day_week: bool,
    /// Lithuanian name.
    pub name_lt: String,
    /// English name.
    pub name_en: String,
    /// Polish name.
    pub name_pl: String,
    /// Russian name.
    pub name_ru: String,
    /// Where the fact comes from.
    pub source: String,
    /// How sure the transfer is.
    #[serde(default)]
    pub confidence: Confidence,
    /// The act that declares it (a Government resolution, or the Labour Code article of the
    /// days in lieu of 2006-2008).
    #[serde(default)]
    pub basis: Vec<Basis>,
}

impl Transfer {
    /// The name in a language.
    pub fn name(&self, lang: Lang) -> &str {
        lang.pick([&self.name_lt, &self.name_en, &self.name_pl, &self.name_ru])
    }
}

/// A name celebrated on a date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct NameDay {
    /// The Lithuanian calendar name, with diacritics.
    pub name: String,
    /// Its gender.
    pub gender: Gender,
}

/// Everything the dataset says about one date.
///
/// Invariants the generator guarantees and the server relies on:
/// - `laisvadienis == reason.is_some()`;
/// - `holiday_name.is_some()` exactly when `reason == Some(PublicHoliday)`;
/// - `shorter_workday` implies `!laisvadienis`;
/// - `working_hours_5`, `working_hours_6`, `shorter_workday` and `shorter_workday_6` are
///   what [`crate::working_time::working_time`] gives from the day's flags and the next
///   day's red holidays (the loader checks them, [`crate::working_time::Checker`]);
/// - `shorter_workday_basis` is non-empty exactly when `shorter_workday` or
///   `shorter_workday_6`; a red holiday has a basis and a confidence, another none;
/// - `holidays` is in holiday order (red first, then type, then `name_lt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Day {
    /// The date.
    pub date: Date,
    /// 0 = Sunday, 1 = Monday, ... 6 = Saturday.
    #[schemars(range(min = 0, max = 6))]
    pub day_of_week: u8,
    /// ISO 8601 week number.
    #[schemars(range(min = 1, max = 53))]
    pub iso_week: u8,
    /// Saturday or Sunday.
    pub is_weekend: bool,
    /// Non-working day (docs/api.md, Day status).
    pub laisvadienis: bool,
    /// Why it is non-working; `None` on a working day.
    pub reason: Option<Reason>,
    /// Lithuanian names of the red holidays (joined with ", " in Labour Code order), or of
    /// the declared day off; `None` otherwise.
    pub holiday_name: Option<String>,
    /// Shortened by the eve rule in the 5-day week: a working day (`laisvadienis` false)
    /// whose next calendar day carries a red holiday ([`crate::working_time`]).
    pub shorter_workday: bool,
    /// Working hours of the date in the 5-day week of 40 hours: 8 on a working day, 7 on a
    /// shortened one ([`Day::shorter_workday`]), 0 on a non-working day.
    pub working_hours_5: u8,
    /// Working hours of the date in the 6-day week of 40 hours: 7 Monday-Friday and 5 on
    /// Saturday, one less on a shortened day ([`Day::shorter_workday_6`]), 0 on a Sunday, a
    /// red holiday or a declared extra day off the 6-day week follows
    /// ([`Transfer::six_day_week`]).
    pub working_hours_6: u8,
    /// Shortened by the eve rule in the 6-day week: a working day of that week (Saturdays
    /// included) whose next calendar day carries a red holiday.
    pub shorter_workday_6: bool,
    /// The eve rule's provision when the day is shortened in either week
    /// (`shorter_workday` or `shorter_workday_6`); empty otherwise.
    #[serde(default)]
    pub shorter_workday_basis: Vec<Basis>,
    /// Every holiday listed on this date, red or not.
    pub holidays: Vec<Holiday>,
    /// A transfer declared for this date, if any.
    pub transfer: Option<Transfer>,
    /// Names celebrated on this date (Feb 29 names also on Feb 28 of common years).
    pub name_days: Vec<NameDay>,
}

/// The days of one year, in date order: what both forms of a year hold (the sled database's
/// value of the year and the `days` of `years/YYYY.json`, [`PublishedYearFile`]). Reading a
/// year file as a `YearFile` skips its other fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct YearFile {
    /// [`crate::SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// The year.
    #[schemars(range(min = crate::FIRST_YEAR, max = crate::LAST_YEAR))]
    pub year: i32,
    /// All days of the year, January 1 first.
    pub days: Vec<Day>,
}

/// One file `years/YYYY.json`, the published form of a year: its days ([`YearFile`]) and the
/// pupils' holidays overlapping it (schema version 4). The sled database holds the days
/// only; the server reads the periods from `school_holidays.json`
/// ([`crate::school::SchoolHolidaysFile`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PublishedYearFile {
    /// [`crate::SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// The year.
    pub year: i32,
    /// The pupils' holiday periods sharing at least one day with the year (a Christmas break
    /// is in both of its years), by start; empty for a year outside the school years of the
    /// data, which does not mean "no holidays" (docs/data.md §8.2).
    pub school_holidays: Vec<SchoolHoliday>,
    /// All days of the year, January 1 first.
    pub days: Vec<Day>,
}
