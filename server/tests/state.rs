//! The state side through its public interface: rate-limit windows and decisions, keys,
//! persistence across reopen and graceful stops, memory bounds, the admin socket and the
//! `keys` command (in-process and as the real binary).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::Duration;

use chrono::{DateTime, Utc};
use kalendorius_server::limits::{Decision, LimitsConfig, PublicEndpoint, Window};
use kalendorius_server::state::admin;
use kalendorius_server::state::key_admin::{
    AdminResponse, CreateArgs, ExportArgs, IdArg, ImportArgs, KeyView, KeysCommand, SetLimitsArgs,
};
use kalendorius_server::state::keys::{KeyAdminError, KeyError, KeyRecord, PresentedKey};
use kalendorius_server::state::keys_cli;
use kalendorius_server::state::store::location::StateLocation;
use kalendorius_server::state::store::Counted;
use kalendorius_server::state::{State, StateOptions};

const L: PublicEndpoint = PublicEndpoint::Laisvadienis;
const D: PublicEndpoint = PublicEndpoint::Days;

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn plus_ms(t: DateTime<Utc>, ms: i64) -> DateTime<Utc> {
    t + chrono::Duration::milliseconds(ms)
}

fn ip(n: u32) -> IpAddr {
    IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + n))
}

fn open(dir: &Path) -> State {
    State::open(dir, LimitsConfig::default()).unwrap()
}

fn open_limits(dir: &Path, limits: LimitsConfig) -> State {
    State::open(dir, limits).unwrap()
}

fn small() -> LimitsConfig {
    LimitsConfig {
        laisvadienis_per_minute: 1,
        laisvadienis_per_month: 1_000,
        days_per_minute: 2,
        days_per_month: 2,
        ..LimitsConfig::default()
    }
}

fn admitted(d: &Decision) -> bool {
    d.refused_by.is_none()
}

const T0: &str = "2025-03-10T12:00:00Z";

/// Issues a key created at `now` through the key commands: its plaintext and its record.
fn create_key_at(
    s: &State,
    owner: &str,
    per_minute: Option<u64>,
    per_day: Option<u64>,
    expires: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Result<(String, KeyRecord), KeyAdminError> {
    let owner = owner.into();
    let args = CreateArgs {
        owner,
        per_minute,
        per_day,
        expires,
    };
    let AdminResponse::Created { key, view } = s.execute(KeysCommand::Create(args), now)? else {
        panic!("not a created key");
    };
    let stored = keys(s).into_iter().find(|r| r.id == view.id);
    let record = stored.expect("the new key is stored");
    Ok((key, record))
}

/// Issues a key now (see [`create_key_at`]).
fn create_key(
    s: &State,
    owner: &str,
    per_minute: Option<u64>,
    per_day: Option<u64>,
    expires: Option<DateTime<Utc>>,
) -> Result<(String, KeyRecord), KeyAdminError> {
    create_key_at(s, owner, per_minute, per_day, expires, Utc::now())
}

/// A key command's answer about one key: its view and whether it changed.
fn one_key(s: &State, command: KeysCommand) -> Result<(KeyView, bool), KeyAdminError> {
    match s.execute(command, Utc::now())? {
        AdminResponse::Key { view, changed } => Ok((view, changed)),
        other => panic!("not one key: {other:?}"),
    }
}

fn revoke_key(s: &State, id: &str) -> Result<(KeyView, bool), KeyAdminError> {
    one_key(s, KeysCommand::Revoke(IdArg { id: id.into() }))
}

fn set_key_limits(
    s: &State,
    id: &str,
    per_minute: Option<u64>,
    per_day: Option<u64>,
) -> Result<KeyView, KeyAdminError> {
    let args = SetLimitsArgs {
        id: id.into(),
        per_minute,
        per_day,
    };
    Ok(one_key(s, KeysCommand::SetLimits(args))?.0)
}

/// All keys, oldest first (what `keys export` writes).
fn keys(s: &State) -> Vec<KeyRecord> {
    let export = KeysCommand::Export(ExportArgs {
        out: None,
        counters: false,
    });
    match s.execute(export, Utc::now()) {
        Ok(AdminResponse::Exported { records }) => records.into_iter().map(|r| r.record).collect(),
        other => panic!("not an export: {other:?}"),
    }
}

// ---------------------------------------------------------------- windows and decisions

#[test]
fn public_minute_limit_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let s = open(dir.path());
    let t = at(T0);
    for i in 0..60u64 {
        let d = s.check(Counted::Public(ip(1), L), plus_ms(t, i as i64 * 10));
        assert!(admitted(&d), "request {i}");
        assert_eq!((d.limit, d.remaining), (60, 59 - i), "tightest = minute");
        assert_eq!(d.retry_after_secs, None);
    }
    let d = s.check(Counted::Public(ip(1), L), plus_ms(t, 700));
    assert_eq!(d.refused_by, Some(Window::Minute));
    assert_eq!((d.limit, d.remaining), (60, 0));
    // Everything sits in the bucket of 12:00:00, counted until 12:01:01.
    assert_eq!(d.retry_after_secs, Some(61));
    assert_eq!(d.reset_secs, 61);
    // Another IP and the other endpoint have their own quotas.
    assert!(admitted(&s.check(Counted::Public(ip(2), L), t)));
    let d = s.check(Counted::Public(ip(1), D), t);
    assert_eq!((d.limit, d.remaining), (20, 19));
}

#[test]
fn days_minute_limit_is_twenty() {
    let dir = tempfile::tempdir().unwrap();
    let s = open(dir.path());
    let t = at(T0);
    let n = (0..25)
        .filter(|_| admitted(&s.check(Counted::Public(ip(1), D), t)))
        .count();
    assert_eq!(n, 20);
}

#[test]
fn month_limits_are_exact_and_roll_over_in_utc() {
    let dir = tempfile::tempdir().unwrap();
    let limits = LimitsConfig {
        days_per_minute: 100,
        days_per_month: 3,
        ..LimitsConfig::default()
    };
    let s = open_limits(dir.path(), limits);
    let t = at("2025-01-31T23:59:58Z");
    for i in 0..3 {
        let d = s.check(Counted::Public(ip(1), D), t);
        assert!(admitted(&d));
        assert_eq!((d.limit, d.remaining), (3, 2 - i), "tightest = month");
        assert_eq!(d.reset_secs, 2, "until 2025-02-01T00:00:00Z");
    }
    let d = s.check(Counted::Public(ip(1), D), plus_ms(t, 1_500));
    assert_eq!(d.refused_by, Some(Window::Month));
    assert_eq!(d.retry_after_secs, Some(1), "0.5 s rounds up to 1");
    // 01:30 on Feb 1 in Vilnius is still January in UTC: still refused.
    let d = s.check(
        Counted::Public(ip(1), D),
        at("2025-02-01T01:30:00+02:00") - chrono::Duration::minutes(31),
    );
    assert_eq!(d.refused_by, Some(Window::Month));
    // The UTC month boundary frees the quota.
    let d = s.check(Counted::Public(ip(1), D), at("2025-02-01T00:00:00Z"));
    assert!(admitted(&d));
    assert_eq!((d.limit, d.remaining), (3, 2));
    assert_eq!(d.reset_secs, 28 * 86_400, "until March 1");
    // December → January rolls over the year too.
    let t = at("2025-12-31T23:59:59Z");
    for _ in 0..3 {
        assert!(admitted(&s.check(Counted::Public(ip(2), D), t)));
    }
    assert_eq!(
        s.check(Counted::Public(ip(2), D), t).refused_by,
        Some(Window::Month)
    );
    assert!(admitted(
        &s.check(Counted::Public(ip(2), D), at("2026-01-01T00:00:00Z"))
    ));
}

#[test]
fn sliding_minute_counts_until_the_bucket_after_sixty_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let s = open_limits(dir.path(), small());
    let t = at(T0);
    assert!(admitted(&s.check(Counted::Public(ip(1), L), t)));
    let d = s.check(Counted::Public(ip(1), L), plus_ms(t, 59_900));
    assert_eq!(
        d.refused_by,
        Some(Window::Minute),
        "still counted at 59.9 s"
    );
    assert_eq!(d.retry_after_secs, Some(2), "61 - 59.9 = 1.1 s, rounded up");
    let d = s.check(Counted::Public(ip(1), L), plus_ms(t, 60_000));
    assert_eq!(
        d.refused_by,
        Some(Window::Minute),
        "conservative: counted at 60.0 s"
    );
    assert_eq!(d.retry_after_secs, Some(1));
    assert!(
        admitted(&s.check(Counted::Public(ip(1), L), plus_ms(t, 61_000))),
        "freed at 60 s + one bucket"
    );
}

