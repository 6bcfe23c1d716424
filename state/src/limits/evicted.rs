//! What evicted public subjects leave behind, keyed by our own hash (stable across releases) with
//! seeds persisted alongside. [`MonthSketch`], a count-min sketch of their month counts: fixed
//! memory for unbounded (IPv6) addresses, never an underestimate (collisions only make the month
//! stricter). With 4 rows of 16 384 cells, after 1 M one-request addresses a fresh one starts with
//! about 50 phantom requests; month limits refuse a newcomer only after some 30 M evicted requests.
//!
//! [`MinuteLedger`], their exact minute windows (a flood evicts subjects inside their minute), so a
//! fresh client gets its whole quota. A record is a `u64`, keyed fingerprint | newest second |
//! count: folding the minute into its newest second only counts requests longer, and a shared
//! fingerprint (below 10^-7 per lookup at a million records) only tightens a limit. Generations
//! of [`GEN_SECS`] seconds are freed whole: about 10 bytes a record (10 MB at 13 000 addresses/s).

use bytes::{Buf, BufMut};
use rand::RngCore;

use super::subject::SubjectKey;
use super::window::Span;

/// Rows (independent hashes) and cells per row (a power of two).
const DEPTH: usize = 4;
const MONTH_WIDTH: usize = 1 << 14;
const MONTH_VERSION: u8 = 1;

/// 64-bit finaliser of MurmurHash3: a cheap, well-mixing bijection.
fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The keyed hash of the sketch's cells and the ledger's fingerprints.
fn keyed_hash(key: &SubjectKey, start: u64, add: u64) -> u64 {
    let h = key
        .words()
        .into_iter()
        .fold(start, |h, word| fmix64(h ^ word).wrapping_add(add));
    fmix64(h)
}

/// The index in `MonthSketch::cells` of `key`'s counter in each row.
fn counters<'a>(seeds: &'a [u64; DEPTH], key: &'a SubjectKey) -> impl Iterator<Item = usize> + 'a {
    seeds.iter().enumerate().map(|(row, &seed)| {
        row * MONTH_WIDTH + (keyed_hash(key, fmix64(seed), seed) as usize & (MONTH_WIDTH - 1))
    })
}

/// Hash keys: random, so clients cannot aim at collisions; fixed in unit tests, whose
/// collision assertions would fail by chance once in a few hundred runs.
pub(crate) fn hash_keys<const N: usize>() -> [u64; N] {
    #[cfg(not(test))]
    let mut rng = rand::rngs::OsRng;
    #[cfg(test)]
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(N as u64);
    std::array::from_fn(|_| rng.next_u64())
}

/// Month counts of evicted subjects (128 KiB).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MonthSketch {
    /// The month (`window::month_of`) of every count.
    month: i64,
    seeds: [u64; DEPTH],
    /// Rows of saturating counters. A saturated cell reads as "more than any limit" (limits
    /// above 65 534 a month then refuse early).
    cells: Vec<u16>,
    /// Sum of everything added this month; 0 skips lookups.
    total: u64,
}

