//! `acts.toml`: the register of legal acts and the eve rule's periods; and every `basis`
//! of the sources, checked against the register and rendered in the four languages
//! (sources/README.md, "Legal acts and bases"; docs/data.md §2.8).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use kalendorius_dataset::{Basis, Confidence};
use serde::Deserialize;
use toml::Spanned;

use super::toml_src::{self, NamesSrc, Place};
use super::{Diagnostics, Names};
use crate::error::SourceErrorKind;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActsFile {
    #[serde(default)]
    act: Vec<Spanned<ActSrc>>,
    #[serde(default)]
    eve_rule: Vec<Spanned<EveRuleSrc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActSrc {
    id: Spanned<String>,
    kind: Spanned<String>,
    number: Option<String>,
    adopted: Option<Spanned<String>>,
    title_lt: Option<String>,
    in_force_from: Option<Spanned<String>>,
    in_force_to: Option<Spanned<String>>,
    publication: Option<String>,
    url: Option<Spanned<String>>,
    source: Spanned<String>,
    confidence: Option<Spanned<String>>,
    name: Spanned<NamesSrc>,
    genitive: Spanned<GenitiveSrc>,
}

/// The genitive of an act's short name: the case a citation needs in lt, pl and ru.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenitiveSrc {
    lt: String,
    pl: String,
    ru: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EveRuleSrc {
    from: Spanned<String>,
    to: Option<Spanned<String>>,
    basis: Spanned<Vec<Spanned<BasisSrc>>>,
    confidence: Option<Spanned<String>>,
}

/// One `basis` entry as written (holidays, transfers and eve rules use the same form).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BasisSrc {
    act: Spanned<String>,
    article: Option<String>,
    part: Option<u32>,
    item: Option<u32>,
    amended_by: Option<Spanned<String>>,
    from: Option<Spanned<String>>,
    to: Option<Spanned<String>>,
    confidence: Option<Spanned<String>>,
}

/// An act of the register, as far as citations need it.
#[derive(Debug, Clone)]
struct Act {
    number: Option<String>,
    /// Its official text in the register.
    url: Option<String>,
    /// Short name, nominative.
    name: Names,
    /// Genitive in lt, pl, ru.
    genitive: [String; 3],
}

/// A provision over the dates it is the basis, rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatedBasis {
    /// First date, inclusive.
    pub from: NaiveDate,
    /// Last date, inclusive; `None` = open.
    pub to: Option<NaiveDate>,
    /// The provision.
    pub basis: Basis,
}

impl DatedBasis {
    fn contains(&self, date: NaiveDate) -> bool {
        self.from <= date && self.to.is_none_or(|to| date <= to)
    }
}

/// The bases of a record that apply on `date`.
pub fn bases_on(bases: &[DatedBasis], date: NaiveDate) -> Vec<Basis> {
    bases
        .iter()
        .filter(|b| b.contains(date))
        .map(|b| b.basis.clone())
        .collect()
}

/// One period of the eve rule (the working day before a holiday is an hour shorter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EveRule {
    /// First date, inclusive.
    pub from: NaiveDate,
    /// Last date, inclusive; `None` = in force today.
    pub to: Option<NaiveDate>,
    /// Its provisions.
    pub bases: Vec<DatedBasis>,
}

/// The register and the eve rule, validated.
#[derive(Debug, Clone, Default)]
pub struct Acts {
    /// The file read (for errors found later, when the days are computed).
    pub file: PathBuf,
    acts: HashMap<String, Act>,
    /// In date order, contiguous.
    pub eve_rules: Vec<EveRule>,
}

impl Acts {
    /// The eve rule's provisions on `date` (empty when no period holds it).
    pub fn eve_bases_on(&self, date: NaiveDate) -> Vec<Basis> {
        self.eve_rules
            .iter()
            .find(|r| r.from <= date && r.to.is_none_or(|to| date <= to))
            .map_or_else(Vec::new, |r| bases_on(&r.bases, date))
    }

