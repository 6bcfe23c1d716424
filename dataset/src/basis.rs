//! Why a day is what it is: the legal provisions behind a non-working or shortened day
//! (extension E12, docs/data.md §2.8).
//!
//! The generator resolves each `basis` of the sources against the register of acts
//! (`sources/acts.toml`) and renders its citation in the four languages; a [`Basis`] holds
//! both forms, so the server and the readers of the published files only look them up.

use serde::{Deserialize, Serialize};

use crate::Lang;

/// How sure a fact or a citation is (docs/data.md §2.8).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// A legal text, an official body or the press states it. The default, as in the
    /// sources: a record without a confidence states a fact its source confirms.
    #[default]
    Confirmed,
    /// Worked out from confirmed facts by a rule.
    Derived,
    /// Sources are missing or disagree; a documented choice was made.
    Uncertain,
}

impl Confidence {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Confirmed => "confirmed",
            Confidence::Derived => "derived",
            Confidence::Uncertain => "uncertain",
        }
    }

    /// Parses the wire name.
    pub fn parse(s: &str) -> Option<Confidence> {
        [
            Confidence::Confirmed,
            Confidence::Derived,
            Confidence::Uncertain,
        ]
        .into_iter()
        .find(|c| c.as_str() == s)
    }
}

/// One provision a fact rests on, as it applies on a date.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Basis {
    /// The act's id in the register (`sources/acts.toml`): its number when it has one,
    /// otherwise a descriptive id such as `gov-transfer-2010`.
    pub act: String,
    /// The act's official number, when known.
    pub number: Option<String>,
    /// The article, as printed (`"123"`, `"162¹"`); `None` cites the act as a whole.
    pub article: Option<String>,
    /// The part (*dalis*) of the article.
    pub part: Option<u32>,
    /// The item (*punktas*) of the part.
    pub item: Option<u32>,
    /// The id of the act that inserted or last worded the provision.
    pub amended_by: Option<String>,
    /// The address of the act's official text in the register (its own page, or the
    /// consolidated text of the act it amends), so a reader can check the citation; `None`
    /// where no register page of the act was found. Absent from files before schema 8.
    #[serde(default)]
    pub url: Option<String>,
    /// How sure the citation is (act, article and item).
    pub confidence: Confidence,
    /// The citation in Lithuanian, e.g. "Darbo kodekso (XII-2603) 123 str. 1 d. 1 p.".
    pub text_lt: String,
    /// In English, e.g. "Labour Code (XII-2603) art. 123(1)(1)".
    pub text_en: String,
    /// In Polish.
    pub text_pl: String,
    /// In Russian.
    pub text_ru: String,
}

impl Basis {
    /// The citation in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        lang.pick([&self.text_lt, &self.text_en, &self.text_pl, &self.text_ru])
    }
}
/// A provision of a Labour Code (the 2002 code IX-926 or the 2016 code XII-2603) whose words
/// were read (`confirmed`; the caller says where), cited as the register renders one
/// (docs/data.md §2.8; the generator's tests hold the two forms together), for the rules
/// that cite the law in code rather than in `sources/` (shifts, leave). The `url` of each
/// code is its `url` in `sources/acts.toml` (the consolidated text in the register), so such
/// a basis links where a day's does.
pub fn labour_code(number: &str, article: &str, part: Option<u32>) -> Basis {
    let n = |f: &dyn Fn(u32) -> String| part.map_or(String::new(), f);
    let url = match number {
        "XII-2603" => {
            "https://e-seimas.lrs.lt/portal/legalAct/lt/TAD/10c6bfd07bd511e6a0f68fd135e6f40c/asr"
        }
        _ => "https://e-tar.lt/rs/actualedition/TAR.31185A622C9F/TAIS_429809",
    };
    Basis {
        act: number.to_string(),
        number: Some(number.to_string()),
        article: Some(article.to_string()),
        part,
        item: None,
        amended_by: None,
        url: Some(url.to_string()),
        confidence: Confidence::Confirmed,
        text_lt: format!(
            "Darbo kodekso ({number}) {article} str.{}",
            n(&|p| format!(" {p} d."))
        ),
        text_en: format!(
            "Labour Code ({number}) art. {article}{}",
            n(&|p| format!("({p})"))
        ),
        text_pl: format!(
            "art. {article}{} Kodeksu pracy ({number})",
            n(&|p| format!(" ust. {p}"))
        ),
        text_ru: format!(
            "{}ст. {article} Трудового кодекса ({number})",
            n(&|p| format!("ч. {p} "))
        ),
    }
}
