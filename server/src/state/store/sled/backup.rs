//! Backups of the keys: export every stored record, import records into a database.
//!
//! The state database is the only copy of the keys (their hashes), so an operator needs a
//! copy that does not depend on sled's files: `keys export` writes the records as JSON
//! lines, `keys import` merges such a file back. Both run on a live `State` (through the
//! admin socket while a server runs).
//!
//! Import is all-or-nothing. Every record is checked (hash and id consistent, owner and
//! limits valid) and compared with the stored keys: a record equal to a stored one changes
//! nothing; one that is absent is added; one whose key is stored with other attributes
//! (limits, expiry, revoked) is a conflict that refuses the whole import unless `replace`
//! is given; one whose id belongs to a different stored key is always refused. The new and
//! replaced records are then written in one batch (`State::store_keys`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::{lock, State};
use crate::state::keys::{self, ExportedKey, KeyAdminError, KeyRecord};

/// Conflicting ids listed in an import error, at most.
const LISTED_CONFLICTS: usize = 5;

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ImportReport {
    /// Records that were not stored and now are.
    pub added: usize,
    /// Records equal to a stored one.
    pub unchanged: usize,
    /// Stored records replaced by the file's version (only with `replace`).
    pub replaced: usize,
}

impl State {
    /// Every stored record, oldest first, with each key's usage at `now` if `counters`.
    pub fn export_keys(&self, counters: bool, now: DateTime<Utc>) -> Vec<ExportedKey> {
        self.keys()
            .into_iter()
            .map(|record| {
                let (used_minute, used_day) = if counters {
                    let (m, d) = self.key_usage(&record.id, now);
                    (Some(m), Some(d))
                } else {
                    (None, None)
                };
                ExportedKey {
                    record,
                    used_minute,
                    used_day,
                }
            })
            .collect()
    }

    /// Merges `records` into the stored keys (see the module documentation): all of them
    /// or, on any error, none. With `replace`, records that differ from a stored key with
    /// the same hash replace it.
    pub fn import_keys(
        &self,
        records: Vec<KeyRecord>,
        replace: bool,
    ) -> Result<ImportReport, KeyAdminError> {
        let mut by_id: HashMap<String, KeyRecord> = HashMap::new();
        for (n, r) in records.into_iter().enumerate() {
            let invalid = |reason: String| KeyAdminError::InvalidRecord {
                id: if keys::normalize_id(&r.id).is_some() {
                    r.id.clone()
                } else {
                    format!("#{}", n + 1)
                },
                reason,
            };
            keys::check_record(&r).map_err(&invalid)?;
            match by_id.get(&r.id) {
                Some(seen) if *seen != r => {
                    return Err(invalid("given twice, differently".into()));
                }
                Some(_) => {}
                None => {
                    by_id.insert(r.id.clone(), r);
                }
            }
        }
        let mut digest = lock(&self.admin_lock);
        let mut report = ImportReport::default();
        let (mut conflicts, mut foreign) = (vec![], false);
        let mut writes = vec![];
        {
            let stored = self.read_keys();
            let mut records: Vec<KeyRecord> = by_id.into_values().collect();
            records.sort_by(|a, b| a.created.cmp(&b.created).then_with(|| a.id.cmp(&b.id)));
            for r in records {
                match stored.get(&r.id) {
                    None => {
                        report.added += 1;
                        writes.push(r);
                    }
                    Some(s) if *s == r => report.unchanged += 1,
                    Some(s) if s.hash == r.hash && replace => {
                        report.replaced += 1;
                        writes.push(r);
                    }
                    Some(s) => {
                        foreign |= s.hash != r.hash;
                        conflicts.push(r.id);
                    }
                }
            }
        }
        if !conflicts.is_empty() {
            conflicts.sort();
            let count = conflicts.len();
            conflicts.truncate(LISTED_CONFLICTS);
            return Err(KeyAdminError::ImportConflict {
                count,
                ids: conflicts,
                replaceable: !foreign,
            });
        }
        if !writes.is_empty() {
            self.store_keys(&mut digest, &writes)?;
        }
        Ok(report)
    }
}
