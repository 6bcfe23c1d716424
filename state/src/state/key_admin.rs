//! Key administration as rules: a command and the key table in, the changes to store and
//! the answer out, so that every store and the admin socket answer alike.

use std::collections::HashMap;
use std::path::PathBuf;

use chrono::{DateTime, NaiveDate, TimeZone as _, Utc};
use chrono_tz::Europe::Vilnius;
use clap::value_parser;
use serde::{Deserialize, Serialize};

use crate::limits::{LimitsConfig, MAX_LIMIT};
use crate::state::keys::{self, ExportedKey, KeyAdminError, KeyId, KeyRecord, KeyTable};

/// Manage API keys. As JSON: `{"op":"create","owner":...}`, `{"op":"list"}`, ...
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum KeysCommand {
    /// Issue a new API key. Prints its attributes, then the key itself as the last line of
    /// output: the key is shown only this once (only its SHA-256 is stored).
    Create(CreateArgs),
    /// List all keys: id, owner, limits, dates, state and current usage. Never prints keys.
    List,
    /// Show one key's attributes and current usage.
    Show(IdArg),
    /// Revoke a key. A running server refuses it at once (no restart needed); `restore`
    /// undoes it.
    Revoke(IdArg),
    /// Undo `revoke`: the key works again at once. A key past its expiry is not restored.
    Restore(IdArg),
    /// Delete a key: its record and its usage counters are removed (a running server
    /// refuses it at once). Unlike `revoke`, this cannot be undone except by importing a
    /// backup that holds the key.
    Delete(IdArg),
    /// Change a key's per-minute and/or per-day limit; a running server applies it at once.
    SetLimits(SetLimitsArgs),
    /// Back up the keys: every stored record as one JSON line (id, hash, owner, limits,
    /// dates, state; never a key, which is not stored). Restore with `keys import`.
    Export(ExportArgs),
    /// Restore or move keys: merge the records of a `keys export` file. Absent keys are
    /// added and identical ones left alone; a record that differs from a stored key refuses
    /// the whole import (nothing is written) unless --replace is given.
    Import(ImportArgs),
}

#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct ExportArgs {
    /// Write to FILE instead of standard output (replaced atomically, mode 0600, so a
    /// failed export never leaves a partial backup in place of the last good one).
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    pub out: Option<PathBuf>,
    /// Add each key's current usage (`used_minute`, `used_day`); informational, not
    /// restored by `import`.
    #[arg(long)]
    pub counters: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct ImportArgs {
    /// A file written by `keys export` (`-` reads standard input).
    #[arg(value_name = "FILE")]
    #[serde(skip)]
    pub file: PathBuf,
    /// The file's records, read by the key tool: what the admin socket carries.
    #[arg(skip)]
    pub records: Vec<KeyRecord>,
    /// Let the file's records replace stored records of the same key that differ (limits,
    /// expiry, owner, revoked): the file's version wins.
    #[arg(long)]
    pub replace: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct CreateArgs {
    /// Who the key is issued to (shown by `keys list`, logged instead of the key).
    #[arg(long, value_name = "NAME")]
    pub owner: String,
    /// Requests per sliding minute [default: the configured key default, normally 60].
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..=MAX_LIMIT))]
    pub per_minute: Option<u64>,
    /// Requests per sliding 24 hours [default: the configured key default, normally 10000].
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..=MAX_LIMIT))]
    pub per_day: Option<u64>,
    /// Expiry: YYYY-MM-DD, the last day the key works: it is usable through the end of that
    /// date in Lithuanian time (Europe/Vilnius) and refused from 00:00 of the next day,
    /// which is what is stored and shown (in UTC: 2027-12-31 is stored as
    /// 2027-12-31T22:00:00Z, 2027-07-31 as 2027-07-31T21:00:00Z in summer time). Or an
    /// RFC 3339 time such as 2027-01-01T12:00:00+02:00, the instant the key stops working.
    /// Must be in the future. Default: never.
    #[arg(long, value_name = "DATE", value_parser = parse_expiry)]
    pub expires: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct IdArg {
    /// The key's id: the 16 hex characters shown by `keys list` and `keys create`, or any
    /// unique prefix of at least 4 of them.
    #[arg(value_name = "ID")]
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct SetLimitsArgs {
    /// The key's id: the 16 hex characters shown by `keys list` and `keys create`, or any
    /// unique prefix of at least 4 of them.
    #[arg(value_name = "ID")]
    pub id: String,
    /// New requests per sliding minute.
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..=MAX_LIMIT))]
    pub per_minute: Option<u64>,
    /// New requests per sliding 24 hours.
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..=MAX_LIMIT))]
    pub per_day: Option<u64>,
}

