//! The Redis (or Valkey) store: keys and counters in one Redis shared by several server
//! processes, so that they count together.
//!
//! Layout (every name starts with [`PREFIX`]): `keys`, a hash of key id → record JSON, and
//! `keys:version`, a token rewritten with every key change; `s:<subject>` (`p:<endpoint>:<address>`
//! or `k:<key id>`), a subject's sliding minute (`m<second>`, `m:lo`, ...), clock and, for a
//! key, sliding day (`d<minute>`, ...); `mo:<month>:<bucket>`, the month counts of public
//! subjects. `redis_check.lua` reads and counts a request's windows in one atomic step (one
//! round trip); `crate::limits::rules` decides on its answer, as for the sled store. (Not a
//! read, then a compare-and-set written back: that is two round trips, and every request of
//! a busy address or key racing another would be retried.) Every entry expires once
//! nothing in it counts, so a flood leaves only month counts, in [`MONTH_BUCKETS`] small
//! shared hashes (packed lists): about 77 bytes an address.

use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use anyhow::Context as _;
use arc_swap::ArcSwapOption;
use chrono::{DateTime, Utc};
use parking_lot::RwLock;
use redis::aio::ConnectionManager;
use redis::AsyncCommands as _;

use crate::limits::rules::{self, WindowCount};
use crate::limits::subject::Limits;
use crate::limits::window::{month_and_end, until_month_end, Span};
use crate::limits::{Decision, LimitsConfig, PublicEndpoint, UnixMillis, Window};
use crate::metrics::RedisMetrics;
use crate::state::key_admin::{self, AdminResponse, Changes, KeysCommand};
use crate::state::keys::{hash_key, id_of, KeyError, KeyRecord, KeyTable, PresentedKey};
use crate::state::store::check::{load_record, AuthError, Counted, StateUnavailable};
use crate::state::store::location::{StateError, REDIS_PASSWORD_ENV, REDIS_USERNAME_ENV};

/// The prefix of every Redis key this store writes.
pub const PREFIX: &str = "kalendorius:";
const KEYS_HASH: &str = "kalendorius:keys";
const KEYS_VERSION: &str = "kalendorius:keys:version";
pub const MONTH_BUCKETS: u64 = 1 << 16;
/// How often the background task looks at the key version (and at Redis when unreachable).
pub const REFRESH: Duration = Duration::from_millis(250);
/// How long connecting, or one command, may take before Redis counts as unreachable.
const TIMEOUT: Duration = Duration::from_millis(1_000);
/// Attempts of a key command before giving up when other tools keep changing the keys.
const ATTEMPTS: usize = 5;

/// Writes key changes if the version token is still the one read. KEYS: the records hash,
/// the version token, then counter entries to delete. ARGV: the version read ('' when
/// none), the new version, the number of records to write, then id and JSON of each, then
/// the ids to remove. Returns 1 when written, 0 when the version had changed.
const WRITE_SCRIPT: &str = r"
local current = redis.call('GET', KEYS[2]) or ''
if current ~= ARGV[1] then return 0 end
local writes = tonumber(ARGV[3])
for i = 0, writes - 1 do
  redis.call('HSET', KEYS[1], ARGV[4 + 2 * i], ARGV[5 + 2 * i])
end
for i = 4 + 2 * writes, #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
end
for i = 3, #KEYS do
  redis.call('DEL', KEYS[i])
end
redis.call('SET', KEYS[2], ARGV[2])
return 1
";

/// The subject name of an address on a public endpoint: its network, as in memory.
fn public_subject(ip: IpAddr, endpoint: PublicEndpoint) -> String {
    let tag = char::from(endpoint as u8);
    format!("p:{tag}:{}", crate::network::client_network(ip))
}

/// The hash holding `subject`'s count in `month`: FNV-1a of the subject, mixed (FNV's low
/// bits alone spread similar addresses unevenly), picks the bucket.
fn month_bucket(month: i64, subject: &str) -> String {
    let mut h = subject.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    format!("{PREFIX}mo:{month}:{}", h % MONTH_BUCKETS)
}

