//! Count-min sketches of evicted subjects' counts: fixed memory, never an underestimate.
//!
//! Why: per-IP counts must be remembered (the month for a whole month), but the number of
//! distinct client addresses is not bounded (IPv6 lets one client rotate through
//! billions). Past `max_subjects`, the table evicts public subjects and adds their counts
//! here: the month count to [`MonthSketch`], the minute window's per-second buckets to
//! [`MinuteSketch`]. A returning subject starts from the sketches' estimates, which are at
//! least its true counts, so no window ever admits more than its limit; collisions can only
//! make it stricter. A saturated cell reads as "more than any limit".
//!
//! Accuracy: the month sketch (4 × 16 384 cells) overestimates by at most ~1/6000 of all
//! evicted requests this month with probability > 98 % (typically far less). The minute sketch (4 × 4 096 cells
//! per second) stays near exact up to a few thousand evictions per second; beyond that a
//! flood of new addresses starts to cost newcomers part of their minute quota, which is
//! the price of a hard memory bound.
//!
//! The hash is keyed with random seeds persisted with each sketch (clients cannot aim at
//! a victim's cells offline) and is our own function, so it stays the same across Rust
//! releases and restarts.

use rand::RngCore;

use super::subject::{SubjectKey, SUBJECT_LEN};
use super::window::Span;

/// Rows (independent hashes).
const DEPTH: usize = 4;
/// Cells per row of the month sketch (a power of two).
const MONTH_WIDTH: usize = 1 << 14;
/// Cells per row of each second of the minute sketch (a power of two).
const MINUTE_WIDTH: usize = 1 << 12;
/// Seconds held by the minute sketch: every bucket a minute window counts, plus one.
const MINUTE_SLOTS: usize = Span::MINUTE.buckets as usize + 2;
/// Encoding version of both sketches.
const VERSION: u8 = 1;

/// 64-bit finaliser of MurmurHash3: a cheap, well-mixing bijection.
fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The cell of `key` in each row, for rows of `width` cells.
fn cells(seeds: &[u64; DEPTH], key: &[u8; SUBJECT_LEN], width: usize) -> [usize; DEPTH] {
    seeds.map(|seed| {
        let mut h = fmix64(seed);
        for chunk in key.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            h = fmix64(h ^ u64::from_le_bytes(b)).wrapping_add(seed);
        }
        (fmix64(h) as usize) & (width - 1)
    })
}

fn fresh_seeds() -> [u64; DEPTH] {
    let mut seeds = [0u64; DEPTH];
    for s in &mut seeds {
        *s = rand::rngs::OsRng.next_u64();
    }
    seeds
}

/// Little-endian reader for `decode`.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn bytes<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, tail) = self.0.split_first_chunk::<N>()?;
        self.0 = tail;
        Some(*head)
    }
    fn u64(&mut self) -> Option<u64> {
        self.bytes::<8>().map(u64::from_le_bytes)
    }
    fn seeds(&mut self) -> Option<[u64; DEPTH]> {
        let mut seeds = [0u64; DEPTH];
        for s in &mut seeds {
            *s = self.u64()?;
        }
        Some(seeds)
    }
}

/// Month counts of evicted subjects. Memory: 128 KiB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MonthSketch {
    /// The month (numbered as by `window::month_of`) all counts belong to.
    month: i64,
    /// One seed per row.
    seeds: [u64; DEPTH],
    /// `DEPTH` rows of `MONTH_WIDTH` saturating counters, row-major. A saturated cell
    /// reads as "more than any limit" (limits above 65 534 a month then refuse early).
    cells: Vec<u16>,
    /// Sum of everything added this month; 0 means "empty", which skips lookups.
    total: u64,
}

impl MonthSketch {
    /// An empty sketch with fresh random seeds.
    pub fn new() -> MonthSketch {
        MonthSketch {
            month: i64::MIN,
            seeds: fresh_seeds(),
            cells: vec![0; DEPTH * MONTH_WIDTH],
            total: 0,
        }
    }

    /// True when nothing was added this month.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Forgets everything if `month` is later than the sketch's. Returns true if it did.
    pub fn roll(&mut self, month: i64) -> bool {
        let cleared = month > self.month && self.total > 0;
        if cleared {
            self.cells.iter_mut().for_each(|c| *c = 0);
            self.total = 0;
        }
        self.month = self.month.max(month);
        cleared
    }

