//! The name-day search index: every calendar name of the dataset with the days it is
//! celebrated, found by its folded form (`kalendorius_dataset::names::fold`).
//!
//! Built once when a catalog is loaded (so a search costs a binary search and one pass over
//! about 1 500 short strings, never a fold of the whole dataset) and swapped with it on
//! reload. The API's `/name-days/search` and the `/vardai` page both ask [`NameIndex::search`],
//! so they list the same names in the same order.

use kalendorius_dataset::names::fold;
use kalendorius_dataset::Date;

use crate::catalog::Catalog;

/// Most matches one search returns.
pub const MAX_MATCHES: usize = 50;

/// A day of the year, month and day (the name-day calendar repeats every year).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MonthDay {
    /// 1-12.
    pub month: u8,
    /// 1-31.
    pub day: u8,
}

impl std::fmt::Display for MonthDay {
    /// `MM-DD`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}-{:02}", self.month, self.day)
    }
}

/// One calendar name and its days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameEntry {
    /// The name folded: the key the index is sorted by.
    pub folded: Box<str>,
    /// The name as the calendar writes it, with its diacritics.
    pub name: Box<str>,
    /// `m` or `f`.
    pub gender: &'static str,
    /// The days it is celebrated, in calendar order.
    pub dates: Box<[MonthDay]>,
}

/// How well an entry matched a query; the order of the groups in an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchKind {
    /// The folded name is the folded query.
    Exact,
    /// The folded name starts with the folded query.
    Prefix,
    /// The folded name contains the folded query elsewhere.
    Contains,
}

/// Every name of a dataset, sorted by (folded name, name, gender).
#[derive(Debug, Default)]
pub struct NameIndex {
    entries: Vec<NameEntry>,
}

impl NameIndex {
    /// Collects the names of one year of `catalog`: a leap year when the dataset serves one
    /// (its February 29 names are listed on 02-29), else its first year (where they are
    /// celebrated on February 28, as the dataset says for common years).
    pub fn build(catalog: &Catalog) -> NameIndex {
        let (first, last) = (catalog.first().year(), catalog.last().year());
        let year = (first..=last)
            .find(|&y| Date::from_ymd(y, 2, 29).is_ok())
            .unwrap_or(first);
        let mut entries: Vec<NameEntry> = Vec::new();
        let mut by_name: std::collections::HashMap<(&str, &str), usize> = Default::default();
        let mut dates: Vec<Vec<MonthDay>> = Vec::new();
        for date in catalog.dates_of_year(year) {
            let day = MonthDay {
                month: date.month() as u8,
                day: date.day() as u8,
            };
            for record in catalog.name_days_on(date) {
                let slot = *by_name
                    .entry((&record.name, record.gender))
                    .or_insert_with(|| {
                        entries.push(NameEntry {
                            folded: fold(&record.name).into(),
                            name: record.name.clone(),
                            gender: record.gender,
                            dates: Box::new([]),
                        });
                        dates.push(Vec::new());
                        entries.len() - 1
                    });
                // Days come in calendar order; a name listed twice on a day counts once.
                if dates[slot].last() != Some(&day) {
                    dates[slot].push(day);
                }
            }
        }
        for (entry, days) in entries.iter_mut().zip(dates) {
            entry.dates = days.into_boxed_slice();
        }
        entries.sort_by(|a, b| (&a.folded, &a.name, a.gender).cmp(&(&b.folded, &b.name, b.gender)));
        NameIndex { entries }
    }

    /// Number of distinct names.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the dataset has no names.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The names matching `query` (folded here): exact matches first, then names that start
    /// with it, then names that contain it, each group in folded-name order; at most
    /// `limit`. An empty query matches nothing.
    pub fn search(&self, query: &str, limit: usize) -> Vec<(MatchKind, &NameEntry)> {
        let query = fold(query);
        if query.is_empty() {
            return Vec::new();
        }
        // Entries starting with the query are one contiguous run of the sorted index, and
        // the exact ones are its head.
        let start = self
            .entries
            .partition_point(|e| e.folded.as_ref() < query.as_str());
        let run = self.entries[start..]
            .iter()
            .take_while(|e| e.folded.starts_with(query.as_str()));
        let (exact, prefix): (Vec<&NameEntry>, Vec<&NameEntry>) =
            run.partition(|e| *e.folded == *query);
        let contains = self
            .entries
            .iter()
            .filter(|e| !e.folded.starts_with(query.as_str()) && e.folded.contains(query.as_str()));
        exact
            .into_iter()
            .map(|e| (MatchKind::Exact, e))
            .chain(prefix.into_iter().map(|e| (MatchKind::Prefix, e)))
            .chain(contains.map(|e| (MatchKind::Contains, e)))
            .take(limit)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, dates: &[(u8, u8)]) -> NameEntry {
        NameEntry {
            folded: fold(name).into(),
            name: name.into(),
            gender: "m",
            dates: dates
                .iter()
                .map(|&(month, day)| MonthDay { month, day })
                .collect(),
        }
    }

    fn index(names: &[&str]) -> NameIndex {
        let mut entries: Vec<NameEntry> = names.iter().map(|n| entry(n, &[(1, 1)])).collect();
        entries.sort_by(|a, b| (&a.folded, &a.name).cmp(&(&b.folded, &b.name)));
        NameIndex { entries }
    }

    #[test]
    fn exact_then_prefix_then_contains() {
        let idx = index(&["Jonė", "Jonas", "Fabijonas", "Jon", "Adomas", "Joná"]);
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
        let idx = index(&["Žygimantė", "Zigmas"]);
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
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(
            index(&refs).search("vardas", MAX_MATCHES).len(),
            MAX_MATCHES
        );
    }

    #[test]
    fn month_days_print_as_mm_dd() {
        assert_eq!(MonthDay { month: 6, day: 4 }.to_string(), "06-04");
    }
}