    /// Checks a `basis` list against the register and renders it. The provisions must
    /// follow each other without gap or overlap and cover exactly `from..=to` (a transfer
    /// gives its date for both); `from` and `to` of a provision default to the record's,
    /// its confidence to `confidence`. `at` is where the list stands, for a missing one.
    pub fn resolve(
        &self,
        place: &Place,
        list: Option<&Spanned<Vec<Spanned<BasisSrc>>>>,
        at: usize,
        (from, to): (NaiveDate, Option<NaiveDate>),
        confidence: Confidence,
        diag: &mut Diagnostics,
    ) -> Option<Vec<DatedBasis>> {
        let Some(list) = list.filter(|l| !l.get_ref().is_empty()) else {
            place.error(
                diag,
                list.map_or(at, |l| l.span().start),
                "basis",
                SourceErrorKind::MissingField,
                "a basis is required: the act (and article, part, item) that makes the day so \
                 (sources/README.md, \"Legal acts and bases\")",
            );
            return None;
        };
        let errors_before = diag.len();
        let mut out = Vec::new();
        for (j, b) in list.get_ref().iter().enumerate() {
            let field = format!("basis[{j}]");
            let src = b.get_ref();
            let act = self.act(place, &field, &src.act, diag);
            let amended_by = src
                .amended_by
                .as_ref()
                .map(|a| (a.get_ref().clone(), self.act(place, &field, a, diag)));
            let b_from = match &src.from {
                Some(d) => toml_src::date(place, &field, d, diag),
                None => Some(from),
            };
            let b_to = match &src.to {
                Some(d) => toml_src::date(place, &field, d, diag).map(Some),
                None => Some(to),
            };
            let confidence = match &src.confidence {
                Some(_) => toml_src::confidence(place, &src.confidence, diag),
                None => confidence,
            };
            let (Some(act), Some(b_from), Some(b_to)) = (act, b_from, b_to) else {
                continue;
            };
            if src.article.is_none() && (src.part.is_some() || src.item.is_some()) {
                place.error(
                    diag,
                    b.span().start,
                    &field,
                    SourceErrorKind::BadValue,
                    "a part or item needs its article",
                );
            }
            if matches!(src.part, Some(0)) || matches!(src.item, Some(0)) {
                place.error(
                    diag,
                    b.span().start,
                    &field,
                    SourceErrorKind::OutOfRange,
                    "part and item count from 1",
                );
            }
            if amended_by.as_ref().is_some_and(|(_, a)| a.is_none()) {
                continue;
            }
            let amended_by = amended_by.and_then(|(_, a)| a);
            let basis = render(src, src.act.get_ref(), act, amended_by, confidence);
            out.push((
                DatedBasis {
                    from: b_from,
                    to: b_to,
                    basis,
                },
                b.span().start,
            ));
        }
        if diag.len() != errors_before {
            return None;
        }
        // Contiguous, and exactly the record's dates.
        let show = |d: Option<NaiveDate>| d.map_or("(open)".to_string(), |d| d.to_string());
        let mut expected_from = Some(from);
        for (b, offset) in &out {
            if Some(b.from) != expected_from || b.to.is_some_and(|t| t < b.from) {
                place.error(
                    diag,
                    *offset,
                    "basis",
                    SourceErrorKind::OverlappingPeriods,
                    format!(
                        "the bases must follow each other without gap or overlap from {from}: \
                         one starts {} where {} was expected",
                        b.from,
                        show(expected_from)
                    ),
                );
                return None;
            }
            expected_from = b.to.and_then(|t| t.succ_opt());
        }
        let last = out.last().map(|(b, _)| b.to).unwrap_or(None);
        if last != to {
            place.error(
                diag,
                out.last().map_or(at, |(_, o)| *o),
                "basis",
                SourceErrorKind::OutOfRange,
                format!(
                    "the bases end {} but the record ends {}",
                    show(last),
                    show(to)
                ),
            );
            return None;
        }
        Some(out.into_iter().map(|(b, _)| b).collect())
    }

    fn act<'a>(
        &'a self,
        place: &Place,
        field: &str,
        id: &Spanned<String>,
        diag: &mut Diagnostics,
    ) -> Option<&'a Act> {
        let act = self.acts.get(id.get_ref());
        if act.is_none() {
            place.error(
                diag,
                id.span().start,
                field,
                SourceErrorKind::UnknownAct,
                format!("no act '{}' in acts.toml", id.get_ref()),
            );
        }
        act
    }
}

