//! Writing iCalendar text (RFC 5545): CRLF lines folded at 75 octets without splitting a
//! UTF-8 character, TEXT values escaped. Every feed writes through [`IcsWriter`].

use chrono::{Datelike, NaiveDate};

/// The longest content line, in octets, before folding (RFC 5545, 3.1).
pub const MAX_LINE_OCTETS: usize = 75;

/// A calendar being written.
pub struct IcsWriter {
    out: String,
}

impl IcsWriter {
    /// An empty calendar text, with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> IcsWriter {
        IcsWriter {
            out: String::with_capacity(capacity),
        }
    }

    /// A property whose value is written as it is (dates, durations, rules, tokens):
    /// `name` may carry parameters (`DTSTART;VALUE=DATE`).
    pub fn raw(&mut self, name: &str, value: &str) {
        let mut line = String::with_capacity(name.len() + 1 + value.len());
        line.push_str(name);
        line.push(':');
        line.push_str(value);
        self.line(&line);
    }

    /// A property whose value is TEXT, escaped.
    pub fn text(&mut self, name: &str, value: &str) {
        self.raw(name, &escape_text(value));
    }

    /// An all-day date property (`DTSTART;VALUE=DATE:YYYYMMDD`).
    pub fn date(&mut self, name: &str, date: NaiveDate) {
        self.raw(&format!("{name};VALUE=DATE"), &basic_date(date));
    }

    /// `BEGIN:component`.
    pub fn begin(&mut self, component: &str) {
        self.raw("BEGIN", component);
    }

    /// `END:component`.
    pub fn end(&mut self, component: &str) {
        self.raw("END", component);
    }

    /// The calendar text.
    pub fn finish(self) -> String {
        self.out
    }

    /// Appends one content line, folded.
    fn line(&mut self, line: &str) {
        fold_into(&mut self.out, line);
    }
}

/// `line` folded into `out` (RFC 5545, 3.1): at most [`MAX_LINE_OCTETS`] octets per physical
/// line, CRLF after each, continuation lines starting with one space (which counts towards
/// their 75), cut only between characters.
pub fn fold_into(out: &mut String, line: &str) {
    let mut rest = line;
    let mut limit = MAX_LINE_OCTETS;
    loop {
        if rest.len() <= limit {
            out.push_str(rest);
            out.push_str("\r\n");
            return;
        }
        let mut cut = limit;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push_str(&rest[..cut]);
        out.push_str("\r\n ");
        rest = &rest[cut..];
        // The leading space of a continuation line takes one octet.
        limit = MAX_LINE_OCTETS - 1;
    }
}

/// `text` as an iCalendar TEXT value (RFC 5545, 3.3.11): backslash, semicolon and comma
/// escaped with a backslash, a line break written as `\n`.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `YYYYMMDD`, the basic form of a DATE value.
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
