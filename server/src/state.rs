//! The server's mutable state: keys and rate-limit counters in their own sled database
//! (default `var/state`), separate from the dataset so regenerating never touches them.
//!
//! One `sled::Db` per process lifetime, opened with a small cache (sled defaults to 1 GiB).
//! Keys and counters are loaded into memory at open and every decision is made in memory:
//! the hot path never waits on disk. Key changes are rare and written through (and
//! flushed) before they are acknowledged; counters are persisted by `run_background` at
//! least once a second in one batch (`persist` submodule), and by `flush` on shutdown.
//! Counters are stored as 256 shard blobs plus two sketches, not one entry per counter:
//! sled's memory grows with the number of keys written (see `limits::table`).
//! `run_background` also serves the admin socket (`crate::admin`), because sled allows one
//! process per database: while the server runs, `kalendorius-server keys ...` talks to it.
//!
//! Clock: every decision takes `now` from the caller (tests pass a fixed clock). All checks
//! on one `State` should use the same clock; the background pruning follows the latest
//! `now` any check has used.

mod persist;

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use crate::keys::{self, KeyAdminError, KeyError, KeyRecord, KeyTable, PresentedKey};
use crate::limits::subject::{Limits, SubjectKey};
use crate::limits::table::{BlobId, CounterTable, SHARDS};
use crate::limits::{Decision, LimitsConfig, PublicEndpoint, MAX_LIMIT};

/// Name of the sled tree holding key records (id → JSON `KeyRecord`).
const KEYS_TREE: &str = "keys";
/// Name of the sled tree holding counters: `shard/NNN` → blob of one table shard (see
/// `limits::table`), `sketch/month` and `ledger/minute` → what eviction keeps (see
/// `limits::sketch`).
const COUNTERS_TREE: &str = "counters";

/// The key of a blob in the counters tree.
fn blob_key(id: BlobId) -> Vec<u8> {
    match id {
        BlobId::Shard(i) => format!("shard/{i:03}").into_bytes(),
        BlobId::MonthSketch => b"sketch/month".to_vec(),
        BlobId::MinuteLedger => b"ledger/minute".to_vec(),
    }
}

/// The blob a key of the counters tree holds; `None` for anything else.
fn blob_of(key: &[u8]) -> Option<BlobId> {
    [BlobId::MonthSketch, BlobId::MinuteLedger]
        .into_iter()
        .chain((0..SHARDS).map(BlobId::Shard))
        .find(|id| blob_key(*id) == key)
}

/// Tuning of the state database; the defaults fit the server's 64 MiB budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateOptions {
    /// sled page-cache size in bytes (sled's own default is 1 GiB).
    pub cache_capacity: u64,
    /// Subjects (IP-endpoint pairs and keys) kept in memory; past it, public ones are
    /// evicted into fixed-size sketches that never undercount them (`limits::sketch`).
    /// Measured: 20 000 keeps this side's RSS (sled included) near 15 MiB, also under a
    /// flood of a million distinct addresses.
    pub max_subjects: usize,
    /// How long `open` retries while another handle still holds sled's file lock (a
    /// `State` dropped a moment ago, or a `keys` command finishing).
    pub open_timeout: Duration,
}

impl Default for StateOptions {
    fn default() -> Self {
        StateOptions {
            cache_capacity: 8 << 20,
            max_subjects: 20_000,
            open_timeout: Duration::from_secs(3),
        }
    }
}

/// Keys, counters and their persistence. Shared as `Arc<State>`.
pub struct State {
    /// The state database; the only handle of this process.
    db: sled::Db,
    /// Key records, written through on every change.
    keys_tree: sled::Tree,
    /// Counter blobs, written in batches by `persist`.
    counters_tree: sled::Tree,
    /// The state directory (for messages).
    dir: PathBuf,
    /// Limits of the public endpoints and defaults of new keys (validated).
    limits: LimitsConfig,
    /// Tuning.
    options: StateOptions,
    /// All keys; the hot path takes the read lock only.
    keys: RwLock<KeyTable>,
    /// All counters.
    table: CounterTable,
    /// Serialises key changes, so sled and memory see them in the same order.
    admin_lock: Mutex<()>,
    /// Counter blobs not yet applied to sled (`None` = delete). Held across collect +
    /// apply so two flushes never interleave and write an older blob last; a failed batch
    /// stays here and is retried, newer blobs replacing older ones.
    pending: Mutex<HashMap<Vec<u8>, Option<Vec<u8>>>>,
}

/// Locks a mutex, ignoring poisoning (the guarded data stays consistent: see callers).
/// An instant as milliseconds since the Unix epoch, the clock of every rate-limit check.
///
/// From a `SystemTime` (what the server reads once per request) it is one division, with no
/// calendar arithmetic; from a `DateTime` (what tests and tools hold) it is the same number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct UnixMillis(pub i64);

