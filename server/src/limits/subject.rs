//! One rate-limited subject (an IP on a public endpoint, or a key) with all of its windows,
//! checked and counted together under the caller's lock (a request counts in every window
//! or none: a 429 uses no quota), and its binary record in the shard blobs. An idle subject
//! is 20 bytes of key and 24 of counters.

use std::net::IpAddr;

use chrono::DateTime;

use super::window::{month_and_end, month_of, month_start_ms, Sliding, Span};
use super::{Decision, PublicEndpoint, Window};

/// Length of an encoded subject.
pub(crate) const SUBJECT_LEN: usize = 20;

/// Tag byte of a public subject.
const PUBLIC: u8 = b'p';
/// Tag byte of a key subject.
const KEY: u8 = b'k';

/// A subject, encoded as fixed-size bytes so that it is cheap to hash, copy and store.
///
/// Public: `b'p' | endpoint (b'l'/b'd'/b'h'/b'f'/b'j') | 4 or 6 | 16 address bytes | 0`.
/// Key: `b'k' | the key id's bytes (at most 19, zero-padded)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct SubjectKey([u8; SUBJECT_LEN]);

/// Which kind of subject, and so which long window it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An IP on a public endpoint: minute + calendar month.
    Public,
    /// An API key: minute + sliding day.
    Key,
}

impl SubjectKey {
    /// The subject of `ip` on `endpoint`: its network (`client_network`): IPv4-mapped IPv6
    /// addresses count as the IPv4 address, so a dual-stack listener cannot split one
    /// client's quota in two, and an IPv6 client counts by its /64.
    pub fn public(ip: IpAddr, endpoint: PublicEndpoint) -> SubjectKey {
        let mut b = [0u8; SUBJECT_LEN];
        b[0] = PUBLIC;
        b[1] = endpoint.tag();
        match crate::http::client_ip::client_network(ip) {
            IpAddr::V4(v4) => {
                b[2] = 4;
                b[3..7].copy_from_slice(&v4.octets());
            }
            IpAddr::V6(v6) => {
                b[2] = 6;
                b[3..19].copy_from_slice(&v6.octets());
            }
        }
        SubjectKey(b)
    }

    /// The subject of the key with this id (ids are 16 hex characters; longer ones are
    /// truncated, which cannot happen for ids this crate issues).
    pub fn key(id: &str) -> SubjectKey {
        let mut b = [0u8; SUBJECT_LEN];
        b[0] = KEY;
        let id = id.as_bytes();
        let n = id.len().min(SUBJECT_LEN - 1);
        b[1..1 + n].copy_from_slice(&id[..n]);
        SubjectKey(b)
    }

    /// Decodes a stored subject; `None` if it is not one this crate writes.
    pub fn from_bytes(bytes: &[u8]) -> Option<SubjectKey> {
        let b: [u8; SUBJECT_LEN] = bytes.try_into().ok()?;
        match b[0] {
            PUBLIC if matches!(b[1], b'l' | b'd' | b'h' | b'f' | b'j') && matches!(b[2], 4 | 6) => {
                Some(SubjectKey(b))
            }
            KEY => Some(SubjectKey(b)),
            _ => None,
        }
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8; SUBJECT_LEN] {
        &self.0
    }

    /// Which kind of subject this is.
    pub fn kind(&self) -> Kind {
        if self.0[0] == KEY {
            Kind::Key
        } else {
            Kind::Public
        }
    }
}

/// The limits one check applies: the minute window's and the long window's (the month for
/// a public subject, the day for a key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub minute: u64,
    /// Per calendar month (public) or per sliding day (key) (>= 1).
    pub long: u64,
}

/// The sliding windows of a subject that has recent requests.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Active {
    /// The subject's monotonic clock (ms): the latest instant it was checked or pruned at.
    /// Checks use `max(now, last_ms)`, so a thread that read the clock a moment before the
    /// one that got the lock first cannot count against buckets already pruned.
    last_ms: i64,
    minute: Sliding,
    /// The sliding day (keys only; always empty for public subjects).
    day: Sliding,
}

/// All counters of one subject.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Counters {
    /// The month `count` belongs to (numbered as by `window::month_of`); public only.
    month: i32,
    count: u32,
    /// The part of `count` that came from the eviction sketch when the subject returned;
    /// evicting it again adds only `count - base`, so nothing is counted twice.
    base: u32,
    /// The sliding windows; `None` while they are all empty (idle subject).
    active: Option<Box<Active>>,
}

/// One window's standing during a check.
struct Eval {
    window: Window,
    limit: u64,
    used: u64,
}

