//! Every subject's counters, in shards behind short locks, saved as one blob per shard and
//! per eviction structure (a store rewrites only changed ones). Past `max_subjects`, public
//! subjects are evicted, idle ones first, into `evicted`: memory is bounded, no limit is
//! exceeded and a new client gets its whole minute quota.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};

use parking_lot::{Mutex, RwLock};

use super::evicted::{MinuteLedger, MonthSketch};
use super::subject::{Counters, Limits, SubjectKey};
use super::window::month_of;
use super::Decision;

/// Shards, and so subject blobs.
const SHARDS: usize = 256;
/// A subject blob's first byte.
const BLOB_VERSION: u8 = 1;

#[derive(Default)]
struct Shard {
    subjects: HashMap<SubjectKey, Counters>,
    dirty: bool,
}

/// One maintenance pass: subjects dropped (nothing counted), evicted and left.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MaintainStats {
    pub dropped: usize,
    pub evicted: usize,
    pub remaining: usize,
}

/// One blob of a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Subjects(usize),
    MonthSketch,
    MinuteLedger,
}

impl Part {
    pub fn all() -> impl Iterator<Item = Part> {
        [Part::MonthSketch, Part::MinuteLedger]
            .into_iter()
            .chain((0..SHARDS).map(Part::Subjects))
    }
}

/// What evicted subjects leave behind, under one lock.
struct Sketches {
    month: MonthSketch,
    minute: MinuteLedger,
}

/// A blob damaged after `read` subjects, which were loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("counter blob damaged after {read} subjects")]
pub(crate) struct DamagedPart {
    pub read: usize,
}

pub(crate) struct CounterTable {
    shards: Box<[Mutex<Shard>]>,
    /// Random per process, so clients cannot aim at one shard (a restore re-shards).
    shard_keys: [u64; 3],
    /// The latest `now` of any check (`i64::MIN` before the first): maintenance's clock.
    latest_ms: AtomicI64,
    len: AtomicUsize,
    /// Lock order: a shard, then the sketches.
    sketches: RwLock<Sketches>,
    /// Changed since the last snapshot.
    month_dirty: AtomicBool,
    minute_dirty: AtomicBool,
}

impl CounterTable {
    pub fn new() -> CounterTable {
        CounterTable {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            shard_keys: super::evicted::hash_keys(),
            latest_ms: AtomicI64::new(i64::MIN),
            len: AtomicUsize::new(0),
            sketches: RwLock::new(Sketches {
                month: MonthSketch::new(),
                minute: MinuteLedger::new(),
            }),
            month_dirty: AtomicBool::new(false),
            minute_dirty: AtomicBool::new(false),
        }
    }

    /// The key's words xored with keys, folded by multiplying, top bits: a SipHash here cost
    /// a tenth of the limiter's time (the shard's `HashMap` keeps it, against collisions).
    fn shard(&self, key: &SubjectKey) -> &Mutex<Shard> {
        const ODD: [u64; 3] = [
            0x9e37_79b9_7f4a_7c15,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
        ];
        let mut h = 0u64;
        for ((word, k), odd) in key.words().into_iter().zip(self.shard_keys).zip(ODD) {
            h = (h ^ word ^ k).wrapping_mul(odd);
        }
        &self.shards[(h >> 56) as usize % SHARDS]
    }

    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// What eviction left of a subject not in memory.
    fn revive(&self, key: &SubjectKey, now_ms: i64) -> Counters {
        if !key.is_key() {
            let sketches = self.sketches.read();
            let month = month_of(now_ms).unwrap_or(i64::MAX);
            let count = sketches.month.estimate(key, month);
            let minute = sketches.minute.lookup(key, now_ms);
            if count > 0 || minute.is_some() {
                return Counters::from_eviction(month, count, minute);
            }
        }
        Counters::default()
    }

    pub fn check(&self, key: SubjectKey, limits: Limits, now_ms: i64) -> Decision {
        // Read first: a write per request would bounce this cache line between threads.
        if now_ms > self.latest_ms.load(Ordering::Relaxed) {
            self.latest_ms.fetch_max(now_ms, Ordering::Relaxed);
        }
        let mut guard = self.shard(&key).lock();
        let Shard { subjects, dirty } = &mut *guard;
        let counters = subjects.entry(key).or_insert_with(|| {
            self.len.fetch_add(1, Ordering::Relaxed);
            self.revive(&key, now_ms)
        });
        let decision = counters.check(&key, limits, now_ms);
        *dirty |= decision.refused_by.is_none();
        decision
    }

    pub fn usage(&self, key: &SubjectKey, now_ms: i64) -> (u64, u64) {
        let guard = self.shard(key).lock();
        match guard.subjects.get(key) {
            Some(c) => c.usage(key, now_ms),
            None => self.revive(key, now_ms).usage(key, now_ms),
        }
    }

