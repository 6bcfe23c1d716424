//! The sled store: keys and counters loaded at open, so every decision is made in memory.
//! Key changes are flushed before they are acknowledged; counters are persisted (`persist`)
//! as a few blobs (sled's memory grows with the keys written). sled allows one process per
//! database, so `run_background` also serves the admin socket.

mod integrity;
mod persist;

use std::net::IpAddr;
use std::os::unix::fs::DirBuilderExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use parking_lot::{Mutex, RwLock};

use crate::limits::subject::SubjectKey;
use crate::limits::table::{CounterTable, Part};
use crate::limits::{Decision, LimitsConfig, PublicEndpoint, UnixMillis};
use crate::state::key_admin::{self, AdminResponse, Changes, KeysCommand};
use crate::state::keys::{KeyAdminError, KeyError, KeyRecord, KeyTable, PresentedKey};
use crate::state::store::check::{load_record, Counted};
use crate::state::store::location::StateError;
use integrity::{sled_message, SetDigest, RECORD_FILE};

/// The sled trees of key records (id → JSON `KeyRecord`) and of counter blobs.
const KEYS_TREE: &str = "keys";
const COUNTERS_TREE: &str = "counters";

/// The key of a blob in the counters tree (`blob_of` reads it back).
fn blob_key(part: Part) -> Vec<u8> {
    match part {
        Part::Subjects(i) => format!("shard/{i:03}").into_bytes(),
        Part::MonthSketch => b"sketch/month".to_vec(),
        Part::MinuteLedger => b"ledger/minute".to_vec(),
    }
}

fn blob_of(key: &[u8]) -> Option<Part> {
    Part::all().find(|part| blob_key(*part) == key)
}

/// Tuning of the state database; the defaults fit the server's 64 MiB budget.
#[derive(Debug, Clone, PartialEq, Eq, smart_default::SmartDefault)]
pub struct StateOptions {
    /// sled page-cache size in bytes (sled's own default is 1 GiB).
    #[default(8 << 20)]
    pub cache_capacity: u64,
    /// Subjects kept in memory; past it, idle public ones are evicted (see `limits::table`).
    #[default(4_000)]
    pub max_subjects: usize,
    /// How long `open` retries while another handle (a `keys` command) holds sled's lock.
    #[default(Duration::from_secs(3))]
    pub open_timeout: Duration,
}

/// Keys, counters and their persistence. Shared as `Arc<State>`.
pub struct State {
    /// The only handle of this process.
    db: sled::Db,
    keys_tree: sled::Tree,
    counters_tree: sled::Tree,
    dir: PathBuf,
    limits: LimitsConfig,
    options: StateOptions,
    keys: RwLock<KeyTable>,
    table: CounterTable,
    /// Serialises key changes, so sled, memory and `integrity.json` see them in the same
    /// order; holds the digest of the key records sled holds (see `integrity`).
    admin_lock: Mutex<SetDigest>,
    /// Counter blobs on their way to sled (see `persist`).
    persisted: Mutex<persist::Persisted>,
}