/// Whole seconds (rounded up, at least 1) of a duration in ms.
fn secs(ms: i64) -> u64 {
    (ms.max(1) as u64).div_ceil(1000).max(1)
}

/// `month_of` as the compact `i32` kept per subject (chrono's years fit easily).
fn month_i32(t_ms: i64) -> i32 {
    month_of(t_ms)
        .and_then(|m| i32::try_from(m).ok())
        .unwrap_or(i32::MAX)
}

impl Counters {
    /// Counters of a public subject returning from eviction: `count` requests in `month`
    /// (the month sketch's estimate) and its minute window as the ledger kept it, (newest
    /// second, requests).
    pub fn from_eviction(month: i64, count: u32, minute: Option<(i64, u32)>) -> Counters {
        let month = i32::try_from(month).unwrap_or(i32::MAX);
        let mut c = Counters {
            month,
            count,
            base: count,
            active: None,
        };
        if let Some((newest, n)) = minute {
            let mut a = Active {
                last_ms: Span::MINUTE.start_ms(newest),
                minute: Sliding::default(),
                day: Sliding::default(),
            };
            a.minute.insert(newest, n);
            c.active = Some(Box::new(a));
        }
        c
    }

    /// Moves the subject's clock to `max(now_ms, its clock)` and drops what has left every
    /// window. Returns the clock and whether anything was dropped.
    pub fn advance(&mut self, now_ms: i64) -> (i64, bool) {
        let mut changed = false;
        let t = match &mut self.active {
            Some(a) => {
                let t = now_ms.max(a.last_ms);
                a.last_ms = t;
                changed |= a.minute.prune(Span::MINUTE, t) > 0;
                changed |= a.day.prune(Span::DAY, t) > 0;
                if a.minute.is_empty() && a.day.is_empty() {
                    self.active = None;
                }
                t
            }
            None => now_ms,
        };
        if self.count > 0 && self.month < month_i32(t) {
            // A new month: the old count no longer matters.
            self.count = 0;
            self.base = 0;
            changed = true;
        }
        (t, changed)
    }

    /// Month requests counted at month `m`. A count from a later month (the clock went
    /// back) still counts: conservative.
    fn month_used(&self, m: i32) -> u64 {
        if self.count > 0 && self.month >= m {
            u64::from(self.count)
        } else {
            0
        }
    }

    /// Checks one request at `now_ms` against `limits` and counts it if every window
    /// admits it.
    pub fn check(&mut self, kind: Kind, limits: Limits, now_ms: i64) -> Decision {
        let (t, _) = self.advance(now_ms);
        let month = month_i32(t);
        let month_end_in = month_and_end(t).map_or(i64::MAX, |(_, end)| end.saturating_sub(t));
        let empty = Sliding::default();
        let (minute, day) = match &self.active {
            Some(a) => (&a.minute, &a.day),
            None => (&empty, &empty),
        };
        // Shortest window first: ties on "remaining" go to the shorter window, and the
        // refusal names the longest exhausted one (the last in this order).
        let evals = [
            Eval {
                window: Window::Minute,
                limit: limits.minute,
                used: minute.used(),
            },
            match kind {
                Kind::Key => Eval {
                    window: Window::Day,
                    limit: limits.long,
                    used: day.used(),
                },
                Kind::Public => Eval {
                    window: Window::Month,
                    limit: limits.long,
                    used: self.month_used(month),
                },
            },
        ];
        let wait_in = |e: &Eval| -> i64 {
            let need = e.used + 1 - e.limit;
            match e.window {
                Window::Minute => minute.release_of_in(Span::MINUTE, t, need),
                Window::Day => day.release_of_in(Span::DAY, t, need),
                Window::Month => month_end_in,
            }
        };
        if let Some(longest) = evals.iter().rev().find(|e| e.used >= e.limit) {
            let retry = evals
                .iter()
                .filter(|e| e.used >= e.limit)
                .map(&wait_in)
                .max()
                .unwrap_or(1);
            return Decision {
                refused_by: Some(longest.window),
                limit: longest.limit,
                remaining: 0,
                reset_secs: secs(wait_in(longest)),
                retry_after_secs: Some(secs(retry)),
            };
        }
        let a = self.active.get_or_insert_with(|| {
            Box::new(Active {
                last_ms: t,
                minute: Sliding::default(),
                day: Sliding::default(),
            })
        });
        a.minute.add(Span::MINUTE, t);
        match kind {
            Kind::Key => a.day.add(Span::DAY, t),
            Kind::Public => {
                if self.month_used(month) == 0 {
                    *self = Counters {
                        month,
                        count: 0,
                        base: 0,
                        active: self.active.take(),
                    };
                }
                self.count = self.count.saturating_add(1);
            }
        }
        let a = self.active.as_ref().expect("set above");
        let tightest = evals
            .iter()
            .min_by_key(|e| e.limit - e.used - 1)
            .expect("two windows");
        let reset_in = match tightest.window {
            Window::Minute => a.minute.next_release_in(Span::MINUTE, t),
            Window::Day => a.day.next_release_in(Span::DAY, t),
            Window::Month => month_end_in,
        };
        Decision {
            refused_by: None,
            limit: tightest.limit,
            remaining: tightest.limit - tightest.used - 1,
            reset_secs: secs(reset_in),
            retry_after_secs: None,
        }
    }