/// The citation of a provision in the four languages (docs/data.md §2.8): lt
/// "Darbo kodekso (XII-2603) 123 str. 1 d. 1 p.", en "Labour Code (XII-2603) art.
/// 123(1)(1)", pl "art. 123 ust. 1 pkt 1 Kodeksu pracy (XII-2603)", ru "п. 1 ч. 1 ст. 123
/// Трудового кодекса (XII-2603)". Without an article the act is cited by its nominative
/// name; what is not known is left out. The amending act is named by its number, or by its
/// name when its number was not found.
fn render(
    src: &BasisSrc,
    id: &str,
    act: &Act,
    amended_by: Option<&Act>,
    confidence: Confidence,
) -> Basis {
    let number = act
        .number
        .as_ref()
        .map_or(String::new(), |n| format!(" ({n})"));
    let [gen_lt, gen_pl, gen_ru] = &act.genitive;
    let (part, item) = (src.part, src.item);
    let n = |v: Option<u32>, f: &dyn Fn(u32) -> String| v.map_or(String::new(), f);
    let (lt, en, pl, ru) = match &src.article {
        None => (
            format!("{}{number}", act.name.lt),
            format!("{}{number}", act.name.en),
            format!("{}{number}", act.name.pl),
            format!("{}{number}", act.name.ru),
        ),
        Some(a) => (
            format!(
                "{gen_lt}{number} {a} str.{}{}",
                n(part, &|p| format!(" {p} d.")),
                n(item, &|i| format!(" {i} p."))
            ),
            format!(
                "{}{number} art. {a}{}{}",
                act.name.en,
                n(part, &|p| format!("({p})")),
                n(item, &|i| format!("({i})"))
            ),
            format!(
                "art. {a}{}{} {gen_pl}{number}",
                n(part, &|p| format!(" ust. {p}")),
                n(item, &|i| format!(" pkt {i}"))
            ),
            format!(
                "{}{}ст. {a} {gen_ru}{number}",
                n(item, &|i| format!("п. {i} ")),
                n(part, &|p| format!("ч. {p} "))
            ),
        ),
    };
    let (lt, en, pl, ru) = match amended_by {
        None => (lt, en, pl, ru),
        Some(Act {
            number: Some(by), ..
        }) => (
            format!("{lt} (Nr. {by} redakcija)"),
            format!("{en} (as worded by No. {by})"),
            format!("{pl} (w brzmieniu ustawy nr {by})"),
            format!("{ru} (в редакции закона № {by})"),
        ),
        Some(Act { name, .. }) => (
            format!("{lt} (redakcija: {})", name.lt),
            format!("{en} (as worded by: {})", name.en),
            format!("{pl} (w brzmieniu: {})", name.pl),
            format!("{ru} (в редакции: {})", name.ru),
        ),
    };
    Basis {
        act: id.to_string(),
        number: act.number.clone(),
        article: src.article.clone(),
        part,
        item,
        amended_by: src.amended_by.as_ref().map(|a| a.get_ref().clone()),
        url: act.url.clone(),
        confidence,
        text_lt: lt,
        text_en: en,
        text_pl: pl,
        text_ru: ru,
    }
}

/// Whether `url` is a page of the register of legal acts, where an act's official text is
/// read: e-seimas.lrs.lt (the Seimas) or e-tar.lt (the register itself).
fn is_register_url(url: &str) -> bool {
    let host = url
        .strip_prefix("https://")
        .and_then(|rest| rest.split('/').next());
    matches!(host, Some("e-seimas.lrs.lt" | "www.e-tar.lt" | "e-tar.lt"))
        && !url.contains(char::is_whitespace)
}

