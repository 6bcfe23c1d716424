//! The four languages holiday names are published in.

use std::fmt;

use serde::Serialize;

/// `lang` was not one of lt, en, pl, ru.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not one of lt, en, pl, ru")]
pub struct LangError;

/// A language of holiday names. Lithuanian is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Lithuanian.
    #[default]
    Lt,
    /// English.
    En,
    /// Polish.
    Pl,
    /// Russian.
    Ru,
}

impl Lang {
    /// All languages, in the order names are stored.
    pub const ALL: [Lang; 4] = [Lang::Lt, Lang::En, Lang::Pl, Lang::Ru];

    /// This language's text of four given in [`Lang::ALL`] order.
    pub fn pick(self, [lt, en, pl, ru]: [&str; 4]) -> &str {
        match self {
            Lang::Lt => lt,
            Lang::En => en,
            Lang::Pl => pl,
            Lang::Ru => ru,
        }
    }

    /// Parses a language code, case-insensitively (`EN` is `en`).
    pub fn parse(s: &str) -> Result<Lang, LangError> {
        match s.to_ascii_lowercase().as_str() {
            "lt" => Ok(Lang::Lt),
            "en" => Ok(Lang::En),
            "pl" => Ok(Lang::Pl),
            "ru" => Ok(Lang::Ru),
            _ => Err(LangError),
        }
    }

    /// The lower-case code.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Lt => "lt",
            Lang::En => "en",
            Lang::Pl => "pl",
            Lang::Ru => "ru",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
