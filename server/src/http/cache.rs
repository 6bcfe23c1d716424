//! The one cache type of built answers: bounded by bytes, least recently used first, a hit
//! takes no lock (`quick_cache`'s S3-FIFO kept a cold start's pages asked for once; the test
//! below holds that such a page leaves). Every insert applies moka's pending work, so the
//! budget is exceeded for no longer than that insert. Entries are built outside the cache.

use std::hash::Hash;
use std::sync::Arc;

use bytes::Bytes;
use moka::policy::EvictionPolicy;
use moka::sync::Cache;
use moka::Equivalent;

use crate::metrics::CacheMetrics;

/// What a cache entry weighs: the bytes it holds in memory.
pub trait Weighed {
    fn bytes(&self) -> usize;
}

impl Weighed for Bytes {
    fn bytes(&self) -> usize {
        self.len()
    }
}

impl<T: Weighed> Weighed for Arc<T> {
    fn bytes(&self) -> usize {
        T::bytes(self)
    }
}

pub struct ByteCache<K, V> {
    entries: Cache<K, V>,
    budget: usize,
    metrics: CacheMetrics,
}

impl<K, V> ByteCache<K, V>
where
    K: Eq + Hash + Send + Sync + 'static,
    V: Weighed + Clone + Send + Sync + 'static,
{
    pub fn new(budget: usize, metrics: CacheMetrics) -> ByteCache<K, V> {
        let entries = Cache::builder()
            .max_capacity(budget as u64)
            .weigher(|_key: &K, value: &V| u32::try_from(value.bytes()).unwrap_or(u32::MAX))
            .eviction_policy(EvictionPolicy::lru())
            .build();
        // A new cache (a new dataset's year files) replaces its predecessor's gauge.
        metrics.bytes.set(0);
        ByteCache {
            entries,
            budget,
            metrics,
        }
    }

    pub fn get<Q: Equivalent<K> + Hash + ?Sized>(&self, key: &Q) -> Option<V> {
        let value = self.entries.get(key);
        match value {
            Some(_) => self.metrics.hits.inc(),
            None => self.metrics.misses.inc(),
        };
        value
    }

    /// Keeps `value` unless it weighs more than a quarter of the budget (it would push out
    /// many others).
    pub fn insert(&self, key: K, value: V) {
        if value.bytes() <= self.budget / 4 {
            self.entries.insert(key, value);
            self.entries.run_pending_tasks();
            // Entries leave only on an insert (there is no expiry), so this stays true.
            let kept = i64::try_from(self.entries.weighted_size()).unwrap_or(i64::MAX);
            self.metrics.bytes.set(kept);
        }
    }

    /// Bytes of values kept now.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.entries.run_pending_tasks();
        self.entries.weighted_size() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_come_back_and_memory_stays_within_the_budget() {
        let cache = ByteCache::<Box<str>, Bytes>::new(10_000, CacheMetrics::default());
        cache.insert("a".into(), Bytes::from(vec![b'a'; 1000]));
        assert_eq!(cache.get("a").unwrap().len(), 1000);
        assert!(cache.get("b").is_none());
        for i in 0..100 {
            cache.insert(format!("p{i}").into(), Bytes::from(vec![b'x'; 1000]));
            // Kept alive by being asked for.
            assert!(cache.get("a").is_some(), "after {i}");
            assert!(cache.bytes() <= 10_000 + 1000, "{}", cache.bytes());
        }
        assert!(
            cache.get("p0").is_none(),
            "old pages nobody asks for are dropped"
        );
    }

    #[test]
    fn an_entry_over_a_quarter_of_the_budget_is_not_kept() {
        let metrics = CacheMetrics::default();
        let cache = ByteCache::<u8, Bytes>::new(4000, metrics.clone());
        cache.insert(1, Bytes::from(vec![0; 1000]));
        cache.insert(2, Bytes::from(vec![0; 1001]));
        assert_eq!(cache.get(&1).map(|b| b.len()), Some(1000));
        assert!(cache.get(&2).is_none());
        assert_eq!(cache.bytes(), 1000);
        assert_eq!(
            (
                metrics.hits.get(),
                metrics.misses.get(),
                metrics.bytes.get()
            ),
            (1, 1, 1000)
        );
    }
}