fn subject_hash(subject: &str) -> String {
    format!("{PREFIX}s:{subject}")
}

fn key_hash(id: &str) -> String {
    subject_hash(&format!("k:{id}"))
}

/// Opens a client for `url`, with the username and password from the environment.
fn client(url: &str) -> Result<redis::Client, StateError> {
    let config = |e: redis::RedisError| StateError::Config(format!("state URL {url}: {e}"));
    let info = redis::IntoConnectionInfo::into_connection_info(url).map_err(config)?;
    let mut settings = info.redis_settings().clone();
    if let Ok(password) = std::env::var(REDIS_PASSWORD_ENV) {
        settings = settings.set_password(password);
    }
    if let Ok(user) = std::env::var(REDIS_USERNAME_ENV) {
        settings = settings.set_username(user);
    }
    redis::Client::open(info.set_redis_settings(settings)).map_err(config)
}

/// A connection with short timeouts and quick reconnection.
async fn connect(client: redis::Client) -> redis::RedisResult<ConnectionManager> {
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_connection_timeout(Some(TIMEOUT))
        .set_response_timeout(Some(TIMEOUT))
        .set_number_of_retries(1)
        .set_min_delay(Duration::from_millis(50))
        .set_max_delay(Duration::from_millis(250));
    ConnectionManager::new_with_config(client, config).await
}

/// Keys and counters in Redis, for one server process. Shared as `Arc<RedisState>`.
pub struct RedisState {
    /// The URL as configured (no password in it).
    url: String,
    client: redis::Client,
    /// Made by the background task, so a server starts while Redis is down.
    conn: ArcSwapOption<ConnectionManager>,
    limits: LimitsConfig,
    /// The keys as last read, at this `keys:version` token (`None`: not read yet).
    keys: RwLock<KeyTable>,
    keys_version: RwLock<Option<String>>,
    /// False from a failed command until Redis answers the background task again.
    reachable: AtomicBool,
    /// When the last fail-open warning and failed command were logged (ms since the epoch).
    last_warning: AtomicI64,
    last_error: AtomicI64,
    /// The check, sent by its SHA (and loaded again when Redis has lost it).
    check: redis::Script,
    pub(super) metrics: RedisMetrics,
}

impl RedisState {
    /// Prepares the store; Redis is reached later, by the background task.
    pub fn connect(url: &str, limits: LimitsConfig) -> Result<RedisState, StateError> {
        limits.validate().map_err(StateError::config)?;
        Ok(RedisState {
            url: url.to_owned(),
            client: client(url)?,
            conn: ArcSwapOption::empty(),
            limits,
            keys: RwLock::new(KeyTable::default()),
            keys_version: RwLock::new(None),
            reachable: AtomicBool::new(false),
            last_warning: AtomicI64::new(i64::MIN),
            last_error: AtomicI64::new(i64::MIN),
            check: check_script(),
            metrics: RedisMetrics::default(),
        })
    }

