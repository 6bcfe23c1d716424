//! Counter persistence and the background task. Writes per request would put the disk on
//! the hot path, so every half second the blobs changed since the last round go into one
//! atomic batch with the counters manifest, then `flush_async`, under the `persisted` lock
//! (an older blob is never written after a newer one). A `kill -9` loses only the counts
//! since the last round (a flood's minute ledger is written at shutdown only).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::integrity::{self, EntryHash, SetDigest};
use super::{blob_key, State};
use crate::state::admin::AdminHandle;

/// Counter blobs on their way to sled, and what sled holds.
#[derive(Default)]
pub(super) struct Persisted {
    /// Blobs collected but not yet applied (`None` = delete), newer ones replacing older.
    pending: HashMap<Vec<u8>, Option<Vec<u8>>>,
    /// The hash of every blob sled holds, by key.
    pub(super) stored: HashMap<Vec<u8>, EntryHash>,
}

/// Interval between persistence rounds (the requirement is at least once a second).
const PERSIST_EVERY: Duration = Duration::from_millis(500);
/// How often the table's size is looked at: while over `max_subjects` (a flood) it is
/// maintained between rounds too, holding about 0.1 s of new subjects instead of 0.5 s.
const MAINTAIN_CHECK_EVERY: Duration = Duration::from_millis(100);
/// Rounds between memory maintenance passes (prune, drop dead subjects, evict).
const MAINTAIN_EVERY: u64 = 10;

impl State {
    /// Prunes memory first if `maintain`, then writes the changed blobs (the minute ledger
    /// only if `include_minute`) to sled, not flushed. Returns how many were written.
    pub(super) fn persist_counters(
        &self,
        maintain: bool,
        include_minute: bool,
    ) -> Result<usize, sled::Error> {
        let mut persisted = self.persisted.lock();
        if maintain {
            self.maintain_table(&mut persisted);
        }
        let Persisted { pending, stored } = &mut *persisted;
        self.table.snapshot(include_minute, |part, blob| {
            pending.insert(blob_key(part), blob);
        });
        if pending.is_empty() {
            return Ok(0);
        }
        let mut batch = sled::Batch::default();
        let mut after = stored.clone();
        for (k, v) in pending.iter() {
            if let Some(blob) = v {
                after.insert(k.clone(), integrity::entry_hash(k, blob));
                batch.insert(&k[..], &blob[..]);
            } else {
                after.remove(k);
                batch.remove(&k[..]);
            }
        }
        let manifest: SetDigest = after.values().copied().collect();
        batch.insert(integrity::MANIFEST_KEY, manifest.to_manifest());
        // On failure `pending` is kept: the next round retries it, merged with newer blobs.
        self.counters_tree.apply_batch(batch)?;
        *stored = after;
        Ok(pending.drain().count())
    }

    /// Prunes and evicts beyond `max_subjects`, under the `persisted` lock so that an
    /// eviction's shard blob and sketch land in one batch.
    fn maintain_table(&self, _persisted: &mut Persisted) {
        let stats = self.table.maintain(self.options.max_subjects);
        if stats.evicted > 0 || stats.dropped > 0 {
            tracing::debug!(?stats, "rate-limit counters pruned");
        }
        if stats.remaining > self.options.max_subjects {
            tracing::warn!(
                subjects = stats.remaining,
                max = self.options.max_subjects,
                "more active rate-limit subjects than max_subjects"
            );
        }
    }

    /// Persists counters and serves the admin socket until `shutdown`, then flushes. Only the
    /// final flush's error is returned; the others are logged (and persistence retried).
    #[allow(clippy::manual_is_multiple_of)] // `is_multiple_of` needs Rust 1.87; MSRV is 1.85
    pub async fn run_background(
        self: Arc<Self>,
        admin_socket: &Path,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let state = Arc::clone(&self);
        let execute = Arc::new(move |command| {
            state
                .execute(command, Utc::now())
                .unwrap_or_else(Into::into)
        });
        let admin = AdminHandle::serve(admin_socket, execute).inspect_err(|e| {
            tracing::error!(
                socket = %admin_socket.display(),
                error = %e,
                "cannot serve the admin socket; `keys` commands will not reach this server"
            )
        });
        tokio::pin!(shutdown);
        let mut ticker = tokio::time::interval(MAINTAIN_CHECK_EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let ticks_per_round = (PERSIST_EVERY.as_millis() / MAINTAIN_CHECK_EVERY.as_millis()) as u64;
        for tick in 1u64.. {
            tokio::select! {
                _ = &mut shutdown => break,
                _ = ticker.tick() => {}
            }
            let crowded = self.table.len() > self.options.max_subjects;
            if tick % ticks_per_round != 0 {
                if crowded {
                    let state = Arc::clone(&self);
                    let maintain = move || state.maintain_table(&mut state.persisted.lock());
                    let _ = tokio::task::spawn_blocking(maintain).await;
                }
                continue;
            }
            let maintain = (tick / ticks_per_round) % MAINTAIN_EVERY == 0 || crowded;
            let state = Arc::clone(&self);
            let result =
                tokio::task::spawn_blocking(move || state.persist_counters(maintain, false)).await;
            match result {
                Ok(Ok(written)) if written > 0 => {
                    if let Err(e) = self.db.flush_async().await {
                        tracing::error!(error = %e, "cannot flush the state database");
                    }
                }
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::error!(error = %e, "cannot write counters; will retry"),
                Err(e) => tracing::error!(error = %e, "counter persistence task failed"),
            }
        }
        if let Ok(admin) = admin {
            admin.stop().await;
        }
        tokio::task::spawn_blocking(move || self.flush())
            .await
            .map_err(|e| anyhow::anyhow!("final flush task failed: {e}"))??;
        Ok(())
    }
}