/// Opens sled, retrying for `timeout` while another handle holds its file lock.
fn open_sled(config: &sled::Config, dir: &Path, timeout: Duration) -> Result<sled::Db, StateError> {
    let started = Instant::now();
    loop {
        match config.open() {
            Ok(db) => return Ok(db),
            Err(sled::Error::Io(io)) if io.to_string().contains("could not acquire lock") => {
                if started.elapsed() >= timeout {
                    return Err(StateError::InUse {
                        dir: dir.to_owned(),
                    });
                }
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => return Err(sled_error(dir, "open")(e)),
        }
    }
}

/// A sled error of `action` as one line; corruption sled detects is damage like any other.
fn sled_error<'a>(dir: &'a Path, action: &'static str) -> impl Fn(sled::Error) -> StateError + 'a {
    move |e| match e {
        sled::Error::Corruption { .. } => StateError::damaged(dir)(sled_message(&e)),
        _ => StateError::storage(dir, action, sled_message(&e)),
    }
}

impl State {
    /// Opens (creating if needed) the state database at `dir` and loads keys and counters.
    pub fn open(dir: &Path, limits: LimitsConfig) -> Result<State, StateError> {
        State::open_with(dir, limits, StateOptions::default())
    }

    pub fn open_with(
        dir: &Path,
        limits: LimitsConfig,
        options: StateOptions,
    ) -> Result<State, StateError> {
        limits.validate().map_err(StateError::config)?;
        if options.max_subjects == 0 {
            return Err(StateError::config("max_subjects must be at least 1"));
        }
        let io = |action| move |e: std::io::Error| StateError::storage(dir, action, e);
        let damaged = StateError::damaged(dir);
        let recorded = integrity::read_record(dir).map_err(damaged)?;
        let expected = integrity::expected_keys(&recorded);
        let fresh = match integrity::missing_files(dir).map_err(io("read"))? {
            None if expected == 0 => true,
            None => {
                let detail = format!("its database files are missing; expected {expected} keys");
                return Err(damaged(detail));
            }
            Some(missing) if missing.is_empty() => false,
            // No key, and a database being created or one an earlier version opened once:
            // sled writes its first snapshot when it next opens it.
            Some(missing) if missing == ["snap.*"] && expected == 0 => false,
            Some(missing) => {
                return Err(damaged(match missing[..] {
                    [one] => format!("sled's file {one} is missing"),
                    _ => format!("sled's files {} are missing", missing.join(", ")),
                }))
            }
        };
        // Mode 0700: it holds key hashes and the admin socket (an existing one is kept as is).
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(io("create"))?;
        let config = sled::Config::new()
            .path(dir)
            .cache_capacity(options.cache_capacity);
        let open = |action| -> Result<_, StateError> {
            let db = open_sled(&config, dir, options.open_timeout)?;
            let failed = sled_error(dir, action);
            let keys = db.open_tree(KEYS_TREE).map_err(&failed)?;
            let counters = db.open_tree(COUNTERS_TREE).map_err(&failed)?;
            Ok((db, keys, counters))
        };
        if fresh {
            // The digest of no keys first: a crash before sled's files exist leaves a fresh
            // directory. Opened twice, sled writes the snapshot of a complete database.
            integrity::write_record(dir, &[SetDigest::default()]).map_err(io("create"))?;
            let (db, ..) = open("create")?;
            db.flush().map_err(sled_error(dir, "create"))?;
        }
        let (db, keys_tree, counters_tree) = open("open")?;
        let state = State {
            db,
            keys_tree,
            counters_tree,
            dir: dir.to_owned(),
            limits,
            options,
            keys: RwLock::new(KeyTable::default()),
            table: CounterTable::new(),
            admin_lock: Mutex::new(SetDigest::default()),
            persisted: Mutex::new(persist::Persisted::default()),
        };
        // A fresh database's record was written above: read as absent, it would be taken
        // for a database of an earlier version (and logged as one).
        let recorded = if fresh {
            Some(vec![SetDigest::default()])
        } else {
            recorded
        };
        state.load_keys(recorded)?;
        state.load_counters()?;
        Ok(state)
    }

    /// True when `dir` holds no state database, so that `open` would create an empty one.
    /// A directory that held one and lost its files is not fresh: `open` refuses it.
    pub fn is_fresh(dir: &Path) -> bool {
        matches!(integrity::missing_files(dir), Ok(None))
            && integrity::read_record(dir).is_ok_and(|r| integrity::expected_keys(&r) == 0)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the database is still usable (`/ready`).
    pub fn is_usable(&self) -> bool {
        self.dir.is_dir() && self.keys_tree.first().is_ok()
    }

    pub fn authenticate(
        &self,
        key: &PresentedKey,
        now: DateTime<Utc>,
    ) -> Result<KeyRecord, KeyError> {
        self.keys.read().authenticate(key, now)
    }

    pub fn check(&self, who: Counted<'_>, now: impl Into<UnixMillis>) -> Decision {
        self.table
            .check(subject(who), who.limits(&self.limits), now.into().0)
    }

    pub fn key_usage(&self, id: &str, now: DateTime<Utc>) -> (u64, u64) {
        self.table
            .usage(&SubjectKey::key(id), now.timestamp_millis())
    }

    pub fn public_usage(
        &self,
        ip: IpAddr,
        endpoint: PublicEndpoint,
        now: DateTime<Utc>,
    ) -> (u64, u64) {
        self.table
            .usage(&SubjectKey::public(ip, endpoint), now.timestamp_millis())
    }

    /// One background round now: persists changed counters (not flushed) and prunes memory.
    pub fn maintain_now(&self) -> Result<(), StateError> {
        self.persist_counters(true, false)
            .map(drop)
            .map_err(sled_error(&self.dir, "write counters to"))
    }

    pub fn subjects_in_memory(&self) -> usize {
        self.table.len()
    }

    /// Carries out a key administration command (blocking); a deleted key's counters go too.
    pub fn execute(
        &self,
        command: KeysCommand,
        now: DateTime<Utc>,
    ) -> Result<AdminResponse, KeyAdminError> {
        let mut digest = self.admin_lock.lock();
        let (changes, mut response) =
            key_admin::decide(command, &self.keys.read(), &self.limits, now)?;
        if !changes.is_empty() {
            self.write_keys(&mut digest, &changes)?;
        }
        drop(digest);
        let forget = |id: &&String| self.table.remove(&SubjectKey::key(id));
        if changes.removed.iter().filter(forget).count() > 0 {
            self.persist_counters(false, false)
                .and_then(|_| self.db.flush())
                .map_err(|e| KeyAdminError::Storage(sled_message(&e)))?;
        }
        for (id, minute, day) in key_admin::usage_slots(&mut response) {
            (*minute, *day) = self.key_usage(id, now);
        }
        Ok(response)
    }

    /// Persists every counter and key change now and waits for sled to flush.
    pub fn flush(&self) -> Result<(), StateError> {
        self.persist_counters(false, true)
            .map_err(sled_error(&self.dir, "write counters to"))?;
        self.db.flush().map_err(sled_error(&self.dir, "flush"))?;
        Ok(())
    }

    /// Writes the changes in one atomic batch, then to memory, then flushes (a failed flush is
    /// still an error). `digest` is that of the records in sled (admin lock held); while the
    /// batch is written `integrity.json` accepts the digests before and after it, so a crash
    /// leaves a database that opens.
    fn write_keys(&self, digest: &mut SetDigest, changes: &Changes) -> Result<(), KeyAdminError> {
        let Changes { upserts, removed } = changes;
        let storage = KeyAdminError::Storage;
        let sled = |e: sled::Error| storage(sled_message(&e));
        let mut batch = sled::Batch::default();
        let mut next = *digest;
        for id in upserts.iter().map(|r| &r.id).chain(removed) {
            let id = id.as_bytes();
            if let Some(old) = self.keys_tree.get(id).map_err(sled)? {
                next.remove(integrity::entry_hash(id, &old));
                batch.remove(id);
            }
        }
        for r in upserts {
            let json = serde_json::to_vec(r).map_err(|e| storage(e.to_string()))?;
            next.add(integrity::entry_hash(r.id.as_bytes(), &json));
            batch.insert(r.id.as_bytes(), json);
        }
        let record_file = |e: std::io::Error| storage(format!("cannot write {RECORD_FILE}: {e}"));
        integrity::write_record(&self.dir, &[*digest, next]).map_err(record_file)?;
        self.keys_tree.apply_batch(batch).map_err(sled)?;
        *digest = next;
        {
            let mut keys = self.keys.write();
            for r in upserts {
                let stored = keys.upsert(r.clone());
                debug_assert!(stored, "records are checked before they are stored");
            }
            for id in removed {
                keys.remove(id);
            }
        }
        self.db.flush().map_err(sled)?;
        if let Err(e) = integrity::write_record(&self.dir, &[next]) {
            // The record still accepts the keys as stored; the next change or open rewrites it.
            tracing::warn!(error = %e, "cannot update {RECORD_FILE}");
        }
        Ok(())
    }

    /// Loads every key record and checks them against `integrity.json` (`recorded`, read
    /// before sled was opened); a database without the file gets one.
    fn load_keys(&self, recorded: Option<Vec<SetDigest>>) -> Result<(), StateError> {
        let damaged = StateError::damaged(&self.dir);
        let mut table = KeyTable::default();
        let mut found = SetDigest::default();
        for item in self.keys_tree.iter() {
            let (k, v) = item.map_err(sled_error(&self.dir, "read"))?;
            found.add(integrity::entry_hash(&k, &v));
            load_record(&mut table, &k, &v)
                .map_err(|id| damaged(format!("the key record {id:?} is unreadable")))?;
        }
        let record_found = || {
            let failed = |e| StateError::storage(&self.dir, "write", format!("{RECORD_FILE}: {e}"));
            integrity::write_record(&self.dir, &[found]).map_err(failed)
        };
        match recorded {
            // After an interrupted change, settle on what sled holds.
            Some(accepted) if accepted.contains(&found) && accepted.len() > 1 => record_found()?,
            Some(accepted) if accepted.contains(&found) => {}
            Some(accepted) => {
                let expected = integrity::expected_keys(&Some(accepted));
                return Err(damaged(if expected == found.count {
                    format!("{expected} keys as expected, but not the recorded ones")
                } else {
                    format!("expected {expected} keys, found {}", found.count)
                }));
            }
            None => {
                record_found()?;
                tracing::info!(
                    keys = found.count,
                    "no {RECORD_FILE} yet (a database of an earlier version): recorded the keys found"
                );
            }
        }
        tracing::debug!(keys = table.len(), "keys loaded");
        *self.admin_lock.lock() = found;
        *self.keys.write() = table;
        Ok(())
    }

    /// Loads the counter blobs, checked against their manifest, and marks every shard for
    /// rewriting. A damaged blob loses what follows the damage; unknown entries are deleted.
    fn load_counters(&self) -> Result<(), StateError> {
        let damaged = StateError::damaged(&self.dir);
        let mut junk = sled::Batch::default();
        let mut manifest = None;
        let mut persisted = self.persisted.lock();
        for item in self.counters_tree.iter() {
            let (k, v) = item.map_err(sled_error(&self.dir, "read"))?;
            if &k[..] == integrity::MANIFEST_KEY {
                manifest = Some(v);
                continue;
            }
            let Some(part) = blob_of(&k) else {
                junk.remove(k);
                continue;
            };
            let hash = integrity::entry_hash(&k, &v);
            persisted.stored.insert(k.to_vec(), hash);
            if let Err(e) = self.table.restore(part, &v) {
                let blob = String::from_utf8_lossy(&k);
                if let Part::Subjects(_) = part {
                    tracing::error!(%blob, error = %e, "rate-limit counters partly lost")
                } else {
                    tracing::error!(%blob, "an eviction sketch is damaged; starting an empty one")
                }
            }
        }
        let found: SetDigest = persisted.stored.values().copied().collect();
        match manifest.map(|m| SetDigest::from_manifest(&m)) {
            Some(Some(expected)) if expected == found => {}
            Some(Some(expected)) => {
                let (expected, found) = (expected.count, found.count);
                return Err(damaged(if expected == found {
                    format!("{found} counter blobs differ from their manifest")
                } else {
                    format!("expected {expected} counter blobs, found {found}")
                }));
            }
            Some(None) => return Err(damaged("the counters manifest is unreadable".into())),
            None if found.count > 0 => tracing::info!(
                "no counters manifest yet (a database of an earlier version); it is written \
                 with the next counters"
            ),
            None => {}
        }
        drop(persisted);
        self.counters_tree
            .apply_batch(junk)
            .map_err(sled_error(&self.dir, "clean"))?;
        self.table.mark_all_changed();
        tracing::debug!(subjects = self.table.len(), "counters loaded");
        Ok(())
    }

    /// What a crash now would keep of `who`'s counts, as `key_usage` and `public_usage` (tests).
    pub fn stored_usage(&self, who: Counted<'_>, now: DateTime<Utc>) -> (u64, u64) {
        let scratch = CounterTable::new();
        for (k, v) in self.counters_tree.iter().flatten() {
            if let Some(part) = blob_of(&k) {
                // Damage was reported at open; what can be read counts.
                let _ = scratch.restore(part, &v);
            }
        }
        scratch.usage(&subject(who), now.timestamp_millis())
    }
}

fn subject(who: Counted<'_>) -> SubjectKey {
    match who {
        Counted::Public(ip, endpoint) => SubjectKey::public(ip, endpoint),
        Counted::Key(key) => SubjectKey::key(&key.id),
    }
}

/// Replaces `path` with `bytes` (mode 0600) durably and atomically.
pub fn write_private_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt;
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })()
    .inspect_err(|_| drop(std::fs::remove_file(&tmp)))?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    std::fs::File::open(dir.unwrap_or(Path::new(".")))?.sync_all()
}