impl MonthSketch {
    pub fn new() -> MonthSketch {
        MonthSketch {
            month: i64::MIN,
            seeds: hash_keys(),
            cells: vec![0; DEPTH * MONTH_WIDTH],
            total: 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Forgets everything if `month` is later than the sketch's. Returns true if it did.
    pub fn roll(&mut self, month: i64) -> bool {
        let cleared = month > self.month && self.total > 0;
        if cleared {
            self.cells.fill(0);
            self.total = 0;
        }
        self.month = self.month.max(month);
        cleared
    }

    /// Adds `n` requests of `key` in `month` (an earlier month than the sketch's is over).
    pub fn add(&mut self, key: &SubjectKey, month: i64, n: u32) {
        if n == 0 || month < self.month {
            return;
        }
        self.roll(month);
        let n16 = u16::try_from(n).unwrap_or(u16::MAX);
        for i in counters(&self.seeds, key) {
            self.cells[i] = self.cells[i].saturating_add(n16);
        }
        self.total += u64::from(n);
    }

    /// At least the number of requests of `key` added for `month`.
    pub fn estimate(&self, key: &SubjectKey, month: i64) -> u32 {
        // An earlier month comes from a clock that went back: later counts answer it.
        if self.total == 0 || month > self.month {
            return 0;
        }
        match counters(&self.seeds, key).map(|i| self.cells[i]).min() {
            Some(u16::MAX) => u32::MAX,
            n => n.map_or(0, u32::from),
        }
    }

    /// Version, month, seeds, total, cells; little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(17 + 8 * DEPTH + 2 * self.cells.len());
        out.put_u8(MONTH_VERSION);
        out.put_i64_le(self.month);
        self.seeds.iter().for_each(|&s| out.put_u64_le(s));
        out.put_u64_le(self.total);
        self.cells.iter().for_each(|&c| out.put_u16_le(c));
        out
    }

    pub fn decode(bytes: &[u8]) -> Option<MonthSketch> {
        let mut bytes = bytes.strip_prefix(&[MONTH_VERSION])?;
        if bytes.len() != 8 * (DEPTH + 2) + 2 * DEPTH * MONTH_WIDTH {
            return None;
        }
        // Fields are read in the order written.
        Some(MonthSketch {
            month: bytes.get_i64_le(),
            seeds: std::array::from_fn(|_| bytes.get_u64_le()),
            total: bytes.get_u64_le(),
            cells: bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        })
    }
}

/// Seconds of newest requests one generation holds.
const GEN_SECS: i64 = 1 << OFFSET_BITS;
const FIRST_SLOTS: usize = 1 << 12;
/// Past it `record` refuses and the table keeps the subject.
const MAX_GEN_SLOTS: usize = 1 << 21;
/// Bits of a record: fingerprint | offset in the generation | count.
const COUNT_BITS: u32 = 15;
const OFFSET_BITS: u32 = 4;
const FP_SHIFT: u32 = COUNT_BITS + OFFSET_BITS;
const MAX_COUNT: u32 = (1 << COUNT_BITS) - 1;
const LEDGER_VERSION: u8 = 2;

/// The records whose newest second is in `[g * GEN_SECS, (g + 1) * GEN_SECS)`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Generation {
    g: i64,
    /// Open addressing, linear probing; 0 = empty (a fingerprint is never 0).
    slots: Vec<u64>,
    len: usize,
}

impl Generation {
    /// Sized for `expected` records, the previous generation's: a flood keeps its rate.
    fn new(g: i64, expected: usize) -> Generation {
        Generation {
            g,
            slots: vec![0; (expected * 5 / 4).clamp(FIRST_SLOTS, MAX_GEN_SLOTS)],
            len: 0,
        }
    }

    /// The slot holding `fp`, or the empty slot where it would go. The home slot is the
    /// fingerprint scaled to the length: tables are sized to their load, not powers of two.
    fn find(&self, fp: u64) -> usize {
        let len = self.slots.len();
        let spread = fp.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut i = ((u128::from(spread) * len as u128) >> 64) as usize;
        loop {
            let r = self.slots[i];
            if r == 0 || r >> FP_SHIFT == fp {
                return i;
            }
            i = (i + 1) % len;
        }
    }

