//! `holidays/*.toml`: holiday records with their date rules, observed years, red periods
//! and former names.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kalendorius_dataset::{HolidayType, FIRST_YEAR, LAST_YEAR};
use serde::Deserialize;
use toml::Spanned;

use super::acts::{Acts, BasisSrc};
use super::toml_src::{self, NamesSrc, Place};
use super::{Diagnostics, FormerName, HolidayDef, RedPeriod};
use crate::error::SourceErrorKind;
use crate::rule::{DateRule, RuleError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HolidayFile {
    #[serde(default)]
    holiday: Vec<Spanned<HolidaySrc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HolidaySrc {
    id: Spanned<String>,
    #[serde(rename = "type")]
    kind: Spanned<String>,
    rule: Spanned<String>,
    labour_code_item: Option<Spanned<i64>>,
    observed: Option<Vec<Spanned<YearRangeSrc>>>,
    source: Spanned<String>,
    name: Spanned<NamesSrc>,
    #[serde(default)]
    red: Vec<Spanned<RedSrc>>,
    #[serde(default)]
    former_name: Vec<Spanned<FormerNameSrc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct YearRangeSrc {
    from: i64,
    to: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RedSrc {
    from: Spanned<String>,
    to: Option<Spanned<String>>,
    source: Spanned<String>,
    confidence: Option<Spanned<String>>,
    /// The structured legal basis (sources/README.md, "Legal acts and bases").
    basis: Option<Spanned<Vec<Spanned<BasisSrc>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormerNameSrc {
    from: Option<Spanned<String>>,
    until: Spanned<String>,
    source: Spanned<String>,
    lt: Option<String>,
    en: Option<String>,
    pl: Option<String>,
    ru: Option<String>,
}

/// Ids seen so far over all files, with where each was first defined.
#[derive(Default)]
pub struct IdRegistry {
    seen: HashMap<String, (PathBuf, usize)>,
}

/// Parses one holidays file; problems go to `diag`, valid records are returned.
pub fn parse(
    file: &Path,
    text: &str,
    ids: &mut IdRegistry,
    acts: &Acts,
    diag: &mut Diagnostics,
) -> Vec<HolidayDef> {
    let Some(parsed) = toml_src::parse_file::<HolidayFile>(file, text, diag) else {
        return Vec::new();
    };
    parsed
        .holiday
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let place = Place {
                file,
                text,
                key: format!("holiday[{i}] (id '{}')", h.get_ref().id.get_ref()),
            };
            let line = super::diagnostics::line_of(text, h.span().start);
            let def = validate(&place, h.get_ref(), acts, diag)?;
            if let Some((first_file, first_line)) = ids.seen.get(&def.id) {
                place.error(
                    diag,
                    h.get_ref().id.span().start,
                    "id",
                    SourceErrorKind::DuplicateId,
                    format!(
                        "duplicate id '{}', first defined at {}:{first_line}",
                        def.id,
                        first_file.display()
                    ),
                );
                return None;
            }
            ids.seen.insert(def.id.clone(), (file.to_path_buf(), line));
            Some(def)
        })
        .collect()
}

fn validate(
    place: &Place,
    src: &HolidaySrc,
    acts: &Acts,
    diag: &mut Diagnostics,
) -> Option<HolidayDef> {
    let errors_before = diag.len();
    let id = src.id.get_ref().clone();
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        place.error(
            diag,
            src.id.span().start,
            "id",
            SourceErrorKind::BadValue,
            format!("id '{id}' must be non-empty lower-case a-z, 0-9 and '-'"),
        );
    }
    let kind = match src.kind.get_ref().as_str() {
        "public" => Some(HolidayType::Public),
        "traditional" => Some(HolidayType::Traditional),
        "religious" => Some(HolidayType::Religious),
        "school" => Some(HolidayType::School),
        "other" => Some(HolidayType::Other),
        other => {
            place.error(
                diag,
                src.kind.span().start,
                "type",
                SourceErrorKind::UnknownType,
                format!(
                    "unknown type '{other}' (expected public, traditional, religious, school or other)"
                ),
            );
            None
        }
    };
    let rule = DateRule::parse(src.rule.get_ref())
        .map_err(|e| {
            let kind = match e {
                RuleError::ImpossibleDate(_) => SourceErrorKind::ImpossibleDate,
                _ => SourceErrorKind::MalformedRule,
            };
            place.error(diag, src.rule.span().start, "rule", kind, e.to_string())
        })
        .ok();
    let source = toml_src::source(place, &src.source, diag);
    let names = toml_src::names(place, &src.name, diag);
    let observed = observed(place, src.observed.as_deref().unwrap_or_default(), diag);
    let red = red_periods(place, &src.red, &observed, acts, diag);

    let labour_code_item = match (&src.labour_code_item, red.is_empty()) {
        (Some(item), false) if (1..=99).contains(item.get_ref()) => Some(*item.get_ref() as u32),
        (Some(item), false) => {
            place.error(
                diag,
                item.span().start,
                "labour_code_item",
                SourceErrorKind::OutOfRange,
                format!("labour_code_item {} must be 1..99", item.get_ref()),
            );
            None
        }
        (Some(item), true) => {
            place.error(
                diag,
                item.span().start,
                "labour_code_item",
                SourceErrorKind::BadValue,
                "labour_code_item is only for holidays with red periods",
            );
            None
        }
        (None, false) => {
            place.error(
                diag,
                src.red[0].span().start,
                "labour_code_item",
                SourceErrorKind::MissingField,
                "a holiday with red periods needs labour_code_item (its position in the Labour Code list)",
            );
            None
        }
        (None, true) => None,
    };

    let names = names?;
    let mut former_names: Vec<FormerName> = src
        .former_name
        .iter()
        .enumerate()
        .filter_map(|(j, f)| {
            let fplace = Place {
                file: place.file,
                text: place.text,
                key: format!("{}.former_name[{j}]", place.key),
            };
            let until = toml_src::date(&fplace, "until", &f.get_ref().until, diag);
            let from = match &f.get_ref().from {
                Some(from) => Some(toml_src::date(&fplace, "from", from, diag)?),
                None => None,
            };
            if let (Some(from), Some(until)) = (from, until) {
                if until < from {
                    fplace.error(
                        diag,
                        f.get_ref().until.span().start,
                        "until",
                        SourceErrorKind::OutOfRange,
                        format!("former name {from}..{until} ends before it starts"),
                    );
                    return None;
                }
            }
            toml_src::source(&fplace, &f.get_ref().source, diag);
            let src = f.get_ref();
            let given = NamesSrc {
                lt: src.lt.clone(),
                en: src.en.clone(),
                pl: src.pl.clone(),
                ru: src.ru.clone(),
            };
            let names = toml_src::former_names(&fplace, &given, f.span().start, &names, diag);
            Some(FormerName {
                from,
                until: until?,
                names: names?,
            })
        })
        .collect();
    former_names.sort_by_key(|f| f.until);
    if let Some(pair) = former_names
        .windows(2)
        .find(|w| w[1].from.is_none_or(|from| from <= w[0].until))
    {
        // Point at the later entry's `until`.
        let later = src
            .former_name
            .iter()
            .find(|f| f.get_ref().until.get_ref() == &pair[1].until.to_string())
            .map_or(src.former_name[0].span().start, |f| {
                f.get_ref().until.span().start
            });
        place.error(
            diag,
            later,
            "former_name",
            SourceErrorKind::OverlappingPeriods,
            format!(
                "former names ending {} and {} overlap (give the later one a `from`)",
                pair[0].until, pair[1].until
            ),
        );
    }

    if diag.len() != errors_before {
        return None;
    }
    Some(HolidayDef {
        id,
        kind: kind?,
        rule: rule?,
        labour_code_item,
        observed,
        source,
        names,
        red,
        former_names,
    })
}

fn observed(
    place: &Place,
    ranges: &[Spanned<YearRangeSrc>],
    diag: &mut Diagnostics,
) -> Vec<(i32, Option<i32>)> {
    let mut out: Vec<(i32, Option<i32>, usize)> = Vec::new();
    let years = i64::from(FIRST_YEAR)..=i64::from(LAST_YEAR);
    for (j, r) in ranges.iter().enumerate() {
        let field = format!("observed[{j}]");
        let YearRangeSrc { from, to } = *r.get_ref();
        if !years.contains(&from) || to.is_some_and(|t| !years.contains(&t)) {
            place.error(
                diag,
                r.span().start,
                &field,
                SourceErrorKind::OutOfRange,
                format!("observed years must lie in {FIRST_YEAR}..{LAST_YEAR}"),
            );
        } else if to.is_some_and(|t| t < from) {
            place.error(
                diag,
                r.span().start,
                &field,
                SourceErrorKind::OutOfRange,
                format!(
                    "observed range {from}..{} ends before it starts",
                    to.unwrap_or(from)
                ),
            );
        } else {
            out.push((from as i32, to.map(|t| t as i32), r.span().start));
        }
    }
    out.sort();
    for w in out.windows(2) {
        if w[0].1.is_none_or(|end| end >= w[1].0) {
            place.error(
                diag,
                w[1].2,
                "observed",
                SourceErrorKind::OverlappingPeriods,
                format!("observed ranges starting {} and {} overlap", w[0].0, w[1].0),
            );
        }
    }
    out.into_iter().map(|(f, t, _)| (f, t)).collect()
}

fn red_periods(
    place: &Place,
    periods: &[Spanned<RedSrc>],
    observed: &[(i32, Option<i32>)],
    acts: &Acts,
    diag: &mut Diagnostics,
) -> Vec<RedPeriod> {
    let mut out: Vec<(RedPeriod, usize)> = Vec::new();
    for (j, p) in periods.iter().enumerate() {
        let src = p.get_ref();
        let rplace = Place {
            file: place.file,
            text: place.text,
            key: format!("{}.red[{j}]", place.key),
        };
        let from = toml_src::date(&rplace, "from", &src.from, diag);
        let to = src
            .to
            .as_ref()
            .map(|t| toml_src::date(&rplace, "to", t, diag));
        let source = toml_src::source(&rplace, &src.source, diag);
        let confidence = toml_src::confidence(&rplace, &src.confidence, diag);
        let (Some(from), Some(to)) = (from, to.unwrap_or(Some(chrono::NaiveDate::MAX))) else {
            continue;
        };
        if to < from {
            rplace.error(
                diag,
                src.to.as_ref().map_or(p.span().start, |t| t.span().start),
                "",
                SourceErrorKind::OutOfRange,
                format!("red period {from}..{to} ends before it starts"),
            );
            continue;
        }
        let to = (to != chrono::NaiveDate::MAX).then_some(to);
        use chrono::Datelike;
        let end_year = to.map(|t| t.year());
        // Every year of the period must be observed, by one observed range.
        let covered = observed.is_empty()
            || observed.iter().any(|&(f, t)| {
                f <= from.year()
                    && match (t, end_year) {
                        (None, _) => true,
                        (Some(t), Some(end)) => end <= t,
                        (Some(_), None) => false,
                    }
            });
        if !covered {
            rplace.error(
                diag,
                src.from.span().start,
                "",
                SourceErrorKind::OutOfRange,
                format!(
                    "red period {from}..{} lies outside the observed years",
                    to.map_or("(open)".to_string(), |t| t.to_string())
                ),
            );
            continue;
        }
        let Some(bases) = acts.resolve(
            &rplace,
            src.basis.as_ref(),
            p.span().start,
            (from, to),
            confidence,
            diag,
        ) else {
            continue;
        };
        out.push((
            RedPeriod {
                from,
                to,
                source,
                confidence,
                bases,
            },
            src.from.span().start,
        ));
    }
    out.sort_by_key(|(p, _)| p.from);
    for w in out.windows(2) {
        let (a, b) = (&w[0].0, &w[1].0);
        if a.to.is_none_or(|end| end >= b.from) {
            place.error(
                diag,
                w[1].1,
                "red",
                SourceErrorKind::OverlappingPeriods,
                format!(
                    "red periods {}..{} and {}..{} overlap",
                    a.from,
                    a.to.map_or("(open)".into(), |t| t.to_string()),
                    b.from,
                    b.to.map_or("(open)".into(), |t| t.to_string())
                ),
            );
        }
    }
    out.into_iter().map(|(p, _)| p).collect()
}