    /// Adds `n` requests of `key` in `month` (a month before the sketch's is over and
    /// ignored).
    pub fn add(&mut self, key: &SubjectKey, month: i64, n: u32) {
        if n == 0 || month < self.month {
            return;
        }
        self.roll(month);
        for (row, c) in cells(&self.seeds, key.bytes(), MONTH_WIDTH)
            .into_iter()
            .enumerate()
        {
            let cell = &mut self.cells[row * MONTH_WIDTH + c];
            *cell = cell.saturating_add(u16::try_from(n).unwrap_or(u16::MAX));
        }
        self.total += u64::from(n);
    }

    /// At least the number of requests of `key` added for `month`.
    pub fn estimate(&self, key: &SubjectKey, month: i64) -> u32 {
        // A month before the sketch's can only be asked by a clock that went back: the
        // later month's counts answer it, conservatively.
        if self.total == 0 || month > self.month {
            return 0;
        }
        cells(&self.seeds, key.bytes(), MONTH_WIDTH)
            .into_iter()
            .enumerate()
            .map(|(row, c)| self.cells[row * MONTH_WIDTH + c])
            .min()
            .map_or(0, |n| {
                if n == u16::MAX {
                    u32::MAX
                } else {
                    u32::from(n)
                }
            })
    }

    /// Serialises: version, month, seeds, total, cells; little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(17 + 8 * DEPTH + 2 * self.cells.len());
        out.push(VERSION);
        out.extend_from_slice(&self.month.to_le_bytes());
        self.seeds
            .iter()
            .for_each(|s| out.extend_from_slice(&s.to_le_bytes()));
        out.extend_from_slice(&self.total.to_le_bytes());
        self.cells
            .iter()
            .for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
        out
    }

    /// Parses what `encode` wrote; `None` if it is not exactly that.
    pub fn decode(bytes: &[u8]) -> Option<MonthSketch> {
        let mut r = Reader(bytes);
        if r.bytes::<1>()? != [VERSION] {
            return None;
        }
        let month = r.u64()? as i64;
        let seeds = r.seeds()?;
        let total = r.u64()?;
        if r.0.len() != 2 * DEPTH * MONTH_WIDTH {
            return None;
        }
        let cells =
            r.0.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
        Some(MonthSketch {
            month,
            seeds,
            cells,
            total,
        })
    }
}

/// One second of the minute sketch.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Slot {
    /// The second (Unix seconds) this slot holds.
    idx: i64,
    /// `DEPTH` rows of `MINUTE_WIDTH` saturating counters, row-major.
    cells: Box<[u16]>,
}

/// Per-second minute-window counts of evicted subjects: a ring of one sketch per second
/// still counted by some minute window. Memory: up to 62 × 32 KiB, allocated only for
/// seconds in which something was evicted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MinuteSketch {
    /// One seed per row.
    seeds: [u64; DEPTH],
    /// `slots[idx % MINUTE_SLOTS]` holds second `idx`, if any.
    slots: Vec<Option<Slot>>,
}

impl MinuteSketch {
    /// An empty sketch with fresh random seeds.
    pub fn new() -> MinuteSketch {
        MinuteSketch {
            seeds: fresh_seeds(),
            slots: vec![None; MINUTE_SLOTS],
        }
    }

