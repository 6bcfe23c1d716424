//! The calendar for people: HTML pages over the catalog (`/` the current month, a year, a
//! month, a day, the name search), an HTML 404 for any other path outside the API, data,
//! docs and probes. A page is cached under its strong ETag, a digest of exactly its inputs
//! (dataset version, path, query, and today on pages that show it).

pub mod view;

use bytes::Bytes;
use chrono::{Datelike, Months, NaiveDate};
use kalendorius_dataset::contract::{
    parse_centihours, Contract, ContractError, Hours, Norm, MAX_CENTIHOURS,
};
use kalendorius_dataset::places::DEFAULT_PLACE;
use kalendorius_dataset::{Date, Lang, Week};
use minijinja::value::Serde;
use minijinja::{context, Environment, UndefinedBehavior};
use poem::http::{header, HeaderValue, StatusCode};
use poem::{IntoResponse, Request, Response};

use self::view::{day_path, link, Viewer};
use crate::catalog::Catalog;
use crate::http::cache::{self, ByteCache};
use crate::http::caching;
use crate::http::errors::{ApiError, ErrorCode};
use crate::metrics::CacheMetrics;
use crate::name_index::MAX_QUERY_CHARS;

pub const HTML: &str = "text/html; charset=utf-8";

const CSS: &str = "text/css; charset=utf-8";

/// `Cache-Control` of a page that shows today (its mark, or the current month).
pub const TODAY_CACHE: &str = "public, max-age=60";

/// Its URL changes with its content.
pub const STYLE_CACHE: &str = "public, max-age=31536000, immutable";

/// A hundred or more pages (a month page is about 20 KiB, a year page about 60 KiB): with
/// the other caches within the process's 64 MiB (docs/performance.md, Memory).
pub const CACHE_BUDGET: usize = 4 << 20;

/// The icon's URL is fixed: a week, then revalidated by its ETag.
pub const FAVICON_CACHE: &str = "public, max-age=604800";

const ICON: &str = "image/x-icon";

/// 32 by 32 pixels, one PNG image in an ICO file.
const FAVICON: &[u8] = include_bytes!("templates/favicon.ico");

const TEMPLATES: [(&str, &str); 8] = [
    ("base.html", include_str!("templates/base.html")),
    ("macros.html", include_str!("templates/macros.html")),
    ("month.html", include_str!("templates/month.html")),
    ("year.html", include_str!("templates/year.html")),
    ("day.html", include_str!("templates/day.html")),
    ("search.html", include_str!("templates/search.html")),
    ("not_found.html", include_str!("templates/not_found.html")),
    (
        "long_weekends.html",
        include_str!("templates/long_weekends.html"),
    ),
];

const STYLE: &str = include_str!("templates/style.css");

/// Prefixes that keep their JSON answers (and JSON 404s).
const NOT_PAGES: [&str; 6] = ["/api", "/data", "/docs", "/health", "/ready", "/metrics"];

pub const SEARCH_PATH: &str = "/vardai";

/// The last part of the path of a year's long weekends.
pub const LONG_WEEKENDS: &str = "ilgieji-savaitgaliai";

/// Where browsers ask for it unprompted.
pub const FAVICON_PATH: &str = "/favicon.ico";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Page {
    Home,
    Year(i32),
    Month(i32, u32),
    LongWeekends(i32),
    Day(Date),
    Search,
    Style,
    Favicon,
}

/// Whether `path` is answered in HTML (a 404 included).
pub fn is_page_path(path: &str) -> bool {
    !NOT_PAGES.iter().any(|prefix| path.starts_with(prefix))
}

