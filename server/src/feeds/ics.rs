//! Writing iCalendar text (RFC 5545): CRLF lines folded at 75 octets without splitting a
//! UTF-8 character, TEXT values escaped.

use chrono::{Datelike, NaiveDate};

use super::PRODID;

pub const MAX_LINE_OCTETS: usize = 75;

/// One all-day event: `end` is exclusive (the day after the last), `rule` an `RRULE`.
#[derive(Default)]
pub struct Event<'a> {
    pub uid: String,
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub rule: Option<&'static str>,
    pub summary: String,
    pub description: Option<String>,
    pub category: Option<&'a str>,
}

/// The calendar text: its header, then `events`, each stamped `stamp`.
pub fn calendar<'a>(
    name: &str,
    description: &str,
    stamp: &str,
    capacity: usize,
    events: impl IntoIterator<Item = Event<'a>>,
) -> String {
    let mut out = String::with_capacity(capacity);
    let mut raw = |name: &str, value: &str| fold_into(&mut out, &format!("{name}:{value}"));
    raw("BEGIN", "VCALENDAR");
    raw("VERSION", "2.0");
    raw("PRODID", &escape_text(PRODID));
    raw("CALSCALE", "GREGORIAN");
    raw("METHOD", "PUBLISH");
    raw("X-WR-CALNAME", &escape_text(name));
    raw("X-WR-CALDESC", &escape_text(description));
    raw("X-WR-TIMEZONE", "Europe/Vilnius");
    raw("REFRESH-INTERVAL;VALUE=DURATION", "P1D");
    raw("X-PUBLISHED-TTL", "P1D");
    for event in events {
        raw("BEGIN", "VEVENT");
        raw("UID", &event.uid);
        raw("DTSTAMP", stamp);
        raw("DTSTART;VALUE=DATE", &basic_date(event.start));
        raw("DTEND;VALUE=DATE", &basic_date(event.end));
        if let Some(rule) = event.rule {
            raw("RRULE", rule);
        }
        raw("SUMMARY", &escape_text(&event.summary));
        if let Some(description) = &event.description {
            raw("DESCRIPTION", &escape_text(description));
        }
        if let Some(category) = event.category {
            raw("CATEGORIES", &escape_text(category));
        }
        raw("TRANSP", "TRANSPARENT");
        raw("END", "VEVENT");
    }
    raw("END", "VCALENDAR");
    out
}

/// `line` folded into `out`; a continuation line's leading space is one of its 75 octets.
pub fn fold_into(out: &mut String, line: &str) {
    let mut rest = line;
    let mut limit = MAX_LINE_OCTETS;
    while rest.len() > limit {
        let mut cut = limit;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push_str(&rest[..cut]);
        out.push_str("\r\n ");
        rest = &rest[cut..];
        limit = MAX_LINE_OCTETS - 1;
    }
    out.push_str(rest);
    out.push_str("\r\n");
}

/// `text` as an iCalendar TEXT value (RFC 5545, 3.3.11).
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            // A CRLF is one line break.
            '\r' if chars.peek() != Some(&'\n') => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `YYYYMMDD`.
pub fn basic_date(date: NaiveDate) -> String {
    format!("{:04}{:02}{:02}", date.year(), date.month(), date.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape_text("a,b;c\\d\ne\r\nf\rg"),
            "a\\,b\\;c\\\\d\\ne\\nf\\ng"
        );
    }

    #[test]
    fn folding_keeps_lines_short_and_characters_whole() {
        for line in [
            "SUMMARY:".to_string() + &"ž".repeat(100),
            "SUMMARY:".to_string() + &"a".repeat(300),
            "X:".to_string() + &"€a".repeat(77),
            "SUMMARY:short".to_string(),
        ] {
            let mut out = String::new();
            fold_into(&mut out, &line);
            assert!(out.ends_with("\r\n"));
            let physical: Vec<&str> = out.trim_end_matches("\r\n").split("\r\n").collect();
            for (i, part) in physical.iter().enumerate() {
                assert!(part.len() <= MAX_LINE_OCTETS, "{part:?}");
                assert_eq!(i > 0, part.starts_with(' '));
            }
            // Unfolding gives the line back.
            let unfolded: String = physical
                .iter()
                .enumerate()
                .map(|(i, p)| if i == 0 { *p } else { &p[1..] })
                .collect();
            assert_eq!(unfolded, line);
        }
    }
}