    /// Forgets a deleted API key's counters (sketches cannot forget a public subject); true if any.
    pub fn remove(&self, key: &SubjectKey) -> bool {
        debug_assert!(key.is_key(), "only key subjects are removed");
        let mut guard = self.shard(key).lock();
        let removed = guard.subjects.remove(key).is_some();
        if removed {
            guard.dirty = true;
            self.len.fetch_sub(1, Ordering::Relaxed);
        }
        removed
    }

    /// Hands each blob changed since the last snapshot to `out` (`None` when empty); the
    /// minute ledger only with `include_minute` (a store may save it at shutdown only).
    pub fn snapshot(&self, include_minute: bool, mut out: impl FnMut(Part, Option<Vec<u8>>)) {
        for (i, shard) in self.shards.iter().enumerate() {
            let mut guard = shard.lock();
            if !std::mem::take(&mut guard.dirty) {
                continue;
            }
            let blob = (!guard.subjects.is_empty()).then(|| {
                let mut blob = Vec::with_capacity(1 + guard.subjects.len() * 40);
                blob.push(BLOB_VERSION);
                for (k, c) in &guard.subjects {
                    c.encode(k, &mut blob);
                }
                blob
            });
            drop(guard);
            out(Part::Subjects(i), blob);
        }
        let sketches = self.sketches.read();
        if self.month_dirty.swap(false, Ordering::AcqRel) {
            let blob = (!sketches.month.is_empty()).then(|| sketches.month.encode());
            out(Part::MonthSketch, blob);
        }
        if include_minute && self.minute_dirty.swap(false, Ordering::AcqRel) {
            let blob = (!sketches.minute.is_empty()).then(|| sketches.minute.encode());
            out(Part::MinuteLedger, blob);
        }
    }

    /// Marks every shard changed: a restore puts subjects in other shards than their blobs.
    pub fn mark_all_changed(&self) {
        for shard in self.shards.iter() {
            shard.lock().dirty = true;
        }
    }

    /// Restores a blob of any earlier process (subjects merge into memory); returns how many.
    /// On damage those read before it are kept (a damaged sketch stays empty).
    pub fn restore(&self, part: Part, bytes: &[u8]) -> Result<usize, DamagedPart> {
        let unreadable = DamagedPart { read: 0 };
        let mut buf = match part {
            Part::Subjects(_) => bytes.strip_prefix(&[BLOB_VERSION]).ok_or(unreadable)?,
            Part::MonthSketch => {
                self.sketches.write().month = MonthSketch::decode(bytes).ok_or(unreadable)?;
                return Ok(0);
            }
            Part::MinuteLedger => {
                self.sketches.write().minute = MinuteLedger::decode(bytes).ok_or(unreadable)?;
                return Ok(0);
            }
        };
        let mut read = 0;
        while !buf.is_empty() {
            let (key, counters) = Counters::decode(&mut buf).ok_or(DamagedPart { read })?;
            match self.shard(&key).lock().subjects.entry(key) {
                Entry::Occupied(mut o) => o.get_mut().merge(counters),
                Entry::Vacant(v) => {
                    v.insert(counters);
                    self.len.fetch_add(1, Ordering::Relaxed);
                }
            }
            read += 1;
        }
        Ok(read)
    }

    /// Prunes every subject to the latest clock, drops those with nothing counted, and
    /// past `max_subjects` evicts public ones down to 90 % of it, idle ones first.
    pub fn maintain(&self, max_subjects: usize) -> MaintainStats {
        let mut stats = MaintainStats::default();
        let now = self.latest_ms.load(Ordering::Relaxed);
        if now != i64::MIN {
            let mut sketches = self.sketches.write();
            let rolled = sketches.month.roll(month_of(now).unwrap_or(i64::MIN));
            self.month_dirty.fetch_or(rolled, Ordering::Release);
            self.minute_dirty
                .fetch_or(sketches.minute.expire(now), Ordering::Release);
            drop(sketches);
            for shard in self.shards.iter() {
                let mut guard = shard.lock();
                let Shard { subjects, dirty } = &mut *guard;
                let before = subjects.len();
                subjects.retain(|_, c| {
                    *dirty |= c.advance(now).1;
                    !c.is_dead()
                });
                stats.dropped += before - subjects.len();
                *dirty |= before != subjects.len();
            }
            self.len.fetch_sub(stats.dropped, Ordering::Relaxed);
            let target = max_subjects - max_subjects / 10;
            for evict_active in [false, true] {
                for shard in self.shards.iter() {
                    if self.len() <= target {
                        break;
                    }
                    stats.evicted += self.evict(shard, evict_active);
                }
            }
        }
        stats.remaining = self.len();
        stats
    }