/// The page `path` names, or `None` (a 404), parsed strictly: one spelling per page, so one
/// cache entry and one ETag per page. Whether its dates are served is not checked here.
fn parse(path: &str, style_path: &str) -> Option<Page> {
    match path {
        "/" => return Some(Page::Home),
        SEARCH_PATH => return Some(Page::Search),
        FAVICON_PATH => return Some(Page::Favicon),
        p if p == style_path => return Some(Page::Style),
        _ => {}
    }
    let mut parts = path.strip_prefix('/')?.split('/');
    let year = number(parts.next()?, 4)? as i32;
    match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => Some(Page::Year(year)),
        (Some(LONG_WEEKENDS), None, _) => Some(Page::LongWeekends(year)),
        (Some(month), None, _) => {
            let month = number(month, 2)?;
            (1..=12)
                .contains(&month)
                .then_some(Page::Month(year, month))
        }
        (Some(month), Some(day), None) => {
            let (month, day) = (number(month, 2)?, number(day, 2)?);
            Date::from_ymd(year, month, day).ok().map(Page::Day)
        }
        _ => None,
    }
}

fn number(text: &str, digits: usize) -> Option<u32> {
    let exact = text.len() == digits && text.bytes().all(|b| b.is_ascii_digit());
    text.parse().ok().filter(|_| exact)
}

pub struct Pages {
    env: Environment<'static>,
    style_path: String,
    style_etag: HeaderValue,
    favicon_etag: HeaderValue,
    cache: ByteCache<Box<str>, Bytes>,
}

impl Pages {
    /// Panics on a template error, a bug caught by the unit tests.
    pub fn new(cache_metrics: CacheMetrics) -> Pages {
        let mut env = Environment::new();
        // A missing value is an error, never an empty string.
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        for (name, source) in TEMPLATES {
            env.add_template(name, source)
                .unwrap_or_else(|err| panic!("template {name}: {err}"));
        }
        env.add_global("marks", minijinja::Value::from_pairs(view::MARKS));
        let hash = kalendorius_dataset::digest::short_sha256_hex(STYLE.as_bytes());
        Pages {
            env,
            style_path: format!("/static/style.{hash}.css"),
            style_etag: caching::digest_etag("css", STYLE.as_bytes()),
            favicon_etag: caching::digest_etag("icon", FAVICON),
            cache: ByteCache::new(CACHE_BUDGET, cache_metrics),
        }
    }

    /// Whether `path` is the stylesheet or the icon (uncounted: a page view costs one count).
    pub fn is_asset(&self, path: &str) -> bool {
        path == self.style_path || path == FAVICON_PATH
    }

