//! The name-day search index, built with each catalog: every calendar name with its days,
//! sorted by folded form. A search is a binary search (exact and prefix matches) and one SIMD
//! substring pass over all folded names joined (contains matches). `/name-days/search` and
//! `/vardai` both ask it, so they list the same names in the same order.

use std::collections::BTreeMap;

use kalendorius_dataset::names::fold;
use kalendorius_dataset::Date;
use serde_json::value::RawValue;

/// Longest name query accepted (the API's `name`, the search page's `q`), in characters.
pub const MAX_QUERY_CHARS: usize = 64;

/// A name that matched, as the `/name-days/search` answer lists it (written once, at load).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct NameMatch<'a> {
    /// The calendar name, in its Lithuanian spelling.
    pub name: &'a str,
    /// `m` or `f`.
    #[schemars(with = "kalendorius_dataset::Gender")]
    pub gender: &'a str,
    /// The days it is celebrated, `MM-DD`, in calendar order.
    #[schemars(with = "Vec<MonthDayText>")]
    pub dates: Vec<String>,
}

/// `MM-DD`, in the schema of [`NameMatch`].
#[derive(schemars::JsonSchema)]
#[schemars(description = "A day of the year, MM-DD.")]
#[allow(dead_code, reason = "a schema only: the dates are written as strings")]
struct MonthDayText(
    #[schemars(regex(pattern = r"^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"))] String,
);

pub const MAX_MATCHES: usize = 50;

/// A day of the year, month and day (the name-day calendar repeats every year).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MonthDay {
    pub month: u8,
    pub day: u8,
}

impl std::fmt::Display for MonthDay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}-{:02}", self.month, self.day)
    }
}

/// One calendar name and its days, in calendar order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameEntry {
    pub folded: Box<str>,
    pub name: Box<str>,
    pub gender: &'static str,
    pub dates: Box<[MonthDay]>,
}

/// How a folded name matched the folded query, in the order of the groups in an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchKind {
    Exact,
    Prefix,
    Contains,
}

/// Every name of a dataset, sorted by (folded name, name, gender).
#[derive(Debug, Default)]
pub struct NameIndex {
    entries: Vec<NameEntry>,
    /// Every folded name after a `\n`, in entry order: the contains matches' haystack.
    haystack: String,
    /// Where each entry's folded name starts in `haystack`.
    starts: Vec<u32>,
    /// Each entry as a [`NameMatch`], written once.
    json: Vec<Box<RawValue>>,
}

