//! What each page shows, looked up in the catalog and put into words for the templates.

use std::cmp::Ordering;

use chrono::{Datelike, NaiveDate};
use kalendorius_dataset::civil_time::{clock_change, local_minute, ClockChange};
use kalendorius_dataset::contract::Hours;
use kalendorius_dataset::moon::{day_moon, phases_between};
use kalendorius_dataset::sun::sun_day;
use kalendorius_dataset::{Confidence, Date, Lang, Place, Reason, TransferKind, Week};
use minijinja::context;
use minijinja::value::Serde;

use super::LONG_WEEKENDS;
use kalendorius_dataset::places::DEFAULT_PLACE;

use crate::catalog::{Catalog, HolidayScope, Period};
use crate::feeds::school_holidays::grades_text;
use crate::i18n::{capitalized, TEXTS};
use crate::name_index::{MatchKind, MAX_MATCHES};

/// Each grid day kind's mark by CSS class (the templates' `marks`): a symbol besides a colour.
pub const MARKS: [(&str, &str); 6] = [
    ("red", "★"),
    ("dayoff", "◆"),
    ("workday", "▲"),
    ("short", "−1"),
    ("school", "○"),
    ("clock", CLOCK_MARK),
];

/// `path` as a link that stays on this site: a 404's path may start with `//` or `/\`,
/// which a browser reads as another site's address (`//evil.example/x`), so the leading
/// slashes and backslashes become one slash.
fn site_relative(path: &str) -> String {
    format!("/{}", path.trim_start_matches(['/', '\\']))
}

/// The parameters internal links keep: `&lang=en` (not for lt), `&grade=5` and
/// `&place=klaipeda` (not for the default place), or `""`.
fn page_query(lang: Lang, grade: Option<u8>, place: Option<&Place>) -> String {
    let lang = (lang != Lang::Lt).then(|| format!("&lang={}", lang.code()));
    lang.into_iter()
        .chain(grade.map(|g| format!("&grade={g}")))
        .chain(place.map(|p| format!("&place={}", p.slug)))
        .collect()
}

/// The mark of a change of the clocks in the grids (beside the moon's phase symbols).
pub const CLOCK_MARK: &str = "◷";

pub fn month_path(year: i32, month: u32) -> String {
    format!("/{year:04}/{month:02}")
}

pub fn day_path(date: Date) -> String {
    format!("/{:04}/{:02}/{:02}", date.year(), date.month(), date.day())
}

/// The most leave days of a bridge the page lists.
pub const PAGE_MAX_LEAVE_DAYS: usize = 4;

pub fn long_weekends_path(year: i32) -> String {
    format!("/{year:04}/{LONG_WEEKENDS}")
}

pub fn link(href: String, label: String) -> minijinja::Value {
    context! { href, label }
}

pub struct Viewer<'a> {
    pub catalog: &'a Catalog,
    pub lang: Lang,
    pub today: NaiveDate,
    /// Whose pupils' holidays are shown (`None`: any grade's).
    pub grade: Option<u8>,
    /// Whose sun the day page shows when it is not the default place's.
    pub place: Option<&'a Place>,
}