#[test]
fn key_windows_minute_and_sliding_day() {
    let dir = tempfile::tempdir().unwrap();
    let s = open(dir.path());
    let t = at(T0);
    let (_, k) = create_key_at(&s, "t", Some(3), Some(5), None, t).unwrap();
    for i in 0..3 {
        let d = s.check(Counted::Key(&k), t);
        assert!(admitted(&d));
        assert_eq!((d.limit, d.remaining), (3, 2 - i));
    }
    let d = s.check(Counted::Key(&k), t);
    assert_eq!(d.refused_by, Some(Window::Minute));
    // Two more fit into the day, in the next minutes.
    let t2 = plus_ms(t, 61_000);
    let d = s.check(Counted::Key(&k), t2);
    assert_eq!((d.limit, d.remaining), (5, 1), "day is now the tightest");
    assert!(admitted(&s.check(Counted::Key(&k), t2)));
    let d = s.check(Counted::Key(&k), plus_ms(t, 122_000));
    assert_eq!(d.refused_by, Some(Window::Day));
    // The first three requests (minute bucket 12:00) stop counting at 24 h + 1 min.
    assert_eq!(d.retry_after_secs, Some(86_400 + 60 - 122));
    assert_eq!(
        s.check(Counted::Key(&k), plus_ms(t, 86_400_000 + 59_999))
            .refused_by,
        Some(Window::Day)
    );
    let d = s.check(Counted::Key(&k), plus_ms(t, 86_400_000 + 60_000));
    assert!(admitted(&d));
    // 3 freed, 2 still counted, 1 new: day 2 left, minute 2 left; the tie goes to minute.
    assert_eq!((d.limit, d.remaining), (3, 2));
    assert_eq!(s.key_usage(&k.id, plus_ms(t, 86_400_000 + 60_000)), (1, 3));
}

#[test]
fn the_longest_exhausted_window_names_the_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let s = open_limits(dir.path(), small());
    let t = at(T0);
    assert!(admitted(&s.check(Counted::Public(ip(1), D), t)));
    assert!(admitted(&s.check(Counted::Public(ip(1), D), t)));
    // Minute (2) and month (2) both exhausted: month wins; Retry-After is the month's.
    let d = s.check(Counted::Public(ip(1), D), t);
    assert_eq!(d.refused_by, Some(Window::Month));
    assert_eq!(d.refused_by.unwrap().code(), "rate_limit_month");
    let to_april = (at("2025-04-01T00:00:00Z") - t).num_seconds() as u64;
    assert_eq!(
        (d.remaining, d.reset_secs, d.retry_after_secs),
        (0, to_april, Some(to_april))
    );

    let (_, k) = create_key_at(&s, "t", Some(2), Some(2), None, t).unwrap();
    s.check(Counted::Key(&k), t);
    s.check(Counted::Key(&k), t);
    let d = s.check(Counted::Key(&k), t);
    assert_eq!(d.refused_by, Some(Window::Day));
    assert_eq!(d.refused_by.unwrap().code(), "rate_limit_day");

    let (_, k) = create_key_at(&s, "t", Some(1), Some(10), None, t).unwrap();
    s.check(Counted::Key(&k), t);
    assert_eq!(
        s.check(Counted::Key(&k), t).refused_by.unwrap().code(),
        "rate_limit_minute"
    );
}

#[test]
fn ties_go_to_the_shorter_window() {
    let dir = tempfile::tempdir().unwrap();
    let limits = LimitsConfig {
        days_per_minute: 5,
        days_per_month: 5,
        ..LimitsConfig::default()
    };
    let s = open_limits(dir.path(), limits);
    let d = s.check(Counted::Public(ip(1), D), at(T0));
    assert_eq!(
        (d.limit, d.remaining, d.reset_secs),
        (5, 4, 61),
        "minute, not month"
    );
}

#[test]
fn a_refused_request_uses_no_quota() {
    let dir = tempfile::tempdir().unwrap();
    let limits = LimitsConfig {
        days_per_minute: 2,
        days_per_month: 10,
        ..LimitsConfig::default()
    };
    let s = open_limits(dir.path(), limits);
    let t = at(T0);
    assert!(admitted(&s.check(Counted::Public(ip(1), D), t)));
    assert!(admitted(&s.check(Counted::Public(ip(1), D), t)));
    for i in 0..100 {
        assert!(!admitted(
            &s.check(Counted::Public(ip(1), D), plus_ms(t, i * 100))
        ));
    }
    // Refusals counted nothing: the month still has 8, the next minute admits exactly 2.
    let t2 = plus_ms(t, 61_000);
    let d = s.check(Counted::Public(ip(1), D), t2);
    assert!(admitted(&d));
    assert_eq!(s.public_usage(ip(1), D, t2), (1, 3));
    assert!(admitted(&s.check(Counted::Public(ip(1), D), t2)));
    assert_eq!(
        s.check(Counted::Public(ip(1), D), t2).refused_by,
        Some(Window::Minute)
    );
}

#[test]
fn ipv4_mapped_ipv6_shares_the_ipv4_quota() {
    let dir = tempfile::tempdir().unwrap();
    let s = open_limits(dir.path(), small());
    let t = at(T0);
    let v4 = Ipv4Addr::new(192, 0, 2, 7);
    assert!(admitted(&s.check(Counted::Public(IpAddr::V4(v4), L), t)));
    let mapped = IpAddr::V6(v4.to_ipv6_mapped());
    assert!(!admitted(&s.check(Counted::Public(mapped, L), t)));
    assert!(admitted(
        &s.check(Counted::Public(IpAddr::V6(Ipv6Addr::LOCALHOST), L), t)
    ));
}

/// Deterministic pseudo-random gaps; for ANY window-length interval of the admitted
/// requests' times, the count never exceeds the limit, and the window is not much more
/// conservative than one bucket.
#[test]
fn no_interval_ever_exceeds_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let limits = LimitsConfig {
        days_per_minute: 7,
        days_per_month: 1_000_000,
        ..LimitsConfig::default()
    };
    let s = open_limits(dir.path(), limits);
    let (_, key) = create_key_at(&s, "t", Some(1_000), Some(40), None, at(T0)).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let check = |times: &[i64], window: i64, limit: usize| {
        for (i, &a) in times.iter().enumerate() {
            let n = times[i..].iter().take_while(|&&b| b - a <= window).count();
            assert!(n <= limit, "{n} admitted within {window} ms from {a}");
        }
    };
    let mut t = at(T0).timestamp_millis();
    let mut public = vec![];
    for _ in 0..4_000 {
        t += rnd(4_000) as i64;
        let now = DateTime::from_timestamp_millis(t).unwrap();
        if admitted(&s.check(Counted::Public(ip(1), D), now)) {
            public.push(t);
        }
    }
    check(&public, 60_000, 7);
    // Not much more conservative than one bucket: close to 7 per 61 s on average (gaps
    // of up to 4 s between attempts waste some freed capacity, hence 65 s).
    let span = (public.last().unwrap() - public[0]) as f64;
    assert!(
        public.len() as f64 >= 7.0 * span / 65_000.0,
        "{} over {span} ms",
        public.len()
    );

    let mut keyed = vec![];
    for _ in 0..3_000 {
        t += rnd(240_000) as i64;
        let now = DateTime::from_timestamp_millis(t).unwrap();
        if admitted(&s.check(Counted::Key(&key), now)) {
            keyed.push(t);
        }
    }
    check(&keyed, 86_400_000, 40);
}

