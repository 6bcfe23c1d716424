//! The one cache type of built answers: bounded by bytes, least recently used first, a hit
//! takes no lock (`quick_cache`'s S3-FIFO kept a cold start's pages asked for once; the test
//! below holds that such a page leaves). Every insert applies moka's pending work, so the
//! budget is exceeded for no longer than that insert. Entries are built outside the cache.
//! Keys are hashed with foldhash, seeded per process: a lookup hashes the operation and
//! every parameter of each request, which std's SipHash made a tenth of a cached answer's
//! own work, and the cache is bounded, so a chosen collision costs its sender alone.

use std::any::Any;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use bytes::Bytes;
use foldhash::quality::RandomState;
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
    entries: Cache<K, V, RandomState>,
    budget: usize,
    metrics: CacheMetrics,
}

/// `body` as a value to keep: exactly its length. A cache weighs a value by its length, and
/// `Bytes::from` of a grown `Vec` would keep its spare capacity too (up to as much again).
pub fn exact(body: Vec<u8>) -> Bytes {
    Bytes::from(body.into_boxed_slice())
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
            .build_with_hasher(RandomState::default());
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

/// What an answer was asked for: the endpoint's operation and its parsed parameters (each
/// endpoint's own `Hash + Eq` type), the key of a cached answer.
pub struct AnswerKey {
    operation: &'static str,
    params: Box<dyn AskedParams>,
}

impl AnswerKey {
    pub fn new<P: Hash + Eq + Send + Sync + 'static>(operation: &'static str, params: P) -> Self {
        AnswerKey {
            operation,
            params: Box::new(params),
        }
    }

    /// The bytes that tell this key from every other (an answer's ETag digests them): the
    /// operation's name and what the parameters' `Hash` writes, the same on every run.
    pub fn identity(&self) -> Vec<u8> {
        identity(self.operation, |written| self.params.hash_into(written))
    }
}

impl PartialEq for AnswerKey {
    fn eq(&self, other: &Self) -> bool {
        self.operation == other.operation && self.params.equals(&*other.params)
    }
}

impl Eq for AnswerKey {}

impl Hash for AnswerKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.operation.hash(state);
        self.params.hash_into(state);
    }
}

/// An [`AnswerKey`] by reference, to look one up without boxing and cloning the parameters
/// of every request (only a miss makes the key it keeps): hashed exactly as the key is (the
/// operation, then the parameters' own `Hash`), equal to the key of the same type and value.
pub struct AnswerKeyRef<'a, P> {
    pub operation: &'static str,
    pub params: &'a P,
}

impl<P: Hash> AnswerKeyRef<'_, P> {
    /// The identity of the key this refers to ([`AnswerKey::identity`]), made without it.
    pub fn identity(&self) -> Vec<u8> {
        identity(self.operation, |written| self.params.hash(written))
    }
}

/// The operation's name, a zero, then what `hash` writes of the parameters.
fn identity(operation: &str, hash: impl FnOnce(&mut Written)) -> Vec<u8> {
    let mut written = Written(operation.as_bytes().to_vec());
    written.0.push(0);
    hash(&mut written);
    written.0
}

impl<P: Hash> Hash for AnswerKeyRef<'_, P> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.operation.hash(state);
        self.params.hash(state);
    }
}

impl<P: PartialEq + 'static> Equivalent<AnswerKey> for AnswerKeyRef<'_, P> {
    fn equivalent(&self, key: &AnswerKey) -> bool {
        let params: &dyn Any = &*key.params;
        self.operation == key.operation && params.downcast_ref::<P>() == Some(self.params)
    }
}

/// Parameters of any type, compared and hashed as their own type (two types never equal).
trait AskedParams: Any + Send + Sync {
    fn equals(&self, other: &dyn AskedParams) -> bool;
    fn hash_into(&self, state: &mut dyn Hasher);
}

impl<P: Hash + Eq + Send + Sync + 'static> AskedParams for P {
    fn equals(&self, other: &dyn AskedParams) -> bool {
        (other as &dyn Any).downcast_ref::<P>() == Some(self)
    }

    fn hash_into(&self, mut state: &mut dyn Hasher) {
        self.hash(&mut state);
    }
}

/// A "hasher" that keeps the bytes written to it: a value's `Hash` written out in full.
struct Written(Vec<u8>);

impl Hasher for Written {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// Never asked: [`AnswerKey::identity`] reads the bytes.
    fn finish(&self) -> u64 {
        0
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
    fn keys_differ_by_operation_and_by_every_parameter() {
        let key = |operation, params: (u8, Option<u8>)| AnswerKey::new(operation, params);
        let all = [
            key("a", (1, None)),
            key("a", (1, Some(1))),
            key("a", (2, None)),
            key("b", (1, None)),
            AnswerKey::new("a", 1u8),
        ];
        for (i, one) in all.iter().enumerate() {
            for (j, other) in all.iter().enumerate() {
                assert_eq!(one == other, i == j, "{i} {j}");
                assert_eq!(one.identity() == other.identity(), i == j, "{i} {j}");
            }
        }
        assert!(key("a", (1, None)) == key("a", (1, None)));
        assert_eq!(
            key("a", (1, None)).identity(),
            key("a", (1, None)).identity()
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

    #[test]
    fn an_answer_is_found_by_reference_to_its_key_and_only_by_its_own() {
        #[derive(Clone, PartialEq, Eq, Hash)]
        struct Asked {
            year: i32,
            lang: &'static str,
        }
        #[derive(Clone, PartialEq, Eq, Hash)]
        struct Other(i32);
        let cache = ByteCache::<AnswerKey, Bytes>::new(10_000, CacheMetrics::default());
        let asked = Asked {
            year: 2026,
            lang: "en",
        };
        cache.insert(
            AnswerKey::new("op", asked.clone()),
            Bytes::from_static(b"kept"),
        );
        let found = |operation, params: &Asked| cache.get(&AnswerKeyRef { operation, params });
        assert_eq!(found("op", &asked).as_deref(), Some(&b"kept"[..]));
        assert!(found("other_op", &asked).is_none());
        assert!(found(
            "op",
            &Asked {
                lang: "lt",
                ..asked
            }
        )
        .is_none());
        let other = AnswerKeyRef {
            operation: "op",
            params: &Other(2026),
        };
        assert!(cache.get(&other).is_none());
    }
}
