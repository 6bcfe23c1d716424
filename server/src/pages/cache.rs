//! Rendered pages, kept so that a page is rendered once per (path, language, dataset, and
//! today where the page shows it) and then served like a precomputed JSON answer.
//!
//! The key is the page's strong ETag, which is built from exactly those inputs
//! (`super::etag`). The cache is bounded by bytes, in two generations: new pages go into the
//! young one; when it holds half the budget it becomes the old one (the previous old one is
//! dropped), and a page found in the old one moves back to the young one. Pages asked for
//! often therefore stay, and memory never exceeds the budget (plus one page), whatever
//! paths and queries clients send.

use std::collections::HashMap;
use std::sync::Mutex;

use bytes::Bytes;

/// The byte budget of the rendered pages (a month page is about 20 KiB, a year page about
/// 60 KiB): a few hundred pages.
pub const BUDGET_BYTES: usize = 8 << 20;

/// Two generations of rendered pages by ETag.
#[derive(Debug, Default)]
struct Generations {
    young: HashMap<Box<str>, Bytes>,
    young_bytes: usize,
    old: HashMap<Box<str>, Bytes>,
}

/// The bounded page cache, shared by all request threads.
#[derive(Debug)]
pub struct PageCache {
    budget: usize,
    inner: Mutex<Generations>,
}

impl PageCache {
    /// A cache of at most `budget` bytes of pages.
    pub fn new(budget: usize) -> PageCache {
        PageCache {
            budget,
            inner: Mutex::new(Generations::default()),
        }
    }

    /// The page of `etag`, if rendered before and still kept.
    pub fn get(&self, etag: &str) -> Option<Bytes> {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(page) = g.young.get(etag) {
            return Some(page.clone());
        }
        let (key, page) = g.old.remove_entry(etag)?;
        Self::insert_young(&mut g, self.budget, key, page.clone());
        Some(page)
    }

    /// Keeps `page` under `etag`.
    pub fn put(&self, etag: &str, page: Bytes) {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        Self::insert_young(&mut g, self.budget, etag.into(), page);
    }

    fn insert_young(g: &mut Generations, budget: usize, key: Box<str>, page: Bytes) {
        if g.young_bytes + page.len() > budget / 2 {
            g.old = std::mem::take(&mut g.young);
            g.young_bytes = 0;
        }
        g.young_bytes += page.len() + key.len();
        if let Some(previous) = g.young.insert(key, page) {
            g.young_bytes -= previous.len();
        }
    }

    /// Bytes of pages held now (both generations).
    pub fn bytes(&self) -> usize {
        let g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.young.values().chain(g.old.values()).map(Bytes::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_come_back_and_memory_stays_within_the_budget() {
        let cache = PageCache::new(10_000);
        cache.put("a", Bytes::from(vec![b'a'; 1000]));
        assert_eq!(cache.get("a").unwrap().len(), 1000);
        assert!(cache.get("b").is_none());
        for i in 0..100 {
            cache.put(&format!("p{i}"), Bytes::from(vec![b'x'; 1000]));
            // Kept alive by being asked for.
            assert!(cache.get("a").is_some(), "after {i}");
            assert!(cache.bytes() <= 10_000 + 1000, "{}", cache.bytes());
        }
        assert!(
            cache.get("p0").is_none(),
            "old pages nobody asks for are dropped"
        );
    }
}