    async fn timed<T>(&self, name: &'static str, command: impl Future<Output = T>) -> T {
        let started = std::time::Instant::now();
        let result = command.await;
        self.metrics.observe(name, started.elapsed());
        result
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn is_reachable(&self) -> bool {
        self.reachable.load(Ordering::Relaxed)
    }

    /// Looks up a presented key in the copy, or in Redis if the copy lacks it (a new key works
    /// at once). While Redis is unreachable the copy may be stale: refused as unavailable.
    pub async fn authenticate(
        &self,
        key: &PresentedKey,
        now: DateTime<Utc>,
    ) -> Result<KeyRecord, AuthError> {
        if !self.is_reachable() {
            return Err(StateUnavailable.into());
        }
        let hash = {
            let keys = self.keys.read();
            let answer = keys.authenticate(key, now);
            // Not shaped like a key, or known: the copy's answer stands.
            if answer.is_ok() || !key.is_shaped() {
                return Ok(answer?);
            }
            let hash = hash_key(&key.0);
            if keys.collides(&hash) {
                return Ok(answer?);
            }
            hash
        };
        let mut conn = self.connection()?;
        let stored: Option<String> = self
            .timed("key_lookup", conn.hget(KEYS_HASH, id_of(&hash)))
            .await
            .map_err(|e| self.unavailable(&e.to_string()))?;
        let Some(record) = stored.and_then(|json| serde_json::from_str::<KeyRecord>(&json).ok())
        else {
            return Err(KeyError::Invalid.into());
        };
        let mut keys = self.keys.write();
        if record.hash == hex::encode(hash) {
            keys.upsert(record);
        }
        Ok(keys.authenticate(key, now)?)
    }

    pub async fn key_usage(
        &self,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<(u64, u64), StateUnavailable> {
        key_usage(&mut self.connection()?, id, now)
            .await
            .map_err(|e| self.unavailable(&e.to_string()))
    }

    pub async fn public_usage(
        &self,
        ip: IpAddr,
        endpoint: PublicEndpoint,
        now: DateTime<Utc>,
    ) -> Result<(u64, u64), StateUnavailable> {
        let subject = public_subject(ip, endpoint);
        let t = now.timestamp_millis();
        let month = month_and_end(t).map_or(0, |(month, _)| month);
        let (minute, count): (Vec<(String, String)>, Option<u64>) = redis::pipe()
            .hgetall(subject_hash(&subject))
            .hget(month_bucket(month, &subject), &subject)
            .query_async(&mut self.connection()?)
            .await
            .map_err(|e| self.unavailable(&e.to_string()))?;
        Ok((
            window_used(&minute, 'm', Span::MINUTE, t),
            count.unwrap_or(0),
        ))
    }

    pub async fn check(
        &self,
        who: Counted<'_>,
        now: SystemTime,
    ) -> Result<Decision, StateUnavailable> {
        if !self.is_reachable() {
            return Err(StateUnavailable);
        }
        let now_ms = UnixMillis::from(now).0;
        let limits = who.limits(&self.limits);
        let mut month_clock_ms = now_ms;
        let answer = loop {
            let answer = self.run_check(who, limits, now_ms, month_clock_ms).await?;
            match answer[..] {
                // The subject's clock is in a later month (this process's clock is behind):
                // that month counts the request, asked again.
                [clock_ms, LATER_MONTH] if clock_ms > month_clock_ms => month_clock_ms = clock_ms,
                _ => break answer,
            }
        };
        let long_window = match who {
            Counted::Public(..) => Window::Month,
            Counted::Key(_) => Window::Day,
        };
        decision(&answer, limits, long_window)
            .ok_or_else(|| self.unavailable("the rate-limit script gave an unexpected answer"))
    }

    /// Runs the check script for `who` at `now_ms`, a public subject counted in the month of
    /// `month_clock_ms`.
    async fn run_check(
        &self,
        who: Counted<'_>,
        limits: Limits,
        now_ms: i64,
        month_clock_ms: i64,
    ) -> Result<Vec<i64>, StateUnavailable> {
        let mut invocation = self.check.prepare_invoke();
        let (kind, month_end, month_field) = match who {
            Counted::Public(ip, endpoint) => {
                let subject = public_subject(ip, endpoint);
                // A month whose end chrono cannot name ends in 31 days (never reached).
                let (month, end) = month_and_end(month_clock_ms)
                    .unwrap_or((0, month_clock_ms.saturating_add(31 * 86_400_000)));
                invocation
                    .key(subject_hash(&subject))
                    .key(month_bucket(month, &subject));
                ("p", end, subject)
            }
            Counted::Key(record) => {
                invocation.key(key_hash(&record.id));
                ("k", 0, String::new())
            }
        };
        invocation
            .arg(now_ms)
            .arg(kind)
            .arg(limits.minute)
            .arg(limits.long)
            .arg(month_end)
            .arg(month_field);
        self.timed("check", invocation.invoke_async(&mut self.connection()?))
            .await
            .map_err(|e| self.unavailable(&e.to_string()))
    }

    fn connection(&self) -> Result<ConnectionManager, StateUnavailable> {
        self.conn.load().as_deref().cloned().ok_or(StateUnavailable)
    }

    /// Marks Redis unreachable after `error`, logged at most once a second (a script error or
    /// a full Redis flips it back and forth while the background task reaches Redis).
    fn unavailable(&self, error: &str) -> StateUnavailable {
        if self.reachable.swap(false, Ordering::Relaxed)
            && once_a_second(&self.last_error, SystemTime::now())
        {
            tracing::error!(url = %self.url, error, "Redis cannot be reached");
        }
        StateUnavailable
    }

    pub fn warn_uncounted(&self, now: SystemTime) {
        if once_a_second(&self.last_warning, now) {
            tracing::warn!(
                url = %self.url,
                "Redis cannot be reached: public requests are answered without counting, keyed ones refused (503)"
            );
        }
    }

    /// One round of the background task: reads the key version and, when it changed, every
    /// key record; marks Redis reachable when that worked.
    pub async fn refresh(&self) -> Result<(), redis::RedisError> {
        let mut conn = match self.connection() {
            Ok(conn) => conn,
            Err(StateUnavailable) => {
                let conn = connect(self.client.clone()).await?;
                self.conn.store(Some(Arc::new(conn.clone())));
                conn
            }
        };
        let version: Option<String> = self.timed("refresh", conn.get(KEYS_VERSION)).await?;
        let version = version.unwrap_or_default();
        if self.keys_version.read().as_deref() != Some(version.as_str()) {
            let table = key_table(conn.hgetall(KEYS_HASH).await?);
            tracing::debug!(keys = table.len(), "keys loaded from Redis");
            *self.keys.write() = table;
            *self.keys_version.write() = Some(version);
        }
        if !self.reachable.swap(true, Ordering::Relaxed) {
            tracing::info!(url = %self.url, "Redis reached: counting in Redis");
        }
        Ok(())
    }

    /// Refreshes the keys (reaching Redis again after a failure) every [`REFRESH`] until `stop`.
    pub async fn run_background(&self, stop: impl Future<Output = ()>) {
        let mut stop = std::pin::pin!(stop);
        let mut logged_down = false;
        loop {
            match self.refresh().await {
                Ok(()) => logged_down = false,
                Err(e) => {
                    self.reachable.store(false, Ordering::Relaxed);
                    if !logged_down {
                        tracing::error!(url = %self.url, error = %e, "Redis cannot be reached");
                        logged_down = true;
                    }
                }
            }
            tokio::select! {
                () = &mut stop => return,
                () = tokio::time::sleep(REFRESH) => {}
            }
        }
    }
}

/// True at most once a second for one `last` (ms since the epoch of the last true).
fn once_a_second(last: &AtomicI64, now: SystemTime) -> bool {
    let now_ms = UnixMillis::from(now).0;
    let before = last.load(Ordering::Relaxed);
    now_ms.saturating_sub(before) >= 1_000
        && last
            .compare_exchange(before, now_ms, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
}

/// The key table of the records read from Redis; an unreadable record is skipped (logged).
fn key_table(records: Vec<(String, String)>) -> KeyTable {
    let mut table = KeyTable::default();
    for (id, json) in records {
        if let Err(id) = load_record(&mut table, id.as_bytes(), json.as_bytes()) {
            tracing::error!(id, "a key record in Redis is unreadable; skipped");
        }
    }
    table
}

/// The check script with the windows' geometry written in from [`Span`], so that Redis and
/// memory count in the same buckets.
fn check_script() -> redis::Script {
    let source = include_str!("redis_check.lua")
        .replace("{minute_bucket_ms}", &Span::MINUTE.bucket_ms.to_string())
        .replace("{minute_buckets}", &Span::MINUTE.buckets.to_string())
        .replace("{day_bucket_ms}", &Span::DAY.bucket_ms.to_string())
        .replace("{day_buckets}", &Span::DAY.buckets.to_string());
    redis::Script::new(&source)
}

/// The script's second number when the subject's clock is past the month it was given.
const LATER_MONTH: i64 = -1;

/// The decision on the check script's answer (see `redis_check.lua`): the subject's clock,
/// then per window (the minute, then the long one) its requests before this one and its
/// releasing bucket (a month's wait follows from the clock). `None` when the answer is
/// not the script's.
fn decision(answer: &[i64], limits: Limits, long_window: Window) -> Option<Decision> {
    let &[clock_ms, minute_used, minute_release, long_used, long_release] = answer else {
        return None;
    };
    let windows = [
        WindowCount {
            window: Window::Minute,
            limit: limits.minute,
            used: u64::try_from(minute_used).ok()?,
        },
        WindowCount {
            window: long_window,
            limit: limits.long,
            used: u64::try_from(long_used).ok()?,
        },
    ];
    let until = |span: Span, bucket: i64| span.release_ms(bucket).saturating_sub(clock_ms);
    Some(rules::decide(windows, |w| match w.window {
        Window::Minute => until(Span::MINUTE, minute_release),
        Window::Day => until(Span::DAY, long_release),
        Window::Month => until_month_end(clock_ms),
    }))
}

/// Requests counted at `t_ms` in a subject's `m` (minute) or `d` (day) buckets, as the script does.
fn window_used(fields: &[(String, String)], prefix: char, span: Span, t_ms: i64) -> u64 {
    let first = span.first_counted(t_ms);
    fields
        .iter()
        .filter_map(|(k, v)| {
            let idx = k.strip_prefix(prefix)?.parse::<i64>().ok()?;
            v.parse::<u64>().ok().filter(|_| idx >= first)
        })
        .sum()
}

async fn key_usage(
    conn: &mut ConnectionManager,
    id: &str,
    now: DateTime<Utc>,
) -> Result<(u64, u64), redis::RedisError> {
    let t = now.timestamp_millis();
    let fields: Vec<(String, String)> = conn.hgetall(key_hash(id)).await?;
    Ok((
        window_used(&fields, 'm', Span::MINUTE, t),
        window_used(&fields, 'd', Span::DAY, t),
    ))
}

/// Carries out a key administration command on the Redis at `url` (blocking).
pub fn execute(
    url: &str,
    limits: &LimitsConfig,
    command: KeysCommand,
    now: DateTime<Utc>,
) -> anyhow::Result<AdminResponse> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let mut conn = connect(client(url)?)
            .await
            .with_context(|| format!("cannot reach Redis at {url}"))?;
        for _ in 0..ATTEMPTS {
            let (version, records): (Option<String>, Vec<(String, String)>) = redis::pipe()
                .atomic()
                .get(KEYS_VERSION)
                .hgetall(KEYS_HASH)
                .query_async(&mut conn)
                .await
                .context("cannot read the keys from Redis")?;
            let (changes, mut response) =
                match key_admin::decide(command.clone(), &key_table(records), limits, now) {
                    Ok(decided) => decided,
                    Err(e) => return Ok(e.into()),
                };
            if !changes.is_empty() && !write(&mut conn, version, &changes).await? {
                continue;
            }
            for (id, minute, day) in key_admin::usage_slots(&mut response) {
                (*minute, *day) = key_usage(&mut conn, id, now)
                    .await
                    .context("cannot read usage from Redis")?;
            }
            return Ok(response);
        }
        anyhow::bail!("the keys in Redis kept changing meanwhile; nothing was changed, try again")
    })
}

