//! `transfers.toml`: one-off government transfers and the 2006-2008 days in lieu
//! (docs/data.md §2.2, §2.3). Their agreement with the calendar (a day off on a working day,
//! a working day on a weekend) is checked later, once holidays are placed: see `calendar`.

use std::collections::HashMap;
use std::path::Path;

use kalendorius_dataset::TransferKind;
use serde::Deserialize;
use toml::Spanned;

use super::acts::{Acts, BasisSrc};
use super::diagnostics::line_of;
use super::toml_src::{self, NamesSrc, Place};
use super::{Diagnostics, Origin, TransferDef};
use crate::error::SourceErrorKind;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TransferFile {
    #[serde(default)]
    transfer: Vec<Spanned<TransferSrc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TransferSrc {
    date: Spanned<String>,
    kind: Spanned<String>,
    confidence: Option<Spanned<String>>,
    six_day_week: Option<Spanned<bool>>,
    source: Spanned<String>,
    name: Spanned<NamesSrc>,
    /// The structured legal basis (sources/README.md, "Legal acts and bases").
    basis: Option<Spanned<Vec<Spanned<BasisSrc>>>>,
}

/// Parses the transfers file; problems go to `diag`, valid records are returned by date.
pub fn parse(file: &Path, text: &str, acts: &Acts, diag: &mut Diagnostics) -> Vec<TransferDef> {
    let Some(parsed) = toml_src::parse_file::<TransferFile>(file, text, diag) else {
        return Vec::new();
    };
    let mut by_date: HashMap<chrono::NaiveDate, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, t) in parsed.transfer.iter().enumerate() {
        let src = t.get_ref();
        let place = Place {
            file,
            text,
            key: format!("transfer[{i}] (date {})", src.date.get_ref()),
        };
        let before = diag.len();
        let date = toml_src::date(&place, "date", &src.date, diag);
        let kind = match src.kind.get_ref().as_str() {
            "day_off" => Some(TransferKind::DayOff),
            "working_day" => Some(TransferKind::WorkingDay),
            other => {
                place.error(
                    diag,
                    src.kind.span().start,
                    "kind",
                    SourceErrorKind::BadValue,
                    format!("unknown kind '{other}' (expected day_off or working_day)"),
                );
                None
            }
        };
        // Whether the 6-day week follows the transfer: only a day off can say so (a
        // working Saturday is a working day of that week anyway).
        let six_day_week = match (&src.six_day_week, kind) {
            (Some(flag), Some(TransferKind::WorkingDay)) if *flag.get_ref() => {
                place.error(
                    diag,
                    flag.span().start,
                    "six_day_week",
                    SourceErrorKind::BadValue,
                    "six_day_week = true on a working_day: a Saturday is a working day of the \
                     6-day week anyway (only a day_off can apply to it)",
                );
                false
            }
            (Some(flag), _) => *flag.get_ref(),
            (None, _) => false,
        };
        let confidence = toml_src::confidence(&place, &src.confidence, diag);
        let bases = date.and_then(|date| {
            acts.resolve(
                &place,
                src.basis.as_ref(),
                t.span().start,
                (date, Some(date)),
                confidence,
                diag,
            )
        });
        let source = toml_src::source(&place, &src.source, diag);
        let names = toml_src::names(&place, &src.name, diag);
        let line = line_of(text, src.date.span().start);
        if let Some(date) = date {
            if let Some(first) = by_date.insert(date, line) {
                place.error(
                    diag,
                    src.date.span().start,
                    "date",
                    SourceErrorKind::Duplicate,
                    format!("a second transfer on {date} (the first is at line {first})"),
                );
            }
        }
        if diag.len() != before {
            continue;
        }
        if let (Some(date), Some(kind), Some(names), Some(bases)) = (date, kind, names, bases) {
            out.push(TransferDef {
                date,
                kind,
                six_day_week,
                names,
                source,
                confidence,
                bases,
                origin: Origin {
                    file: file.to_path_buf(),
                    line,
                    key: place.key.clone(),
                },
            });
        }
    }
    out.sort_by_key(|t| t.date);
    out
}