impl From<DateTime<Utc>> for UnixMillis {
    fn from(t: DateTime<Utc>) -> Self {
        UnixMillis(t.timestamp_millis())
    }
}

impl From<std::time::SystemTime> for UnixMillis {
    fn from(t: std::time::SystemTime) -> Self {
        UnixMillis(match t.duration_since(std::time::UNIX_EPOCH) {
            Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
            // Floor, as `DateTime::timestamp_millis` does.
            Err(before) => i64::try_from(before.duration().as_nanos().div_ceil(1_000_000))
                .map_or(i64::MIN, |ms| -ms),
        })
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// True when sled failed because another handle holds the database's file lock.
fn is_lock_error(e: &sled::Error) -> bool {
    matches!(e, sled::Error::Io(io) if io.to_string().contains("could not acquire lock"))
}

impl State {
    /// Opens (creating if needed) the state database at `dir` and loads keys and counters.
    pub fn open(dir: &Path, limits: LimitsConfig) -> anyhow::Result<State> {
        State::open_with(dir, limits, StateOptions::default())
    }

    /// `open` with explicit tuning.
    pub fn open_with(
        dir: &Path,
        limits: LimitsConfig,
        options: StateOptions,
    ) -> anyhow::Result<State> {
        limits
            .validate()
            .context("invalid rate-limit configuration")?;
        anyhow::ensure!(options.max_subjects > 0, "max_subjects must be at least 1");
        create_private_dir(dir)
            .with_context(|| format!("cannot create the state directory {}", dir.display()))?;
        let config = sled::Config::new()
            .path(dir)
            .cache_capacity(options.cache_capacity);
        let started = Instant::now();
        let db = loop {
            match config.open() {
                Ok(db) => break db,
                Err(e) if is_lock_error(&e) && started.elapsed() < options.open_timeout => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(e) if is_lock_error(&e) => anyhow::bail!(
                    "the state database {} is in use by another process (is the server \
                     running? its admin socket did not answer)",
                    dir.display()
                ),
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!("cannot open the state database {}", dir.display())
                    })
                }
            }
        };
        let keys_tree = db.open_tree(KEYS_TREE)?;
        let counters_tree = db.open_tree(COUNTERS_TREE)?;
        let state = State {
            db,
            keys_tree,
            counters_tree,
            dir: dir.to_owned(),
            limits,
            options,
            keys: RwLock::new(KeyTable::default()),
            table: CounterTable::new(),
            admin_lock: Mutex::new(()),
            pending: Mutex::new(HashMap::new()),
        };
        state.load_keys()?;
        state.load_counters()?;
        Ok(state)
    }

    /// The limits in force.
    pub fn limits(&self) -> &LimitsConfig {
        &self.limits
    }

    /// The state directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the database is still usable, for the readiness probe: its directory is in
    /// place (what is written to a removed one would not survive a restart) and a read of
    /// the keys tree succeeds. Cheap: one `stat` and one read from sled's cache.
    pub fn is_usable(&self) -> bool {
        self.dir.is_dir() && self.keys_tree.first().is_ok()
    }

    /// Looks up a presented key. Never logs it.
    pub fn authenticate(
        &self,
        key: &PresentedKey,
        now: DateTime<Utc>,
    ) -> Result<KeyRecord, KeyError> {
        self.keys
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .authenticate(key, now)
    }

    /// Checks and (if admitted) counts one request of `ip` to a public endpoint.
    pub fn check_public(
        &self,
        ip: IpAddr,
        endpoint: PublicEndpoint,
        now: impl Into<UnixMillis>,
    ) -> Decision {
        self.table.check(
            SubjectKey::public(ip, endpoint),
            self.limits.public(endpoint),
            now.into().0,
        )
    }

    /// Checks and (if admitted) counts one request made with `key`, against the key's own
    /// per-minute and per-day limits (shared by all keyed endpoints).
    pub fn check_key(&self, key: &KeyRecord, now: impl Into<UnixMillis>) -> Decision {
        let limits = Limits {
            minute: key.per_minute.clamp(1, MAX_LIMIT),
            long: key.per_day.clamp(1, MAX_LIMIT),
        };
        self.table
            .check(SubjectKey::key(&key.id), limits, now.into().0)
    }

    /// Requests of a key counted at `now` in its (minute, day) windows.
    pub fn key_usage(&self, id: &str, now: DateTime<Utc>) -> (u64, u64) {
        self.table
            .usage(&SubjectKey::key(id), now.timestamp_millis())
    }

    /// Requests of `ip` on `endpoint` counted at `now` in its (minute, month) windows.
    pub fn public_usage(
        &self,
        ip: IpAddr,
        endpoint: PublicEndpoint,
        now: DateTime<Utc>,
    ) -> (u64, u64) {
        self.table
            .usage(&SubjectKey::public(ip, endpoint), now.timestamp_millis())
    }

    /// What sled holds right now for `ip` on `endpoint` at `now`, as (minute, month)
    /// counts, ignoring memory: what a crash at this instant would keep. For diagnostics
    /// and tests; reads sled.
    pub fn stored_public_usage(
        &self,
        ip: IpAddr,
        endpoint: PublicEndpoint,
        now: DateTime<Utc>,
    ) -> (u64, u64) {
        self.stored_usage(&SubjectKey::public(ip, endpoint), now)
    }

    /// What sled holds right now for the key `id` at `now`, as (minute, day) counts
    /// (see [`State::stored_public_usage`]).
    pub fn stored_key_usage(&self, id: &str, now: DateTime<Utc>) -> (u64, u64) {
        self.stored_usage(&SubjectKey::key(id), now)
    }

    /// Runs one background round synchronously: persists changed counters (without
    /// waiting for the disk) and prunes memory, evicting idle subjects beyond
    /// `max_subjects`. `run_background` does this on its own; tests and tools call it to
    /// avoid waiting.
    pub fn maintain_now(&self) -> anyhow::Result<()> {
        self.persist_counters(true, false)
            .with_context(|| format!("cannot write counters to {}", self.dir.display()))?;
        Ok(())
    }

    /// Subjects (IP-endpoint pairs and keys) whose counters are in memory.
    pub fn subjects_in_memory(&self) -> usize {
        self.table.len()
    }

    /// Issues a key now (see [`State::create_key_at`]).
    pub fn create_key(
        &self,
        owner: &str,
        per_minute: Option<u64>,
        per_day: Option<u64>,
        expires: Option<DateTime<Utc>>,
    ) -> Result<(String, KeyRecord), KeyAdminError> {
        self.create_key_at(owner, per_minute, per_day, expires, Utc::now())
    }

    /// Issues a key created at `now`: returns its plaintext (the only time it exists) and
    /// its record. Limits default to the configured key defaults. The record is durably in
    /// sled before this returns.
    pub fn create_key_at(
        &self,
        owner: &str,
        per_minute: Option<u64>,
        per_day: Option<u64>,
        expires: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<(String, KeyRecord), KeyAdminError> {
        let owner = keys::check_owner(owner)?;
        let per_minute = keys::check_limit(
            "per-minute",
            per_minute.unwrap_or(self.limits.key_default_per_minute),
        )?;
        let per_day = keys::check_limit(
            "per-day",
            per_day.unwrap_or(self.limits.key_default_per_day),
        )?;
        if let Some(e) = expires.filter(|e| *e <= now) {
            return Err(KeyAdminError::ExpiryNotInFuture(e));
        }
        let _admin = lock(&self.admin_lock);
        let (plaintext, hash) = loop {
            let (p, h) = keys::generate();
            // A 64-bit id collision is astronomically unlikely; retrying costs nothing.
            if !self.read_keys().collides(&h) {
                break (p, h);
            }
        };
        let record = KeyRecord {
            id: keys::id_of(&hash),
            hash: hex::encode(hash),
            owner,
            per_minute,
            per_day,
            created: now,
            expires,
            active: true,
        };
        self.store_key(&record)?;
        Ok((plaintext, record))
    }

    /// Revokes a key: it is refused from now on. Revoking a revoked key changes nothing.
    /// Returns the record and whether it changed.
    pub fn revoke_key(&self, id: &str) -> Result<(KeyRecord, bool), KeyAdminError> {
        self.change_key(id, |r| {
            let changed = r.active;
            r.active = false;
            Ok(changed)
        })
    }

    /// Changes a key's limits (at least one must be given).
    pub fn set_key_limits(
        &self,
        id: &str,
        per_minute: Option<u64>,
        per_day: Option<u64>,
    ) -> Result<KeyRecord, KeyAdminError> {
        if per_minute.is_none() && per_day.is_none() {
            return Err(KeyAdminError::NothingToChange);
        }
        let per_minute = per_minute
            .map(|n| keys::check_limit("per-minute", n))
            .transpose()?;
        let per_day = per_day
            .map(|n| keys::check_limit("per-day", n))
            .transpose()?;
        self.change_key(id, |r| {
            r.per_minute = per_minute.unwrap_or(r.per_minute);
            r.per_day = per_day.unwrap_or(r.per_day);
            Ok(true)
        })
        .map(|(r, _)| r)
    }

    /// The key with this id (any case, surrounding space ignored).
    pub fn key(&self, id: &str) -> Option<KeyRecord> {
        let id = keys::normalize_id(id)?;
        self.read_keys().get(&id).cloned()
    }

    /// All keys, oldest first.
    pub fn keys(&self) -> Vec<KeyRecord> {
        self.read_keys().all()
    }

    /// Persists every counter and key change now and waits for sled to flush.
    pub fn flush(&self) -> anyhow::Result<()> {
        self.persist_counters(false, true)
            .with_context(|| format!("cannot write counters to {}", self.dir.display()))?;
        self.db
            .flush()
            .with_context(|| format!("cannot flush the state database {}", self.dir.display()))?;
        Ok(())
    }

    fn read_keys(&self) -> std::sync::RwLockReadGuard<'_, KeyTable> {
        self.keys.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Applies `change` to the key `id` (under the admin lock), stores the result if
    /// `change` says it changed, and returns it.
    fn change_key(
        &self,
        id: &str,
        change: impl FnOnce(&mut KeyRecord) -> Result<bool, KeyAdminError>,
    ) -> Result<(KeyRecord, bool), KeyAdminError> {
        let unknown = || KeyAdminError::unknown(id);
        let norm = keys::normalize_id(id).ok_or_else(unknown)?;
        let _admin = lock(&self.admin_lock);
        let mut record = self.read_keys().get(&norm).cloned().ok_or_else(unknown)?;
        let changed = change(&mut record)?;
        if changed {
            self.store_key(&record)?;
        }
        Ok((record, changed))
    }

    /// Writes a key record to sled, flushes, then publishes it in memory. Called with the
    /// admin lock held. On a storage error nothing changes in memory.
    fn store_key(&self, record: &KeyRecord) -> Result<(), KeyAdminError> {
        let storage = |e: &dyn std::fmt::Display| KeyAdminError::Storage(e.to_string());
        let json = serde_json::to_vec(record).map_err(|e| storage(&e))?;
        self.keys_tree
            .insert(record.id.as_bytes(), json)
            .map_err(|e| storage(&e))?;
        self.db.flush().map_err(|e| storage(&e))?;
        let stored = self
            .keys
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .upsert(record.clone());
        debug_assert!(stored, "records built here are consistent");
        Ok(())
    }

    /// Loads every key record; unreadable ones are skipped (so refused) with a warning.
    fn load_keys(&self) -> anyhow::Result<()> {
        let mut table = KeyTable::default();
        for item in self.keys_tree.iter() {
            let (k, v) = item.context("cannot read the keys tree")?;
            let ok = serde_json::from_slice::<KeyRecord>(&v)
                .ok()
                .filter(|r| r.id.as_bytes() == &k[..])
                .is_some_and(|r| table.upsert(r));
            if !ok {
                tracing::warn!(
                    id = %String::from_utf8_lossy(&k),
                    "skipping an unreadable key record in the state database"
                );
            }
        }
        tracing::debug!(keys = table.len(), "keys loaded");
        *self.keys.write().unwrap_or_else(|e| e.into_inner()) = table;
        Ok(())
    }

    /// Loads the counter blobs into the table; then marks every shard for rewriting
    /// (subjects now sit in other shards). A damaged blob loses only what follows the
    /// damage, with an error logged; unknown entries are deleted.
    fn load_counters(&self) -> anyhow::Result<()> {
        let mut junk = sled::Batch::default();
        for item in self.counters_tree.iter() {
            let (k, v) = item.context("cannot read the counters tree")?;
            match blob_of(&k) {
                Some(BlobId::Shard(_)) => {
                    if let Err(e) = self.table.load_blob(&v) {
                        tracing::error!(
                            blob = %String::from_utf8_lossy(&k),
                            error = %e,
                            "rate-limit counters partly lost"
                        );
                    }
                }
                Some(sketch) => {
                    if !self.table.load_sketch(sketch, &v) {
                        tracing::error!(
                            blob = %String::from_utf8_lossy(&k),
                            "an eviction sketch is damaged; starting an empty one"
                        );
                    }
                }
                None => junk.remove(k),
            }
        }
        self.counters_tree
            .apply_batch(junk)
            .context("cannot clean the counters tree")?;
        self.table.mark_all_dirty();
        tracing::debug!(subjects = self.table.len(), "counters loaded");
        Ok(())
    }

    /// What sled holds for `subject` (diagnostics): reads every blob into a scratch table.
    fn stored_usage(&self, subject: &SubjectKey, now: DateTime<Utc>) -> (u64, u64) {
        let scratch = CounterTable::new();
        for (k, v) in self.counters_tree.iter().flatten() {
            match blob_of(&k) {
                Some(BlobId::Shard(_)) => {
                    let _ = scratch.load_blob(&v);
                }
                Some(sketch) => {
                    scratch.load_sketch(sketch, &v);
                }
                None => {}
            }
        }
        scratch.usage(subject, now.timestamp_millis())
    }
}

/// Creates the state directory with mode 0700 (it holds key hashes and the admin socket);
/// an existing directory is left as it is.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}