/// Writes `changes` (deleting removed keys' counters); false if the keys changed since `version`.
async fn write(
    conn: &mut ConnectionManager,
    version: Option<String>,
    changes: &Changes,
) -> anyhow::Result<bool> {
    let write = redis::Script::new(WRITE_SCRIPT);
    let mut script = write.prepare_invoke();
    script
        .key(KEYS_HASH)
        .key(KEYS_VERSION)
        .arg(version.unwrap_or_default())
        .arg(hex::encode(rand::random::<[u8; 16]>()))
        .arg(changes.upserts.len());
    for r in &changes.upserts {
        script.arg(&r.id).arg(serde_json::to_string(r)?);
    }
    // Keys and arguments are two lists: each removed id is a key (its counters) and an argument.
    for id in &changes.removed {
        script.key(key_hash(id)).arg(id.as_str());
    }
    let written: i64 = script
        .invoke_async(conn)
        .await
        .context("cannot write the keys to Redis")?;
    Ok(written == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_name_starts_with_the_prefix() {
        assert_eq!(KEYS_HASH, format!("{PREFIX}keys"));
        assert_eq!(KEYS_VERSION, format!("{KEYS_HASH}:version"));
    }

    #[test]
    fn script_answers_become_decisions() {
        let limits = Limits {
            minute: 60,
            long: 10,
        };
        assert_eq!(
            decision(&[1_000, 0, 1, 3, 0], limits, Window::Month),
            Some(Decision {
                refused_by: None,
                limit: 10,
                remaining: 6,
                // 1970-01-01T00:00:01Z: the month ends in 30 days, 23:59:59 hours.
                reset_secs: 31 * 86_400 - 1,
                retry_after_secs: None,
            })
        );
        // Second 0 is released at 61 s, minute 0 at 1 441 minutes.
        let refused = decision(&[1_000, 60, 0, 3, 0], limits, Window::Day).unwrap();
        assert_eq!(refused.refused_by, Some(Window::Minute));
        assert_eq!(refused.reset_secs, 60);
        assert_eq!(refused.retry_after_secs, Some(60));
        let both = Limits {
            minute: 60,
            long: 3,
        };
        let refused = decision(&[1_000, 60, 0, 3, 0], both, Window::Day).unwrap();
        assert_eq!(refused.refused_by, Some(Window::Day));
        assert_eq!(refused.retry_after_secs, Some(1_441 * 60 - 1));
        assert_eq!(decision(&[0, -1, 0, 0, 0], limits, Window::Day), None);
        assert_eq!(decision(&[0, LATER_MONTH], limits, Window::Month), None);
    }

    #[test]
    fn window_usage_counts_the_buckets_still_counted() {
        let fields: Vec<(String, String)> = [
            ("m:lo", "0"),
            ("m:n", "9"),
            ("m99", "4"),
            ("m100", "5"),
            ("d1", "7"),
            ("t", "100000"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(window_used(&fields, 'm', Span::MINUTE, 159_000), 9);
        assert_eq!(window_used(&fields, 'm', Span::MINUTE, 160_000), 5);
        assert_eq!(window_used(&fields, 'm', Span::MINUTE, 161_000), 0);
        assert_eq!(window_used(&fields, 'd', Span::DAY, 161_000), 7);
    }

    #[test]
    fn once_a_second_is_once_a_second() {
        let last = AtomicI64::new(i64::MIN);
        let at = |ms: u64| std::time::UNIX_EPOCH + Duration::from_millis(ms);
        assert!(once_a_second(&last, at(10_000)));
        assert!(!once_a_second(&last, at(10_999)));
        assert!(once_a_second(&last, at(11_000)));
        assert!(!once_a_second(&last, at(11_500)));
    }

    #[test]
    fn month_counts_spread_over_the_buckets() {
        let a = month_bucket(24_310, "p:l:10.0.0.1");
        assert_eq!(a, month_bucket(24_310, "p:l:10.0.0.1"), "stable");
        let buckets: std::collections::HashSet<String> = (0..1_000)
            .map(|i| month_bucket(24_310, &format!("p:l:10.0.{}.{}", i / 256, i % 256)))
            .collect();
        assert!(
            buckets.len() > 980,
            "{} buckets for 1000 addresses",
            buckets.len()
        );
        assert!(a.starts_with("kalendorius:mo:24310:"));
    }

    #[test]
    fn subjects_are_named_by_canonical_address() {
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(public_subject(mapped, PublicEndpoint::Days), "p:d:10.0.0.1");
        assert_eq!(key_hash("ab"), "kalendorius:s:k:ab");
    }
}
