//! Integrity of the state database. sled opens whatever it can read (a cut `db`, a missing
//! `conf` or snapshot) with fewer keys or none, so `State::open` refuses as damaged:
//! - a directory neither fresh (no sled file) nor complete (`conf`, `db`, `snap.*`; sled
//!   writes a snapshot only when it opens a database with data);
//! - key records that do not match `integrity.json`, outside sled: the count and digest
//!   ([`SetDigest`]) of the records (during a change, the old and the new one), which
//!   catches sled recovering an older, shorter history of its log;
//! - counter blobs that do not match `manifest`, written in every batch of them.

use std::path::Path;

use sha2::{Digest as _, Sha256};

/// The file (in the state directory) recording the keys' digest, and its format version.
pub(crate) const RECORD_FILE: &str = "integrity.json";
const RECORD_FORMAT: u32 = 1;
/// The key of the counters manifest in the counters tree, and its format (first byte).
pub(crate) const MANIFEST_KEY: &[u8] = b"manifest";
const MANIFEST_FORMAT: u8 = 1;

pub(crate) type EntryHash = [u64; 4];

/// The hash of one entry: SHA-256 over the key's length, the key and the value.
pub(crate) fn entry_hash(key: &[u8], value: &[u8]) -> EntryHash {
    let mut h = Sha256::new();
    h.update((key.len() as u64).to_le_bytes());
    h.update(key);
    h.update(value);
    le_words(&h.finalize())
}

/// The first `N` little-endian words of `bytes`.
fn le_words<const N: usize>(bytes: &[u8]) -> [u64; N] {
    std::array::from_fn(|i| {
        u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
    })
}

/// An order-independent digest of a set of entries: their count and the lane-wise wrapping
/// sum of their [`entry_hash`]es, so one entry is added or removed without the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetDigest {
    pub count: u64,
    /// In `integrity.json`, 64 hex characters.
    #[serde(
        rename = "digest",
        serialize_with = "to_hex",
        deserialize_with = "from_hex"
    )]
    sum: [u64; 4],
}

fn to_hex<S: serde::Serializer>(sum: &[u64; 4], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&sum.iter().map(|x| format!("{x:016x}")).collect::<String>())
}

fn from_hex<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u64; 4], D::Error> {
    let s = <String as serde::Deserialize>::deserialize(d)?;
    let lane = |i: usize| u64::from_str_radix(s.get(i * 16..i * 16 + 16)?, 16).ok();
    match [0, 1, 2, 3].map(lane) {
        [Some(a), Some(b), Some(c), Some(d)] if s.len() == 64 => Ok([a, b, c, d]),
        _ => Err(serde::de::Error::custom("not a digest")),
    }
}

impl SetDigest {
    pub fn add(&mut self, h: EntryHash) {
        self.count += 1;
        self.sum = std::array::from_fn(|i| self.sum[i].wrapping_add(h[i]));
    }

    pub fn remove(&mut self, h: EntryHash) {
        self.count = self.count.saturating_sub(1);
        self.sum = std::array::from_fn(|i| self.sum[i].wrapping_sub(h[i]));
    }

    #[cfg(test)]
    fn of<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        entries
            .into_iter()
            .map(|(k, v)| entry_hash(k.as_bytes(), v.as_bytes()))
            .collect()
    }

    /// The counters manifest: format byte, count and the four lanes, little-endian.
    pub fn to_manifest(self) -> Vec<u8> {
        let words = [self.count].into_iter().chain(self.sum);
        let bytes = words.flat_map(u64::to_le_bytes);
        [MANIFEST_FORMAT].into_iter().chain(bytes).collect()
    }

    pub fn from_manifest(v: &[u8]) -> Option<SetDigest> {
        let rest = v
            .strip_prefix(&[MANIFEST_FORMAT])
            .filter(|r| r.len() == 40)?;
        let [count, sum @ ..] = le_words::<5>(rest);
        Some(SetDigest { count, sum })
    }
}

impl FromIterator<EntryHash> for SetDigest {
    fn from_iter<I: IntoIterator<Item = EntryHash>>(hashes: I) -> Self {
        let mut d = SetDigest::default();
        hashes.into_iter().for_each(|h| d.add(h));
        d
    }
}

/// `integrity.json` as stored.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordFile {
    format: u32,
    keys: Vec<SetDigest>,
}

/// Reads `integrity.json` of `dir` (`Ok(None)`: there is none; `Err`: what is wrong).
pub(crate) fn read_record(dir: &Path) -> Result<Option<Vec<SetDigest>>, String> {
    let text = match std::fs::read(dir.join(RECORD_FILE)) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{RECORD_FILE} cannot be read: {e}")),
    };
    match serde_json::from_slice::<RecordFile>(&text) {
        Ok(file) if file.format == RECORD_FORMAT && !file.keys.is_empty() => Ok(Some(file.keys)),
        _ => Err(format!("{RECORD_FILE} is unreadable")),
    }
}

