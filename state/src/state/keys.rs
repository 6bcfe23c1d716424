//! API keys: generation, hashing, validation of key attributes, and the in-memory key table
//! the hot path authenticates against. Only a key's SHA-256 is stored, and lookup probes a hash
//! map by the SHA-256 of what the client sent, so timing says nothing useful about stored keys.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use hex::FromHex as _;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::limits::MAX_LIMIT;

pub use crate::key_format::KEY_PREFIX;
const KEY_RANDOM_BYTES: usize = 32;
pub const KEY_LEN: usize = KEY_PREFIX.len() + 2 * KEY_RANDOM_BYTES;
pub const ID_LEN: usize = 16;
/// Shortest id prefix an operator may give for a key (as git accepts short hashes).
pub const MIN_ID_PREFIX: usize = 4;
/// How many ids an ambiguous prefix and an import conflict list.
const LISTED_CANDIDATES: usize = 10;
const LISTED_CONFLICTS: usize = 5;
pub const MAX_OWNER_CHARS: usize = 200;

/// A presented key, as sent by a client (never logged; `Debug` redacts it).
pub struct PresentedKey(pub String);

impl PresentedKey {
    /// Shaped like a key: anything else is unknown without hashing it (inputs may be huge).
    pub fn is_shaped(&self) -> bool {
        self.0.len() == KEY_LEN && self.0.starts_with(KEY_PREFIX)
    }
}

impl std::fmt::Debug for PresentedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PresentedKey(<redacted>)")
    }
}

/// A key's id: the first 16 hex characters of its SHA-256; also names its counters.
pub type KeyId = String;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KeyRecord {
    pub id: KeyId,
    /// Full SHA-256 of the plaintext, lower-case hex.
    pub hash: String,
    /// Who the key was issued to (logged instead of the key).
    pub owner: String,
    pub per_minute: u64,
    pub per_day: u64,
    pub created: DateTime<Utc>,
    /// Expiry: the first instant the key is refused; `None` = never.
    pub expires: Option<DateTime<Utc>>,
    pub active: bool,
}

/// A `keys export` line: the stored record, with the usage if asked (`--counters`; not imported).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExportedKey {
    #[serde(flatten)]
    pub record: KeyRecord,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_minute: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_day: Option<u64>,
}

/// Why a presented key is refused (the 401's error code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Unknown or revoked.
    #[error("invalid_key")]
    Invalid,
    #[error("expired_key")]
    Expired,
}

/// Why a key command failed; messages are for the operator and never hold key material.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyAdminError {
    #[error(
        "no key with id {0} (ids are the {ID_LEN} hex characters shown by `keys list`, or a \
         unique prefix of at least {MIN_ID_PREFIX} of them)"
    )]
    UnknownId(String),
    #[error(
        "id '{0}' is too short: give at least {MIN_ID_PREFIX} of the {ID_LEN} hex characters \
         shown by `keys list`"
    )]
    ShortId(String),
    #[error(
        "id '{prefix}' is ambiguous: it starts {} keys ({}); give more characters",
        .candidates.len(),
        listed(.candidates, LISTED_CANDIDATES)
    )]
    AmbiguousId {
        prefix: String,
        /// Sorted.
        candidates: Vec<KeyId>,
    },
    #[error(
        "key {id} expired at {}: restoring it would not make it usable (issue a new key with \
         `keys create`)",
        .expired.format("%Y-%m-%dT%H:%M:%SZ")
    )]
    RestoreExpired { id: KeyId, expired: DateTime<Utc> },
    #[error("{what} must be a whole number between 1 and {MAX_LIMIT}, got {got}")]
    InvalidLimit { what: &'static str, got: u64 },
    #[error("expiry {0} is not in the future")]
    ExpiryNotInFuture(DateTime<Utc>),
    #[error("owner must be 1 to {MAX_OWNER_CHARS} characters with no control characters")]
    InvalidOwner,
    #[error("nothing to change: give --per-minute and/or --per-day")]
    NothingToChange,
    /// The state database failed; nothing was changed in memory.
    #[error("state database error: {0}")]
    Storage(String),
    #[error("record {id}: {reason}; nothing was imported")]
    InvalidRecord {
        /// The record's id as given (or its position when it has none).
        id: String,
        reason: String,
    },
    #[error(
        "the file's records for {} differ from the stored keys with those ids; nothing was \
         imported{}",
        listed(.ids, LISTED_CONFLICTS),
        if *.replaceable { " (--replace imports the file's version of them)" } else { "" }
    )]
    ImportConflict {
        /// Sorted.
        ids: Vec<String>,
        /// False when a record's id is another key's (other hash): `--replace` refuses that too.
        replaceable: bool,
    },
}