/// Parses `--expires` (see its help); a midnight in a DST gap is the first local time after it.
pub fn parse_expiry(s: &str) -> Result<DateTime<Utc>, String> {
    let s = s.trim();
    // `%Y` accepts "+2027" or 5-digit years; insist on the plain form.
    let date = NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .filter(|_| s.len() == 10);
    if let Some(d) = date {
        // A gap is at most a couple of hours; look for the first minute that exists.
        let first = (0..=180).find_map(|minutes| {
            let local = d.succ_opt()?.and_hms_opt(0, 0, 0)? + chrono::Duration::minutes(minutes);
            Vilnius.from_local_datetime(&local).earliest()
        });
        return first
            .map(|t| t.with_timezone(&Utc))
            .ok_or_else(|| format!("'{s}' is out of range"));
    }
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            format!("'{s}' is not a date (YYYY-MM-DD) or an RFC 3339 time (2027-01-01T00:00:00Z)")
        })
}

/// What an operator may see of a key: never its plaintext or full hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyView {
    pub id: String,
    pub owner: String,
    pub per_minute: u64,
    pub per_day: u64,
    pub created: DateTime<Utc>,
    pub expires: Option<DateTime<Utc>>,
    pub active: bool,
    pub expired: bool,
    pub used_minute: u64,
    pub used_day: u64,
}