/// Parses `acts.toml`; problems go to `diag`.
pub fn parse(file: &Path, text: &str, diag: &mut Diagnostics) -> Acts {
    let Some(parsed) = toml_src::parse_file::<ActsFile>(file, text, diag) else {
        return Acts::default();
    };
    let mut acts = Acts {
        file: file.to_path_buf(),
        ..Acts::default()
    };
    for (i, a) in parsed.act.iter().enumerate() {
        let src = a.get_ref();
        let place = Place {
            file,
            text,
            key: format!("act[{i}] (id '{}')", src.id.get_ref()),
        };
        if !matches!(
            src.kind.get_ref().as_str(),
            "law" | "labour_code" | "government_resolution" | "ministry_order"
        ) {
            place.error(
                diag,
                src.kind.span().start,
                "kind",
                SourceErrorKind::BadValue,
                format!(
                    "unknown kind '{}' (expected law, labour_code, government_resolution or \
                     ministry_order)",
                    src.kind.get_ref()
                ),
            );
        }
        for (field, date) in [
            ("adopted", &src.adopted),
            ("in_force_from", &src.in_force_from),
            ("in_force_to", &src.in_force_to),
        ] {
            if let Some(d) = date {
                toml_src::date(&place, field, d, diag);
            }
        }
        toml_src::source(&place, &src.source, diag);
        toml_src::confidence(&place, &src.confidence, diag);
        if let Some(url) = &src.url {
            if !is_register_url(url.get_ref()) {
                place.error(
                    diag,
                    url.span().start,
                    "url",
                    SourceErrorKind::BadValue,
                    format!(
                        "url '{}' is not a page of the register (https://e-seimas.lrs.lt/… or \
                         https://www.e-tar.lt/…)",
                        url.get_ref()
                    ),
                );
            }
        }
        // Read for the record only; a citation does not show them.
        let _ = (&src.title_lt, &src.publication);
        let names = toml_src::names(&place, &src.name, diag);
        let g = src.genitive.get_ref();
        if [&g.lt, &g.pl, &g.ru].iter().any(|s| s.trim().is_empty()) {
            place.error(
                diag,
                src.genitive.span().start,
                "genitive",
                SourceErrorKind::MissingTranslation,
                "the genitive needs lt, pl and ru, none empty",
            );
        }
        if acts.acts.contains_key(src.id.get_ref()) {
            place.error(
                diag,
                src.id.span().start,
                "id",
                SourceErrorKind::DuplicateId,
                format!("duplicate act id '{}'", src.id.get_ref()),
            );
            continue;
        }
        if let Some(name) = names {
            acts.acts.insert(
                src.id.get_ref().clone(),
                Act {
                    number: src.number.clone(),
                    url: src.url.as_ref().map(|u| u.get_ref().clone()),
                    name,
                    genitive: [g.lt.clone(), g.pl.clone(), g.ru.clone()],
                },
            );
        }
    }
    let mut rules = Vec::new();
    for (i, r) in parsed.eve_rule.iter().enumerate() {
        let src = r.get_ref();
        let place = Place {
            file,
            text,
            key: format!("eve_rule[{i}]"),
        };
        let from = toml_src::date(&place, "from", &src.from, diag);
        let to = match &src.to {
            Some(t) => toml_src::date(&place, "to", t, diag).map(Some),
            None => Some(None),
        };
        let confidence = toml_src::confidence(&place, &src.confidence, diag);
        let (Some(from), Some(to)) = (from, to) else {
            continue;
        };
        let bases = acts.resolve(
            &place,
            Some(&src.basis),
            r.span().start,
            (from, to),
            confidence,
            diag,
        );
        if let Some(bases) = bases {
            rules.push((EveRule { from, to, bases }, src.from.span().start));
        }
    }
    rules.sort_by_key(|(r, _)| r.from);
    for w in rules.windows(2) {
        let ((a, _), (b, at)) = (&w[0], &w[1]);
        if a.to.and_then(|t| t.succ_opt()) != Some(b.from) {
            diag.at_offset(
                file,
                text,
                *at,
                Some("eve_rule".into()),
                SourceErrorKind::OverlappingPeriods,
                format!(
                    "eve rule periods must follow each other without gap or overlap: one starts \
                     {} after one ending {}",
                    b.from,
                    a.to.map_or("(open)".to_string(), |t| t.to_string())
                ),
            );
        }
    }
    acts.eve_rules = rules.into_iter().map(|(r, _)| r).collect();
    acts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(number: Option<&str>) -> Act {
        Act {
            number: number.map(Into::into),
            url: None,
            name: Names {
                lt: "Darbo kodeksas".into(),
                en: "Labour Code".into(),
                pl: "Kodeks pracy".into(),
                ru: "Трудовой кодекс".into(),
            },
            genitive: [
                "Darbo kodekso".into(),
                "Kodeksu pracy".into(),
                "Трудового кодекса".into(),
            ],
        }
    }

    fn src(article: Option<&str>, part: Option<u32>, item: Option<u32>) -> BasisSrc {
        BasisSrc {
            act: Spanned::new(0..0, "XII-2603".into()),
            article: article.map(Into::into),
            part,
            item,
            amended_by: None,
            from: None,
            to: None,
            confidence: None,
        }
    }

    fn texts(b: &Basis) -> [&str; 4] {
        [&b.text_lt, &b.text_en, &b.text_pl, &b.text_ru]
    }

    #[test]
    fn citations_follow_each_languages_order() {
        let code = act(Some("XII-2603"));
        let b = render(
            &src(Some("123"), Some(1), Some(1)),
            "XII-2603",
            &code,
            None,
            Confidence::Confirmed,
        );
        assert_eq!(
            texts(&b),
            [
                "Darbo kodekso (XII-2603) 123 str. 1 d. 1 p.",
                "Labour Code (XII-2603) art. 123(1)(1)",
                "art. 123 ust. 1 pkt 1 Kodeksu pracy (XII-2603)",
                "п. 1 ч. 1 ст. 123 Трудового кодекса (XII-2603)",
            ]
        );
        let eve = render(
            &src(Some("112"), Some(6), None),
            "XII-2603",
            &code,
            None,
            Confidence::Derived,
        );
        assert_eq!(
            texts(&eve),
            [
                "Darbo kodekso (XII-2603) 112 str. 6 d.",
                "Labour Code (XII-2603) art. 112(6)",
                "art. 112 ust. 6 Kodeksu pracy (XII-2603)",
                "ч. 6 ст. 112 Трудового кодекса (XII-2603)",
            ]
        );
        assert_eq!(eve.confidence, Confidence::Derived);
        let whole = render(
            &src(None, None, None),
            "x",
            &act(None),
            None,
            Confidence::Confirmed,
        );
        assert_eq!(whole.text_lt, "Darbo kodeksas");
        assert_eq!(whole.text_en, "Labour Code");
        let amended = render(
            &src(Some("162¹"), None, None),
            "IX-926",
            &act(Some("IX-926")),
            Some(&act(Some("X-458"))),
            Confidence::Confirmed,
        );
        assert_eq!(
            texts(&amended),
            [
                "Darbo kodekso (IX-926) 162¹ str. (Nr. X-458 redakcija)",
                "Labour Code (IX-926) art. 162¹ (as worded by No. X-458)",
                "art. 162¹ Kodeksu pracy (IX-926) (w brzmieniu ustawy nr X-458)",
                "ст. 162¹ Трудового кодекса (IX-926) (в редакции закона № X-458)",
            ]
        );
    }
}