    /// Inserts or replaces; `false` when the table is full and may not grow.
    fn put(&mut self, record: u64) -> bool {
        let i = self.find(record >> FP_SHIFT);
        if self.slots[i] == 0 {
            // Keep the load at most 0.85 (probe lengths stay short for absent keys).
            if (self.len + 1) * 20 > self.slots.len() * 17 {
                if self.slots.len() >= MAX_GEN_SLOTS {
                    return false;
                }
                // Half as large again: doubling would leave a quarter of it unused on average.
                let wider = vec![0; (self.slots.len() * 3 / 2).min(MAX_GEN_SLOTS)];
                self.len = 0;
                let old = std::mem::replace(&mut self.slots, wider);
                for r in old.into_iter().filter(|&r| r != 0) {
                    self.put(r);
                }
                return self.put(record);
            }
            self.len += 1;
        }
        self.slots[i] = record;
        true
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MinuteLedger {
    seeds: [u64; 2],
    gens: Vec<Generation>,
}

impl MinuteLedger {
    pub fn new() -> MinuteLedger {
        MinuteLedger {
            seeds: hash_keys(),
            gens: Vec::new(),
        }
    }

    fn fingerprint(&self, key: &SubjectKey) -> u64 {
        (keyed_hash(key, self.seeds[0], self.seeds[1]) >> FP_SHIFT).max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.gens.iter().all(|g| g.len == 0)
    }

    /// Frees the generations no minute window counts at `t_ms` any more; true if any.
    pub fn expire(&mut self, t_ms: i64) -> bool {
        let first = Span::MINUTE.first_counted(t_ms);
        let before = self.gens.len();
        self.gens.retain(|g| (g.g + 1) * GEN_SECS > first);
        before != self.gens.len()
    }

    /// Records (replaces) `key`'s minute window: `count` requests, the newest in second
    /// `newest`. `false` (nothing recorded) when it does not fit.
    pub fn record(&mut self, key: &SubjectKey, newest: i64, count: u32) -> bool {
        if count > MAX_COUNT {
            return false;
        }
        if count == 0 {
            return true;
        }
        let g = newest.div_euclid(GEN_SECS);
        let found = self.gens.binary_search_by_key(&g, |x| x.g);
        let pos = found.unwrap_or_else(|pos| {
            let expected = self.gens.last().map_or(0, |last| last.len);
            self.gens.insert(pos, Generation::new(g, expected));
            pos
        });
        let fp = self.fingerprint(key);
        let offset = newest.rem_euclid(GEN_SECS) as u64;
        let record = fp << FP_SHIFT | offset << COUNT_BITS | u64::from(count);
        self.gens[pos].put(record)
    }

    /// `key`'s record if a minute window still counts it at `t_ms`: (newest second, count).
    pub fn lookup(&self, key: &SubjectKey, t_ms: i64) -> Option<(i64, u32)> {
        if self.is_empty() {
            return None;
        }
        let fp = self.fingerprint(key);
        let first = Span::MINUTE.first_counted(t_ms);
        // Newest generation first: a later record of a subject replaces earlier ones.
        self.gens
            .iter()
            .rev()
            .find_map(|g| {
                let r = Some(g.slots[g.find(fp)]).filter(|&r| r != 0)?;
                let newest = g.g * GEN_SECS + ((r >> COUNT_BITS) as i64 & (GEN_SECS - 1));
                Some((newest, (r & u64::from(MAX_COUNT)) as u32))
            })
            .filter(|&(idx, _)| idx >= first)
    }

    /// Version, seeds, then per generation its number, record count and records.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![LEDGER_VERSION];
        self.seeds.iter().for_each(|&s| out.put_u64_le(s));
        for g in self.gens.iter().filter(|g| g.len > 0) {
            out.put_i64_le(g.g);
            out.put_u64_le(g.len as u64);
            for &r in g.slots.iter().filter(|&&r| r != 0) {
                out.put_u64_le(r);
            }
        }
        out
    }

    pub fn decode(bytes: &[u8]) -> Option<MinuteLedger> {
        let mut bytes = bytes.strip_prefix(&[LEDGER_VERSION])?;
        let mut ledger = MinuteLedger {
            seeds: [bytes.try_get_u64_le().ok()?, bytes.try_get_u64_le().ok()?],
            gens: Vec::new(),
        };
        while let Ok(g) = bytes.try_get_i64_le() {
            let n = bytes.try_get_u64_le().ok()?;
            if ledger.gens.last().is_some_and(|last| last.g >= g) {
                return None;
            }
            let mut generation = Generation::new(g, n as usize);
            for _ in 0..n {
                let r = bytes.try_get_u64_le().ok()?;
                if r >> FP_SHIFT == 0 || !generation.put(r) {
                    return None;
                }
            }
            ledger.gens.push(generation);
        }
        // The loop stops at the end, or at a partial word: only the end is valid.
        bytes.is_empty().then_some(ledger)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::PublicEndpoint;
    use std::net::{IpAddr, Ipv4Addr};

    fn key(n: u32) -> SubjectKey {
        SubjectKey::public(IpAddr::V4(Ipv4Addr::from(n)), PublicEndpoint::Days)
    }

    #[test]
    fn month_never_underestimates_and_rarely_overestimates() {
        let mut s = MonthSketch::new();
        assert!(s.is_empty());
        for n in 0..50_000 {
            s.add(&key(n), 7, n % 5 + 1);
        }
        let mut over = 0;
        for n in 0..50_000 {
            let truth = n % 5 + 1;
            let e = s.estimate(&key(n), 7);
            assert!(e >= truth, "underestimate");
            over += u64::from(e - truth);
        }
        // 150 000 requests over 16 384 cells per row: the mean excess stays small.
        assert!(over / 50_000 < 5, "mean overestimate {}", over / 50_000);
        assert_eq!(s.estimate(&key(1), 8), 0, "a later month starts empty");
    }

    #[test]
    fn month_rolls_and_round_trips() {
        let mut s = MonthSketch::new();
        s.add(&key(1), 7, 3);
        let back = MonthSketch::decode(&s.encode()).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.estimate(&key(1), 7), 3);
        assert!(MonthSketch::decode(&s.encode()[1..]).is_none());
        s.add(&key(1), 6, 9);
        assert_eq!(s.estimate(&key(1), 7), 3, "an older month is ignored");
        assert!(s.roll(8));
        assert_eq!(s.estimate(&key(1), 8), 0);
        assert!(s.is_empty());
        s.add(&key(5), 8, 70_000);
        assert_eq!(
            s.estimate(&key(5), 8),
            u32::MAX,
            "saturated means over any limit"
        );
    }

    /// The start of a month sketch written by the code of 5901e60 (version, month
    /// 2023 * 12 + 10, seeds, total) and its nonzero cells (index, count): key(1) 3
    /// requests, key(2) 70 000.
    const OLD_HEAD: [u8; 49] = [
        1, 222, 94, 0, 0, 0, 0, 0, 0, 228, 99, 188, 177, 166, 229, 114, 136, 255, 212, 103, 21, 3,
        8, 47, 168, 101, 110, 62, 172, 183, 143, 177, 146, 95, 138, 124, 118, 64, 14, 142, 149,
        115, 17, 1, 0, 0, 0, 0, 0,
    ];
    const OLD_CELLS: [(usize, u16); 8] = [
        (1911, 3),
        (3054, 65535),
        (17026, 65535),
        (25912, 3),
        (33674, 65535),
        (36363, 3),
        (51630, 65535),
        (54281, 3),
    ];

    #[test]
    fn a_sketch_of_an_earlier_release_restores_identically() {
        let mut old = OLD_HEAD.to_vec();
        old.resize(OLD_HEAD.len() + 2 * DEPTH * MONTH_WIDTH, 0);
        for (i, c) in OLD_CELLS {
            old[OLD_HEAD.len() + 2 * i..][..2].copy_from_slice(&c.to_le_bytes());
        }
        let s = MonthSketch::decode(&old).unwrap();
        assert_eq!(s.estimate(&key(1), 2023 * 12 + 10), 3);
        assert_eq!(s.estimate(&key(2), 2023 * 12 + 10), u32::MAX);
        assert_eq!(s.estimate(&key(3), 2023 * 12 + 10), 0);
        assert_eq!(s.encode(), old);
    }

    /// Records held.
    fn len(l: &MinuteLedger) -> usize {
        l.gens.iter().map(|g| g.len).sum()
    }

    /// Bytes of the tables.
    fn bytes(l: &MinuteLedger) -> usize {
        l.gens.iter().map(|g| g.slots.len() * 8).sum()
    }

    #[test]
    fn records_are_exact_replace_each_other_and_leave_with_the_window() {
        let mut l = MinuteLedger::new();
        assert!(l.is_empty());
        assert!(l.record(&key(1), 100, 2));
        assert!(l.record(&key(2), 101, 5));
        assert_eq!(l.lookup(&key(1), 100_500), Some((100, 2)));
        assert_eq!(l.lookup(&key(3), 100_500), None);
        // Evicted again later, with what it was revived with included: replaced.
        assert!(l.record(&key(1), 130, 3));
        assert_eq!(l.lookup(&key(1), 130_000), Some((130, 3)));
        // Second 130 is counted up to 190 s, then gone.
        assert_eq!(l.lookup(&key(1), 190_999), Some((130, 3)));
        assert_eq!(l.lookup(&key(1), 191_000), None);
        assert!(!l.record(&key(4), 130, MAX_COUNT + 1), "does not fit");
        assert!(l.expire(204_000));
        assert!(l.is_empty());
    }

    #[test]
    fn a_million_evictions_leave_every_outsider_at_zero() {
        let mut l = MinuteLedger::new();
        // 1 M subjects over 77 s, one request each (the shape of an address flood).
        for n in 0..1_000_000u32 {
            assert!(l.record(&key(n), 1_000 + i64::from(n / 13_000), 1));
        }
        assert_eq!(len(&l), 1_000_000);
        assert!(bytes(&l) <= 24 << 20, "{} bytes", bytes(&l));
        let now = (1_000 + 76) * 1_000;
        let phantom = (2_000_000..2_100_000u32)
            .filter(|&n| l.lookup(&key(n), now).is_some())
            .count();
        assert_eq!(phantom, 0, "a fresh subject sees nothing");
        // Every recorded one still counted in its window sees exactly its one request.
        for n in (0..1_000_000u32).step_by(97) {
            let idx = 1_000 + i64::from(n / 13_000);
            let seen = l.lookup(&key(n), now);
            if idx >= Span::MINUTE.first_counted(now) {
                assert_eq!(seen, Some((idx, 1)), "subject {n}");
            } else {
                assert_eq!(seen, None, "subject {n}");
            }
        }
    }

    #[test]
    fn round_trips_and_refuses_damage() {
        let mut l = MinuteLedger::new();
        for n in 0..5_000 {
            l.record(&key(n), 100 + i64::from(n % 40), n % 7 + 1);
        }
        let bytes = l.encode();
        let back = MinuteLedger::decode(&bytes).unwrap();
        for n in 0..5_000 {
            assert_eq!(back.lookup(&key(n), 140_000), l.lookup(&key(n), 140_000));
        }
        assert!(MinuteLedger::decode(&bytes[..bytes.len() - 3]).is_none());
        assert!(MinuteLedger::decode(&bytes[1..]).is_none());
        assert!(MinuteLedger::decode(&MinuteLedger::new().encode())
            .unwrap()
            .is_empty());
    }

    /// A ledger written by the code of 5901e60: key(1) 2 requests at second 100, key(2) 5
    /// at 101, key(3) 1 at 117 (two generations).
    const OLD_LEDGER: &[u8] = &[
        2, 31, 190, 200, 20, 177, 139, 29, 76, 62, 170, 124, 236, 65, 0, 126, 4, 6, 0, 0, 0, 0, 0,
        0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5, 128, 82, 155, 158, 196, 166, 226, 2, 0, 218, 96, 241, 197,
        119, 127, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 128, 202, 22, 219, 87, 141,
        138,
    ];

    #[test]
    fn a_ledger_of_an_earlier_release_restores_identically() {
        let l = MinuteLedger::decode(OLD_LEDGER).unwrap();
        assert_eq!(l.lookup(&key(1), 101_000), Some((100, 2)));
        assert_eq!(l.lookup(&key(2), 101_000), Some((101, 5)));
        assert_eq!(l.lookup(&key(3), 118_000), Some((117, 1)));
        assert_eq!(l.lookup(&key(4), 118_000), None);
        assert_eq!(l.encode(), OLD_LEDGER);
    }
}