/// The first `shown` ids: "a, b" or "a, b and 3 more".
fn listed(ids: &[String], shown: usize) -> String {
    match ids.len().saturating_sub(shown) {
        0 => ids.join(", "),
        more => format!("{} and {more} more", ids[..shown].join(", ")),
    }
}

impl KeyAdminError {
    /// The error for an id that matched nothing, echoing it only when it is id-shaped.
    pub fn unknown(id: &str) -> KeyAdminError {
        let shown = if is_hex(id, 64) {
            format!("'{id}'")
        } else {
            "(not an id)".to_owned()
        };
        KeyAdminError::UnknownId(shown)
    }
}

/// True if `s` is 1 to `max` hex characters.
fn is_hex(s: &str, max: usize) -> bool {
    (1..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

pub(crate) type KeyHash = [u8; 32];

pub fn hash_key(plaintext: &str) -> KeyHash {
    Sha256::digest(plaintext.as_bytes()).into()
}

/// A fresh key: its plaintext and hash. The randomness comes from the OS.
pub(crate) fn generate() -> (String, KeyHash) {
    let mut bytes = [0u8; KEY_RANDOM_BYTES];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let plaintext = format!("{KEY_PREFIX}{}", hex::encode(bytes));
    let hash = hash_key(&plaintext);
    (plaintext, hash)
}

pub(crate) fn id_of(hash: &KeyHash) -> KeyId {
    hex::encode(&hash[..ID_LEN / 2])
}

/// An id as typed by an operator, trimmed and lower-cased, if it is 16 hex characters.
pub fn normalize_id(id: &str) -> Option<KeyId> {
    let id = id.trim();
    (id.len() == ID_LEN && is_hex(id, ID_LEN)).then(|| id.to_ascii_lowercase())
}

pub(crate) fn check_limit(what: &'static str, got: u64) -> Result<u64, KeyAdminError> {
    (1..=MAX_LIMIT)
        .contains(&got)
        .then_some(got)
        .ok_or(KeyAdminError::InvalidLimit { what, got })
}

pub(crate) fn check_owner(owner: &str) -> Result<String, KeyAdminError> {
    let owner = owner.trim();
    let n = owner.chars().count();
    if n == 0 || n > MAX_OWNER_CHARS || owner.chars().any(char::is_control) {
        return Err(KeyAdminError::InvalidOwner);
    }
    Ok(owner.to_owned())
}

/// Checks a record read from outside (an import); its owner must be as stored (trimmed).
pub(crate) fn check_record(r: &KeyRecord) -> Result<(), String> {
    let lower_case = !r.hash.bytes().any(|b| b.is_ascii_uppercase());
    let Some(hash) = KeyHash::from_hex(&r.hash).ok().filter(|_| lower_case) else {
        return Err("the hash is not 64 lower-case hex characters".into());
    };
    if r.id != id_of(&hash) {
        return Err("the id is not the start of the hash".into());
    }
    if check_owner(&r.owner).ok().as_deref() != Some(r.owner.as_str()) {
        return Err(KeyAdminError::InvalidOwner.to_string());
    }
    let limits = check_limit("per-minute", r.per_minute).and(check_limit("per-day", r.per_day));
    limits.map(drop).map_err(|e| e.to_string())
}

/// Sorts records oldest first (by creation, then id).
pub(crate) fn sort_oldest_first(records: &mut [KeyRecord]) {
    records.sort_by(|a, b| a.created.cmp(&b.created).then_with(|| a.id.cmp(&b.id)));
}

/// All keys, by hash (for authentication) and by id (for administration).
#[derive(Debug, Default)]
pub(crate) struct KeyTable {
    by_hash: HashMap<KeyHash, KeyRecord>,
    /// Hash of each id; always the same key set as `by_hash`.
    by_id: HashMap<KeyId, KeyHash>,
}

impl KeyTable {
    pub fn authenticate(
        &self,
        key: &PresentedKey,
        now: DateTime<Utc>,
    ) -> Result<KeyRecord, KeyError> {
        if !key.is_shaped() {
            return Err(KeyError::Invalid);
        }
        match self.by_hash.get(&hash_key(&key.0)) {
            None => Err(KeyError::Invalid),
            Some(r) if !r.active => Err(KeyError::Invalid),
            Some(r) if r.expires.is_some_and(|e| now >= e) => Err(KeyError::Expired),
            Some(r) => Ok(r.clone()),
        }
    }

    /// The record with this (normalised) id.
    pub fn get(&self, id: &str) -> Option<&KeyRecord> {
        self.by_id.get(id).and_then(|h| self.by_hash.get(h))
    }

    /// The key an operator means by `given`: a whole id or a unique prefix of at least
    /// `MIN_ID_PREFIX` hex characters (any case, surrounding space ignored).
    pub fn resolve(&self, given: &str) -> Result<&KeyRecord, KeyAdminError> {
        let prefix = given.trim().to_ascii_lowercase();
        if !is_hex(&prefix, ID_LEN) {
            return Err(KeyAdminError::unknown(given.trim()));
        }
        if prefix.len() < MIN_ID_PREFIX {
            return Err(KeyAdminError::ShortId(prefix));
        }
        let matches: Vec<&KeyRecord> = self
            .by_hash
            .values()
            .filter(|r| r.id.starts_with(&prefix))
            .collect();
        match matches[..] {
            [] => Err(KeyAdminError::unknown(&prefix)),
            [record] => Ok(record),
            _ => {
                let mut candidates: Vec<KeyId> = matches.iter().map(|r| r.id.clone()).collect();
                candidates.sort();
                Err(KeyAdminError::AmbiguousId { prefix, candidates })
            }
        }
    }

    pub fn remove(&mut self, id: &str) -> Option<KeyRecord> {
        let hash = self.by_id.remove(id)?;
        self.by_hash.remove(&hash)
    }

    /// True if a key with this hash or this hash's id exists.
    pub fn collides(&self, hash: &KeyHash) -> bool {
        self.by_hash.contains_key(hash) || self.by_id.contains_key(&id_of(hash))
    }

    /// Inserts or replaces a record. Returns false (and changes nothing) if the record is
    /// inconsistent: hash not 64 hex characters or id not its prefix.
    pub fn upsert(&mut self, record: KeyRecord) -> bool {
        let Some(hash) = KeyHash::from_hex(&record.hash)
            .ok()
            .filter(|h| record.id == id_of(h))
        else {
            return false;
        };
        self.by_id.insert(record.id.clone(), hash);
        self.by_hash.insert(hash, record);
        true
    }

    /// All records, oldest first.
    pub fn all(&self) -> Vec<KeyRecord> {
        let mut v: Vec<KeyRecord> = self.by_hash.values().cloned().collect();
        sort_oldest_first(&mut v);
        v
    }

    pub fn len(&self) -> usize {
        self.by_hash.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(plaintext: &str, expires: Option<DateTime<Utc>>, active: bool) -> KeyRecord {
        let hash = hash_key(plaintext);
        KeyRecord {
            id: id_of(&hash),
            hash: hex::encode(hash),
            owner: "o".into(),
            per_minute: 1,
            per_day: 1,
            created: DateTime::UNIX_EPOCH,
            expires,
            active,
        }
    }

    #[test]
    fn generated_keys_are_long_random_and_prefixed() {
        let (a, ha) = generate();
        let (b, _) = generate();
        assert_ne!(a, b);
        assert_eq!(a.len(), KEY_LEN);
        assert!(a.starts_with("ltk_") && a[4..].bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(ha, hash_key(&a));
        assert_eq!(id_of(&ha).len(), ID_LEN);
    }

    #[test]
    fn authenticate_states() {
        let now = DateTime::from_timestamp(1_000_000, 0).unwrap();
        let (live, _) = generate();
        let (revoked, _) = generate();
        let (expired, _) = generate();
        let mut t = KeyTable::default();
        assert!(t.upsert(record(
            &live,
            Some(now + chrono::Duration::seconds(1)),
            true
        )));
        assert!(t.upsert(record(&revoked, None, false)));
        assert!(t.upsert(record(&expired, Some(now), true)));
        let ok = t.authenticate(&PresentedKey(live.clone()), now).unwrap();
        assert_eq!(ok.id, id_of(&hash_key(&live)));
        let (unknown, _) = generate();
        for (key, refused) in [
            (revoked, KeyError::Invalid),
            (expired, KeyError::Expired),
            (unknown, KeyError::Invalid),
            ("x".repeat(1 << 20), KeyError::Invalid),
            (String::new(), KeyError::Invalid),
            // Keys are exact strings.
            (live.to_uppercase(), KeyError::Invalid),
        ] {
            assert_eq!(t.authenticate(&PresentedKey(key), now), Err(refused));
        }
    }

    #[test]
    fn upsert_rejects_inconsistent_records() {
        let mut t = KeyTable::default();
        let mut r = record("ltk_x", None, true);
        r.id = "0000000000000000".into();
        assert!(!t.upsert(r));
        let mut r = record("ltk_x", None, true);
        r.hash = "zz".into();
        assert!(!t.upsert(r));
        assert_eq!(t.len(), 0);
    }

    #[test]
    fn imported_records_are_checked() {
        let good = KeyRecord {
            owner: "Ona".into(),
            ..record("ltk_x", None, true)
        };
        assert_eq!(check_record(&good), Ok(()));
        let spoilers: [fn(&mut KeyRecord); 6] = [
            |r| (r.hash, r.id) = (r.hash.to_uppercase(), r.id.to_uppercase()),
            |r| r.hash.truncate(62),
            |r| r.id = "0000000000000000".into(),
            |r| r.owner = " Ona".into(),
            |r| r.per_minute = 0,
            |r| r.per_day = MAX_LIMIT + 1,
        ];
        for spoil in spoilers {
            let mut r = good.clone();
            spoil(&mut r);
            assert!(check_record(&r).is_err(), "{r:?}");
        }
        // An export line is the stored record, with the usage only when asked for.
        let line = ExportedKey {
            record: good.clone(),
            used_minute: None,
            used_day: None,
        };
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            serde_json::to_string(&good).unwrap()
        );
        let back: ExportedKey = serde_json::from_str(
            &serde_json::to_string(&good)
                .unwrap()
                .replace('}', ",\"used_minute\":1,\"used_day\":2}"),
        )
        .unwrap();
        assert_eq!((back.record, back.used_day), (good, Some(2)));
    }

    /// A record whose id is `id` (16 hex characters), with a made-up hash.
    fn with_id(id: &str) -> KeyRecord {
        KeyRecord {
            id: id.into(),
            hash: format!("{id}{}", "0".repeat(48)),
            ..record("ltk_x", None, true)
        }
    }

    #[test]
    fn ids_resolve_from_unique_prefixes() {
        let mut t = KeyTable::default();
        for id in ["abcd000000000001", "abcd000000000002", "abce000000000000"] {
            assert!(t.upsert(with_id(id)));
        }
        assert_eq!(t.resolve(" ABCE ").unwrap().id, "abce000000000000");
        assert_eq!(
            t.resolve("abcd0000000000"),
            Err(KeyAdminError::AmbiguousId {
                prefix: "abcd0000000000".into(),
                candidates: vec!["abcd000000000001".into(), "abcd000000000002".into()],
            })
        );
        assert_eq!(
            t.resolve("abcd000000000002").unwrap().id,
            "abcd000000000002"
        );
        assert_eq!(t.resolve("abc"), Err(KeyAdminError::ShortId("abc".into())));
        for unknown in ["abcf", "", "abcd0000000000011"] {
            let e = t.resolve(unknown);
            assert!(matches!(e, Err(KeyAdminError::UnknownId(_))), "{unknown}");
        }
        let msg = t.resolve("ltk_abcd").unwrap_err().to_string();
        assert!(msg.contains("(not an id)"), "{msg}");
        let msg = t.resolve("abcd").unwrap_err().to_string();
        assert_eq!(
            msg,
            "id 'abcd' is ambiguous: it starts 2 keys (abcd000000000001, abcd000000000002); \
             give more characters"
        );
        assert_eq!(t.remove("abce000000000000").unwrap().id, "abce000000000000");
        assert!(t.remove("abce000000000000").is_none());
        assert!(matches!(
            t.resolve("abce"),
            Err(KeyAdminError::UnknownId(_))
        ));
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn validation() {
        assert_eq!(
            normalize_id(" 0123456789ABCDEF "),
            Some("0123456789abcdef".into())
        );
        assert_eq!(normalize_id("0123"), None);
        assert_eq!(normalize_id("ltk_0123456789ab"), None);
        assert!(check_limit("per-minute", 0).is_err());
        assert!(check_limit("per-minute", MAX_LIMIT + 1).is_err());
        assert_eq!(check_limit("per-day", 5), Ok(5));
        assert_eq!(check_owner("  Ona  "), Ok("Ona".into()));
        assert!(check_owner(" ").is_err());
        assert!(check_owner("a\nb").is_err());
        let msg = KeyAdminError::unknown("ltk_secret").to_string();
        assert!(!msg.contains("secret"), "{msg}");
        assert!(KeyAdminError::unknown("abcdef")
            .to_string()
            .contains("'abcdef'"));
    }
}
