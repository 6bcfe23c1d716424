//! `namedays.csv`: one name celebrated on one calendar day per row.

use std::collections::HashSet;
use std::path::Path;

use chrono::NaiveDate;
use kalendorius_dataset::Gender;

use super::{Diagnostics, NameDayRow};
use crate::error::SourceErrorKind;

/// The columns, in no particular order; all required, no others allowed.
const COLUMNS: [&str; 5] = ["month", "day", "name", "gender", "source"];

/// Parses the name-day file; problems go to `diag`, valid rows are returned in file order.
pub fn parse(file: &Path, text: &str, diag: &mut Diagnostics) -> Vec<NameDayRow> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .flexible(false)
        .from_reader(text.as_bytes());
    let header_line = |reader: &csv::Reader<&[u8]>| reader.position().line() as usize;
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            diag.at_line(file, 1, None, SourceErrorKind::Syntax, e.to_string());
            return Vec::new();
        }
    };
    // The reader sits after the header now; its line is the header's.
    let hline = header_line(&reader).saturating_sub(1).max(1);
    let mut index = [usize::MAX; 5];
    for (i, column) in headers.iter().enumerate() {
        match COLUMNS.iter().position(|c| *c == column) {
            Some(c) if index[c] == usize::MAX => index[c] = i,
            Some(_) => diag.at_line(
                file,
                hline,
                Some(column.to_string()),
                SourceErrorKind::Duplicate,
                format!("column '{column}' appears twice"),
            ),
            None => diag.at_line(
                file,
                hline,
                Some(column.to_string()),
                SourceErrorKind::UnknownField,
                format!(
                    "unknown column '{column}' (expected {})",
                    COLUMNS.join(", ")
                ),
            ),
        }
    }
    let missing: Vec<&str> = COLUMNS
        .iter()
        .zip(index)
        .filter(|(_, i)| *i == usize::MAX)
        .map(|(c, _)| *c)
        .collect();
    if !missing.is_empty() {
        diag.at_line(
            file,
            hline,
            None,
            SourceErrorKind::MissingField,
            format!("missing column(s): {}", missing.join(", ")),
        );
    }
    if !diag.is_empty() && index.contains(&usize::MAX) {
        return Vec::new();
    }

    let mut seen = HashSet::new();
    let mut rows = Vec::new();
    for (line, record) in diag.csv_records(file, &mut reader) {
        let field = |c: usize| record.get(index[c]).unwrap_or("");
        let mut bad = |column: &str, kind, message: String| {
            diag.at_line(file, line, Some(column.to_string()), kind, message)
        };
        let month = field(0)
            .parse::<u32>()
            .ok()
            .filter(|m| (1..=12).contains(m));
        let day = field(1)
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=31).contains(d));
        let date = match (month, day) {
            (Some(m), Some(d)) => match NaiveDate::from_ymd_opt(2000, m, d) {
                Some(_) => Some((m, d)),
                None => {
                    bad(
                        "day",
                        SourceErrorKind::ImpossibleDate,
                        format!("impossible date: month {m}, day {d}"),
                    );
                    None
                }
            },
            _ => {
                bad(
                    if month.is_none() { "month" } else { "day" },
                    SourceErrorKind::ImpossibleDate,
                    format!(
                        "month '{}' / day '{}' is not a calendar day (month 1-12, day 1-31)",
                        field(0),
                        field(1)
                    ),
                );
                None
            }
        };
        let name = field(2);
        let name_ok = {
            let mut chars = name.chars();
            chars.next().is_some_and(char::is_uppercase)
                && chars.all(|c| c.is_alphabetic() && c.is_lowercase())
        };
        if !name_ok {
            bad(
                "name",
                SourceErrorKind::BadName,
                format!("'{name}' is not a single capitalised name (letters only)"),
            );
        }
        let gender = match field(3) {
            "m" => Some(Gender::Male),
            "f" => Some(Gender::Female),
            other => {
                bad(
                    "gender",
                    SourceErrorKind::BadGender,
                    format!("gender '{other}' must be m or f"),
                );
                None
            }
        };
        if field(4).trim().is_empty() {
            bad(
                "source",
                SourceErrorKind::BadValue,
                "source is empty: name the lists that carry the name".into(),
            );
        }
        if let (Some((month, day)), Some(gender), true) = (date, gender, name_ok) {
            if !seen.insert((month, day, name.to_string())) {
                bad(
                    "name",
                    SourceErrorKind::Duplicate,
                    format!("'{name}' is listed twice on {month}-{day}"),
                );
                continue;
            }
            rows.push(NameDayRow {
                month,
                day,
                name: name.to_string(),
                gender,
            });
        }
    }
    rows
}
