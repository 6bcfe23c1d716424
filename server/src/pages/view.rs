//! What each page shows, looked up in the catalog and put into words for the templates
//! (every calendar fact is the catalog's).

use chrono::{Datelike, NaiveDate};
use kalendorius_dataset::working_time::Week;
use kalendorius_dataset::{Confidence, Date, Lang, Reason, TransferKind};
use minijinja::context;
use minijinja::value::Serde;

use crate::catalog::Catalog;
use crate::i18n::{capitalized, Texts};
use crate::name_index::{MatchKind, MAX_MATCHES};

/// Marks of the day kinds in the grid: each kind has a symbol (or text) as well as a colour.
pub mod mark {
    pub const RED: &str = "★";
    pub const DAY_OFF: &str = "◆";
    pub const WORKING: &str = "▲";
    pub const SHORTENED: &str = "−1";
    /// A day of the pupils' holidays (of the chosen grade, or of any grade).
    pub const SCHOOL: &str = "○";
}

/// The query that keeps the language (other than the default) and the grade on internal
/// links: `""`, `?lang=en`, `?grade=5`, `?lang=en&grade=5` (`separator` first).
pub fn page_query(lang: Lang, grade: Option<u8>, separator: char) -> String {
    let mut out = String::new();
    if lang != Lang::Lt {
        out = format!("&lang={}", lang.code());
    }
    if let Some(g) = grade {
        out += &format!("&grade={g}");
    }
    out.replacen('&', &separator.to_string(), 1)
}

pub fn month_path(year: i32, month: u32) -> String {
    format!("/{year:04}/{month:02}")
}

pub fn day_path(date: Date) -> String {
    format!("/{:04}/{:02}/{:02}", date.year(), date.month(), date.day())
}

/// Builds the pages' values from one catalog, in one language, on one day.
pub struct Viewer<'a> {
    pub catalog: &'a Catalog,
    pub texts: &'a Texts,
    pub lang: Lang,
    pub today: NaiveDate,
    /// The grade whose pupils' holidays are shown (`None`: those of any grade).
    pub grade: Option<u8>,
}

