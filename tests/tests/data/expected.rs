//! The legal periods of the red holidays, from the legal history (docs/data.md §2.1),
//! written out independently of `sources/` so that a
//! wrong source row fails a test.

use std::collections::BTreeSet;

use chrono::{Datelike, Duration, NaiveDate, Weekday};

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

/// Easter Sunday by Gauss's algorithm with the Gregorian corrections (a different method from
/// the generator's, on purpose).
pub fn easter(year: i32) -> NaiveDate {
    let a = year % 19;
    let b = year % 4;
    let c = year % 7;
    let k = year / 100;
    let p = (13 + 8 * k) / 25;
    let q = k / 4;
    let m = (15 - p + k - q) % 30;
    let n = (4 + k - q) % 7;
    let dd = (19 * a + m) % 30;
    let e = (2 * b + 4 * c + 6 * dd + n) % 7;
    let mut days = 22 + dd + e; // days after Feb 28/29, as "March days"
                                // Gauss's exceptions.
    if dd == 29 && e == 6 {
        days = 50; // April 19
    } else if dd == 28 && e == 6 && (11 * m + 11) % 30 < 19 {
        days = 49; // April 18
    }
    if days <= 31 {
        d(year, 3, days as u32)
    } else {
        d(year, 4, (days - 31) as u32)
    }
}

fn first_sunday(year: i32, month: u32) -> NaiveDate {
    let mut date = d(year, month, 1);
    while date.weekday() != Weekday::Sun {
        date += Duration::days(1);
    }
    date
}

/// The red dates of a year by the periods of docs/data.md §2.1: Jun 24 red from 2004 (the
/// amendment that added it came after 2003-06-24; its start is dated 2003-07-25, with the
/// companion law IX-1699), Father's Day from 2009-01-01 (the amendment of 2008 came into
/// force then); see sources/holidays/red.toml.
pub fn red_dates(year: i32) -> BTreeSet<NaiveDate> {
    let law = d(1990, 10, 25);
    let easter = easter(year);
    // (date, red from, red until inclusive)
    let rows: Vec<(NaiveDate, NaiveDate, Option<NaiveDate>)> = vec![
        (d(year, 1, 1), law, None),
        (d(year, 2, 16), law, None),
        (d(year, 3, 11), d(1996, 4, 26), None),
        (easter, law, None),
        (easter + Duration::days(1), law, None),
        (d(year, 5, 1), d(1996, 4, 26), Some(d(1997, 7, 15))),
        (d(year, 5, 1), d(2001, 5, 23), None),
        (first_sunday(year, 5), law, None),
        (first_sunday(year, 6), d(2009, 1, 1), None),
        (d(year, 6, 24), d(2003, 7, 25), None),
        (d(year, 7, 6), law, None),
        (d(year, 8, 15), d(2000, 7, 14), None),
        (d(year, 11, 1), law, None),
        (d(year, 11, 2), d(2020, 1, 1), None),
        (d(year, 12, 24), d(2011, 1, 1), None),
        (d(year, 12, 25), law, None),
        (d(year, 12, 26), law, None),
    ];
    rows.into_iter()
        .filter(|(date, from, to)| date >= from && to.is_none_or(|to| *date <= to))
        .map(|(date, _, _)| date)
        .collect()
}

#[test]
fn gauss_easter_agrees_with_published_dates() {
    for (y, m, day) in [
        (1583, 4, 10),
        (1818, 3, 22),
        (1943, 4, 25),
        (1954, 4, 18),
        (1981, 4, 19),
        (2049, 4, 18),
        (2076, 4, 19),
        (2100, 3, 28),
    ] {
        assert_eq!(easter(y), d(y, m, day), "{y}");
    }
}