#[cfg(test)]
mod shift_provisions {
    use super::*;

    /// The provisions `/shift-hours` cites (the dataset crate's `shift::provisions_on`) read
    /// as the register of `sources/acts.toml` renders them: same act, same words.
    #[test]
    fn are_cited_as_the_register_renders_them() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sources/acts.toml");
        let text = std::fs::read_to_string(&file).unwrap();
        let mut diag = Diagnostics::default();
        let register = parse(&file, &text, &mut diag);
        assert!(diag.is_empty(), "{diag:?}");
        let mut cited = 0;
        for year in [2003, 2017, 2026] {
            let date = NaiveDate::from_ymd_opt(year, 7, 1).unwrap();
            for basis in kalendorius_dataset::shift::provisions_on(date) {
                let act = register
                    .acts
                    .get(&basis.act)
                    .expect("an act of the register");
                let src = BasisSrc {
                    act: Spanned::new(0..0, basis.act.clone()),
                    article: basis.article.clone(),
                    part: basis.part,
                    item: basis.item,
                    amended_by: None,
                    from: None,
                    to: None,
                    confidence: None,
                };
                let rendered = render(&src, &basis.act, act, None, basis.confidence);
                assert_eq!(&rendered, basis, "{}", basis.text_en);
                cited += 1;
            }
        }
        assert_eq!(cited, 15, "five provisions of each code, 2003 and 2017 on");
    }
}
