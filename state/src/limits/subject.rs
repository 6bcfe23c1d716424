//! One subject (an IP on a public endpoint, or a key): its windows, checked together under
//! the caller's lock (a request counts in every window or none: a 429 uses no quota), and its
//! record in the shard blobs. An idle subject is 20 bytes of key and 24 of counters.

use std::net::IpAddr;

use bytes::{Buf, BufMut};
use chrono::DateTime;

use super::rules::{self, WindowCount};
use super::window::{month_of, month_start_ms, until_month_end, Sliding, Span};
use super::{Decision, PublicEndpoint, Window};

pub(crate) const SUBJECT_LEN: usize = 20;
const PUBLIC: u8 = b'p';
const KEY: u8 = b'k';

/// Fixed-size bytes, cheap to hash, copy and store. Public: `b'p' | endpoint letter | 4 or
/// 6 | 16 address bytes (IPv4: 4, zero-padded) | 0`; key: `b'k' | id (zero-padded)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct SubjectKey([u8; SUBJECT_LEN]);

impl SubjectKey {
    /// By `client_network`: IPv4-mapped as IPv4 (dual stack cannot split a quota), IPv6 by /64.
    pub fn public(ip: IpAddr, endpoint: PublicEndpoint) -> SubjectKey {
        let (family, address) = match crate::network::client_network(ip) {
            IpAddr::V4(v4) => (4, u128::from(u32::from(v4)) << 96),
            IpAddr::V6(v6) => (6, u128::from(v6)),
        };
        let mut b = [0u8; SUBJECT_LEN];
        b[..3].copy_from_slice(&[PUBLIC, endpoint as u8, family]);
        b[3..19].copy_from_slice(&address.to_be_bytes());
        SubjectKey(b)
    }

    /// Ids longer than 19 bytes are truncated (this crate issues 16 hex characters).
    pub fn key(id: &str) -> SubjectKey {
        let mut b = [0u8; SUBJECT_LEN];
        b[0] = KEY;
        let id = &id.as_bytes()[..id.len().min(SUBJECT_LEN - 1)];
        b[1..1 + id.len()].copy_from_slice(id);
        SubjectKey(b)
    }

    pub fn from_bytes(bytes: &[u8]) -> Option<SubjectKey> {
        let b: [u8; SUBJECT_LEN] = bytes.try_into().ok()?;
        let public = PublicEndpoint::from_letter(b[1]).is_some() && matches!(b[2], 4 | 6);
        (b[0] == KEY || (b[0] == PUBLIC && public)).then_some(SubjectKey(b))
    }

    /// The bytes as three little-endian words (zero-padded), for the keyed hashes.
    pub fn words(&self) -> [u64; 3] {
        let mut b = [0u8; 24];
        b[..SUBJECT_LEN].copy_from_slice(&self.0);
        std::array::from_fn(|i| u64::from_le_bytes(b[i * 8..][..8].try_into().expect("8 bytes")))
    }

    /// A key's subject (else an IP's), whose long window is the sliding day, not the month.
    pub fn is_key(&self) -> bool {
        self.0[0] == KEY
    }
}

/// The limits (>= 1) of the minute and the long window (month or day, see `is_key`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub minute: u64,
    pub long: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Active {
    /// The latest counted request's time: checks use `max(now, last_ms)`, so a stale clock
    /// reading never counts in a pruned bucket (a refusal leaves it, as in Redis).
    last_ms: i64,
    minute: Sliding,
    /// Keys only.
    day: Sliding,
}