impl<'a> Viewer<'a> {
    pub fn text(&self, key: &str) -> &'static str {
        TEXTS.text(self.lang, key)
    }

    fn item(&self, key: &str, i: usize) -> &'static str {
        TEXTS.item(self.lang, key, i)
    }

    pub fn fill(&self, key: &str, fields: &[(&str, &str)]) -> String {
        TEXTS.fill(self.lang, key, fields)
    }

    /// Hours as the language writes a decimal: `1807.2` in English, `1807,2` otherwise.
    pub fn decimal(&self, hours: Hours) -> String {
        let text = hours.to_string();
        match self.lang {
            Lang::En => text,
            _ => text.replace('.', ","),
        }
    }

    /// What every page needs (`c` in the templates); the language links keep `extra`
    /// (`&q=...` or `""`).
    pub fn frame(&self, css: &str, path: &str, extra: &str) -> minijinja::Value {
        let (lang, grade, place) = (self.lang, self.grade, self.place);
        let path = site_relative(path);
        let langs = Lang::ALL.map(|other| {
            let query = format!("{extra}{}", page_query(other, grade, place));
            context! {
                code => other.code(),
                name => TEXTS.text(other, "language_name"),
                href => format!("{path}{}", query.replacen('&', "?", 1)),
                current => other == lang,
            }
        });
        let today_month = self
            .served(self.today)
            .map(|d| month_path(d.year(), d.month()));
        let qa = page_query(lang, grade, place);
        let q = qa.replacen('&', "?", 1);
        context! {
            lang => lang.code(),
            t => TEXTS.value(lang),
            css,
            today_href => format!("{}{q}", today_month.as_deref().unwrap_or("/")),
            q,
            qa,
            langs,
            version => self.catalog.version,
            // The grade form submits to the page's path.
            path,
            grade,
            place => place.map(|p| p.slug.as_str()),
            grade_text => grade.map(|g| grades_text(&[g], lang)).unwrap_or_default(),
            description => self.fill_years("site_description"),
        }
    }

    /// "2026 m. gruodis", "December 2026".
    pub fn month_title(&self, year: i32, month: u32) -> String {
        let name = self.item("months", month as usize - 1);
        let name = match self.lang {
            Lang::Lt => name.to_string(),
            _ => capitalized(name),
        };
        self.fill("month_title", &[("y", &year.to_string()), ("month", &name)])
    }

    pub fn month_link(&self, year: i32, month: u32) -> minijinja::Value {
        link(month_path(year, month), self.month_title(year, month))
    }

    /// "2026 m. gruodžio 24 d.", "24 December 2026".
    pub fn date_long(&self, date: Date) -> String {
        let (y, d) = (date.year().to_string(), date.day().to_string());
        let month = self.month_gen(date.month());
        self.fill("date_long", &[("y", &y), ("month_gen", month), ("d", &d)])
    }

    /// "birželio 24 d.", "24 June"; `days` may be several ("14–16", "28, 29").
    pub fn day_month(&self, month: u32, days: &str) -> String {
        let fields = [("month_gen", self.month_gen(month)), ("d", days)];
        self.fill("day_month", &fields)
    }

    /// The pattern `key` with the first and the last year served.
    pub fn fill_years(&self, key: &str) -> String {
        let years = self.catalog.years();
        let (first, last) = (years.start().to_string(), years.end().to_string());
        self.fill(key, &[("first", &first), ("last", &last)])
    }

    fn month_gen(&self, month: u32) -> &str {
        self.item("months_gen", month as usize - 1)
    }

    pub fn weekday(&self, date: Date) -> &str {
        self.item("weekdays", date.weekday().num_days_from_monday() as usize)
    }

    pub fn served(&self, date: NaiveDate) -> Option<Date> {
        Date::from_naive(date)
            .ok()
            .filter(|d| self.catalog.contains(*d))
    }

    fn red_names(&self, date: Date) -> Vec<String> {
        self.catalog
            .holidays_on(date)
            .filter(|h| h.is_red)
            .map(|h| h.name(self.lang).to_string())
            .collect()
    }

    /// The grid of a served month: its week rows (`cells` Monday to Sunday, none outside the
    /// month) and its working time; the templates choose what to show.
    /// "pasukami valanda pirmyn: 03:00 → 04:00", after the word for the clocks.
    pub fn clock_change_text(&self, change: &ClockChange) -> String {
        let key = if change.minutes() > 0 {
            "clock_forward"
        } else {
            "clock_back"
        };
        let before = change.before.format("%H:%M").to_string();
        let after = change.after.format("%H:%M").to_string();
        let text = self.fill(key, &[("before", &before), ("after", &after)]);
        format!("{} {text}", self.text("clock_change"))
    }

    /// The day page's sun and moon at the chosen place (Vilnius by default), `None` before
    /// the sky is served.
    pub fn sky_context(&self, date: Date) -> Option<minijinja::Value> {
        if !kalendorius_dataset::civil_time::served(date) {
            return None;
        }
        let places = &self.catalog.places;
        let place = self.place.or_else(|| places.get(DEFAULT_PLACE))?;
        let sun = sun_day(date, place.observer());
        let time = |at: Option<chrono::DateTime<chrono::Utc>>| {
            at.map(|at| {
                let local = local_minute(at);
                context! {
                    iso => kalendorius_dataset::civil_time::rfc3339(&local),
                    text => local.format("%H:%M").to_string(),
                }
            })
        };
        let length = sun.sunrise.zip(sun.sunset).map(|(up, down)| {
            let minutes = (local_minute(down) - local_minute(up)).num_minutes();
            let (h, m) = (minutes / 60, minutes % 60);
            let text = self.fill(
                "day_length_value",
                &[("h", &h.to_string()), ("m", &m.to_string())],
            );
            context! { iso => format!("PT{h}H{m}M"), text }
        });
        let moon = day_moon(date);
        let lit = format!("{:.0}", moon.illuminated * 100.0);
        let options: Vec<_> = places
            .places
            .iter()
            .map(|p| context! { slug => p.slug.as_str(), name => p.name(self.lang), selected => p.slug == place.slug })
            .collect();
        Some(context! {
            place => place.name(self.lang),
            sunrise => time(sun.sunrise),
            sunset => time(sun.sunset),
            solar_noon => time(Some(sun.solar_noon)),
            civil_dawn => time(sun.civil_dawn),
            civil_dusk => time(sun.civil_dusk),
            length,
            moon => moon.phase.name(self.lang),
            moon_lit => self.fill("moon_lit", &[("pct", &lit)]),
            phases => phases_between(date, date)
                .into_iter()
                .map(|p| format!("{} {} {}", p.phase.symbol(), p.phase.name(self.lang), local_minute(p.utc).format("%H:%M")))
                .collect::<Vec<_>>(),
            clock => clock_change(date).map(|c| self.clock_change_text(&c)),
            options,
        })
    }

    pub fn month_grid(&self, year: i32, month: u32) -> minijinja::Value {
        let first = Date::from_ymd(year, month, 1).expect("a served month");
        let days: Vec<Date> =
            std::iter::successors(Some(first), |d| d.succ().filter(|d| d.month() == month))
                .collect();
        let column = |d: Date| d.weekday().num_days_from_monday() as usize;
        let weeks: Vec<_> = days
            .chunk_by(|_, b| column(*b) != 0)
            .map(|week| {
                let mut cells = vec![None; 7];
                for &day in week {
                    cells[column(day)] = Some(self.cell(day));
                }
                context! { number => self.catalog.calendar_of(week[0]).iso_week, cells }
            })
            .collect();
        context! {
            title => self.month_title(year, month),
            name => capitalized(self.item("months", month as usize - 1)),
            href => month_path(year, month),
            weeks,
            summary => Serde(self.catalog.working_summary(first, days[days.len() - 1], Week::Five)),
        }
    }

    /// One day in a month grid: its kinds as CSS classes, [`MARKS`] and words (`label`, for
    /// screen readers and the tooltip), its holidays and name days.
    fn cell(&self, date: Date) -> minijinja::Value {
        let mut holidays = self.red_names(date);
        // Each kind of the day: its class, its words.
        let mut kinds: Vec<(&str, &str)> = Vec::new();
        if self.catalog.calendar_of(date).is_weekend {
            kinds.push(("weekend", self.text("weekend")));
        }
        if !holidays.is_empty() {
            kinds.push(("red", self.text("red_holiday")));
        }
        if let Some(t) = self.catalog.transfer_on(date) {
            let (class, key) = match t.kind {
                TransferKind::DayOff => ("dayoff", "declared_day_off"),
                TransferKind::WorkingDay => ("workday", "declared_working_day"),
            };
            kinds.push((class, self.text(key)));
            holidays.push(t.name(self.lang).to_string());
        }
        if self.catalog.status_of(date).shorter_workday {
            kinds.push(("short", self.text("shortened")));
        }
        let school: Vec<&str> = self
            .catalog
            .school_holidays
            .overlapping(date, date, self.grade)
            .map(|p| p.kind.name(self.lang))
            .collect();
        let school_label = format!("{} ({})", self.text("school_holidays"), school.join(", "));
        if !school.is_empty() {
            kinds.push(("school", &school_label));
        }
        // The moon's principal phases and the clock changes: a symbol and words.
        let mut sky: Vec<(&str, String)> = phases_between(date, date)
            .into_iter()
            .map(|p| {
                let time = local_minute(p.utc).format("%H:%M");
                (
                    p.phase.symbol(),
                    format!("{} {time}", p.phase.name(self.lang)),
                )
            })
            .collect();
        if let Some(change) = clock_change(date) {
            sky.push((CLOCK_MARK, self.clock_change_text(&change)));
        }
        if date.naive() == self.today {
            kinds.push(("today", self.text("today")));
        }
        let names: Vec<String> = self
            .catalog
            .name_days_on(date)
            .map(|n| n.name.to_string())
            .collect();
        let (classes, words): (Vec<&str>, Vec<&str>) = kinds.into_iter().unzip();
        let mark = |class: &&str| MARKS.iter().find(|m| m.0 == *class).map(|m| m.1);
        let marks: Vec<&str> = classes
            .iter()
            .filter_map(mark)
            .chain(sky.iter().map(|s| s.0))
            .collect();
        let words: Vec<&str> = words
            .into_iter()
            .chain(sky.iter().map(|s| s.1.as_str()))
            .collect();
        // The words beside the day (whose marks carry the symbols).
        let sky_words: Vec<String> = sky.iter().map(|(_, text)| text.clone()).collect();
        context! {
            day => date.day(),
            date => date.to_string(),
            href => day_path(date),
            kinds => classes.join(" "),
            marks => marks.join(" "),
            label => words.join("; "),
            holidays,
            names,
            sky => sky_words,
        }
    }

    pub fn status_sentences(&self, date: Date) -> Vec<String> {
        let status = self.catalog.status_of(date);
        let transfer = self.catalog.transfer_on(date);
        let transfer_name = transfer.map(|t| t.name(self.lang)).unwrap_or_default();
        let fill = |key, field, value: &str| self.fill(key, &[(field, value)]);
        if status.laisvadienis {
            let red = self.red_names(date);
            return vec![match status.reason {
                Some(Reason::PublicHoliday) if !red.is_empty() => {
                    fill("status_off_holiday", "names", &red.join(", "))
                }
                Some(Reason::PublicHoliday) => fill("status_off_declared", "name", transfer_name),
                _ => fill("status_off_weekend", "weekday", self.weekday(date)),
            }];
        }
        let summary = self.catalog.working_summary(date, date, Week::Five);
        let hours = summary.working_hours.to_string();
        let mut out = vec![fill("status_working", "hours", &hours)];
        if transfer.map(|t| t.kind) == Some(TransferKind::WorkingDay) {
            out.push(fill("note_declared_working", "name", transfer_name));
        }
        if status.shorter_workday {
            let next = date.succ().filter(|d| self.catalog.contains(*d));
            let names = next.map(|d| self.red_names(d)).unwrap_or_default();
            out.push(fill("note_shortened", "names", &names.join(", ")));
        }
        out
    }

    /// A fact's or citation's confidence in words unless confirmed (docs/data.md §2.8).
    pub fn unsure_label(&self, c: Option<Confidence>) -> Option<&str> {
        let c = c.filter(|c| *c != Confidence::Confirmed)?;
        Some(self.text(&format!("confidence_{}", c.as_str())))
    }

    /// Each date links to its day in today's year (February 29 in a common year: February 28,
    /// where the name is celebrated then).
    pub fn search(&self, query: &str) -> Vec<minijinja::Value> {
        let year = self.today.year();
        self.catalog
            .name_index
            .search(query, MAX_MATCHES)
            .into_iter()
            .map(|(kind, entry)| {
                let dates: Vec<_> = entry
                    .dates
                    .iter()
                    .map(|md| {
                        let (month, day) = (u32::from(md.month), u32::from(md.day));
                        let date = Date::from_ymd(year, month, day)
                            .or_else(|_| Date::from_ymd(year, month, day - 1))
                            .ok()
                            .filter(|d| self.catalog.contains(*d));
                        context! {
                            label => self.day_month(month, &day.to_string()),
                            href => date.map(day_path),
                        }
                    })
                    .collect();
                context! {
                    name => &*entry.name,
                    exact => kind == MatchKind::Exact,
                    gender => self.text(&format!("gender_{}", entry.gender)),
                    dates,
                }
            })
            .collect()
    }

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
        // Days off per leave day.
        let ratio = f64::from(p.days_off()) / leave as f64;
        let efficiency = (leave > 0).then(|| number(ratio, self.lang));
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
            efficiency => efficiency.unwrap_or_default(),
            holidays,
        }
    }

    /// A served `year`'s long weekends (no leave needed) by date, then its bridges, best first.
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

    /// The home page's line on the next red holiday or declared day off; `None` past the range.
    pub fn next_red_day(&self) -> Option<minijinja::Value> {
        let today = self.served(self.today)?;
        let mut red_days = self.catalog.holiday_dates_from(today, HolidayScope::Red, 1);
        let date = red_days.next()?;
        let names: Vec<&str> = self.catalog.day_off_names(date, self.lang).collect();
        let days = today.days_until(date);
        let key = match days {
            0 => "next_red_today",
            1 => "next_red_tomorrow",
            _ => "next_red_days",
        };
        let (names, when, days) = (names.join(", "), self.date_long(date), days.to_string());
        Some(context! {
            text => self.fill(key, &[("name", &names), ("date", &when), ("days", &days)]),
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
