//! Writing the keyed endpoints' bodies (`/holidays`, `/name-days`, `/day`) straight from the
//! catalog with serde, borrowing every string. Field order is the order of the tables in
//! docs/api.md, Endpoints.

use kalendorius_dataset::{Date, Lang};
use serde::Serialize;

use crate::catalog::{Catalog, HolidayRecord, NameDayRecord};

/// A holiday record; `name_pl`/`name_ru` only in the `/holidays` variant.
#[derive(Serialize)]
struct HolidayOut<'a> {
    date: Date,
    name: &'a str,
    name_lt: &'a str,
    name_en: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name_pl: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name_ru: Option<&'a str>,
    #[serde(rename = "type")]
    kind: &'static str,
    is_red: bool,
}

/// Which holiday record variant to write.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// `/holidays`: all four names.
    Full,
    /// `/day`: Lithuanian and English names only.
    Day,
}

impl<'a> HolidayOut<'a> {
    fn new(date: Date, h: &'a HolidayRecord, lang: Lang, variant: Variant) -> Self {
        let full = variant == Variant::Full;
        HolidayOut {
            date,
            name: h.name(lang),
            name_lt: h.name(Lang::Lt),
            name_en: h.name(Lang::En),
            name_pl: full.then(|| h.name(Lang::Pl)),
            name_ru: full.then(|| h.name(Lang::Ru)),
            kind: h.kind.as_str(),
            is_red: h.is_red,
        }
    }
}

#[derive(Serialize)]
struct NameDayOut<'a> {
    name: &'a str,
    gender: &'static str,
}

impl<'a> From<&'a NameDayRecord> for NameDayOut<'a> {
    fn from(n: &'a NameDayRecord) -> Self {
        NameDayOut {
            name: &n.name,
            gender: n.gender,
        }
    }
}

fn to_vec(value: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(value).expect("borrowed strings and numbers always serialize")
}

/// `/holidays?date=`.
pub fn holidays_on_date(catalog: &Catalog, date: Date, lang: Lang) -> Vec<u8> {
    #[derive(Serialize)]
    struct Out<'a> {
        date: Date,
        count: usize,
        holidays: Vec<HolidayOut<'a>>,
    }
    let holidays: Vec<_> = catalog
        .holidays_on(date)
        .map(|h| HolidayOut::new(date, h, lang, Variant::Full))
        .collect();
    to_vec(&Out {
        date,
        count: holidays.len(),
        holidays,
    })
}

/// `/holidays?year=`.
pub fn holidays_of_year(catalog: &Catalog, year: i32, lang: Lang) -> Vec<u8> {
    #[derive(Serialize)]
    struct Out<'a> {
        year: i32,
        count: usize,
        holidays: Vec<HolidayOut<'a>>,
    }
    let holidays: Vec<_> = catalog
        .dates_of_year(year)
        .flat_map(|date| {
            catalog
                .holidays_on(date)
                .map(move |h| HolidayOut::new(date, h, lang, Variant::Full))
        })
        .collect();
    to_vec(&Out {
        year,
        count: holidays.len(),
        holidays,
    })
}

/// `/name-days`.
pub fn name_days(catalog: &Catalog, date: Date, lang: Lang) -> Vec<u8> {
    #[derive(Serialize)]
    struct Out<'a> {
        date: Date,
        lang: &'static str,
        count: usize,
        name_days: Vec<NameDayOut<'a>>,
    }
    let name_days: Vec<_> = catalog.name_days_on(date).map(NameDayOut::from).collect();
    to_vec(&Out {
        date,
        lang: lang.code(),
        count: name_days.len(),
        name_days,
    })
}

/// `/day`.
pub fn day(catalog: &Catalog, date: Date, lang: Lang) -> Vec<u8> {
    #[derive(Serialize)]
    struct Out<'a> {
        date: Date,
        lang: &'static str,
        day_of_week: u8,
        is_weekend: bool,
        week_number: u8,
        holidays: Vec<HolidayOut<'a>>,
        name_days: Vec<NameDayOut<'a>>,
    }
    let (day_of_week, week_number, is_weekend) = catalog.calendar_of(date);
    to_vec(&Out {
        date,
        lang: lang.code(),
        day_of_week,
        is_weekend,
        week_number,
        holidays: catalog
            .holidays_on(date)
            .map(|h| HolidayOut::new(date, h, lang, Variant::Day))
            .collect(),
        name_days: catalog.name_days_on(date).map(NameDayOut::from).collect(),
    })
}