#[test]
fn concurrent_bursts_never_overshoot() {
    let dir = tempfile::tempdir().unwrap();
    let limits = LimitsConfig {
        days_per_minute: 1_000,
        days_per_month: 777,
        ..LimitsConfig::default()
    };
    let s = Arc::new(open_limits(dir.path(), limits));
    let (_, key) = create_key_at(&s, "t", Some(50), Some(10_000), None, at(T0)).unwrap();
    let barrier = Arc::new(Barrier::new(64));
    let handles: Vec<_> = (0..64)
        .map(|i| {
            let (s, key, barrier) = (Arc::clone(&s), key.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                let mut n = [0usize; 3];
                for j in 0..40 {
                    // Clocks a few ms apart and out of order, as real threads read them.
                    let now = plus_ms(at(T0), (i * 7 + j) % 13);
                    n[0] += usize::from(admitted(&s.check(Counted::Public(ip(1), L), now)));
                    n[1] += usize::from(admitted(&s.check(Counted::Public(ip(2), D), now)));
                    n[2] += usize::from(admitted(&s.check(Counted::Key(&key), now)));
                }
                n
            })
        })
        .collect();
    let total = handles
        .into_iter()
        .map(|h| h.join().unwrap())
        .fold([0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    assert_eq!(total, [60, 777, 50]);
}

// ---------------------------------------------------------------- keys

#[test]
fn key_lifecycle() {
    let dir = tempfile::tempdir().unwrap();
    let s = open(dir.path());
    let t = at(T0);
    let (plain, rec) =
        create_key_at(&s, "Ona", None, None, Some(plus_ms(t, 3_600_000)), t).unwrap();
    assert!(plain.starts_with("ltk_") && plain.len() >= 4 + 32);
    assert_eq!(
        (rec.per_minute, rec.per_day, rec.active),
        (60, 10_000, true)
    );
    assert_eq!(rec.id.len(), 16);
    assert!(rec.hash.starts_with(&rec.id));
    let got = s.authenticate(&PresentedKey(plain.clone()), t).unwrap();
    assert_eq!(got, rec);
    assert_eq!(
        s.authenticate(&PresentedKey(plain.clone()), plus_ms(t, 3_600_000)),
        Err(KeyError::Expired)
    );
    assert_eq!(
        s.authenticate(&PresentedKey(format!("{plain}x")), t),
        Err(KeyError::Invalid)
    );
    assert_eq!(
        s.authenticate(&PresentedKey("ltk_nope".into()), t),
        Err(KeyError::Invalid)
    );

    let changed = set_key_limits(&s, &rec.id.to_uppercase(), Some(2), None).unwrap();
    assert_eq!((changed.per_minute, changed.per_day), (2, 10_000));
    assert_eq!(
        s.authenticate(&PresentedKey(plain.clone()), t)
            .unwrap()
            .per_minute,
        2
    );

    let (r, changed) = revoke_key(&s, &rec.id).unwrap();
    assert!(changed && !r.active);
    assert_eq!(
        s.authenticate(&PresentedKey(plain.clone()), t),
        Err(KeyError::Invalid)
    );
    assert!(
        !revoke_key(&s, &rec.id).unwrap().1,
        "revoking twice changes nothing"
    );
    // Revoked beats expired.
    assert_eq!(
        s.authenticate(&PresentedKey(plain), plus_ms(t, 7_200_000)),
        Err(KeyError::Invalid)
    );
}

#[test]
fn bad_key_input_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let s = open(dir.path());
    let t = at(T0);
    let (_, rec) = create_key_at(&s, "Ona", None, None, None, t).unwrap();
    assert!(matches!(
        create_key_at(&s, "", None, None, None, t),
        Err(KeyAdminError::InvalidOwner)
    ));
    assert!(matches!(
        create_key_at(&s, "x", Some(0), None, None, t),
        Err(KeyAdminError::InvalidLimit { .. })
    ));
    assert!(matches!(
        create_key_at(&s, "x", None, None, Some(t), t),
        Err(KeyAdminError::ExpiryNotInFuture(_))
    ));
    assert!(matches!(
        revoke_key(&s, "0000000000000000"),
        Err(KeyAdminError::UnknownId(_))
    ));
    assert!(
        matches!(revoke_key(&s, "ltk_secret"), Err(KeyAdminError::UnknownId(m)) if !m.contains("secret"))
    );
    assert!(matches!(
        set_key_limits(&s, &rec.id, None, None),
        Err(KeyAdminError::NothingToChange)
    ));
    assert!(matches!(
        set_key_limits(&s, &rec.id, Some(5), Some(0)),
        Err(KeyAdminError::InvalidLimit { .. })
    ));
    assert_eq!(keys(&s), vec![rec]);
}

/// Walks `dir` and returns every file's bytes.
fn all_bytes(dir: &Path) -> Vec<u8> {
    let mut out = vec![];
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(all_bytes(&p));
        } else if p.is_file() {
            out.extend(std::fs::read(&p).unwrap());
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn only_hashes_reach_the_disk() {
    let dir = tempfile::tempdir().unwrap();
    let s = open(dir.path());
    let mut plains = vec![];
    let mut hashes = vec![];
    for i in 0..5 {
        let (p, r) = create_key(&s, &format!("owner {i}"), None, None, None).unwrap();
        s.check(Counted::Key(&r), Utc::now());
        plains.push(p);
        hashes.push(r.hash);
    }
    s.flush().unwrap();
    drop(s);
    let bytes = all_bytes(dir.path());
    for (p, h) in plains.iter().zip(&hashes) {
        assert!(!contains(&bytes, p.as_bytes()), "plaintext key on disk");
        assert!(
            !contains(&bytes, &p.as_bytes()[4..]),
            "key material on disk"
        );
        assert!(
            !contains(&bytes, &p.as_bytes()[4..36]),
            "half of the key material on disk"
        );
        assert!(contains(&bytes, h.as_bytes()), "the hash is what is stored");
    }
}

// ---------------------------------------------------------------- persistence

#[test]
fn counters_and_keys_survive_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let t = at(T0);
    let (plain, key, revoked) = {
        let s = open_limits(dir.path(), small());
        let (plain, key) = create_key_at(&s, "a", Some(3), Some(4), None, t).unwrap();
        let (_, revoked) = create_key_at(&s, "b", None, None, None, t).unwrap();
        revoke_key(&s, &revoked.id).unwrap();
        assert!(admitted(&s.check(Counted::Public(ip(1), D), t)));
        assert!(admitted(&s.check(Counted::Public(ip(1), L), t)));
        for _ in 0..2 {
            assert!(admitted(
                &s.check(Counted::Public(ip(2), D), at("2025-03-01T00:00:00Z"))
            ));
        }
        for _ in 0..3 {
            assert!(admitted(&s.check(Counted::Key(&key), t)));
        }
        s.flush().unwrap();
        (plain, key, revoked)
    };
    // Reopen right away: `open` waits for the lock sled's threads may still hold.
    let s = open_limits(dir.path(), small());
    let t1 = plus_ms(t, 1_000);
    assert_eq!(s.authenticate(&PresentedKey(plain), t1), Ok(key.clone()));
    assert!(!keys(&s).iter().find(|k| k.id == revoked.id).unwrap().active);
    // Minute windows, month and day counts are all back: the same decisions as before.
    assert_eq!(
        s.check(Counted::Public(ip(1), L), t1).refused_by,
        Some(Window::Minute)
    );
    let d = s.check(Counted::Public(ip(1), D), t1);
    assert!(admitted(&d));
    assert_eq!(d.remaining, 0);
    assert_eq!(
        s.check(Counted::Public(ip(2), D), t1).refused_by,
        Some(Window::Month)
    );
    assert_eq!(
        s.check(Counted::Key(&key), t1).refused_by,
        Some(Window::Minute)
    );
    let d = s.check(Counted::Key(&key), plus_ms(t, 61_000));
    assert!(admitted(&d));
    assert_eq!(
        s.check(Counted::Key(&key), plus_ms(t, 62_000)).refused_by,
        Some(Window::Day)
    );
}

#[test]
fn bad_configuration_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let limits = LimitsConfig {
        days_per_month: 0,
        ..LimitsConfig::default()
    };
    let e = State::open(dir.path(), limits).err().unwrap();
    assert!(format!("{e:#}").contains("days_per_month"), "{e:#}");
}

#[test]
fn a_second_open_of_a_held_database_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let _s = open(dir.path());
    let options = StateOptions {
        open_timeout: Duration::from_millis(100),
        ..StateOptions::default()
    };
    let e = State::open_with(dir.path(), LimitsConfig::default(), options)
        .err()
        .unwrap();
    assert!(
        format!("{e:#}").contains("in use by another process"),
        "{e:#}"
    );
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Runs `run_background` for `s` on its own runtime thread until the returned sender fires.
fn start_background(
    s: &Arc<State>,
    socket: &Path,
) -> (
    tokio::sync::oneshot::Sender<()>,
    std::thread::JoinHandle<anyhow::Result<()>>,
) {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (s, path) = (Arc::clone(s), socket.to_owned());
    let handle = std::thread::spawn(move || {
        runtime().block_on(s.run_background(&path, async move {
            let _ = stopped.await;
        }))
    });
    // Wait for the socket to appear.
    for _ in 0..200 {
        if socket_ready(socket) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (stop, handle)
}

fn socket_ready(p: &Path) -> bool {
    std::os::unix::net::UnixStream::connect(p).is_ok()
}

#[test]
fn background_persists_within_a_second_and_a_graceful_stop_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let socket = admin::socket_path(dir.path());
    let s = Arc::new(open(dir.path()));
    let (stop, handle) = start_background(&s, &socket);
    let now = Utc::now();
    assert!(admitted(&s.check(Counted::Public(ip(1), L), now)));
    std::thread::sleep(Duration::from_millis(1_200));
    assert_eq!(
        s.stored_usage(Counted::Public(ip(1), L), now),
        (1, 1),
        "persisted within a second"
    );
    // Requests right before the stop are not lost.
    for _ in 0..4 {
        assert!(admitted(&s.check(Counted::Public(ip(1), L), now)));
    }
    stop.send(()).unwrap();
    handle.join().unwrap().unwrap();
    assert!(!socket.exists(), "the socket is removed on shutdown");
    drop(s);
    let s = open(dir.path());
    assert_eq!(s.public_usage(ip(1), L, now), (5, 5));
    assert_eq!(s.check(Counted::Public(ip(1), L), now).remaining, 60 - 6);
}

