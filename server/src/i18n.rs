//! The labels of the pages and the feeds in lt, en, pl and ru, from the embedded `i18n.toml`
//! (one file, so a label cannot be forgotten in one language; a unit test compares them).
//! Templates read `t.<key>`; sentences with values are filled by [`Texts::fill`].

use std::collections::BTreeMap;
use std::sync::LazyLock;

use kalendorius_dataset::Lang;
use serde::Deserialize;

/// A text (possibly a pattern with `{fields}`) or a list (months, weekdays).
#[derive(Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum Label {
    Text(String),
    List(Vec<String>),
}

type Table = BTreeMap<String, Label>;

pub struct Texts {
    tables: [Table; 4],
    values: [minijinja::Value; 4],
}

/// The labels, parsed once. A bug in `i18n.toml` panics here; the unit tests load it.
pub static TEXTS: LazyLock<Texts> = LazyLock::new(|| {
    let mut tables: BTreeMap<String, Table> =
        toml::from_str(include_str!("i18n.toml")).expect("the embedded translations parse");
    let tables = Lang::ALL.map(|lang| tables.remove(lang.code()).expect("a table per language"));
    let values =
        std::array::from_fn(|i| minijinja::Value::from(minijinja::value::Serde(&tables[i])));
    Texts { tables, values }
});

impl Texts {
    /// For a template's `t`.
    pub fn value(&self, lang: Lang) -> minijinja::Value {
        self.values[lang as usize].clone()
    }

    /// Empty when absent (the tests keep every key present).
    pub fn text(&self, lang: Lang, key: &str) -> &str {
        match self.tables[lang as usize].get(key) {
            Some(Label::Text(text)) => text,
            _ => "",
        }
    }

    pub fn item(&self, lang: Lang, key: &str, i: usize) -> &str {
        match self.tables[lang as usize].get(key) {
            Some(Label::List(items)) => items.get(i).map(String::as_str).unwrap_or(""),
            _ => "",
        }
    }

    pub fn fill(&self, lang: Lang, key: &str, fields: &[(&str, &str)]) -> String {
        let mut out = self.text(lang, key).to_string();
        for (name, value) in fields {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }
}

/// `text` with its first letter in upper case (a month name opening a heading).
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_every_label_in_the_same_shape() {
        let texts = &*TEXTS;
        let (lt, rest) = texts.tables.split_first().unwrap();
        for (table, lang) in rest.iter().zip(&Lang::ALL[1..]) {
            assert_eq!(
                lt.keys().collect::<Vec<_>>(),
                table.keys().collect::<Vec<_>>(),
                "{lang} has other keys than lt"
            );
            for (key, label) in lt {
                match (label, &table[key]) {
                    (Label::Text(a), Label::Text(b)) => {
                        let fields = |s: &str| {
                            let mut f: Vec<String> = s
                                .split('{')
                                .skip(1)
                                .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
                                .collect();
                            f.sort();
                            f
                        };
                        assert_eq!(fields(a), fields(b), "{lang}.{key} keeps the fields");
                        assert!(!b.trim().is_empty(), "{lang}.{key} is empty");
                    }
                    (Label::List(a), Label::List(b)) => {
                        assert_eq!(a.len(), b.len(), "{lang}.{key}");
                    }
                    _ => panic!("{lang}.{key} is not of the shape of lt.{key}"),
                }
            }
        }
        for lang in Lang::ALL {
            let len = |key: &str| match &texts.tables[lang as usize][key] {
                Label::Text(_) => 1,
                Label::List(items) => items.len(),
            };
            assert_eq!(len("months"), 12);
            assert_eq!(len("weekdays"), 7);
        }
    }

    #[test]
    fn patterns_are_filled() {
        let texts = &*TEXTS;
        assert_eq!(
            texts.fill(
                Lang::Lt,
                "date_long",
                &[("y", "2026"), ("month_gen", "gruodžio"), ("d", "24")]
            ),
            "2026 m. gruodžio 24 d."
        );
        assert_eq!(capitalized("gruodis"), "Gruodis");
        assert_eq!(capitalized("январь"), "Январь");
    }
}