    /// Requests counted at `now_ms` in (minute, long window), without changing anything.
    pub fn usage(&self, kind: Kind, now_ms: i64) -> (u64, u64) {
        let (t, minute, day) = match &self.active {
            Some(a) => {
                let t = now_ms.max(a.last_ms);
                (
                    t,
                    a.minute.used_at(Span::MINUTE, t),
                    a.day.used_at(Span::DAY, t),
                )
            }
            None => (now_ms, 0, 0),
        };
        match kind {
            Kind::Key => (minute, day),
            Kind::Public => (minute, self.month_used(month_i32(t))),
        }
    }

    /// True when no sliding window holds a request (only a month count may remain).
    pub fn is_idle(&self) -> bool {
        self.active.is_none()
    }

    /// True when nothing at all is counted (after `advance`): the subject can be forgotten.
    pub fn is_dead(&self) -> bool {
        self.active.is_none() && self.count == 0
    }

    /// What evicting this subject must add to the month sketch: (month, requests not
    /// already there).
    pub fn evicted_month(&self) -> (i64, u32) {
        (i64::from(self.month), self.count.saturating_sub(self.base))
    }

    /// The subject's minute window as the eviction ledger keeps it: (its newest second,
    /// all requests it counts), or `None` when it is empty.
    pub fn minute_window(&self) -> Option<(i64, u32)> {
        let a = self.active.as_ref()?;
        let newest = a.minute.buckets().last()?.idx;
        let total = a
            .minute
            .buckets()
            .map(|b| b.count)
            .fold(0u32, u32::saturating_add);
        Some((newest, total))
    }

    /// Merges counters of the same subject found twice (conservatively: the larger
    /// month count, every bucket).
    pub fn merge(&mut self, other: Counters) {
        if other.count > 0 && (self.count == 0 || other.month > self.month) {
            (self.month, self.count, self.base) = (other.month, other.count, other.base);
        } else if other.month == self.month && other.count > self.count {
            (self.count, self.base) = (other.count, other.base.max(self.base));
        }
        if let Some(o) = other.active {
            let a = self.active.get_or_insert_with(|| {
                Box::new(Active {
                    last_ms: o.last_ms,
                    minute: Sliding::default(),
                    day: Sliding::default(),
                })
            });
            a.last_ms = a.last_ms.max(o.last_ms);
            for b in o.minute.buckets() {
                a.minute.insert(b.idx, b.count);
            }
            for b in o.day.buckets() {
                a.day.insert(b.idx, b.count);
            }
        }
    }

    /// Appends this subject's record to a shard blob:
    /// `subject (20) | month i32 | count u32 | base u32 | n_minute u16 | n_day u16 |
    /// (idx i64, count u32) per bucket`, little-endian.
    pub fn encode(&self, key: &SubjectKey, out: &mut Vec<u8>) {
        out.extend_from_slice(key.bytes());
        out.extend_from_slice(&self.month.to_le_bytes());
        out.extend_from_slice(&self.count.to_le_bytes());
        out.extend_from_slice(&self.base.to_le_bytes());
        let empty = Sliding::default();
        let (minute, day) = match &self.active {
            Some(a) => (&a.minute, &a.day),
            None => (&empty, &empty),
        };
        // Windows hold at most 61 and 1 441 buckets; the cap only guards the format.
        let (nm, nd) = (
            minute.len().min(u16::MAX.into()),
            day.len().min(u16::MAX.into()),
        );
        out.extend_from_slice(&(nm as u16).to_le_bytes());
        out.extend_from_slice(&(nd as u16).to_le_bytes());
        for b in minute
            .buckets()
            .skip(minute.len() - nm)
            .chain(day.buckets().skip(day.len() - nd))
        {
            out.extend_from_slice(&b.idx.to_le_bytes());
            out.extend_from_slice(&b.count.to_le_bytes());
        }
    }