#[test]
fn memory_stays_bounded_and_evicted_subjects_keep_their_counts() {
    let dir = tempfile::tempdir().unwrap();
    let options = StateOptions {
        max_subjects: 10,
        ..StateOptions::default()
    };
    let limits = LimitsConfig {
        days_per_minute: 2,
        days_per_month: 3,
        ..LimitsConfig::default()
    };
    let t = at(T0);
    {
        let s = State::open_with(dir.path(), limits.clone(), options.clone()).unwrap();
        // A burst of 100 addresses, each at its minute limit.
        for n in 0..100 {
            assert!(admitted(&s.check(Counted::Public(ip(n), D), t)));
            assert!(admitted(&s.check(Counted::Public(ip(n), D), t)));
        }
        assert_eq!(s.subjects_in_memory(), 100);
        s.maintain_now().unwrap();
        assert!(s.subjects_in_memory() <= 10, "{}", s.subjects_in_memory());
        // Evicted, yet every one is still at its minute limit.
        for n in 0..100 {
            let d = s.check(Counted::Public(ip(n), D), plus_ms(t, 1_000));
            assert_eq!(d.refused_by, Some(Window::Minute), "ip {n}");
        }
        s.flush().unwrap();
    }
    // After a graceful restart too.
    let s = State::open_with(dir.path(), limits, options).unwrap();
    for n in 0..100 {
        let d = s.check(Counted::Public(ip(n), D), plus_ms(t, 2_000));
        assert_eq!(d.refused_by, Some(Window::Minute), "ip {n}");
    }
    // A minute on, the month count (2 of 3) is what remains: one more, then refused.
    let later = plus_ms(t, 61_000);
    for n in 0..100 {
        assert!(
            admitted(&s.check(Counted::Public(ip(n), D), later)),
            "ip {n}"
        );
        assert_eq!(
            s.check(Counted::Public(ip(n), D), later).refused_by,
            Some(Window::Month),
            "ip {n}"
        );
    }
}

#[test]
fn idle_subjects_are_dropped_after_their_month() {
    let dir = tempfile::tempdir().unwrap();
    let s = open(dir.path());
    for n in 0..50 {
        s.check(Counted::Public(ip(n), L), at("2025-01-15T00:00:00Z"));
    }
    s.maintain_now().unwrap();
    assert_eq!(s.subjects_in_memory(), 50);
    s.check(Counted::Public(ip(1_000), L), at("2025-02-01T00:00:00Z"));
    s.maintain_now().unwrap();
    assert_eq!(s.subjects_in_memory(), 1);
    assert_eq!(
        s.stored_usage(Counted::Public(ip(3), L), at("2025-02-01T00:00:00Z")),
        (0, 0)
    );
}

// ---------------------------------------------------------------- admin socket and CLI

fn cli(dir: &Path, cmd: KeysCommand) -> anyhow::Result<String> {
    let mut out = vec![];
    let state = StateLocation::Directory(dir.to_owned());
    keys_cli::run(cmd, &state, &LimitsConfig::default(), &mut out, &mut vec![])?;
    Ok(String::from_utf8(out).unwrap())
}

fn create(owner: &str) -> KeysCommand {
    KeysCommand::Create(CreateArgs {
        owner: owner.into(),
        per_minute: None,
        per_day: Some(500),
        expires: None,
    })
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap()
}

fn id_line(s: &str) -> String {
    s.lines()
        .find_map(|l| l.strip_prefix("id:"))
        .unwrap()
        .trim()
        .to_owned()
}

#[test]
fn cli_without_a_server_opens_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let e = cli(&state, KeysCommand::List).unwrap_err();
    assert!(e.to_string().starts_with("no state database at "), "{e}");
    assert!(!state.exists(), "list does not create a database");
    let out = cli(&state, create("Ona")).unwrap();
    let key = last_line(&out).to_owned();
    assert!(key.starts_with("ltk_") && !key.contains(' '), "{out}");
    let id = id_line(&out);
    assert!(out.contains("per-day:    500"));

    let list = cli(&state, KeysCommand::List).unwrap();
    assert!(
        list.contains(&id) && list.contains("Ona") && list.contains("active"),
        "{list}"
    );
    assert!(!list.contains(&key[4..20]), "list shows no key material");
    let show = cli(&state, KeysCommand::Show(IdArg { id: id.clone() })).unwrap();
    assert!(!show.contains("ltk_") && show.contains("never"), "{show}");

    // Bad input: clear errors, nothing changed.
    let e = cli(
        &state,
        KeysCommand::Revoke(IdArg {
            id: "0123456789abcdef".into(),
        }),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("no key with id '0123456789abcdef'"),
        "{e}"
    );
    let past = KeysCommand::Create(CreateArgs {
        owner: "x".into(),
        per_minute: None,
        per_day: None,
        expires: Some(at("2020-01-01T00:00:00Z")),
    });
    assert!(cli(&state, past)
        .unwrap_err()
        .to_string()
        .contains("not in the future"));
    let nothing = KeysCommand::SetLimits(SetLimitsArgs {
        id: id.clone(),
        per_minute: None,
        per_day: None,
    });
    assert!(cli(&state, nothing).is_err());
    assert_eq!(cli(&state, KeysCommand::List).unwrap(), list);

    let set = KeysCommand::SetLimits(SetLimitsArgs {
        id: id.clone(),
        per_minute: Some(7),
        per_day: None,
    });
    assert!(cli(&state, set).unwrap().contains("per-minute: 7"));
    let out = cli(&state, KeysCommand::Revoke(IdArg { id: id.clone() })).unwrap();
    assert!(out.starts_with(&format!("revoked key {id}")), "{out}");
    let s = open(&state);
    assert_eq!(
        s.authenticate(&PresentedKey(key), Utc::now()),
        Err(KeyError::Invalid)
    );
    assert_eq!(
        one_key(&s, KeysCommand::Show(IdArg { id }))
            .unwrap()
            .0
            .per_minute,
        7
    );
}

#[test]
fn cli_goes_through_the_socket_of_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let socket = admin::socket_path(dir.path());
    // A stale socket from a crashed server is replaced.
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    let s = Arc::new(open(dir.path()));
    let (stop, handle) = start_background(&s, &socket);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // The database is held by `s`: these can only work through the socket.
    let out = cli(dir.path(), create("Jonas")).unwrap();
    let key = last_line(&out).to_owned();
    let id = id_line(&out);
    let rec = s
        .authenticate(&PresentedKey(key.clone()), Utc::now())
        .expect("usable at once");
    assert_eq!(rec.per_day, 500);
    s.check(Counted::Key(&rec), Utc::now());
    let list = cli(dir.path(), KeysCommand::List).unwrap();
    assert!(list.contains(&id) && !list.contains(&key[4..20]), "{list}");
    let show = cli(dir.path(), KeysCommand::Show(IdArg { id: id.clone() })).unwrap();
    assert!(
        show.contains("used:       1 in the last minute, 1 in the last 24 h"),
        "{show}"
    );
    cli(dir.path(), KeysCommand::Revoke(IdArg { id: id.clone() })).unwrap();
    assert_eq!(
        s.authenticate(&PresentedKey(key), Utc::now()),
        Err(KeyError::Invalid),
        "no restart"
    );
    assert!(cli(dir.path(), KeysCommand::Show(IdArg { id: "nope".into() })).is_err());

    // Garbage on the socket gets an error answer and the server keeps serving.
    use std::io::{BufRead, Write};
    let mut raw = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    raw.write_all(b"{\"op\":\"explode\"}\nnot json\n").unwrap();
    let mut reader = std::io::BufReader::new(raw.try_clone().unwrap());
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.contains("\"result\":\"error\""), "{line}");
    }
    raw.write_all(&vec![b'x'; admin::MAX_REQUEST as usize + 1024])
        .unwrap();
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("longer than"), "{line}");
    let r = admin::request(&socket, &KeysCommand::List)
        .unwrap()
        .unwrap();
    assert!(matches!(r, AdminResponse::Keys { views } if views.len() == 1));

    stop.send(()).unwrap();
    handle.join().unwrap().unwrap();
    // With the server gone, the CLI opens the database itself and sees the same keys.
    drop(s);
    let list = cli(dir.path(), KeysCommand::List).unwrap();
    assert!(list.contains("revoked"), "{list}");
}

// ---------------------------------------------------------------- the real binary

fn bin(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kalendorius-server"))
        .args(args)
        .env_remove("KALENDORIUS_STATE")
        .env_remove("KALENDORIUS_CONFIG")
        .output()
        .unwrap()
}

