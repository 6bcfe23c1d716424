//! Pieces shared by the TOML sources: parsing with positions, the four-language `name`
//! table, dates, `source` and `confidence` fields.

use std::path::Path;

use chrono::NaiveDate;
use kalendorius_dataset::{Confidence, Date};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use toml::Spanned;

use super::{Diagnostics, Names};
use crate::error::SourceErrorKind;

/// Parses a whole TOML file into `T`, recording a syntax or shape error at its line.
pub fn parse_file<T: DeserializeOwned>(
    file: &Path,
    text: &str,
    diag: &mut Diagnostics,
) -> Option<T> {
    match toml::from_str::<T>(text) {
        Ok(value) => Some(value),
        Err(e) => {
            let message = e.message().to_string();
            let kind = if message.contains("expected one of `lt`, `en`") {
                SourceErrorKind::UnknownLanguage
            } else if message.starts_with("unknown field") {
                SourceErrorKind::UnknownField
            } else if message.starts_with("missing field") {
                SourceErrorKind::MissingField
            } else {
                SourceErrorKind::Syntax
            };
            let offset = e.span().map_or(0, |s| s.start);
            diag.at_offset(file, text, offset, None, kind, message);
            None
        }
    }
}

/// A `name` table as written: languages are optional here so that a missing one gets a
/// precise message instead of serde's.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamesSrc {
    pub lt: Option<String>,
    pub en: Option<String>,
    pub pl: Option<String>,
    pub ru: Option<String>,
}

/// Where a value sits, for messages: the file, its text, and the key path of the value.
pub struct Place<'a> {
    /// The file.
    pub file: &'a Path,
    /// Its text (to turn offsets into lines).
    pub text: &'a str,
    /// Key path of the enclosing record, e.g. `holiday[2]`.
    pub key: String,
}

impl Place<'_> {
    /// Records a problem at `offset`, under `key.field`.
    pub fn error(
        &self,
        diag: &mut Diagnostics,
        offset: usize,
        field: &str,
        kind: SourceErrorKind,
        message: impl Into<String>,
    ) {
        let key = if field.is_empty() {
            self.key.clone()
        } else {
            format!("{}.{field}", self.key)
        };
        diag.at_offset(self.file, self.text, offset, Some(key), kind, message);
    }
}

/// All four languages, each non-empty.
pub fn names(place: &Place, name: &Spanned<NamesSrc>, diag: &mut Diagnostics) -> Option<Names> {
    let src = name.get_ref();
    let mut missing = Vec::new();
    let mut get = |lang: &'static str, value: &Option<String>| match value {
        Some(v) if !v.trim().is_empty() => v.trim().to_string(),
        _ => {
            missing.push(lang);
            String::new()
        }
    };
    let names = Names {
        lt: get("lt", &src.lt),
        en: get("en", &src.en),
        pl: get("pl", &src.pl),
        ru: get("ru", &src.ru),
    };
    if missing.is_empty() {
        Some(names)
    } else {
        place.error(
            diag,
            name.span().start,
            "name",
            SourceErrorKind::MissingTranslation,
            format!(
                "missing translation: {} (every name needs lt, en, pl and ru, none empty)",
                missing.join(", ")
            ),
        );
        None
    }
}

/// Like [`names`], but only `lt` is required; other languages fall back to `current`.
pub fn former_names(
    place: &Place,
    src: &NamesSrc,
    offset: usize,
    current: &Names,
    diag: &mut Diagnostics,
) -> Option<Names> {
    let pick = |value: &Option<String>, fallback: &str| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .unwrap_or(fallback)
            .to_string()
    };
    match src.lt.as_deref().map(str::trim) {
        Some(lt) if !lt.is_empty() => Some(Names {
            lt: lt.to_string(),
            en: pick(&src.en, &current.en),
            pl: pick(&src.pl, &current.pl),
            ru: pick(&src.ru, &current.ru),
        }),
        _ => {
            place.error(
                diag,
                offset,
                "lt",
                SourceErrorKind::MissingTranslation,
                "a former name needs its Lithuanian wording (lt)",
            );
            None
        }
    }
}

/// A strict `YYYY-MM-DD` date in 1583..2100.
pub fn date(
    place: &Place,
    field: &str,
    value: &Spanned<String>,
    diag: &mut Diagnostics,
) -> Option<NaiveDate> {
    match Date::parse(value.get_ref()) {
        Ok(d) => Some(d.naive()),
        Err(e) => {
            place.error(
                diag,
                value.span().start,
                field,
                SourceErrorKind::ImpossibleDate,
                format!("'{}' is not a valid date: {e}", value.get_ref()),
            );
            None
        }
    }
}

/// A non-empty `source`.
pub fn source(place: &Place, value: &Spanned<String>, diag: &mut Diagnostics) -> String {
    let text = value.get_ref().trim();
    if text.is_empty() {
        place.error(
            diag,
            value.span().start,
            "source",
            SourceErrorKind::BadValue,
            "source is empty: cite the act, article or reference",
        );
    }
    text.to_string()
}

/// An optional `confidence`: confirmed (the default: a record without one states a fact
/// its source confirms), derived or uncertain.
pub fn confidence(
    place: &Place,
    value: &Option<Spanned<String>>,
    diag: &mut Diagnostics,
) -> Confidence {
    let Some(value) = value else {
        return Confidence::Confirmed;
    };
    match Confidence::parse(value.get_ref()) {
        Some(c) => c,
        None => {
            place.error(
                diag,
                value.span().start,
                "confidence",
                SourceErrorKind::BadValue,
                format!(
                    "unknown confidence '{}' (expected confirmed, derived or uncertain)",
                    value.get_ref()
                ),
            );
            Confidence::Confirmed
        }
    }
}
