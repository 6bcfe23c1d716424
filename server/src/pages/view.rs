//! What each page shows, looked up in the catalog and put into words for the templates.

use chrono::{Datelike, NaiveDate};
use kalendorius_dataset::working_time::Week;
use kalendorius_dataset::{Confidence, Date, Lang, Reason, TransferKind};
use minijinja::context;
use minijinja::value::Serde;

use crate::catalog::Catalog;
use crate::i18n::{capitalized, texts};
use crate::name_index::{MatchKind, MAX_MATCHES};

/// Marks of the day kinds in the grid: each kind has a symbol (or text) as well as a colour.
pub mod mark {
    pub const RED: &str = "★";
    pub const DAY_OFF: &str = "◆";
    pub const WORKING: &str = "▲";
    pub const SHORTENED: &str = "−1";
    pub const SCHOOL: &str = "○";
}

/// The parameters internal links keep: `&lang=en` (not for lt) and `&grade=5`, or `""`.
fn page_query(lang: Lang, grade: Option<u8>) -> String {
    let lang = (lang != Lang::Lt).then(|| format!("&lang={}", lang.code()));
    lang.into_iter()
        .chain(grade.map(|g| format!("&grade={g}")))
        .collect()
}

pub fn month_path(year: i32, month: u32) -> String {
    format!("/{year:04}/{month:02}")
}

pub fn day_path(date: Date) -> String {
    format!("/{:04}/{:02}/{:02}", date.year(), date.month(), date.day())
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
}

impl Viewer<'_> {
    pub fn text(&self, key: &str) -> &'static str {
        texts().text(self.lang, key)
    }

    fn item(&self, key: &str, i: usize) -> &'static str {
        texts().item(self.lang, key, i)
    }

    pub fn fill(&self, key: &str, fields: &[(&str, &str)]) -> String {
        texts().fill(self.lang, key, fields)
    }

    /// What every page needs (`c` in the templates); the language links keep `extra`
    /// (`&q=...` or `""`).
    pub fn frame(&self, css: &str, path: &str, extra: &str) -> minijinja::Value {
        let (lang, grade) = (self.lang, self.grade);
        let langs: Vec<_> = Lang::ALL
            .iter()
            .map(|&other| {
                let query = format!("{extra}{}", page_query(other, grade));
                context! {
                    code => other.code(),
                    name => texts().text(other, "language_name"),
                    href => format!("{path}{}", query.replacen('&', "?", 1)),
                    current => other == lang,
                }
            })
            .collect();
        let today_month = self.served_today().map(|d| month_path(d.year(), d.month()));
        let qa = page_query(lang, grade);
        let q = qa.replacen('&', "?", 1);
        context! {
            lang => lang.code(),
            t => texts().value(lang),
            css,
            today_href => format!("{}{q}", today_month.as_deref().unwrap_or("/")),
            q,
            qa,
            langs,
            version => self.catalog.version,
            // The grade form submits to the page's path.
            path,
            grade,
            grade_text => grade
                .map(|g| crate::feeds::school_holidays::grades_text(&[g], lang))
                .unwrap_or_default(),
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

    pub fn served_today(&self) -> Option<Date> {
        Date::from_naive(self.today)
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
                context! { number => self.catalog.calendar_of(week[0]).1, cells }
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

    /// One day in a month grid: its kinds as CSS classes, [`mark`]s and words (`label`, for
    /// screen readers and the tooltip), its holidays and name days.
    fn cell(&self, date: Date) -> minijinja::Value {
        let mut holidays = self.red_names(date);
        // Each kind of the day: its class, its mark, its words.
        let mut kinds: Vec<(&str, Option<&str>, &str)> = Vec::new();
        if self.catalog.calendar_of(date).2 {
            kinds.push(("weekend", None, self.text("weekend")));
        }
        if !holidays.is_empty() {
            kinds.push(("red", Some(mark::RED), self.text("red_holiday")));
        }
        if let Some(t) = self.catalog.transfer_on(date) {
            let (class, mark, key) = match t.kind {
                TransferKind::DayOff => ("dayoff", mark::DAY_OFF, "declared_day_off"),
                TransferKind::WorkingDay => ("workday", mark::WORKING, "declared_working_day"),
            };
            kinds.push((class, Some(mark), self.text(key)));
            holidays.push(t.name(self.lang).to_string());
        }
        if self.catalog.status_of(date).shorter_workday {
            kinds.push(("short", Some(mark::SHORTENED), self.text("shortened")));
        }
        let school: Vec<&str> = self
            .catalog
            .school_holidays
            .overlapping(date, date, self.grade)
            .map(|p| p.kind.name(self.lang))
            .collect();
        let school_label = format!("{} ({})", self.text("school_holidays"), school.join(", "));
        if !school.is_empty() {
            kinds.push(("school", Some(mark::SCHOOL), &school_label));
        }
        if date.naive() == self.today {
            kinds.push(("today", None, self.text("today")));
        }
        let names: Vec<String> = self
            .catalog
            .name_days_on(date)
            .map(|n| n.name.to_string())
            .collect();
        let classes: Vec<&str> = kinds.iter().map(|k| k.0).collect();
        let marks: Vec<&str> = kinds.iter().filter_map(|k| k.1).collect();
        let words: Vec<&str> = kinds.iter().map(|k| k.2).collect();
        context! {
            day => date.day(),
            date => date.to_string(),
            href => day_path(date),
            kinds => classes.join(" "),
            marks => marks.join(" "),
            label => words.join("; "),
            holidays,
            names,
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
        let hours = self
            .catalog
            .working_summary(date, date, Week::Five)
            .working_hours;
        let mut out = vec![fill("status_working", "hours", &hours.to_string())];
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
}