#[test]
fn binary_keys_commands() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().to_str().unwrap();
    let out = bin(&[
        "keys",
        "--state",
        state,
        "create",
        "--owner",
        "Ona",
        "--per-minute",
        "5",
        "--expires",
        "2099-01-01",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let key = last_line(&stdout).to_owned();
    assert!(key.starts_with("ltk_"), "{stdout}");
    let id = id_line(&stdout);

    let out = bin(&["keys", "--state", state, "list"]);
    assert!(out.status.success());
    let list = String::from_utf8(out.stdout).unwrap();
    // Usable through Jan 1 in Vilnius (UTC+2 in winter): refused from 22:00 UTC.
    assert!(list.contains(&id) && list.contains("2099-01-01T22:00:00Z") && !list.contains("ltk_"));

    for (args, code) in [
        (vec!["create", "--owner", "x", "--per-minute", "0"], 2),
        (vec!["create", "--owner", "x", "--per-day", "many"], 2),
        (vec!["create", "--owner", "x", "--expires", "2020-01-01"], 1),
        (vec!["create", "--owner", "x", "--expires", "2099-13-01"], 2),
        (vec!["revoke", "ffffffffffffffff"], 1),
        (vec!["set-limits", &id], 1),
    ] {
        let mut all = vec!["keys", "--state", state];
        all.extend(&args);
        let out = bin(&all);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stderr.is_empty(), "{args:?} says why");
    }
    let out = bin(&["keys", "--state", state, "list"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        list,
        "bad input changed nothing"
    );

    for sub in ["create", "list", "show", "revoke", "set-limits"] {
        let out = bin(&["keys", sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
    }
    let help = String::from_utf8(bin(&["keys", "create", "--help"]).stdout).unwrap();
    assert!(
        help.contains("--per-minute") && help.contains("--expires"),
        "{help}"
    );

    // While a server holds the database, the binary goes through the socket.
    let s = Arc::new(open(dir.path()));
    let (stop, handle) = start_background(&s, &admin::socket_path(dir.path()));
    let out = bin(&["keys", "--state", state, "revoke", &id]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        s.authenticate(&PresentedKey(key), Utc::now()),
        Err(KeyError::Invalid)
    );
    stop.send(()).unwrap();
    handle.join().unwrap().unwrap();
}

// ---------------------------------------------------------------- integrity

/// Asserts that `message` is the one-line refusal of a damaged state database at `dir`.
fn assert_damaged(message: &str, dir: &Path) {
    let head = format!("the state database at {} is damaged (", dir.display());
    assert!(message.contains(&head), "{message}");
    assert!(
        message.contains(
            "restore it from a backup (`keys import`, see docs/operations.md#backups), or move it away \
             to start empty"
        ),
        "{message}"
    );
    assert!(!message.trim_end().contains('\n'), "one line: {message}");
    assert!(!message.contains("backtrace"), "{message}");
    assert_eq!(message.matches("state database").count(), 1, "{message}");
}

/// Opening `dir` fails with the damaged-state message; returns it.
fn refused(dir: &Path) -> String {
    let e = State::open(dir, LimitsConfig::default())
        .err()
        .expect("a damaged state database is refused");
    let message = format!("{:#}", anyhow::Error::from(e));
    assert_damaged(&message, dir);
    message
}

/// `keys list` of the real binary on `dir` fails with exit code 1 and the damaged-state
/// message as the only line of stderr after the state directory's.
fn binary_refuses(dir: &Path) -> String {
    let out = bin(&["keys", "--state", dir.to_str().unwrap(), "list"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    let stderr = stderr
        .strip_prefix(&format!("state: {}\n", dir.display()))
        .unwrap_or_else(|| panic!("the state line first: {stderr}"))
        .to_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_damaged(stderr.strip_prefix("kalendorius-server: ").unwrap(), dir);
    stderr
}

/// The files in `dir` whose names start with `prefix`.
fn files_starting_with(dir: &Path, prefix: &str) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect()
}

/// A state database at `dir` holding `n` keys (closed again).
fn state_with_keys(dir: &Path, n: usize) -> Vec<String> {
    let s = open(dir);
    let ids = (0..n)
        .map(|i| {
            create_key(&s, &format!("owner {i}"), None, None, None)
                .unwrap()
                .1
                .id
        })
        .collect();
    s.flush().unwrap();
    ids
}

/// A small dataset for the real server, built from the fixture sources.
fn small_dataset(out: &Path) {
    kalendorius_generator::build(&kalendorius_generator::BuildOptions {
        sources: Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sources"),
        out: out.to_path_buf(),
        years: Some(2020..=2021),
        keep: kalendorius_generator::versions::DEFAULT_KEEP,
    })
    .expect("the fixture sources build");
}

/// A running `kalendorius-server serve` (killed when dropped).
struct Served {
    child: std::process::Child,
    addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve_command(data: &Path, state: &Path) -> std::process::Command {
    serve_command_logging(data, state, "warn")
}

/// The real server on `data` and `state`, logging from `level` up.
fn serve_command_logging(data: &Path, state: &Path, level: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kalendorius-server"));
    cmd.args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--log-level",
        level,
        "--data",
    ])
    .arg(data)
    .arg("--state")
    .arg(state)
    .env_remove("KALENDORIUS_STATE")
    .env_remove("KALENDORIUS_CONFIG")
    .env_remove("KALENDORIUS_DATA")
    .env_remove("KALENDORIUS_LISTEN");
    cmd
}

/// Starts the real server and waits for its address.
fn serve(data: &Path, state: &Path) -> Served {
    use std::io::BufRead;
    let mut child = serve_command(data, state)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server prints its address")
            .unwrap();
        if let Some(a) = line.strip_prefix("listening on http://") {
            break a.to_owned();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    Served { child, addr }
}

/// The status of a GET of `path` with `key` (HTTP/1.1 over a plain socket).
fn status_with_key(addr: &str, path: &str, key: &str) -> u16 {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nX-API-Key: {key}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"))
}

#[test]
fn a_truncated_database_is_refused_with_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    {
        // Counter traffic first, so the keys are written in the second half of `db`.
        let s = open(&state);
        let t = Utc::now();
        for round in 0..10 {
            for n in 0..2_000 {
                s.check(Counted::Public(ip(n + round * 7), D), t);
            }
            s.maintain_now().unwrap();
        }
        for i in 0..12 {
            create_key(&s, &format!("owner {i}"), None, None, None).unwrap();
        }
        s.flush().unwrap();
    }
    let db = state.join("db");
    let len = std::fs::metadata(&db).unwrap().len();
    assert!(
        len >= 1 << 20,
        "a db of {len} bytes spans several sled segments"
    );
    std::fs::OpenOptions::new()
        .write(true)
        .open(&db)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let message = refused(&state);
    assert!(
        message.contains("(expected 12 keys, found ") || message.contains("corrupted data"),
        "{message}"
    );
    binary_refuses(&state);
    // `serve` refuses it too, after loading the dataset, with the same line and exit 1.
    let data = dir.path().join("data");
    small_dataset(&data);
    let out = serve_command(&data, &state).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_damaged(&stderr, &state);
}

/// What the real server logs at `info` on `state` until it listens (the start-up lines).
fn start_up_log(data: &Path, state: &Path) -> Vec<String> {
    use std::io::BufRead;
    let mut child = serve_command_logging(data, state, "info")
        .env_remove("KALENDORIUS_LOG_FORMAT")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = Vec::new();
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let listening = line.starts_with("listening on http://");
        log.push(line);
        if listening {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        log.last().is_some_and(|l| l.starts_with("listening on")),
        "{log:#?}"
    );
    log
}

#[test]
fn a_fresh_state_is_not_taken_for_a_database_of_an_earlier_version() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    small_dataset(&data);
    let state = dir.path().join("state");
    let earlier = "no integrity.json yet (a database of an earlier version)";
    // A container's first start on a new volume.
    let fresh = start_up_log(&data, &state);
    assert!(!fresh.iter().any(|l| l.contains(earlier)), "{fresh:#?}");
    // A database with keys and no record, as an earlier version left it, still is one.
    {
        let s = open(&state);
        create_key(&s, "owner", None, None, None).unwrap();
        s.flush().unwrap();
    }
    std::fs::remove_file(state.join("integrity.json")).unwrap();
    let old = start_up_log(&data, &state);
    assert!(old.iter().any(|l| l.contains(earlier)), "{old:#?}");
}

#[test]
fn missing_sled_files_are_refused_and_an_empty_directory_is_fresh() {
    for (victim, named) in [
        ("conf", "sled's file conf is missing"),
        ("db", "sled's file db is missing"),
        ("snap.", "sled's file snap.* is missing"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        state_with_keys(dir.path(), 3);
        for path in files_starting_with(dir.path(), victim) {
            std::fs::remove_file(path).unwrap();
        }
        let message = refused(dir.path());
        assert!(message.contains(named), "{victim}: {message}");
        binary_refuses(dir.path());
    }
    // Every sled file gone, integrity.json left: the keys it records are missing.
    let dir = tempfile::tempdir().unwrap();
    state_with_keys(dir.path(), 2);
    std::fs::remove_dir_all(dir.path().join("blobs")).unwrap();
    for prefix in ["conf", "db", "snap."] {
        for path in files_starting_with(dir.path(), prefix) {
            std::fs::remove_file(path).unwrap();
        }
    }
    let message = refused(dir.path());
    assert!(message.contains("expected 2 keys"), "{message}");
    binary_refuses(dir.path());

    // An empty directory, or one with only a stale admin socket, is a fresh state.
    let dir = tempfile::tempdir().unwrap();
    drop(std::os::unix::net::UnixListener::bind(admin::socket_path(dir.path())).unwrap());
    assert!(State::is_fresh(dir.path()));
    assert!(keys(&open(dir.path())).is_empty());
    assert!(!State::is_fresh(dir.path()), "created now");
    // A database written before integrity.json existed is accepted, and recorded.
    let dir = tempfile::tempdir().unwrap();
    state_with_keys(dir.path(), 2);
    std::fs::remove_file(dir.path().join("integrity.json")).unwrap();
    assert_eq!(keys(&open(dir.path())).len(), 2);
    assert!(dir.path().join("integrity.json").is_file());
}

/// Changes the sled tree `tree` of the state database at `dir` behind its records' back.
fn tamper<T>(dir: &Path, tree: &str, change: impl FnOnce(&sled::Tree) -> T) -> T {
    // A handle dropped a moment ago (the state that wrote the keys) may still hold sled's
    // file lock for a few milliseconds: retry as `State::open` does.
    let started = std::time::Instant::now();
    let db = loop {
        match sled::open(dir) {
            Ok(db) => break db,
            Err(_) if started.elapsed() < Duration::from_secs(5) => {
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => panic!("cannot open {}: {e}", dir.display()),
        }
    };
    let changed = change(&db.open_tree(tree).unwrap());
    db.flush().unwrap();
    changed
}

#[test]
fn keys_that_differ_from_the_record_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ids = state_with_keys(dir.path(), 3);
    let removed = tamper(dir.path(), "keys", |keys| {
        keys.remove(ids[1].as_bytes()).unwrap().unwrap()
    });
    let message = refused(dir.path());
    assert!(message.contains("(expected 3 keys, found 2)"), "{message}");

    // Put back, but revoked behind the record's back: the same count, other contents.
    let changed = String::from_utf8(removed.to_vec())
        .unwrap()
        .replace("\"active\":true", "\"active\":false");
    tamper(dir.path(), "keys", |keys| {
        keys.insert(ids[1].as_bytes(), changed.as_bytes()).unwrap()
    });
    let message = refused(dir.path());
    assert!(
        message.contains("(3 keys as expected, but not the recorded ones)"),
        "{message}"
    );

    // An unreadable record is damage too, never a key silently skipped.
    tamper(dir.path(), "keys", |keys| {
        keys.insert(ids[1].as_bytes(), &b"{not json"[..]).unwrap()
    });
    let message = refused(dir.path());
    assert!(
        message.contains(&format!("the key record \"{}\" is unreadable", ids[1])),
        "{message}"
    );
}

#[test]
fn counter_blobs_that_differ_from_their_manifest_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    {
        let s = open(dir.path());
        for n in 0..50 {
            s.check(Counted::Public(ip(n), L), Utc::now());
        }
        s.flush().unwrap();
    }
    tamper(dir.path(), "counters", |counters| {
        let (key, _) = counters
            .iter()
            .flatten()
            .find(|(k, _)| k.starts_with(b"shard/"))
            .unwrap();
        counters.remove(&key).unwrap()
    });
    let message = refused(dir.path());
    assert!(message.contains("counter blobs, found"), "{message}");
}

#[test]
fn sled_corruption_is_one_clean_line() {
    let dir = tempfile::tempdir().unwrap();
    state_with_keys(dir.path(), 1);
    // Opened again: sled writes a snapshot when it opens a database holding data.
    drop(open(dir.path()));
    let [snapshot] = &files_starting_with(dir.path(), "snap.")[..] else {
        panic!("one snapshot");
    };
    let len = std::fs::metadata(snapshot).unwrap().len() as usize;
    std::fs::write(snapshot, vec![0x5a; len]).unwrap();
    let message = refused(dir.path());
    assert!(message.contains("(sled found corrupted data"), "{message}");
    binary_refuses(dir.path());
}

// ---------------------------------------------------------------- kill -9

/// Limits no test request reaches.
fn unlimited() -> LimitsConfig {
    let max = kalendorius_server::limits::MAX_LIMIT;
    LimitsConfig::all(max)
}

/// Public subjects the counting child spreads its requests over (and one key).
const CHILD_SUBJECTS: u32 = 50;

/// The subject of a counting child's request `j`: a public one, or the key (`None`).
fn child_subject(j: u64) -> Option<u32> {
    let n = (j % u64::from(CHILD_SUBJECTS + 1)) as u32;
    (n < CHILD_SUBJECTS).then_some(n)
}

/// What this test binary does when a kill test runs it again as a child process (nothing
/// in a normal run). `KALENDORIUS_TEST_CHILD=keys`: creates keys in a loop and prints each
/// id once `create_key` has returned. `=counters`: with the background persistence
/// running, counts `KALENDORIUS_TEST_OPS` requests (see `child_subject`), then prints
/// `stopped` and waits to be killed.
#[test]
#[ignore = "run as a child process by the kill tests"]
fn child_process() {
    let Ok(mode) = std::env::var("KALENDORIUS_TEST_CHILD") else {
        return;
    };
    let dir = std::path::PathBuf::from(std::env::var("KALENDORIUS_TEST_DIR").unwrap());
    let s = Arc::new(State::open(&dir, unlimited()).unwrap());
    if mode == "keys" {
        for i in 0.. {
            let (_, r) = create_key(&s, &format!("child {i}"), None, None, None).unwrap();
            println!("created {}", r.id);
        }
    }
    let ops: u64 = std::env::var("KALENDORIUS_TEST_OPS")
        .unwrap()
        .parse()
        .unwrap();
    let key = keys(&s)[0].clone();
    let (_stop, _background) = start_background(&s, &admin::socket_path(&dir));
    for j in 0..ops {
        let d = match child_subject(j) {
            Some(n) => s.check(Counted::Public(ip(n), D), Utc::now()),
            None => s.check(Counted::Key(&key), Utc::now()),
        };
        assert!(admitted(&d));
    }
    println!("stopped");
    std::thread::sleep(Duration::from_secs(60));
}

/// Runs `child_process` in `mode` on `dir`; returns it and its stdout lines.
fn spawn_child(
    mode: &str,
    dir: &Path,
    ops: u64,
) -> (
    std::process::Child,
    std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "child_process", "--nocapture"])
        .env("KALENDORIUS_TEST_CHILD", mode)
        .env("KALENDORIUS_TEST_DIR", dir)
        .env("KALENDORIUS_TEST_OPS", ops.to_string())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    (child, lines)
}