    /// True when no second holds anything.
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(Option::is_none)
    }

    /// Frees the seconds no minute window counts at `t_ms` any more. Returns true if any.
    pub fn expire(&mut self, t_ms: i64) -> bool {
        let first = Span::MINUTE.first_counted(t_ms);
        let mut freed = false;
        for slot in &mut self.slots {
            if slot.as_ref().is_some_and(|s| s.idx < first) {
                *slot = None;
                freed = true;
            }
        }
        freed
    }

    /// Adds `n` requests of `key` in second `idx`. A second older than the one its slot
    /// holds is no longer counted by anything and is ignored.
    pub fn add(&mut self, key: &SubjectKey, idx: i64, n: u32) {
        if n == 0 {
            return;
        }
        let slot = &mut self.slots[idx.rem_euclid(MINUTE_SLOTS as i64) as usize];
        match slot {
            Some(s) if s.idx > idx => return,
            Some(s) if s.idx == idx => {}
            _ => {
                *slot = Some(Slot {
                    idx,
                    cells: vec![0; DEPTH * MINUTE_WIDTH].into_boxed_slice(),
                })
            }
        }
        let s = slot.as_mut().expect("set above");
        let n = u16::try_from(n).unwrap_or(u16::MAX);
        for (row, c) in cells(&self.seeds, key.bytes(), MINUTE_WIDTH)
            .into_iter()
            .enumerate()
        {
            let cell = &mut s.cells[row * MINUTE_WIDTH + c];
            *cell = cell.saturating_add(n);
        }
    }

    /// At least the requests of `key` in each second a minute window counts at `t_ms`
    /// (and any later second), as (second, count); a saturated cell reads as `u32::MAX`.
    pub fn estimate(&self, key: &SubjectKey, t_ms: i64) -> Vec<(i64, u32)> {
        if self.is_empty() {
            return Vec::new();
        }
        let first = Span::MINUTE.first_counted(t_ms);
        let at = cells(&self.seeds, key.bytes(), MINUTE_WIDTH);
        let mut out: Vec<(i64, u32)> = self
            .slots
            .iter()
            .flatten()
            .filter(|s| s.idx >= first)
            .filter_map(|s| {
                let n = (0..DEPTH)
                    .map(|row| s.cells[row * MINUTE_WIDTH + at[row]])
                    .min()?;
                let n = if n == u16::MAX {
                    u32::MAX
                } else {
                    u32::from(n)
                };
                (n > 0).then_some((s.idx, n))
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// Serialises: version, seeds, then per held second its index and cells.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![VERSION];
        self.seeds
            .iter()
            .for_each(|s| out.extend_from_slice(&s.to_le_bytes()));
        for s in self.slots.iter().flatten() {
            out.extend_from_slice(&s.idx.to_le_bytes());
            s.cells
                .iter()
                .for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
        }
        out
    }

    /// Parses what `encode` wrote; `None` if it is not exactly that.
    pub fn decode(bytes: &[u8]) -> Option<MinuteSketch> {
        let mut r = Reader(bytes);
        if r.bytes::<1>()? != [VERSION] {
            return None;
        }
        let mut sketch = MinuteSketch {
            seeds: r.seeds()?,
            slots: vec![None; MINUTE_SLOTS],
        };
        let slot_len = 8 + 2 * DEPTH * MINUTE_WIDTH;
        if r.0.len() % slot_len != 0 || r.0.len() / slot_len > MINUTE_SLOTS {
            return None;
        }
        while !r.0.is_empty() {
            let idx = r.u64()? as i64;
            let (cells, rest) = r.0.split_at(2 * DEPTH * MINUTE_WIDTH);
            r.0 = rest;
            let cells = cells
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            sketch.slots[idx.rem_euclid(MINUTE_SLOTS as i64) as usize] = Some(Slot { idx, cells });
        }
        Some(sketch)
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

    #[test]
    fn minute_buckets_slide_and_round_trip() {
        let mut s = MinuteSketch::new();
        assert!(s.is_empty());
        s.add(&key(1), 100, 2);
        s.add(&key(1), 130, 1);
        s.add(&key(2), 130, 5);
        s.add(&key(1), 100 - MINUTE_SLOTS as i64, 9); // older than its slot: ignored
        assert_eq!(s.estimate(&key(1), 130_500), vec![(100, 2), (130, 1)]);
        assert_eq!(
            s.estimate(&key(1), 161_000),
            vec![(130, 1)],
            "100 left at 161 s"
        );
        let back = MinuteSketch::decode(&s.encode()).unwrap();
        assert_eq!(back, s);
        assert!(MinuteSketch::decode(&s.encode()[..100]).is_none());
        assert!(s.expire(161_000));
        assert_eq!(s.estimate(&key(1), 130_000), vec![(130, 1)]);
        s.add(&key(3), 131, 70_000);
        assert_eq!(
            s.estimate(&key(3), 131_000),
            vec![(131, u32::MAX)],
            "saturated"
        );
        assert!(s.expire(200_000) && s.is_empty());
    }

    #[test]
    fn minute_sketch_stays_near_exact_at_moderate_load() {
        let mut s = MinuteSketch::new();
        for n in 0..2_000 {
            s.add(&key(n), 50, 1);
        }
        let over: usize = (10_000..12_000)
            .map(|n| s.estimate(&key(n), 50_000).len())
            .sum();
        assert!(over < 100, "{over} of 2000 outsiders see a phantom request");
    }
}