impl Active {
    fn new(last_ms: i64) -> Box<Active> {
        Box::new(Active {
            last_ms,
            ..Active::default()
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Counters {
    /// The month (`window::month_of`) of `count`; public only.
    month: i32,
    count: u32,
    /// The part of `count` read back from the eviction sketch, not added to it again.
    base: u32,
    /// `None` while every sliding window is empty (idle).
    active: Option<Box<Active>>,
}

/// `month_of` as the compact `i32` kept per subject (chrono's years fit easily).
fn month_i32(t_ms: i64) -> i32 {
    month_of(t_ms).map_or(i32::MAX, |m| m as i32)
}

impl Counters {
    /// A public subject back from eviction (the sketch's count, the ledger's minute window).
    pub fn from_eviction(month: i64, count: u32, minute: Option<(i64, u32)>) -> Counters {
        let active = minute.map(|(newest, n)| {
            let mut a = Active::new(Span::MINUTE.start_ms(newest));
            a.minute.insert(newest, n);
            a
        });
        Counters {
            month: i32::try_from(month).unwrap_or(i32::MAX),
            count,
            base: count,
            active,
        }
    }

    /// The minute and day windows (empty while idle).
    fn windows(&self) -> (&Sliding, &Sliding) {
        static EMPTY: Sliding = Sliding::EMPTY;
        self.active
            .as_deref()
            .map_or((&EMPTY, &EMPTY), |a| (&a.minute, &a.day))
    }

    /// Drops what left every window at `t = max(now_ms, last_ms)` (a later month's count
    /// stays: the clock went back); returns `t` and whether anything was dropped.
    pub fn advance(&mut self, now_ms: i64) -> (i64, bool) {
        let (mut t, mut changed) = (now_ms, false);
        if let Some(a) = &mut self.active {
            t = now_ms.max(a.last_ms);
            changed = a.minute.prune(Span::MINUTE, t) | a.day.prune(Span::DAY, t);
            if a.minute.is_empty() && a.day.is_empty() {
                self.active = None;
            }
        }
        if self.count > 0 && self.month < month_i32(t) {
            (self.count, self.base) = (0, 0);
            changed = true;
        }
        (t, changed)
    }

    /// Ms from `t` until `need` requests counted in `window` have stopped counting.
    fn wait_in(&self, window: Window, t: i64, need: u64) -> i64 {
        let (minute, day) = self.windows();
        match window {
            Window::Minute => minute.release_of_in(Span::MINUTE, t, need),
            Window::Day => day.release_of_in(Span::DAY, t, need),
            Window::Month => until_month_end(t),
        }
    }

    /// Checks one request at `now_ms`; counts it if every window admits it.
    pub fn check(&mut self, key: &SubjectKey, limits: Limits, now_ms: i64) -> Decision {
        let (t, _) = self.advance(now_ms);
        let (minute, day) = self.windows();
        let (long_window, long_used) = if key.is_key() {
            (Window::Day, day.used())
        } else {
            (Window::Month, u64::from(self.count))
        };
        let windows = [
            WindowCount {
                window: Window::Minute,
                limit: limits.minute,
                used: minute.used(),
            },
            WindowCount {
                window: long_window,
                limit: limits.long,
                used: long_used,
            },
        ];
        if rules::admits(&windows) {
            self.count_one(key, t);
        }
        rules::decide(windows, |w| self.wait_in(w.window, t, w.releases_needed()))
    }

    /// Counts one admitted request at `t` in every window of the subject.
    fn count_one(&mut self, key: &SubjectKey, t: i64) {
        let a = self.active.get_or_insert_with(|| Active::new(t));
        a.last_ms = t;
        a.minute.add(Span::MINUTE, t);
        if key.is_key() {
            a.day.add(Span::DAY, t);
        } else {
            if self.count == 0 {
                (self.month, self.base) = (month_i32(t), 0);
            }
            self.count = self.count.saturating_add(1);
        }
    }

    /// Requests counted at `now_ms` in (minute, long window), without changing anything.
    pub fn usage(&self, key: &SubjectKey, now_ms: i64) -> (u64, u64) {
        let mut c = self.clone();
        c.advance(now_ms);
        let (minute, day) = c.windows();
        let long = if key.is_key() {
            day.used()
        } else {
            u64::from(c.count)
        };
        (minute.used(), long)
    }

    /// No sliding window holds a request.
    pub fn is_idle(&self) -> bool {
        self.active.is_none()
    }

    /// Nothing is counted (after `advance`): the subject can be forgotten.
    pub fn is_dead(&self) -> bool {
        self.active.is_none() && self.count == 0
    }

    /// What eviction adds to the month sketch: (month, requests not already there).
    pub fn evicted_month(&self) -> (i64, u32) {
        (i64::from(self.month), self.count.saturating_sub(self.base))
    }

    /// The minute window as the ledger keeps it: (newest second, requests), if not empty.
    pub fn minute_window(&self) -> Option<(i64, u32)> {
        let minute = &self.active.as_ref()?.minute;
        let newest = minute.buckets().last()?.idx;
        Some((newest, u32::try_from(minute.used()).unwrap_or(u32::MAX)))
    }

    /// Merges the same subject found twice: the larger month count, every bucket.
    pub fn merge(&mut self, other: Counters) {
        if other.count > 0 && (self.count == 0 || other.month > self.month) {
            (self.month, self.count, self.base) = (other.month, other.count, other.base);
        } else if other.month == self.month && other.count > self.count {
            (self.count, self.base) = (other.count, other.base.max(self.base));
        }
        if let Some(o) = other.active {
            let a = self.active.get_or_insert_with(|| Active::new(o.last_ms));
            a.last_ms = a.last_ms.max(o.last_ms);
            for (mine, theirs) in [(&mut a.minute, &o.minute), (&mut a.day, &o.day)] {
                theirs.buckets().for_each(|b| mine.insert(b.idx, b.count));
            }
        }
    }

    /// Appends the record `subject | month i32 | count u32 | base u32 | n_minute u16 |
    /// n_day u16 | (idx i64, count u32) per bucket`, little-endian.
    pub fn encode(&self, key: &SubjectKey, out: &mut Vec<u8>) {
        out.put_slice(&key.0);
        out.put_i32_le(self.month);
        out.put_u32_le(self.count);
        out.put_u32_le(self.base);
        let (minute, day) = self.windows();
        // Windows hold at most 61 and 1 441 buckets; the cap only guards the format.
        let [minute, day] = [minute, day].map(|w| {
            w.buckets()
                .skip(w.buckets().len().saturating_sub(u16::MAX.into()))
        });
        out.put_u16_le(minute.len() as u16);
        out.put_u16_le(day.len() as u16);
        for b in minute.chain(day) {
            out.put_i64_le(b.idx);
            out.put_u32_le(b.count);
        }
    }

    /// Reads a record off `buf`'s front (`None` if malformed); drops buckets chrono cannot date.
    pub fn decode(buf: &mut &[u8]) -> Option<(SubjectKey, Counters)> {
        let key = SubjectKey::from_bytes(buf.get(..SUBJECT_LEN)?)?;
        buf.advance(SUBJECT_LEN);
        let month = buf.try_get_i32_le().ok()?;
        let count = buf.try_get_u32_le().ok()?;
        let base = buf.try_get_u32_le().ok()?.min(count);
        let lens = [buf.try_get_u16_le().ok()?, buf.try_get_u16_le().ok()?];
        let mut a = Active::new(i64::MIN);
        let windows = [(Span::MINUTE, &mut a.minute), (Span::DAY, &mut a.day)];
        for ((span, window), len) in windows.into_iter().zip(lens) {
            for _ in 0..len {
                let idx = buf.try_get_i64_le().ok()?;
                let n = buf.try_get_u32_le().ok()?;
                let start = span.start_ms(idx);
                if DateTime::from_timestamp_millis(start).is_some() {
                    window.insert(idx, n);
                    // A restart must not move the subject's clock back before a request.
                    a.last_ms = a.last_ms.max(start);
                }
            }
        }
        let mut c = Counters::default();
        if !key.is_key() {
            if DateTime::from_timestamp_millis(month_start_ms(i64::from(month))).is_some() {
                (c.month, c.count, c.base) = (month, count, base);
            }
            a.day = Sliding::default();
        }
        if !(a.minute.is_empty() && a.day.is_empty()) {
            c.active = Some(a);
        }
        Some((key, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    #[test]
    fn one_ipv6_64_is_one_subject() {
        let ip = |s: &str| -> IpAddr { s.parse().unwrap() };
        let ep = PublicEndpoint::Days;
        assert_eq!(
            SubjectKey::public(ip("2001:db8:7:8::1"), ep),
            SubjectKey::public(ip("2001:db8:7:8:ffff::99"), ep)
        );
        assert_ne!(
            SubjectKey::public(ip("2001:db8:7:8::1"), ep),
            SubjectKey::public(ip("2001:db8:7:9::1"), ep)
        );
    }

    #[test]
    fn subject_keys() {
        let s = SubjectKey::public(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)), PublicEndpoint::Days);
        assert_eq!(SubjectKey::from_bytes(&s.0), Some(s));
        assert!(!s.is_key());
        let k = SubjectKey::key("0123456789abcdef");
        assert!(k.is_key());
        assert_eq!(SubjectKey::from_bytes(&k.0), Some(k));
        assert_eq!(SubjectKey::from_bytes(b"garbage"), None);
        assert_eq!(SubjectKey::from_bytes(&[b'p'; SUBJECT_LEN]), None);
    }

    #[test]
    fn mapped_v6_is_the_v4_subject() {
        let v4 = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));
        let mapped = IpAddr::V6(Ipv4Addr::new(192, 0, 2, 1).to_ipv6_mapped());
        let ep = PublicEndpoint::Laisvadienis;
        assert_eq!(SubjectKey::public(v4, ep), SubjectKey::public(mapped, ep));
        assert_ne!(
            SubjectKey::public(IpAddr::V6(Ipv6Addr::LOCALHOST), ep),
            SubjectKey::public(IpAddr::V6(Ipv6Addr::LOCALHOST), PublicEndpoint::Days)
        );
    }

    #[test]
    fn records_round_trip() {
        let lim = Limits {
            minute: 100,
            long: 100,
        };
        let p = SubjectKey::public(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)), PublicEndpoint::Days);
        let k = SubjectKey::key("0123456789abcdef");
        let (mut cp, mut ck) = (Counters::default(), Counters::default());
        for i in 0..5 {
            cp.check(&p, lim, 1_700_000_000_000 + i * 700);
            ck.check(&k, lim, 1_700_000_000_000 + i * 30_000);
        }
        let mut blob = vec![];
        cp.encode(&p, &mut blob);
        ck.encode(&k, &mut blob);
        let mut buf = &blob[..];
        let (p2, cp2) = Counters::decode(&mut buf).unwrap();
        let (k2, ck2) = Counters::decode(&mut buf).unwrap();
        assert!(buf.is_empty());
        assert_eq!((p2, k2), (p, k));
        let mut again = vec![];
        cp2.encode(&p, &mut again);
        ck2.encode(&k, &mut again);
        assert_eq!(again, blob);
        assert_eq!(ck2.usage(&k, 1_700_000_200_000), (0, 5));
        let mut cut = &blob[..blob.len() - 3];
        Counters::decode(&mut cut).unwrap();
        assert_eq!(Counters::decode(&mut cut), None, "truncated record");
        assert_eq!(cp.usage(&p, 1_700_000_003_000), (5, 5));
    }

    #[test]
    fn idle_subjects_shed_their_windows() {
        let p = SubjectKey::public(IpAddr::V4(Ipv4Addr::LOCALHOST), PublicEndpoint::Days);
        let mut c = Counters::default();
        let lim = Limits { minute: 2, long: 3 };
        c.check(&p, lim, 0);
        assert!(!c.is_idle());
        assert_eq!(c.advance(61_000), (61_000, true));
        assert!(c.is_idle() && !c.is_dead());
        assert_eq!(c.evicted_month(), (1970 * 12, 1));
        let mut back = Counters::from_eviction(1970 * 12, 3, None);
        assert_eq!(back.check(&p, lim, 62_000).refused_by, Some(Window::Month));
        assert_eq!(back.evicted_month(), (1970 * 12, 0), "nothing new to add");
        // The minute window goes back to the ledger whole (its record is replaced, so the
        // revived requests are not counted twice).
        let mut back = Counters::from_eviction(1970 * 12, 1, Some((61, 2)));
        assert_eq!(back.usage(&p, 61_500), (2, 1));
        back.check(&p, Limits { minute: 5, long: 5 }, 62_600);
        assert_eq!(back.minute_window(), Some((62, 3)));
        assert_eq!(back.evicted_month(), (1970 * 12, 1));
        // 40 days on, the month rolled: nothing is counted any more.
        c.advance(40 * 86_400_000);
        assert!(c.is_dead());
    }

    /// Records written by the code of 5901e60 (the format every older blob has): a public
    /// subject, a key and a public subject revived from eviction (month base 7, a ledger
    /// bucket of 2), in Nov 2023. They must read back as the same counters.
    const OLD_RECORDS: &[u8] = &[
        112, 100, 4, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 222, 94, 0, 0, 3, 0, 0, 0,
        0, 0, 0, 0, 2, 0, 0, 0, 0, 241, 83, 101, 0, 0, 0, 0, 2, 0, 0, 0, 1, 241, 83, 101, 0, 0, 0,
        0, 1, 0, 0, 0, 107, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 2, 0, 0, 241, 83, 101, 0, 0, 0, 0, 1, 0, 0,
        0, 30, 241, 83, 101, 0, 0, 0, 0, 1, 0, 0, 0, 60, 241, 83, 101, 0, 0, 0, 0, 1, 0, 0, 0, 21,
        85, 176, 1, 0, 0, 0, 0, 2, 0, 0, 0, 22, 85, 176, 1, 0, 0, 0, 0, 1, 0, 0, 0, 112, 102, 6,
        32, 1, 13, 184, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 222, 94, 0, 0, 8, 0, 0, 0, 7, 0, 0,
        0, 2, 0, 0, 0, 255, 240, 83, 101, 0, 0, 0, 0, 2, 0, 0, 0, 0, 241, 83, 101, 0, 0, 0, 0, 1,
        0, 0, 0,
    ];

    #[test]
    fn records_of_earlier_releases_restore_identically() {
        let mut buf = OLD_RECORDS;
        let (p, cp) = Counters::decode(&mut buf).unwrap();
        let (k, ck) = Counters::decode(&mut buf).unwrap();
        let (q, cq) = Counters::decode(&mut buf).unwrap();
        assert!(buf.is_empty());
        let v4 = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!(p, SubjectKey::public(v4, PublicEndpoint::Days));
        assert_eq!(k, SubjectKey::key("0123456789abcdef"));
        let v6 = IpAddr::V6("2001:db8::1".parse().unwrap());
        assert_eq!(q, SubjectKey::public(v6, PublicEndpoint::Feeds));
        assert_eq!(cp.usage(&p, 1_700_000_030_000), (3, 3));
        assert_eq!(ck.usage(&k, 1_700_000_090_000), (2, 3));
        assert_eq!(cq.usage(&q, 1_700_000_001_000), (3, 8));
        assert_eq!(cq.evicted_month(), (2023 * 12 + 10, 1));
        let mut again = vec![];
        cp.encode(&p, &mut again);
        ck.encode(&k, &mut again);
        cq.encode(&q, &mut again);
        assert_eq!(again, OLD_RECORDS);
    }
}