    /// Answers a GET of a page path (`is_page_path`) on `today` (Vilnius).
    pub fn answer(&self, req: &Request, catalog: &Catalog, today: NaiveDate) -> Response {
        let path = req.uri().path();
        let query = PageQuery::parse(req.uri().query());
        let page = parse(path, &self.style_path);
        let asset = match page {
            Some(Page::Style) => Some((STYLE.as_bytes(), &self.style_etag, STYLE_CACHE, CSS)),
            Some(Page::Favicon) => Some((FAVICON, &self.favicon_etag, FAVICON_CACHE, ICON)),
            _ => None,
        };
        if let Some((body, etag, cache_control, content_type)) = asset {
            let body = Bytes::from_static(body);
            return caching::fixed(req.headers(), etag, cache_control, content_type, body);
        }
        // A date outside the dataset is a 404.
        let served_year = |y: i32| catalog.years().contains(&y);
        let page = page.filter(|page| match *page {
            Page::Home => served_year(today.year()),
            Page::Year(y) | Page::Month(y, _) | Page::LongWeekends(y) => served_year(y),
            Page::Day(d) => catalog.contains(d),
            Page::Search | Page::Style | Page::Favicon => true,
        });
        let shows_today = match page {
            Some(Page::Home | Page::Search) | None => true,
            Some(Page::Year(y)) => y == today.year(),
            Some(Page::Month(y, m)) => (y, m) == (today.year(), today.month()),
            Some(Page::Day(d)) => d.naive() == today,
            Some(Page::LongWeekends(_) | Page::Style | Page::Favicon) => false,
        };
        let day = shows_today.then(|| today.to_string());
        let grade = query.grade.map(|g| g.to_string());
        // Only the search reads `q`: on another page it would make a new entry per value.
        let q = if page == Some(Page::Search) {
            query.q.as_str()
        } else {
            ""
        };
        // Only the year page reads the contract, for the same reason.
        let (hours, norm) = match page {
            Some(Page::Year(_)) => (query.hours_per_week.as_str(), query.norm.as_str()),
            _ => ("", ""),
        };
        let parts = [
            &catalog.etag_tag,
            path,
            query.lang.code(),
            q,
            day.as_deref().unwrap_or(""),
            grade.as_deref().unwrap_or(""),
            query.place.as_deref().unwrap_or(""),
            hours,
            norm,
        ];
        let etag = caching::digest_etag("pg", parts.join("\u{0}").as_bytes());
        let cache_control = if shows_today {
            TODAY_CACHE
        } else {
            caching::PUBLIC
        };
        let found = page.is_some();
        if found && caching::not_modified(req.headers(), &etag) {
            return Response::builder()
                .status(StatusCode::NOT_MODIFIED)
                .header(header::ETAG, etag)
                .header(header::CACHE_CONTROL, cache_control)
                .finish();
        }
        let key = etag.to_str().unwrap_or_default();
        let cached = if found { self.cache.get(key) } else { None };
        let body = match cached {
            Some(body) => body,
            None => match self.render(catalog, today, path, page, &query) {
                Ok(body) => {
                    // 404s are not kept: any path is one; they would push the real pages out.
                    if found {
                        self.cache.insert(key.into(), body.clone());
                    }
                    body
                }
                Err(err) => {
                    tracing::error!(error = %err, path, "a page failed to render");
                    return ApiError::new(ErrorCode::Internal, "internal error").into_response();
                }
            },
        };
        let resp = Response::builder()
            .header(header::CONTENT_TYPE, HTML)
            .header(header::ETAG, etag);
        if found {
            resp.header(header::CACHE_CONTROL, cache_control).body(body)
        } else {
            resp.status(StatusCode::NOT_FOUND).body(body)
        }
    }

    /// Renders `page` (`None`: the 404 page).
    fn render(
        &self,
        catalog: &Catalog,
        today: NaiveDate,
        path: &str,
        page: Option<Page>,
        query: &PageQuery,
    ) -> Result<Bytes, minijinja::Error> {
        let v = &Viewer {
            catalog,
            lang: query.lang,
            today,
            grade: query.grade,
            place: query
                .place
                .as_deref()
                .and_then(|slug| catalog.places.get(slug)),
        };
        let extra = (page == Some(Page::Search) && !query.q.is_empty())
            .then(|| format!("&q={}", encode(&query.q)));
        let frame = v.frame(&self.style_path, path, extra.as_deref().unwrap_or(""));
        let (name, ctx) = match page {
            Some(Page::Home) => {
                let month = self.month_context(v, v.today.year(), v.today.month());
                (
                    "month.html",
                    context! { next_red => v.next_red_day(), ..month },
                )
            }
            Some(Page::Month(y, m)) => ("month.html", self.month_context(v, y, m)),
            Some(Page::Year(y)) => ("year.html", self.year_context(v, y, query)),
            Some(Page::LongWeekends(y)) => ("long_weekends.html", v.long_weekends_context(y)),
            Some(Page::Day(date)) => ("day.html", self.day_context(v, date, query)),
            Some(Page::Search) => ("search.html", self.search_context(v, &query.q)),
            Some(Page::Style | Page::Favicon) | None => (
                "not_found.html",
                context! {
                    title => v.text("not_found_title"),
                    range => v.fill_years("served_range"),
                },
            ),
        };
        let template = self.env.get_template(name)?;
        let html = template.render(context! { c => frame, ..ctx })?;
        Ok(cache::exact(html.into_bytes()))
    }