impl Viewer<'_> {
    pub fn text(&self, key: &str) -> &str {
        self.texts.text(self.lang, key)
    }

    /// The pattern `key` with its `fields` filled in.
    pub fn fill(&self, key: &str, fields: &[(&str, &str)]) -> String {
        self.texts.fill(self.lang, key, fields)
    }

    /// What every page needs (`c` in the templates): the language, the labels, the links of
    /// the frame, for the page at `path` (with `extra`, such as `q=...`, and the grade kept on
    /// the language links), its stylesheet at `css`.
    pub fn frame(&self, css: &str, path: &str, extra: Option<String>) -> minijinja::Value {
        let (lang, grade) = (self.lang, self.grade);
        let langs: Vec<_> = Lang::ALL
            .iter()
            .map(|&other| {
                let href = match &extra {
                    Some(extra) => format!("{path}?{extra}{}", page_query(other, grade, '&')),
                    None => format!("{path}{}", page_query(other, grade, '?')),
                };
                context! {
                    code => other.code(),
                    name => self.texts.text(other, "language_name"),
                    href,
                    current => other == lang,
                }
            })
            .collect();
        let today_month = self.served_today().map(|d| month_path(d.year(), d.month()));
        // The query that keeps the language on internal links: `""` for lt, `?lang=en`...
        let q = page_query(lang, grade, '?');
        context! {
            lang => lang.code(),
            t => self.texts.value(lang),
            css,
            today_href => format!("{}{q}", today_month.as_deref().unwrap_or("/")),
            q,
            // The same, to follow another parameter: `""` or `&lang=en`.
            qa => page_query(lang, grade, '&'),
            langs,
            version => self.catalog.version,
            // The grade form submits to the page's path.
            path,
            grade,
            // The chosen grade in words ("5 kl.", "grade 5"); empty without one.
            grade_text => grade
                .map(|g| crate::feeds::school_holidays::grades_text(&[g], lang))
                .unwrap_or_default(),
            // The page's `<meta name="description">`.
            description => self.fill_years("site_description"),
        }
    }

    /// "2026 m. gruodis", "December 2026".
    pub fn month_title(&self, year: i32, month: u32) -> String {
        let name = self.texts.item(self.lang, "months", month as usize - 1);
        let name = if self.lang == Lang::Lt {
            name.to_string()
        } else {
            capitalized(name)
        };
        self.fill("month_title", &[("y", &year.to_string()), ("month", &name)])
    }

    /// "2026 m. gruodžio 24 d.", "24 December 2026".
    pub fn date_long(&self, date: Date) -> String {
        self.fill(
            "date_long",
            &[
                ("y", &date.year().to_string()),
                ("month_gen", self.month_gen(date.month())),
                ("d", &date.day().to_string()),
            ],
        )
    }

    /// "birželio 24 d.", "24 June"; `days` may be several ("14–16", "28, 29").
    pub fn day_month(&self, month: u32, days: &str) -> String {
        let fields = [("month_gen", self.month_gen(month)), ("d", days)];
        self.fill("day_month", &fields)
    }

    /// The pattern `key` with the first and the last year served.
    pub fn fill_years(&self, key: &str) -> String {
        let years = self.catalog.years();
        let fields: [(&str, &str); 2] = [
            ("first", &years.start().to_string()),
            ("last", &years.end().to_string()),
        ];
        self.fill(key, &fields)
    }

    fn month_gen(&self, month: u32) -> &str {
        self.texts.item(self.lang, "months_gen", month as usize - 1)
    }

    /// The weekday's name (0 = Monday).
    pub fn weekday(&self, monday_based: u32) -> &str {
        self.texts
            .item(self.lang, "weekdays", monday_based as usize)
    }

    /// Today, when the catalog serves it.
    pub fn served_today(&self) -> Option<Date> {
        Date::from_naive(self.today)
            .ok()
            .filter(|d| self.catalog.contains(*d))
    }

    /// The names of the red holidays on `date`, in the page's language.
    fn red_names(&self, date: Date) -> Vec<String> {
        self.catalog
            .holidays_on(date)
            .filter(|h| h.is_red)
            .map(|h| h.name(self.lang).to_string())
            .collect()
    }

    /// The grid of a served month: its week rows (`number`, `cells` Monday to Sunday, none
    /// outside the month), each cell with its marks, holidays and name days (the templates
    /// choose what to show), and the month's working time (5-day week).
    pub fn month_grid(&self, year: i32, month: u32) -> minijinja::Value {
        let first = Date::from_ymd(year, month, 1).expect("a served month");
        let mut weeks: Vec<(u8, Vec<Option<minijinja::Value>>)> = Vec::new();
        let mut last = first;
        let days = std::iter::successors(Some(first), |d| d.succ().filter(|d| d.month() == month));
        for day in days {
            let column = day.weekday().num_days_from_monday() as usize;
            if column == 0 || weeks.is_empty() {
                let (_, iso_week, _) = self.catalog.calendar_of(day);
                weeks.push((iso_week, vec![None; 7]));
            }
            let (_, cells) = weeks.last_mut().expect("a row was pushed");
            cells[column] = Some(self.cell(day));
            last = day;
        }
        let weekdays: Vec<_> = (0..7)
            .map(|i| {
                context! {
                    short => self.texts.item(self.lang, "weekdays_short", i),
                    full => self.weekday(i as u32),
                    weekend => i >= 5,
                }
            })
            .collect();
        let weeks: Vec<_> = weeks
            .into_iter()
            .map(|(number, cells)| context! { number, cells })
            .collect();
        context! {
            title => self.month_title(year, month),
            // The month's name alone, capitalized (the year page).
            name => capitalized(self.texts.item(self.lang, "months", month as usize - 1)),
            href => month_path(year, month),
            weekdays,
            weeks,
            summary => Serde(self.catalog.working_summary(first, last, Week::Five)),
        }
    }

    /// One day in a month grid: its kinds as CSS classes, [`mark`]s and words (`label`, for
    /// screen readers and the tooltip), its red holidays' or transfer's names, its name days.
    fn cell(&self, date: Date) -> minijinja::Value {
        let status = self.catalog.status_of(date);
        let (_, _, weekend) = self.catalog.calendar_of(date);
        let transfer = self.catalog.transfer_on(date);
        let red = self.red_names(date);
        // Each kind of the day: its class, its mark, its words.
        let mut kinds: Vec<(&str, Option<&str>, &str)> = Vec::new();
        let mut holidays = red.clone();
        if weekend {
            kinds.push(("weekend", None, self.text("weekend")));
        }
        if !red.is_empty() {
            kinds.push(("red", Some(mark::RED), self.text("red_holiday")));
        }
        if let Some(t) = transfer {
            let (class, mark, key) = match t.kind {
                TransferKind::DayOff => ("dayoff", mark::DAY_OFF, "declared_day_off"),
                TransferKind::WorkingDay => ("workday", mark::WORKING, "declared_working_day"),
            };
            kinds.push((class, Some(mark), self.text(key)));
            holidays.push(t.name(self.lang).to_string());
        }
        if status.shorter_workday {
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

    /// The status of a date in sentences: what it is, and why.
    pub fn status_sentences(&self, date: Date) -> Vec<String> {
        let status = self.catalog.status_of(date);
        let transfer = self.catalog.transfer_on(date);
        let transfer_name = transfer.map(|t| t.name(self.lang)).unwrap_or_default();
        let weekday = self.weekday(date.weekday().num_days_from_monday());
        let fill = |key, field, value: &str| self.fill(key, &[(field, value)]);
        if status.laisvadienis {
            let red = self.red_names(date);
            return vec![match status.reason {
                Some(Reason::PublicHoliday) if !red.is_empty() => {
                    fill("status_off_holiday", "names", &red.join(", "))
                }
                Some(Reason::PublicHoliday) => fill("status_off_declared", "name", transfer_name),
                _ => fill("status_off_weekend", "weekday", weekday),
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

    /// The mark of a fact or citation that is not confirmed: its confidence in words
    /// (docs/data.md §2.8); `None` when confirmed or when there is no confidence.
    pub fn unsure_label(&self, c: Option<Confidence>) -> Option<&str> {
        let c = c.filter(|c| *c != Confidence::Confirmed)?;
        Some(self.text(&format!("confidence_{}", c.as_str())))
    }

    /// The search results for `query` (already checked), each date linked to its day in
    /// today's year (February 29 in a common year: February 28, where the name is
    /// celebrated then).
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