impl NameIndex {
    /// The index of one year's name days (date, name, gender), in calendar order.
    pub fn build<'a>(
        name_days: impl IntoIterator<Item = (Date, &'a str, &'static str)>,
    ) -> NameIndex {
        // Keyed so that the entries come out sorted.
        let mut by_name: BTreeMap<(String, &str, &str), Vec<MonthDay>> = BTreeMap::new();
        for (date, name, gender) in name_days {
            let day = MonthDay {
                month: date.month() as u8,
                day: date.day() as u8,
            };
            let dates = by_name.entry((fold(name), name, gender)).or_default();
            // Days come in calendar order; a name listed twice on a day counts once.
            if dates.last() != Some(&day) {
                dates.push(day);
            }
        }
        let mut index = NameIndex::default();
        for ((folded, name, gender), dates) in by_name {
            index.haystack.push('\n');
            let start = u32::try_from(index.haystack.len()).expect("names fit in 4 GiB");
            index.starts.push(start);
            index.haystack.push_str(&folded);
            let object = NameMatch {
                name,
                gender,
                dates: dates.iter().map(MonthDay::to_string).collect(),
            };
            let json = serde_json::value::to_raw_value(&object).expect("strings always serialize");
            index.json.push(json);
            index.entries.push(NameEntry {
                folded: folded.into(),
                name: name.into(),
                gender,
                dates: dates.into(),
            });
        }
        index
    }

    /// At most `limit` names matching `query`: exact matches, then names starting with it,
    /// then names containing it, each group in folded-name order. Nothing matches "".
    pub fn search(&self, query: &str, limit: usize) -> Vec<(MatchKind, &NameEntry)> {
        self.matches(query, limit)
            .into_iter()
            .map(|(kind, i)| (kind, &self.entries[i]))
            .collect()
    }

    /// The matches of [`NameIndex::search`] as [`NameMatch`] objects.
    pub fn search_json(&self, query: &str, limit: usize) -> Vec<&RawValue> {
        self.matches(query, limit)
            .into_iter()
            .map(|(_, i)| &*self.json[i])
            .collect()
    }

    /// The positions of [`NameIndex::search`]'s matches.
    fn matches(&self, query: &str, limit: usize) -> Vec<(MatchKind, usize)> {
        let q: &str = &fold(query);
        if q.is_empty() {
            return Vec::new();
        }
        let start = self.entries.partition_point(|e| e.folded.as_ref() < q);
        let end = start + self.entries[start..].partition_point(|e| e.folded.starts_with(q));
        // The exact matches sort first among the names that start with the query.
        let mut found: Vec<(MatchKind, usize)> = (start..end)
            .map(|i| match *self.entries[i].folded == *q {
                true => (MatchKind::Exact, i),
                false => (MatchKind::Prefix, i),
            })
            .take(limit)
            .collect();
        let mut last = None;
        for at in memchr::memmem::find_iter(self.haystack.as_bytes(), q.as_bytes()) {
            if found.len() >= limit {
                break;
            }
            let i = self
                .starts
                .partition_point(|&s| s as usize <= at)
                .saturating_sub(1);
            let folded = &self.entries[i].folded;
            // A name that starts with the query is a prefix match (above); `contains` also
            // refuses a hit that crossed a separator (a query holding a newline).
            if last == Some(i) || folded.starts_with(q) || !folded.contains(q) {
                continue;
            }
            last = Some(i);
            found.push((MatchKind::Contains, i));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index<'a>(names: impl IntoIterator<Item = &'a str>) -> NameIndex {
        let day = Date::from_ymd(2024, 1, 1).unwrap();
        NameIndex::build(names.into_iter().map(|name| (day, name, "m")))
    }

    #[test]
    fn exact_then_prefix_then_contains() {
        let idx = index(["Jonė", "Jonas", "Fabijonas", "Jon", "Adomas", "Joná"]);
        let found: Vec<(MatchKind, &str)> = idx
            .search("JON", 50)
            .into_iter()
            .map(|(k, e)| (k, &*e.name))
            .collect();
        assert_eq!(
            found,
            [
                (MatchKind::Exact, "Jon"),
                (MatchKind::Prefix, "Joná"),
                (MatchKind::Prefix, "Jonas"),
                (MatchKind::Prefix, "Jonė"),
                (MatchKind::Contains, "Fabijonas"),
            ]
        );
    }

    #[test]
    fn diacritics_and_case_are_ignored_both_ways() {
        let idx = index(["Žygimantė", "Zigmas"]);
        assert_eq!(idx.search("zygimante", 50)[0].1.name.as_ref(), "Žygimantė");
        assert_eq!(idx.search("ŽYGIMANTĖ", 50)[0].0, MatchKind::Exact);
        assert!(idx.search("", 50).is_empty());
        assert!(
            idx.search("\u{0301}", 50).is_empty(),
            "only a mark folds to nothing"
        );
    }

    #[test]
    fn the_limit_is_kept() {
        let names: Vec<String> = (0..80).map(|i| format!("Vardas{i:02}")).collect();
        let idx = index(names.iter().map(String::as_str));
        assert_eq!(idx.search("vardas", MAX_MATCHES).len(), MAX_MATCHES);
    }

    #[test]
    fn month_days_print_as_mm_dd() {
        assert_eq!(MonthDay { month: 6, day: 4 }.to_string(), "06-04");
    }
}