    /// Evicts public subjects the ledger takes (idle ones unless `active`); returns how many.
    fn evict(&self, shard: &Mutex<Shard>, active: bool) -> usize {
        let mut guard = shard.lock();
        let mut sketches = self.sketches.write();
        let Shard { subjects, dirty } = &mut *guard;
        let (mut month_added, mut minute_added) = (false, false);
        let before = subjects.len();
        subjects.retain(|k, c| {
            if k.is_key() || !(active || c.is_idle()) {
                return true;
            }
            if let Some((newest, count)) = c.minute_window() {
                if !sketches.minute.record(k, newest, count) {
                    return true;
                }
                minute_added = true;
            }
            let (month, n) = c.evicted_month();
            sketches.month.add(k, month, n);
            month_added |= n > 0;
            false
        });
        let evicted = before - subjects.len();
        // The blob and the month sketch change together, in the same batch.
        *dirty |= evicted > 0;
        self.len.fetch_sub(evicted, Ordering::Relaxed);
        self.month_dirty.fetch_or(month_added, Ordering::Release);
        self.minute_dirty.fetch_or(minute_added, Ordering::Release);
        evicted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{PublicEndpoint, Window};
    use std::net::{IpAddr, Ipv4Addr};

    fn ip(n: u32) -> SubjectKey {
        SubjectKey::public(IpAddr::V4(Ipv4Addr::from(n)), PublicEndpoint::Laisvadienis)
    }

    const LIM: Limits = Limits { minute: 2, long: 5 };

    fn blobs(t: &CounterTable) -> Vec<(Part, Option<Vec<u8>>)> {
        let mut v = vec![];
        t.snapshot(true, |i, b| v.push((i, b)));
        v
    }

    #[test]
    fn neighbouring_addresses_spread_over_every_shard() {
        let t = CounterTable::new();
        let shard_of = |key: &SubjectKey| {
            let shard: *const Mutex<Shard> = t.shard(key);
            t.shards
                .iter()
                .position(|s| std::ptr::eq(s, shard))
                .unwrap()
        };
        let v6 = |n: u32| {
            // Neighbouring /64 networks: an IPv6 client is counted by its /64.
            let ip = std::net::Ipv6Addr::from(0x2001_0db8_u128 << 96 | u128::from(n) << 64);
            SubjectKey::public(IpAddr::V6(ip), PublicEndpoint::Days)
        };
        // 16 384 consecutive IPv4 addresses and IPv6 /64s: 64 subjects per shard on average.
        for key_of in [&ip as &dyn Fn(u32) -> SubjectKey, &v6] {
            let mut per_shard = [0u32; SHARDS];
            for n in 0..(SHARDS as u32 * 64) {
                per_shard[shard_of(&key_of(0x0a00_0000 + n))] += 1;
            }
            let (least, most) = (per_shard.iter().min(), per_shard.iter().max());
            assert!(
                least >= Some(&24) && most <= Some(&128),
                "{least:?}..{most:?}"
            );
        }
    }

    #[test]
    fn collect_hands_over_each_changed_shard_once() {
        let t = CounterTable::new();
        for _ in 0..3 {
            t.check(ip(1), LIM, 1_000);
        }
        let b = blobs(&t);
        assert_eq!(b.len(), 1);
        let back = CounterTable::new();
        assert_eq!(back.restore(b[0].0, b[0].1.as_ref().unwrap()), Ok(1));
        assert_eq!(
            back.usage(&ip(1), 1_000),
            (2, 2),
            "the refused third is not counted"
        );
        assert!(blobs(&t).is_empty());
        // A refusal changes nothing to persist.
        t.check(ip(1), LIM, 1_000);
        assert!(blobs(&t).is_empty());
    }

    #[test]
    fn idle_subjects_go_through_the_sketch_and_back() {
        let t = CounterTable::new();
        for n in 0..40 {
            t.check(ip(n), LIM, 1_000);
            t.check(ip(n), LIM, 2_000);
        }
        blobs(&t);
        // Two minutes later only month counts remain: idle, evicted down to 9.
        t.check(ip(100), LIM, 121_000);
        let s = t.maintain(10);
        assert_eq!(s.dropped, 0);
        assert!(s.remaining <= 9 && s.evicted >= 31, "{s:?}");
        assert_eq!(t.usage(&ip(100), 121_000), (1, 1), "the active one stays");
        let b = blobs(&t);
        assert!(
            b.iter().any(|(i, _)| *i == Part::MonthSketch),
            "persisted with the shards"
        );
        assert!(
            !b.iter().any(|(i, _)| *i == Part::MinuteLedger),
            "nothing in it"
        );
        // Every subject still has its month count: three more fit, then refused.
        let wide = Limits {
            minute: 100,
            long: 5,
        };
        for n in 0..40 {
            assert_eq!(t.usage(&ip(n), 122_000), (0, 2), "ip {n}");
            for _ in 0..3 {
                assert_eq!(t.check(ip(n), wide, 122_000).refused_by, None);
            }
            let d = t.check(ip(n), LIM, 122_000);
            assert_eq!(d.refused_by, Some(Window::Month), "ip {n}");
        }
    }

    #[test]
    fn a_flood_of_active_subjects_is_evicted_without_losing_counts() {
        let t = CounterTable::new();
        for n in 0..1_000 {
            t.check(ip(n), LIM, 10_000);
            t.check(ip(n), LIM, 10_500);
        }
        let s = t.maintain(100);
        assert!(s.remaining <= 90 && s.evicted >= 910, "{s:?}");
        assert!(blobs(&t)
            .iter()
            .any(|(i, b)| *i == Part::MinuteLedger && b.is_some()));
        // Every one of them is still at its minute limit, and frees at 71 s as before.
        for n in 0..1_000 {
            assert_eq!(
                t.check(ip(n), LIM, 11_000).refused_by,
                Some(Window::Minute),
                "ip {n}"
            );
        }
        for n in 0..1_000 {
            // (At least 2: the month sketch may overcount, never undercount.)
            let (minute, month) = t.usage(&ip(n), 71_000);
            assert!(minute == 0 && month >= 2, "ip {n}: {minute} {month}");
            assert_eq!(t.check(ip(n), LIM, 71_000).refused_by, None, "ip {n}");
        }
    }

    #[test]
    fn an_address_flood_costs_a_newcomer_nothing() {
        // The shape of the probe that found the old sketch wanting: 200 000 new addresses
        // in 15 s (one request each), five times over, with the state's maintenance every
        // 0.5 s at the default table size. Every 100th request comes from a client that
        // has sent nothing before: it must get its whole minute quota.
        let t = CounterTable::new();
        let lim = Limits {
            minute: 60,
            long: 10_000,
        };
        let mut next_maintain = 500;
        let mut newcomer = 0x0b00_0000u32;
        for flood in 0..5u32 {
            for n in 0..200_000u32 {
                let now = 1_000_000 + i64::from(flood) * 15_000 + i64::from(n) * 15_000 / 200_000;
                if now >= next_maintain {
                    t.maintain(20_000);
                    next_maintain = now + 500;
                }
                if n % 100 == 0 {
                    newcomer += 1;
                    let d = t.check(ip(newcomer), lim, now);
                    assert_eq!(d.refused_by, None, "flood {flood}, request {n}");
                    assert_eq!(d.remaining, 59, "flood {flood}, request {n}");
                } else {
                    let d = t.check(ip(flood * 1_000_000 + n), lim, now);
                    assert_eq!(d.refused_by, None);
                }
            }
        }
        assert!(t.len() <= 40_000, "{} subjects in memory", t.len());
        // And the flooders are still counted exactly: each has its one request.
        let now = 1_000_000 + 5 * 15_000;
        assert_eq!(t.usage(&ip(4 * 1_000_000 + 199_999), now).0, 1);
    }

    #[test]
    fn month_rollover_drops_subjects_and_clears_the_sketches() {
        let t = CounterTable::new();
        t.check(ip(1), LIM, 1_000);
        t.check(ip(2), LIM, 1_000);
        t.check(ip(3), LIM, 100_000);
        assert_eq!(t.maintain(0).remaining, 0, "everything evicted");
        assert_eq!(t.usage(&ip(1), 100_000), (0, 1), "evicted, still counted");
        assert_eq!(
            t.usage(&ip(3), 100_000),
            (1, 1),
            "evicted while active, still counted"
        );
        blobs(&t);
        // 40 days later: another subject moves the clock; everything else is over.
        t.check(ip(4), LIM, 40 * 86_400_000);
        let s = t.maintain(1_000);
        assert_eq!(s.remaining, 1);
        assert_eq!(t.usage(&ip(1), 40 * 86_400_000), (0, 0));
        let b = blobs(&t);
        assert!(
            b.contains(&(Part::MonthSketch, None)),
            "the cleared sketch is deleted"
        );
        assert!(b.contains(&(Part::MinuteLedger, None)));
    }

    #[test]
    fn damaged_blobs_are_reported() {
        let t = CounterTable::new();
        let subjects = Part::Subjects(0);
        assert_eq!(t.restore(subjects, b""), Err(DamagedPart { read: 0 }));
        assert_eq!(
            t.restore(subjects, &[9, 1, 2]),
            Err(DamagedPart { read: 0 })
        );
        assert_eq!(
            t.restore(subjects, &[BLOB_VERSION, 1, 2]),
            Err(DamagedPart { read: 0 })
        );
        assert!(t.restore(Part::MonthSketch, b"nope").is_err());
        assert!(t.restore(Part::MinuteLedger, b"nope").is_err());
    }
}
