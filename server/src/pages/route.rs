//! Which page a path names: the paths of the HTML pages, parsed strictly (one spelling per
//! page, so one cache entry and one ETag per page).

use kalendorius_dataset::Date;

/// Prefixes that keep their JSON answers (and JSON 404s).
const NOT_PAGES: [&str; 6] = ["/api", "/data", "/docs", "/health", "/ready", "/metrics"];

pub const SEARCH_PATH: &str = "/vardai";

/// The last part of the path of a year's long weekends.
pub const LONG_WEEKENDS: &str = "ilgieji-savaitgaliai";

/// Its content hash follows.
pub const STYLE_PREFIX: &str = "/static/style.";

/// Where browsers ask for it unprompted.
pub const FAVICON_PATH: &str = "/favicon.ico";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
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

/// The page `path` names, or `None` (a 404); whether its dates are served is not checked.
pub fn parse(path: &str, style_path: &str) -> Option<Page> {
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

#[cfg(test)]
mod tests {
    use super::*;

    const STYLE: &str = "/static/style.0123abcd.css";

    #[test]
    fn each_page_has_one_spelling() {
        assert_eq!(parse("/", STYLE), Some(Page::Home));
        assert_eq!(parse("/2026", STYLE), Some(Page::Year(2026)));
        assert_eq!(parse("/2026/12", STYLE), Some(Page::Month(2026, 12)));
        assert_eq!(
            parse("/2026/12/24", STYLE),
            Some(Page::Day(Date::parse("2026-12-24").unwrap()))
        );
        assert_eq!(parse("/vardai", STYLE), Some(Page::Search));
        assert_eq!(
            parse("/2026/ilgieji-savaitgaliai", STYLE),
            Some(Page::LongWeekends(2026))
        );
        assert_eq!(parse(STYLE, STYLE), Some(Page::Style));
        assert_eq!(parse("/favicon.ico", STYLE), Some(Page::Favicon));
        for wrong in [
            "/2026/13",
            "/2026/00",
            "/2026/2",
            "/2026/02/30",
            "/2026/12/24/x",
            "/2026/",
            "/26",
            "/abc",
            "/vardai/",
            "/static/style.old.css",
            "/1500/01/01",
            "/2026/ilgieji-savaitgaliai/",
            "/2026/ilgieji-savaitgaliai/x",
            "/26/ilgieji-savaitgaliai",
        ] {
            assert_eq!(parse(wrong, STYLE), None, "{wrong}");
        }
    }

    #[test]
    fn the_api_and_the_probes_are_not_pages() {
        for path in [
            "/api/v1/day",
            "/api",
            "/data/manifest.json",
            "/docs",
            "/health",
            "/ready",
        ] {
            assert!(!is_page_path(path), "{path}");
        }
        for path in ["/", "/abc", "/2026/13", "/favicon.ico"] {
            assert!(is_page_path(path), "{path}");
        }
    }
}