/// The number of keys a record read by `read_record` expects (the newest digest's).
pub(crate) fn expected_keys(recorded: &Option<Vec<SetDigest>>) -> u64 {
    recorded.iter().flatten().last().map_or(0, |d| d.count)
}

/// Replaces `integrity.json` of `dir` with `digests` (durably and atomically).
pub(crate) fn write_record(dir: &Path, digests: &[SetDigest]) -> std::io::Result<()> {
    let file = RecordFile {
        format: RECORD_FORMAT,
        keys: digests.to_vec(),
    };
    let mut text = serde_json::to_vec(&file).expect("the record serialises");
    text.push(b'\n');
    super::write_private_file(&dir.join(RECORD_FILE), &text)
}

/// Which of sled's files (`conf`, `db`, a snapshot) a state directory (which may not exist)
/// lacks; `None` when it has no sled file at all (fresh).
pub(crate) fn missing_files(dir: &Path) -> std::io::Result<Option<Vec<&'static str>>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let (mut conf, mut db, mut snapshot, mut blobs) = (false, false, false, false);
    for entry in entries {
        let name = entry?.file_name();
        let name = name.to_string_lossy();
        match &*name {
            "conf" => conf = true,
            "db" => db = true,
            "blobs" => blobs = true,
            // `snap.<lsn>.generating` is a snapshot sled had not finished writing.
            n if n.starts_with("snap.") && !n.ends_with(".generating") => snapshot = true,
            _ => {}
        }
    }
    if !(conf || db || snapshot || blobs) {
        return Ok(None);
    }
    let missing = [(conf, "conf"), (db, "db"), (snapshot, "snap.*")]
        .into_iter()
        .filter_map(|(present, name)| (!present).then_some(name));
    Ok(Some(missing.collect()))
}

/// One clean phrase for a sled error (its `Display` ends in `backtrace ()` and wraps I/O
/// errors twice).
pub(crate) fn sled_message(e: &sled::Error) -> String {
    match e {
        sled::Error::Io(io) => io.to_string(),
        sled::Error::Corruption { at: Some(at), .. } => {
            format!("sled found corrupted data at {at}")
        }
        sled::Error::Corruption { at: None, .. } => "sled found corrupted data".to_owned(),
        sled::Error::Unsupported(what) => format!("unsupported by sled: {what}"),
        sled::Error::ReportableBug(what) => format!("sled failed: {what}"),
        sled::Error::CollectionNotFound(name) => {
            format!("sled has no tree {}", String::from_utf8_lossy(name))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_order_independent_and_removable() {
        let a = SetDigest::of([("a", "1"), ("b", "2"), ("c", "3")]);
        let b = SetDigest::of([("c", "3"), ("a", "1"), ("b", "2")]);
        assert_eq!(a, b);
        assert_eq!(a.count, 3);
        let mut c = a;
        c.remove(entry_hash(b"b", b"2"));
        assert_eq!(c, SetDigest::of([("a", "1"), ("c", "3")]));
        assert_ne!(a, SetDigest::of([("a", "1"), ("b", "2"), ("c", "4")]));
        // The key is part of the entry: moving a value to another key changes the digest.
        assert_ne!(SetDigest::of([("ab", "c")]), SetDigest::of([("a", "bc")]));
        assert_eq!(SetDigest::from_manifest(&a.to_manifest()), Some(a));
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<SetDigest>(&json).unwrap(), a);
        assert_eq!(SetDigest::from_manifest(b"junk"), None);
    }

    #[test]
    fn record_file_round_trip_and_damage() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_record(dir.path()), Ok(None));
        let d = [SetDigest::of([("a", "1")]), SetDigest::default()];
        write_record(dir.path(), &d).unwrap();
        assert_eq!(read_record(dir.path()), Ok(Some(d.to_vec())));
        std::fs::write(dir.path().join(RECORD_FILE), b"{\"format\":1").unwrap();
        assert!(read_record(dir.path()).unwrap_err().contains("unreadable"));
    }

    #[test]
    fn layouts() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert_eq!(missing_files(&d.join("none")).unwrap(), None);
        assert_eq!(missing_files(d).unwrap(), None);
        std::fs::write(d.join(RECORD_FILE), b"").unwrap();
        std::fs::write(d.join("admin.sock"), b"").unwrap();
        assert_eq!(missing_files(d).unwrap(), None, "not sled's files");
        std::fs::write(d.join("db"), b"").unwrap();
        std::fs::write(d.join("snap.0000000000000001.generating"), b"").unwrap();
        assert_eq!(missing_files(d).unwrap(), Some(vec!["conf", "snap.*"]));
        std::fs::write(d.join("conf"), b"").unwrap();
        std::fs::write(d.join("snap.0000000000000001"), b"").unwrap();
        assert_eq!(missing_files(d).unwrap(), Some(vec![]));
    }
}