    /// Reads one record written by `encode` from the front of `buf`, advancing it.
    /// `None` when the record is truncated or malformed (the caller stops reading the
    /// blob there). Buckets outside chrono's calendar are dropped.
    pub fn decode(buf: &mut &[u8]) -> Option<(SubjectKey, Counters)> {
        fn take<'a>(buf: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            if buf.len() < n {
                return None;
            }
            let (head, tail) = buf.split_at(n);
            *buf = tail;
            Some(head)
        }
        let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
        let key = SubjectKey::from_bytes(take(buf, SUBJECT_LEN)?)?;
        let month = i32::from_le_bytes(take(buf, 4)?.try_into().ok()?);
        let count = u32_of(take(buf, 4)?);
        let base = u32_of(take(buf, 4)?).min(count);
        let nm = u16::from_le_bytes(take(buf, 2)?.try_into().ok()?);
        let nd = u16::from_le_bytes(take(buf, 2)?.try_into().ok()?);
        let mut active = Active {
            last_ms: i64::MIN,
            minute: Sliding::default(),
            day: Sliding::default(),
        };
        for i in 0..u32::from(nm) + u32::from(nd) {
            let idx = i64::from_le_bytes(take(buf, 8)?.try_into().ok()?);
            let n = u32_of(take(buf, 4)?);
            let (span, window) = if i < u32::from(nm) {
                (Span::MINUTE, &mut active.minute)
            } else {
                (Span::DAY, &mut active.day)
            };
            let start = span.start_ms(idx);
            if DateTime::from_timestamp_millis(start).is_some() {
                window.insert(idx, n);
                // A restart must not move the subject's clock back before a request.
                active.last_ms = active.last_ms.max(start);
            }
        }
        let keep_month = key.kind() == Kind::Public
            && DateTime::from_timestamp_millis(month_start_ms(i64::from(month))).is_some();
        let mut c = Counters {
            month: 0,
            count: 0,
            base: 0,
            active: None,
        };
        if keep_month {
            (c.month, c.count, c.base) = (month, count, base);
        }
        if key.kind() == Kind::Public {
            active.day = Sliding::default();
        }
        if !(active.minute.is_empty() && active.day.is_empty()) {
            c.active = Some(Box::new(active));
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
        assert_eq!(SubjectKey::from_bytes(s.bytes()), Some(s));
        assert_eq!(s.kind(), Kind::Public);
        let k = SubjectKey::key("0123456789abcdef");
        assert_eq!(k.kind(), Kind::Key);
        assert_eq!(SubjectKey::from_bytes(k.bytes()), Some(k));
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
            cp.check(Kind::Public, lim, 1_700_000_000_000 + i * 700);
            ck.check(Kind::Key, lim, 1_700_000_000_000 + i * 30_000);
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
        assert_eq!(ck2.usage(Kind::Key, 1_700_000_200_000), (0, 5));
        let mut cut = &blob[..blob.len() - 3];
        Counters::decode(&mut cut).unwrap();
        assert_eq!(Counters::decode(&mut cut), None, "truncated record");
        assert_eq!(cp.usage(Kind::Public, 1_700_000_003_000), (5, 5));
    }

    #[test]
    fn idle_subjects_shed_their_windows() {
        let mut c = Counters::default();
        let lim = Limits { minute: 2, long: 3 };
        c.check(Kind::Public, lim, 0);
        assert!(!c.is_idle());
        assert_eq!(c.advance(61_000), (61_000, true));
        assert!(c.is_idle() && !c.is_dead());
        assert_eq!(c.evicted_month(), (1970 * 12, 1));
        let mut back = Counters::from_eviction(1970 * 12, 3, None);
        assert_eq!(
            back.check(Kind::Public, lim, 62_000).refused_by,
            Some(Window::Month)
        );
        assert_eq!(back.evicted_month(), (1970 * 12, 0), "nothing new to add");
        // The minute window goes back to the ledger whole (its record is replaced, so the
        // revived requests are not counted twice).
        let mut back = Counters::from_eviction(1970 * 12, 1, Some((61, 2)));
        assert_eq!(back.usage(Kind::Public, 61_500), (2, 1));
        back.check(Kind::Public, Limits { minute: 5, long: 5 }, 62_600);
        assert_eq!(back.minute_window(), Some((62, 3)));
        assert_eq!(back.evicted_month(), (1970 * 12, 1));
        // 40 days on, the month rolled: nothing is counted any more.
        c.advance(40 * 86_400_000);
        assert!(c.is_dead());
    }
}