    fn month_context(&self, v: &Viewer, year: i32, month: u32) -> minijinja::Value {
        let first = NaiveDate::from_ymd_opt(year, month, 1).expect("a served month");
        let neighbour = |d: NaiveDate| v.served(d).map(|_| v.month_link(d.year(), d.month()));
        context! {
            title => v.month_title(year, month),
            grid => v.month_grid(year, month),
            year,
            prev => neighbour(first - Months::new(1)),
            next => neighbour(first + Months::new(1)),
        }
    }

    fn year_context(&self, v: &Viewer, year: i32, query: &PageQuery) -> minijinja::Value {
        let months: Vec<_> = (1..=12).map(|m| v.month_grid(year, m)).collect();
        let first = Date::from_ymd(year, 1, 1).expect("a served year");
        let last = Date::from_ymd(year, 12, 31).expect("a served year");
        let served = |y: i32| v.catalog.years().contains(&y);
        let (contract, error) = page_contract(query);
        let summary = v.catalog.contract_summary(first, last, &contract);
        let weekly = Hours(contract.minutes_per_week().into());
        let norm = contract.norm();
        context! {
            title => v.fill("year_title", &[("y", &year.to_string())]),
            year,
            months,
            summary => Serde(summary),
            summary_hours => v.decimal(summary.working_hours),
            week_note => (!contract.is_forty_hours()).then(|| v.fill(
                "week_note_contract",
                &[("hours", &v.decimal(weekly)), ("norm", v.text(&format!("norm_{}", norm.as_str())))],
            )),
            contract => context! {
                // As the parameter is written (`38.25`), whatever the language.
                hours => if error.is_some() { query.hours_per_week.clone() } else { weekly.to_string() },
                norm => norm.as_str(),
                norms => Norm::NAMES.to_vec(),
                error => error.map(|key| v.text(key)),
            },
            long_weekends => view::long_weekends_path(year),
            prev => served(year - 1).then(|| format!("/{:04}", year - 1)),
            next => served(year + 1).then(|| format!("/{:04}", year + 1)),
        }
    }

    fn day_context(&self, v: &Viewer, date: Date, query: &PageQuery) -> minijinja::Value {
        let holidays: Vec<_> = v
            .catalog
            .holidays_on(date)
            .map(|h| {
                context! {
                    name => h.name(v.lang),
                    kind => v.text(&format!("type_{}", h.kind.as_str())),
                    red => h.is_red,
                    unsure => v.unsure_label(h.confidence),
                }
            })
            .collect();
        let basis: Vec<_> = v
            .catalog
            .bases_of(date)
            .into_iter()
            .map(|b| {
                context! {
                    text => b.text(v.lang),
                    url => b.url.as_deref(),
                    unsure => v.unsure_label(Some(b.confidence)),
                }
            })
            .collect();
        let names: Vec<_> = v
            .catalog
            .name_days_on(date)
            .map(|n| {
                let href = format!("{}?q={}", SEARCH_PATH, encode(&n.name));
                link(href, n.name.to_string())
            })
            .collect();
        let near = |d: Option<NaiveDate>| {
            let d = v.served(d?)?;
            Some(link(day_path(d), v.date_long(d)))
        };
        let school_holidays = &v.catalog.school_holidays;
        let school: Vec<_> = school_holidays
            .overlapping(date, date, v.grade)
            .map(|p| {
                context! {
                    name => p.kind.name(v.lang),
                    start => p.start.to_string(),
                    end => p.end.to_string(),
                    start_text => v.date_long(p.start),
                    end_text => v.date_long(p.end),
                    grades => crate::feeds::school_holidays::grades_text(&p.grades, v.lang),
                    unsure => v.unsure_label(Some(p.confidence)),
                }
            })
            .collect();
        context! {
            title => v.date_long(date),
            date => date.to_string(),
            weekday => v.weekday(date),
            week => v.catalog.calendar_of(date).iso_week,
            is_today => date.naive() == v.today,
            status => v.status_sentences(date),
            off => v.catalog.status_of(date).laisvadienis,
            holidays,
            basis,
            names,
            prev => near(date.naive().pred_opt()),
            next => near(date.naive().succ_opt()),
            month => v.month_link(date.year(), date.month()),
            school,
            school_covered => school_holidays.covered(date, date, v.grade),
            sky => v.sky_context(date),
            unknown_place => match (&query.place, v.place) {
                (Some(slug), None) => Some(v.fill("unknown_place", &[("slug", slug)])),
                _ => None,
            },
        }
    }

