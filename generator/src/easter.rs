//! Western (Gregorian) Easter Sunday.

use chrono::NaiveDate;

/// Easter Sunday of a Gregorian year, by the anonymous Gregorian algorithm (Meeus, Jones,
/// Butcher). Valid for every year from 1583, the first full Gregorian year.
pub fn western_easter(year: i32) -> NaiveDate {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    NaiveDate::from_ymd_opt(year, month as u32, day as u32)
        .expect("the algorithm yields a real date")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Datelike, Weekday};

    /// Published Gregorian Easter dates.
    const TABLE: &[(i32, u32, u32)] = &[
        (1583, 4, 10),
        (1700, 4, 11),
        (1818, 3, 22),
        (1900, 4, 15),
        (1943, 4, 25),
        (1954, 4, 18),
        (2000, 4, 23),
        (2008, 3, 23),
        (2011, 4, 24),
        (2019, 4, 21),
        (2024, 3, 31),
        (2025, 4, 20),
        (2038, 4, 25),
        (2100, 3, 28),
    ];

    #[test]
    fn matches_the_published_table() {
        for &(year, month, day) in TABLE {
            assert_eq!(
                western_easter(year),
                NaiveDate::from_ymd_opt(year, month, day).unwrap(),
                "Easter {year}"
            );
        }
    }

    #[test]
    fn is_always_a_sunday_between_march_22_and_april_25() {
        for year in 1583..=2101 {
            let easter = western_easter(year);
            assert_eq!(easter.weekday(), Weekday::Sun, "{easter}");
            let (m, d) = (easter.month(), easter.day());
            assert!((m == 3 && d >= 22) || (m == 4 && d <= 25), "{easter}");
        }
    }
}
