//! Planning the year for people: the long-weekends page (`/{YYYY}/ilgieji-savaitgaliai`)
//! and the home page's next red day, in words (the facts are `crate::catalog::planning`'s).

use std::cmp::Ordering;

use kalendorius_dataset::{Date, Lang};
use minijinja::context;

use super::route::LONG_WEEKENDS;
use super::view::{day_path, Viewer};
use crate::catalog::{HolidayScope, Period};

/// The most leave days of a bridge the page lists.
pub const PAGE_MAX_LEAVE_DAYS: usize = 4;

pub fn long_weekends_path(year: i32) -> String {
    format!("/{year:04}/{LONG_WEEKENDS}")
}

impl Viewer<'_> {
    /// A date in words: without the year when it is in `year`.
    fn date_in(&self, date: Date, year: i32) -> String {
        if date.year() == year {
            self.day_month(date.month(), &date.day().to_string())
        } else {
            self.date_long(date)
        }
    }

    /// The dates `start..=end` in words: "vasario 14–16 d." within a month, else both
    /// dates ("balandžio 25 d. – gegužės 3 d."); a year only when it is not `year`.
    fn range_in(&self, start: Date, end: Date, year: i32) -> String {
        if (start.year(), start.month()) == (year, end.month()) && end.year() == year {
            return self.day_month(start.month(), &format!("{}–{}", start.day(), end.day()));
        }
        let (from, to) = (self.date_in(start, year), self.date_in(end, year));
        format!("{from} – {to}")
    }

    /// The days of `dates` in words, grouped by month.
    fn days_in_words(&self, dates: &[Date]) -> String {
        dates
            .chunk_by(|a, b| (a.year(), a.month()) == (b.year(), b.month()))
            .map(|month| {
                let days: Vec<String> = month.iter().map(|d| d.day().to_string()).collect();
                self.day_month(month[0].month(), &days.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn row(&self, p: &Period, year: i32) -> minijinja::Value {
        let leave = p.leave_days.len();
        let holidays: Vec<String> = p
            .marked
            .iter()
            .flat_map(|&d| self.catalog.day_off_names(d, self.lang))
            .map(str::to_string)
            .collect();
        context! {
            start => p.start.to_string(),
            href => day_path(p.start),
            range => self.range_in(p.start, p.end, year),
            days_off => p.days_off(),
            leave => self.days_in_words(&p.leave_days),
            leave_count => leave,
            efficiency => if leave == 0 {
                String::new()
            } else {
                number(f64::from(p.days_off()) / leave as f64, self.lang)
            },
            holidays,
        }
    }

    /// The long-weekends page of a served `year`: the long weekends (no leave needed) by
    /// date, then the bridges, best first.
    pub fn long_weekends_context(&self, year: i32) -> minijinja::Value {
        let weekends: Vec<_> = self
            .catalog
            .long_weekends(year, 0)
            .map(|p| self.row(p, year))
            .collect();
        let mut bridges: Vec<&Period> = self
            .catalog
            .long_weekends(year, PAGE_MAX_LEAVE_DAYS)
            .filter(|p| !p.leave_days.is_empty())
            .collect();
        bridges.sort_by(|a, b| by_efficiency(a, b));
        let bridges: Vec<_> = bridges.into_iter().map(|p| self.row(p, year)).collect();
        let served = |y: i32| self.catalog.years().contains(&y);
        context! {
            title => self.fill("lw_title", &[("y", &year.to_string())]),
            year,
            year_href => format!("/{year:04}"),
            prev => served(year - 1).then(|| long_weekends_path(year - 1)),
            next => served(year + 1).then(|| long_weekends_path(year + 1)),
            weekends,
            bridges,
            bridges_intro => self.fill("lw_bridges_intro", &[("count", &PAGE_MAX_LEAVE_DAYS.to_string())]),
            api => format!("/api/v1/long-weekends?year={year}&max_leave_days={PAGE_MAX_LEAVE_DAYS}&lang={}", self.lang.code()),
        }
    }

    /// The home page's line about the next red day from today (a red holiday or a declared
    /// extra day off); `None` past the served range.
    pub fn next_red_day(&self) -> Option<minijinja::Value> {
        let today = self.served_today()?;
        let date = self
            .catalog
            .holiday_dates_from(today, HolidayScope::Red, 1)
            .next()?;
        let names: Vec<&str> = self.catalog.day_off_names(date, self.lang).collect();
        let days = today.days_until(date);
        let key = match days {
            0 => "next_red_today",
            1 => "next_red_tomorrow",
            _ => "next_red_days",
        };
        let fields: [(&str, &str); 3] = [
            ("name", &names.join(", ")),
            ("date", &self.date_long(date)),
            ("days", &days.to_string()),
        ];
        Some(context! {
            text => self.fill(key, &fields),
            href => day_path(date),
            long_weekends => long_weekends_path(date.year()),
        })
    }
}

/// More days off per leave day first; then more days off; then the earlier.
fn by_efficiency(a: &Period, b: &Period) -> Ordering {
    let (ad, al) = (u64::from(a.days_off()), a.leave_days.len() as u64);
    let (bd, bl) = (u64::from(b.days_off()), b.leave_days.len() as u64);
    (bd * al)
        .cmp(&(ad * bl))
        .then(bd.cmp(&ad))
        .then(a.start.cmp(&b.start))
}

/// `x` with at most two decimals, trailing zeros dropped, in the language's form.
fn number(x: f64, lang: Lang) -> String {
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match lang {
        Lang::En => text.to_string(),
        _ => text.replace('.', ","),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_language() {
        assert_eq!(number(11.0 / 4.0, Lang::En), "2.75");
        assert_eq!(number(11.0 / 4.0, Lang::Lt), "2,75");
        assert_eq!(number(9.0 / 3.0, Lang::Pl), "3");
        assert_eq!(number(10.0 / 3.0, Lang::Ru), "3,33");
        assert_eq!(number(4.5, Lang::En), "4.5");
    }
}