#[test]
fn killed_while_changing_keys_the_database_opens_with_every_stored_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut stored = vec![];
    for round in 0..100 {
        let (mut child, mut lines) = spawn_child("keys", dir.path(), 0);
        // Killed at once after the first few keys: mostly in the middle of the next one.
        let mut seen = 0;
        while seen < 1 + round % 3 {
            let line = lines.next().expect("the child creates keys").unwrap();
            if let Some(id) = line.strip_prefix("created ") {
                stored.push(id.to_owned());
                seen += 1;
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let s = State::open(dir.path(), unlimited())
            .unwrap_or_else(|e| panic!("round {round}: a kill is not damage: {e}"));
        let ids: Vec<String> = keys(&s).into_iter().map(|r| r.id).collect();
        for id in &stored {
            assert!(ids.contains(id), "round {round}: key {id} lost");
        }
    }
}

#[test]
fn a_kill_a_second_after_the_last_request_loses_no_count() {
    let dir = tempfile::tempdir().unwrap();
    state_with_keys(dir.path(), 1);
    let mut expected = vec![0u64; CHILD_SUBJECTS as usize + 1];
    for (round, ops) in [700u64, 1_300, 400].into_iter().enumerate() {
        let (mut child, mut lines) = spawn_child("counters", dir.path(), ops);
        while lines.next().expect("the child counts").unwrap() != "stopped" {}
        // Two persistence rounds and sled's flush fit in well under a second.
        std::thread::sleep(Duration::from_millis(1_200));
        child.kill().unwrap();
        child.wait().unwrap();
        for j in 0..ops {
            expected[child_subject(j).unwrap_or(CHILD_SUBJECTS) as usize] += 1;
        }
        let s = State::open(dir.path(), unlimited()).unwrap();
        let now = Utc::now();
        let key = keys(&s)[0].id.clone();
        let got: Vec<u64> = (0..CHILD_SUBJECTS)
            .map(|n| s.public_usage(ip(n), D, now).1)
            .chain([s.key_usage(&key, now).1])
            .collect();
        assert_eq!(got, expected, "round {round}");
    }
}

// ---------------------------------------------------------------- backups

/// Runs the real binary's `keys` with `args` on `state`; returns (exit code, stdout, stderr).
fn keys_bin(state: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["keys", "--state", state.to_str().unwrap()];
    all.extend(args);
    let out = bin(&all);
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The records of a state database, as the next command opening it sees them.
fn records_of(state: &Path) -> Vec<kalendorius_server::state::keys::KeyRecord> {
    keys(&open(state))
}

#[test]
fn export_then_import_into_an_empty_state_restores_working_keys() {
    let dir = tempfile::tempdir().unwrap();
    let (src, dst) = (dir.path().join("src"), dir.path().join("dst"));
    let t = Utc::now();
    let (a, b) = {
        let s = open(&src);
        let (a, ka) = create_key_at(
            &s,
            "ACME",
            Some(5),
            Some(50),
            Some(plus_ms(t, 86_400_000)),
            t,
        )
        .unwrap();
        let (b, kb) = create_key_at(&s, "Ona", None, None, None, t).unwrap();
        create_key_at(&s, "Jonas", None, Some(7), None, t).unwrap();
        revoke_key(&s, &kb.id).unwrap();
        s.check(Counted::Key(&ka), t);
        s.flush().unwrap();
        (a, b)
    };
    let file = dir.path().join("keys.jsonl");
    let (code, out, err) = keys_bin(&src, &["export", "--out", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, format!("exported 3 keys to {}\n", file.display()));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(!text.contains("ltk_") && !text.contains("used_"), "{text}");
    for r in records_of(&src) {
        assert!(text.contains(&format!("\"hash\":\"{}\"", r.hash)), "{text}");
    }
    // To stdout, with the usage when asked for.
    let (code, out, _) = keys_bin(&src, &["export", "--counters"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 3);
    assert!(out.contains("\"used_minute\":1,\"used_day\":1"), "{out}");

    let (code, out, err) = keys_bin(&dst, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "imported 3 keys: 3 added, 0 unchanged, 0 replaced\n");
    assert_eq!(records_of(&dst), records_of(&src));
    let list = |state: &Path| {
        let (code, out, _) = keys_bin(state, &["list"]);
        assert_eq!(code, Some(0));
        // Without the usage columns: the counters are not part of a backup.
        out.lines()
            .map(|l| {
                let cols: Vec<&str> = l.split_whitespace().collect();
                [&cols[..6], &cols[8..]].concat().join(" ")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(list(&dst), list(&src));
    // Importing again changes nothing.
    let (code, out, _) = keys_bin(&dst, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "imported 3 keys: 0 added, 3 unchanged, 0 replaced\n");

    // The restored keys work against a real server: the live one is served, the revoked
    // one refused.
    let data = dir.path().join("data");
    small_dataset(&data);
    let server = serve(&data, &dst);
    let path = "/api/v1/holidays?year=2020";
    assert_eq!(status_with_key(&server.addr, path, &a), 200);
    assert_eq!(status_with_key(&server.addr, path, &b), 401);
}

#[test]
fn an_import_that_conflicts_with_stored_keys_is_refused_whole() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let ids = state_with_keys(&state, 3);
    let file = dir.path().join("keys.jsonl");
    assert_eq!(
        keys_bin(&state, &["export", "--out", file.to_str().unwrap()]).0,
        Some(0)
    );
    // A key changed since the backup, and a new key in the backup.
    let s = open(&state);
    set_key_limits(&s, &ids[1], Some(9), None).unwrap();
    drop(s);
    let other = dir.path().join("other");
    state_with_keys(&other, 1);
    let extra = keys_bin(&other, &["export"]).1;
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(&extra);
    std::fs::write(&file, &text).unwrap();

    let before = records_of(&state);
    let (code, _, err) = keys_bin(&state, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err,
        format!(
            "state: {}\nkalendorius-server: the file's records for {} differ from the stored \
             keys with those ids; nothing was imported (--replace imports the file's version \
             of them)\n",
            state.display(),
            ids[1]
        )
    );
    assert_eq!(
        records_of(&state),
        before,
        "nothing written, not even the new key"
    );

    let (code, out, err) = keys_bin(&state, &["import", "--replace", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "imported 4 keys: 1 added, 2 unchanged, 1 replaced\n");
    let after = records_of(&state);
    assert_eq!(after.len(), 4);
    assert_eq!(
        after.iter().find(|r| r.id == ids[1]).unwrap().per_minute,
        60
    );

    // Malformed or inconsistent records are refused with the line or id, nothing written.
    let record = text.lines().next().unwrap();
    let id = &ids[0];
    let cases = [
        (
            "not json\n".to_owned(),
            "line 1: not a key record".to_owned(),
        ),
        (
            record.replacen(
                &format!("\"id\":\"{id}\""),
                "\"id\":\"0000000000000000\"",
                1,
            ),
            "record 0000000000000000: the id is not the start of the hash".to_owned(),
        ),
        (
            record.replacen("\"per_day\":10000", "\"per_day\":0", 1),
            format!("record {id}: per-day must be a whole number"),
        ),
        (
            format!(
                "{record}\n{}",
                record.replacen("\"owner\":\"owner 0\"", "\"owner\":\"x\"", 1)
            ),
            format!("record {id}: given twice, differently"),
        ),
    ];
    for (bad, says) in cases {
        std::fs::write(&file, bad).unwrap();
        let (code, _, err) = keys_bin(&state, &["import", file.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains(&says), "{says}: {err}");
        assert_eq!(records_of(&state), after);
    }
}

#[test]
fn export_and_import_go_through_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other");
    state_with_keys(&other, 2);
    let export = KeysCommand::Export(ExportArgs {
        out: None,
        counters: false,
    });
    let exported = cli(&other, export.clone()).unwrap();
    let file = dir.path().join("keys.jsonl");
    std::fs::write(&file, &exported).unwrap();

    let state = dir.path().join("state");
    let s = Arc::new(open(&state));
    let (stop, handle) = start_background(&s, &admin::socket_path(&state));
    let import = KeysCommand::Import(ImportArgs {
        file: file.clone(),
        records: vec![],
        replace: false,
    });
    let out = cli(&state, import).unwrap();
    assert_eq!(out, "imported 2 keys: 2 added, 0 unchanged, 0 replaced\n");
    assert_eq!(keys(&s), records_of(&other), "in the server at once");
    assert_eq!(cli(&state, export).unwrap(), exported);
    stop.send(()).unwrap();
    handle.join().unwrap().unwrap();
}

// ---------------------------------------------------------------- the key tool

/// The real binary's `keys` with `args` (the state directory among them, anywhere), run in
/// `cwd`; returns (exit code, stdout, stderr).
fn keys_in(cwd: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kalendorius-server"))
        .arg("keys")
        .args(args)
        .current_dir(cwd)
        .env_remove("KALENDORIUS_STATE")
        .env_remove("KALENDORIUS_CONFIG")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Creates a key with the real binary; returns (key, id).
fn create_bin(state: &Path, extra: &[&str]) -> (String, String) {
    let mut args = vec!["create", "--owner", "Ona"];
    args.extend(extra);
    let (code, out, err) = keys_bin(state, &args);
    assert_eq!(code, Some(0), "{err}");
    (last_line(&out).to_owned(), id_line(&out))
}

#[test]
fn every_command_names_its_state_directory_and_only_create_and_import_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let empty = root.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let missing = root.join("missing");
    let refusing: [&[&str]; 7] = [
        &["list"],
        &["show", "abcd"],
        &["revoke", "abcd"],
        &["restore", "abcd"],
        &["delete", "abcd"],
        &["set-limits", "abcd", "--per-minute", "5"],
        &["export"],
    ];
    for state in [&empty, &missing] {
        for args in refusing {
            let (code, out, err) = keys_bin(state, args);
            assert_eq!(code, Some(1), "{args:?}: {err}");
            assert_eq!(out, "", "{args:?}");
            assert_eq!(
                err,
                format!(
                    "state: {0}\nkalendorius-server: no state database at {0} (check --state, \
                     --config or KALENDORIUS_STATE; `keys create` makes a new one)\n",
                    state.display()
                ),
                "{args:?}"
            );
        }
    }
    assert!(!missing.exists(), "nothing created");
    assert_eq!(
        std::fs::read_dir(&empty).unwrap().count(),
        0,
        "nothing created"
    );

    // A relative --state is shown as the absolute directory it is, after the command too.
    let (code, out, err) = keys_in(root, &["create", "--owner", "Ona", "--state", "new"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        last_line(&out).starts_with("ltk_"),
        "the key stays last: {out}"
    );
    let new = root.join("new");
    assert_eq!(
        err,
        format!(
            "state: {0}\ncreated a new state database at {0}\n",
            new.display()
        )
    );
    // Once it exists, nothing more is said than where it is.
    for args in [
        &["list", "--state", "new"][..],
        &["create", "--owner", "Jonas", "--state", "new"],
    ] {
        let (code, _, err) = keys_in(root, args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert_eq!(err, format!("state: {}\n", new.display()), "{args:?}");
    }
    assert_eq!(records_of(&new).len(), 2);

    // `import` restores into a new directory (docs/operations.md#backups) and says so too.
    let file = root.join("keys.jsonl");
    assert_eq!(
        keys_bin(&new, &["export", "--out", file.to_str().unwrap()]).0,
        Some(0)
    );
    let restored = root.join("restored");
    let (code, out, err) = keys_bin(&restored, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "imported 2 keys: 2 added, 0 unchanged, 0 replaced\n");
    assert_eq!(
        err,
        format!(
            "state: {0}\ncreated a new state database at {0}\n",
            restored.display()
        )
    );
}

#[test]
fn state_and_config_may_follow_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let s = state.to_str().unwrap();
    let (code, out, err) = keys_in(dir.path(), &["create", "--owner", "Ona", "--state", s]);
    assert_eq!(code, Some(0), "{err}");
    let id = id_line(&out);
    let (code, out, err) = keys_in(dir.path(), &["list", "--state", s]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&id), "{out}");
    let config = dir.path().join("k.toml");
    std::fs::write(&config, format!("state = {s:?}\n")).unwrap();
    let c = config.to_str().unwrap();
    for args in [
        vec!["show", &id, "--config", c],
        vec!["--config", c, "show", &id],
        vec!["set-limits", "--config", c, &id, "--per-minute", "9"],
    ] {
        let (code, out, err) = keys_in(dir.path(), &args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.contains(&id), "{args:?}: {out}");
        assert_eq!(err, format!("state: {}\n", state.display()), "{args:?}");
    }
    assert_eq!(records_of(&state)[0].per_minute, 9);
}

/// A `keys export` line of a made-up key whose id is `id`.
fn record_line(id: &str) -> String {
    format!(
        "{{\"id\":\"{id}\",\"hash\":\"{id}{}\",\"owner\":\"made up\",\"per_minute\":1,\
         \"per_day\":1,\"created\":\"2025-01-01T00:00:00Z\",\"expires\":null,\"active\":true}}\n",
        "0".repeat(48)
    )
}

/// Prefixes, restore and delete on `state`, whether a server holds it (`server`) or not.
fn exercise_ids_restore_and_delete(dir: &Path, state: &Path, server: Option<&State>) {
    let (key, id) = create_bin(state, &[]);
    let authenticates = |ok: bool| {
        let now = Utc::now();
        let result = match server {
            Some(s) => s.authenticate(&PresentedKey(key.clone()), now),
            None => open(state).authenticate(&PresentedKey(key.clone()), now),
        };
        assert_eq!(result.is_ok(), ok, "{result:?}");
    };
    // Two made-up keys share a prefix.
    let file = dir.join("made-up.jsonl");
    std::fs::write(
        &file,
        record_line("abcd000000000001") + &record_line("abcd000000000002"),
    )
    .unwrap();
    assert_eq!(
        keys_bin(state, &["import", file.to_str().unwrap()]).0,
        Some(0)
    );

    // Any unique prefix of 4 or more, in any case.
    let short = id[..4].to_uppercase();
    let (code, out, err) = keys_bin(state, &["show", &short]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(id_line(&out), id);
    let (code, out, err) = keys_bin(state, &["set-limits", &id[..6], "--per-day", "77"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("per-day:    77"), "{out}");
    for (given, says) in [
        (
            "abcd",
            "id 'abcd' is ambiguous: it starts 2 keys (abcd000000000001, abcd000000000002); \
             give more characters",
        ),
        (
            "abc",
            "id 'abc' is too short: give at least 4 of the 16 hex characters shown by `keys \
             list`",
        ),
        ("abce", "no key with id 'abce'"),
    ] {
        for cmd in ["show", "revoke", "restore", "delete"] {
            let (code, _, err) = keys_bin(state, &[cmd, given]);
            assert_eq!(code, Some(1), "{cmd} {given}: {err}");
            assert!(err.contains(says), "{cmd} {given}: {err}");
        }
    }
    assert_eq!(keys_bin(state, &["show", "abcd000000000002"]).0, Some(0));

    // Revoke, then restore: the key works again (at once, with a server).
    let (code, out, _) = keys_bin(state, &["revoke", &id[..5]]);
    assert_eq!(
        (code, last_line(&out)),
        (
            Some(0),
            "used:       0 in the last minute, 0 in the last 24 h"
        )
    );
    authenticates(false);
    let (code, out, err) = keys_bin(state, &["restore", &id[..5]]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with(&format!("restored key {id}\n")), "{out}");
    assert!(out.contains("state:      active"), "{out}");
    authenticates(true);
    let (code, out, _) = keys_bin(state, &["restore", &id]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with(&format!("key {id} was not revoked\n")),
        "{out}"
    );

    // Delete: gone from the list, the export and the server; the database still opens.
    let (code, out, err) = keys_bin(state, &["delete", &id[..8]]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, format!("deleted key {id} (owner Ona)\n"));
    authenticates(false);
    let (_, list, _) = keys_bin(state, &["list"]);
    assert!(
        !list.contains(&id) && list.contains("abcd000000000001"),
        "{list}"
    );
    let (_, export, _) = keys_bin(state, &["export"]);
    assert_eq!(export.lines().count(), 2, "{export}");
    let (code, _, err) = keys_bin(state, &["show", &id]);
    assert_eq!(code, Some(1));
    assert!(err.contains(&format!("no key with id '{id}'")), "{err}");
}

#[test]
fn ids_by_prefix_restore_and_delete_without_a_server() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    exercise_ids_restore_and_delete(dir.path(), &state, None);
    assert_eq!(records_of(&state).len(), 2, "the integrity records agree");
}

#[test]
fn ids_by_prefix_restore_and_delete_through_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let s = Arc::new(open(&state));
    let (stop, handle) = start_background(&s, &admin::socket_path(&state));
    exercise_ids_restore_and_delete(dir.path(), &state, Some(&s));
    stop.send(()).unwrap();
    handle.join().unwrap().unwrap();
    drop(s);
    assert_eq!(records_of(&state).len(), 2, "the integrity records agree");
}

#[test]
fn delete_removes_the_counters_of_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let now = Utc::now();
    let k = {
        let s = open(&state);
        let (_, k) = create_key(&s, "Ona", None, None, None).unwrap();
        let (_, other) = create_key(&s, "Jonas", None, None, None).unwrap();
        s.check(Counted::Key(&k), now);
        s.check(Counted::Key(&other), now);
        s.flush().unwrap();
        assert_eq!(s.stored_usage(Counted::Key(&k), now), (1, 1));
        k
    };
    let (code, _, err) = keys_bin(&state, &["delete", &k.id]);
    assert_eq!(code, Some(0), "{err}");
    let s = open(&state);
    assert_eq!(
        s.stored_usage(Counted::Key(&k), now),
        (0, 0),
        "its counters are gone"
    );
    assert_eq!(keys(&s).len(), 1);
    assert_eq!(
        s.key_usage(&keys(&s)[0].id, now),
        (1, 1),
        "the other key's stay"
    );

    // Through a running server too.
    let s = Arc::new(s);
    let other = keys(&s)[0].clone();
    let (stop, handle) = start_background(&s, &admin::socket_path(&state));
    let (code, _, err) = keys_bin(&state, &["delete", &other.id]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(s.key_usage(&other.id, now), (0, 0));
    assert_eq!(s.stored_usage(Counted::Key(&other), now), (0, 0));
    stop.send(()).unwrap();
    handle.join().unwrap().unwrap();
    drop(s);
    assert_eq!(records_of(&state), vec![]);
}

#[test]
fn an_expired_key_is_not_restored() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let now = Utc::now();
    let id = {
        let s = open(&state);
        let (_, k) = create_key_at(
            &s,
            "Ona",
            None,
            None,
            Some(plus_ms(now, -1_000)),
            plus_ms(now, -60_000),
        )
        .unwrap();
        revoke_key(&s, &k.id).unwrap();
        k.id
    };
    let (code, _, err) = keys_bin(&state, &["restore", &id]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("key {id} expired at "))
            && err.contains("restoring it would not make it usable"),
        "{err}"
    );
    assert!(!records_of(&state)[0].active, "nothing changed");
}

#[test]
fn expires_date_means_usable_through_that_day_in_vilnius() {
    use chrono::Datelike;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // Next year's, so that the dates are always in the future.
    let year = Utc::now().year() + 1;
    let (summer, summer_id) = create_bin(&state, &["--expires", &format!("{year}-07-31")]);
    let (winter, _) = create_bin(&state, &["--expires", &format!("{year}-12-31")]);
    let s = open(&state);
    for (key, last_second, refused_from) in [
        // Summer time, UTC+3: Aug 1 00:00 in Vilnius is Jul 31 21:00 UTC.
        (
            &summer,
            format!("{year}-07-31T20:59:59Z"),
            format!("{year}-07-31T21:00:00Z"),
        ),
        // Winter time, UTC+2.
        (
            &winter,
            format!("{year}-12-31T21:59:59Z"),
            format!("{year}-12-31T22:00:00Z"),
        ),
    ] {
        assert!(s
            .authenticate(&PresentedKey(key.clone()), at(&last_second))
            .is_ok());
        assert_eq!(
            s.authenticate(&PresentedKey(key.clone()), at(&refused_from)),
            Err(KeyError::Expired)
        );
    }
    drop(s);
    // What is stored is shown: the instant it stops working, in UTC.
    let (_, show, _) = keys_bin(&state, &["show", &summer_id]);
    assert!(
        show.contains(&format!("expires:    {year}-07-31T21:00:00Z")),
        "{show}"
    );
    let help = String::from_utf8(bin(&["keys", "create", "--help"]).stdout).unwrap();
    assert!(help.contains("Europe/Vilnius"), "{help}");
}