    fn search_context(&self, v: &Viewer, q: &str) -> minijinja::Value {
        let q = q.trim();
        let too_long = q.chars().count() > MAX_QUERY_CHARS;
        let searched = !q.is_empty() && !too_long;
        let results = if searched { v.search(q) } else { Vec::new() };
        context! {
            title => v.text("nav_search"),
            q,
            searched,
            too_long,
            count_text => v.fill("search_results", &[("count", &results.len().to_string())]),
            results,
        }
    }
}

/// The year page's contract (the 5-day week) from its form, and the text key of what is
/// wrong with the form (then the 40-hour week). Read by the dataset's rules, as the API
/// reads `hours_per_week` and `norm`; absent or empty is 40 hours, `full`.
fn page_contract(query: &PageQuery) -> (Contract, Option<&'static str>) {
    let forty = Contract::forty_hours(Week::Five);
    let hours = Some(query.hours_per_week.as_str()).filter(|h| !h.is_empty());
    let norm = Some(query.norm.as_str()).filter(|n| !n.is_empty());
    let centihours = hours.map_or(Some(MAX_CENTIHOURS), parse_centihours);
    let norm = norm.map(Norm::parse);
    let (Some(centihours), None | Some(Some(_))) = (centihours, norm) else {
        return (forty, Some("contract_bad_hours"));
    };
    let norm = norm.flatten();
    match Contract::of_hours(Week::Five, centihours, norm) {
        Ok(contract) => (contract, None),
        Err(ContractError::NormMissing | ContractError::FullNotForty) => {
            (forty, Some("contract_norm_missing"))
        }
        Err(_) => (forty, Some("contract_not_shorter")),
    }
}

/// `lang` (an unknown one is lt), `q`, `grade` (0..12, else none), `place` (a slug; the
/// default place is none), and the year page's `hours_per_week` and `norm` as sent (checked
/// by [`page_contract`]).
#[derive(Default)]
struct PageQuery {
    lang: Lang,
    q: String,
    grade: Option<u8>,
    place: Option<String>,
    hours_per_week: String,
    norm: String,
}

impl PageQuery {
    fn parse(query: Option<&str>) -> PageQuery {
        let mut out = PageQuery::default();
        for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            match name.as_ref() {
                "lang" => out.lang = Lang::parse(&value).unwrap_or(Lang::Lt),
                // Bounded: a longer query is refused by the page anyway.
                "q" => out.q = value.chars().take(MAX_QUERY_CHARS + 1).collect(),
                // Bounded too: a longer value is no number of hours or norm.
                "hours_per_week" => out.hours_per_week = value.chars().take(16).collect(),
                "norm" => out.norm = value.chars().take(16).collect(),
                "grade" => {
                    out.grade = value.parse::<u8>().ok().filter(|g| {
                        *g <= kalendorius_dataset::school::MAX_GRADE && value == g.to_string()
                    })
                }
                // Bounded like `q`: the slugs are short, a longer value names no place.
                "place" if value != DEFAULT_PLACE && !value.is_empty() => {
                    out.place = Some(value.chars().take(MAX_QUERY_CHARS).collect())
                }
                _ => {}
            }
        }
        out
    }
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[cfg(test)]
mod tests;
