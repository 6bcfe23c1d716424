//! A count-min sketch of evicted subjects' month counts: fixed memory for unbounded (IPv6)
//! addresses, never an underestimate, so collisions only make the month stricter. With 4 rows
//! of 16 384 cells, after 1 M one-request addresses a fresh one starts with about 50 phantom
//! requests; month limits refuse a newcomer only after some 30 M evicted requests. The hash
//! is our own (stable across releases), keyed with seeds persisted with the sketch.

use bytes::{Buf, BufMut};
use rand::RngCore;

use super::subject::SubjectKey;

/// Rows (independent hashes) and cells per row (a power of two).
const DEPTH: usize = 4;
const MONTH_WIDTH: usize = 1 << 14;
const VERSION: u8 = 1;

/// 64-bit finaliser of MurmurHash3: a cheap, well-mixing bijection.
fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The keyed hash of the sketch's cells and the ledger's fingerprints.
pub(crate) fn keyed_hash(key: &SubjectKey, start: u64, add: u64) -> u64 {
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
        out.put_u8(VERSION);
        out.put_i64_le(self.month);
        self.seeds.iter().for_each(|&s| out.put_u64_le(s));
        out.put_u64_le(self.total);
        self.cells.iter().for_each(|&c| out.put_u16_le(c));
        out
    }

    pub fn decode(bytes: &[u8]) -> Option<MonthSketch> {
        let mut bytes = bytes.strip_prefix(&[VERSION])?;
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
}
