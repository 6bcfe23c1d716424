//! Folding calendar names for matching: what makes `zygimante` find `Žygimantė`.
//!
//! A name is folded by decomposing it canonically (NFD, so `ž` becomes `z` plus a combining
//! caron), dropping every combining mark, and lower-casing what is left. That removes the
//! Lithuanian diacritics (ą č ę ė į š ų ū ž) and any other accent a query may carry, and
//! case. The server's name index and the search page fold names and queries with this one
//! function, so they cannot disagree on what matches.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// `name` without case and diacritics: `Žygimantė` and `ZYGIMANTE` both fold to
/// `zygimante`.
pub fn fold(name: &str) -> String {
    name.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn lithuanian_letters_fold_to_their_base_letters() {
        assert_eq!(fold("ĄČĘĖĮŠŲŪŽ ąčęėįšųūž"), "aceeisuuz aceeisuuz");
        assert_eq!(fold("Žygimantė"), "zygimante");
        assert_eq!(fold("zygimante"), fold("ŽYGIMANTĖ"));
    }

    #[test]
    fn other_combining_marks_go_too() {
        assert_eq!(fold("Renée Åsa Łukasz"), "renee asa łukasz");
        // A combining mark written separately (e + U+0307) folds like the precomposed ė.
        assert_eq!(fold("e\u{0307}"), fold("ė"));
    }

    #[test]
    fn plain_names_only_lose_case() {
        assert_eq!(fold("Jonas"), "jonas");
        assert_eq!(fold(""), "");
    }
}