impl KeyView {
    fn of(record: KeyRecord, now: DateTime<Utc>) -> KeyView {
        KeyView {
            id: record.id,
            owner: record.owner,
            per_minute: record.per_minute,
            per_day: record.per_day,
            created: record.created,
            expires: record.expires,
            active: record.active,
            expired: record.expires.is_some_and(|e| now >= e),
            used_minute: 0,
            used_day: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ImportReport {
    pub added: usize,
    pub unchanged: usize,
    pub replaced: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum AdminResponse {
    /// A key was issued; `key` is its plaintext, sent this once.
    Created {
        key: String,
        view: KeyView,
    },
    Key {
        view: KeyView,
        /// False when nothing changed (revoking a revoked key, restoring an active one, `show`).
        changed: bool,
    },
    Deleted {
        id: String,
        owner: String,
    },
    Keys {
        views: Vec<KeyView>,
    },
    Exported {
        records: Vec<ExportedKey>,
    },
    Imported {
        report: ImportReport,
    },
    Error {
        message: String,
    },
}

impl From<KeyAdminError> for AdminResponse {
    fn from(e: KeyAdminError) -> Self {
        AdminResponse::Error {
            message: e.to_string(),
        }
    }
}

/// What a command changes in the key table; a store writes it in one atomic step.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Changes {
    /// Records to insert or replace (distinct ids).
    pub upserts: Vec<KeyRecord>,
    /// Ids of records to delete, with their counters.
    pub removed: Vec<KeyId>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.upserts.is_empty() && self.removed.is_empty()
    }

    fn upserts(upserts: impl IntoIterator<Item = KeyRecord>) -> Changes {
        Changes {
            upserts: upserts.into_iter().collect(),
            removed: vec![],
        }
    }
}

/// What `command` changes in `keys` at `now`, and its answer (usage 0 until [`usage_slots`]).
pub(crate) fn decide(
    command: KeysCommand,
    keys: &KeyTable,
    limits: &LimitsConfig,
    now: DateTime<Utc>,
) -> Result<(Changes, AdminResponse), KeyAdminError> {
    Ok(match command {
        KeysCommand::Create(args) => {
            let owner = keys::check_owner(&args.owner)?;
            let per_minute = args.per_minute.unwrap_or(limits.key_default_per_minute);
            let per_minute = keys::check_limit("per-minute", per_minute)?;
            let per_day = args.per_day.unwrap_or(limits.key_default_per_day);
            let per_day = keys::check_limit("per-day", per_day)?;
            if let Some(e) = args.expires.filter(|e| *e <= now) {
                return Err(KeyAdminError::ExpiryNotInFuture(e));
            }
            // A 64-bit id collision is astronomically unlikely; retrying costs nothing.
            let (key, hash) = std::iter::repeat_with(keys::generate)
                .find(|(_, hash)| !keys.collides(hash))
                .expect("an endless supply of keys");
            let record = KeyRecord {
                id: keys::id_of(&hash),
                hash: hex::encode(hash),
                owner,
                per_minute,
                per_day,
                created: now,
                expires: args.expires,
                active: true,
            };
            let changes = Changes::upserts([record.clone()]);
            let view = KeyView::of(record, now);
            (changes, AdminResponse::Created { key, view })
        }
        KeysCommand::List => {
            let views = keys.all().into_iter().map(|r| KeyView::of(r, now));
            let views = views.collect();
            (Changes::default(), AdminResponse::Keys { views })
        }
        KeysCommand::Show(IdArg { id }) => modify(keys, &id, now, |_| Ok(false))?,
        KeysCommand::Revoke(IdArg { id }) => modify(keys, &id, now, |r| {
            Ok(std::mem::replace(&mut r.active, false))
        })?,
        KeysCommand::Restore(IdArg { id }) => modify(keys, &id, now, |r| {
            if r.active {
                return Ok(false);
            }
            if let Some(expired) = r.expires.filter(|e| now >= *e) {
                let id = r.id.clone();
                return Err(KeyAdminError::RestoreExpired { id, expired });
            }
            r.active = true;
            Ok(true)
        })?,
        KeysCommand::Delete(IdArg { id }) => {
            let KeyRecord { id, owner, .. } = keys.resolve(&id)?.clone();
            let mut changes = Changes::default();
            changes.removed.push(id.clone());
            (changes, AdminResponse::Deleted { id, owner })
        }
        KeysCommand::SetLimits(args) => {
            if args.per_minute.is_none() && args.per_day.is_none() {
                return Err(KeyAdminError::NothingToChange);
            }
            let check = |what, n: Option<u64>| n.map(|n| keys::check_limit(what, n)).transpose();
            let per_minute = check("per-minute", args.per_minute)?;
            let per_day = check("per-day", args.per_day)?;
            modify(keys, &args.id, now, |r| {
                r.per_minute = per_minute.unwrap_or(r.per_minute);
                r.per_day = per_day.unwrap_or(r.per_day);
                Ok(true)
            })?
        }
        KeysCommand::Export(ExportArgs { counters, .. }) => {
            let used = counters.then_some(0);
            let records = keys.all().into_iter().map(|record| ExportedKey {
                record,
                used_minute: used,
                used_day: used,
            });
            let records = records.collect();
            (Changes::default(), AdminResponse::Exported { records })
        }
        KeysCommand::Import(args) => import(keys, args)?,
    })
}

/// The usage fields of an answer with their key's id, for a store to fill in (minute, day).
pub(crate) fn usage_slots(response: &mut AdminResponse) -> Vec<(&str, &mut u64, &mut u64)> {
    fn slots(v: &mut KeyView) -> (&str, &mut u64, &mut u64) {
        (&v.id, &mut v.used_minute, &mut v.used_day)
    }
    match response {
        AdminResponse::Created { view, .. } | AdminResponse::Key { view, .. } => {
            vec![slots(view)]
        }
        AdminResponse::Keys { views } => views.iter_mut().map(slots).collect(),
        AdminResponse::Exported { records } => records
            .iter_mut()
            .filter_map(|r| {
                let (minute, day) = (r.used_minute.as_mut()?, r.used_day.as_mut()?);
                Some((r.record.id.as_str(), minute, day))
            })
            .collect(),
        _ => vec![],
    }
}

/// Applies `change` to the key `id`, to be stored if `change` says it changed.
fn modify(
    keys: &KeyTable,
    id: &str,
    now: DateTime<Utc>,
    change: impl FnOnce(&mut KeyRecord) -> Result<bool, KeyAdminError>,
) -> Result<(Changes, AdminResponse), KeyAdminError> {
    let mut record = keys.resolve(id)?.clone();
    let changed = change(&mut record)?;
    let changes = Changes::upserts(changed.then(|| record.clone()));
    let view = KeyView::of(record, now);
    Ok((changes, AdminResponse::Key { view, changed }))
}

/// All records or, on any error, none: one stored with other attributes is a conflict unless
/// --replace, and always when the id is a different stored key's.
fn import(keys: &KeyTable, args: ImportArgs) -> Result<(Changes, AdminResponse), KeyAdminError> {
    let mut by_id: HashMap<String, KeyRecord> = HashMap::new();
    for (n, r) in args.records.into_iter().enumerate() {
        let invalid = |reason: String| KeyAdminError::InvalidRecord {
            id: match keys::normalize_id(&r.id) {
                Some(_) => r.id.clone(),
                None => format!("#{}", n + 1),
            },
            reason,
        };
        keys::check_record(&r).map_err(&invalid)?;
        if by_id.get(&r.id).is_some_and(|seen| *seen != r) {
            return Err(invalid("given twice, differently".into()));
        }
        by_id.insert(r.id.clone(), r);
    }
    let mut report = ImportReport::default();
    let (mut conflicts, mut foreign) = (vec![], false);
    let mut upserts = vec![];
    let mut records: Vec<KeyRecord> = by_id.into_values().collect();
    keys::sort_oldest_first(&mut records);
    for r in records {
        match keys.get(&r.id) {
            None => {
                report.added += 1;
                upserts.push(r);
            }
            Some(s) if *s == r => report.unchanged += 1,
            Some(s) if s.hash == r.hash && args.replace => {
                report.replaced += 1;
                upserts.push(r);
            }
            Some(s) => {
                foreign |= s.hash != r.hash;
                conflicts.push(r.id);
            }
        }
    }
    if !conflicts.is_empty() {
        conflicts.sort();
        return Err(KeyAdminError::ImportConflict {
            ids: conflicts,
            replaceable: !foreign,
        });
    }
    let changes = Changes::upserts(upserts);
    Ok((changes, AdminResponse::Imported { report }))
}
