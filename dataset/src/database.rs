//! Writing and reading the sled database of a dataset.
//!
//! The database holds one value per year, in the compact binary form of
//! [`crate::encoding`], and is what the server loads. Each value's SHA-256 is recorded in
//! the manifest, so a damaged or altered year is refused by name before it is decoded.
//!
//! sled 0.34 has no read-only mode and rewrites files when it opens a database, and it takes
//! an exclusive lock that can outlive a dropped handle. A reader therefore never opens the
//! dataset's own directory: it copies it (a few MiB) to a private temporary directory and
//! opens that with a small cache, so a published dataset is never mutated, a generator
//! publishing the next version at the same time is never disturbed (it writes elsewhere and
//! renames), and a reload can open the same path again at once. The handle is dropped as
//! soon as the values are read: the server keeps its own compact form and no sled memory.

use std::fs;
use std::path::Path;

use crate::digest::{sha256_hex, ContentDigest};
use crate::encoding::{decode_strings, decode_year, FORMAT_VERSION};
use crate::layout::{
    year_key, META_DATASET_VERSION, META_SCHEMA_VERSION, META_STRINGS, TREE_META, TREE_YEARS,
};
use crate::{DatabaseEntry, DatabaseValue, LoadError, StoredValue, YearFile};

/// sled's page cache while reading: every value is read once, so a cache only costs memory.
const READ_CACHE_BYTES: u64 = 1 << 20;

/// Writes a new database at `dir` (which must not exist) holding the string table and each
/// year's encoded value (as [`crate::encoding::Encoder`] makes them), years given in year
/// order. Returns its manifest entry (path left empty for the caller).
///
/// One value per year, not per day: sled writes a few hundred values in a few milliseconds
/// but 189 000 small ones in about 1.8 s, and every reader loads whole years anyway.
pub fn write_database(
    dir: &Path,
    dataset_version: &str,
    strings: &[u8],
    years: &[(i32, Vec<u8>)],
) -> Result<DatabaseEntry, sled::Error> {
    let db = sled::Config::new()
        .path(dir)
        .create_new(true)
        .cache_capacity(8 << 20)
        .flush_every_ms(None)
        .open()?;
    let mut digest = ContentDigest::new();

    // Meta entries are fed to the digest in key order, as a reader will iterate them.
    let meta = db.open_tree(TREE_META)?;
    let mut meta_entries = [
        (
            META_SCHEMA_VERSION,
            crate::SCHEMA_VERSION.to_be_bytes().to_vec(),
        ),
        (META_DATASET_VERSION, dataset_version.as_bytes().to_vec()),
        (META_STRINGS, strings.to_vec()),
    ];
    meta_entries.sort();
    digest.tree(TREE_META);
    for (key, value) in &meta_entries {
        meta.insert(key, value.as_slice())?;
        digest.entry(key, value);
    }

    let tree = db.open_tree(TREE_YEARS)?;
    digest.tree(TREE_YEARS);
    let mut batch = sled::Batch::default();
    let mut values = Vec::with_capacity(years.len());
    for (year, value) in years {
        let key = year_key(*year);
        digest.entry(&key, value);
        batch.insert(&key, value.as_slice());
        values.push(DatabaseValue {
            year: *year,
            bytes: value.len() as u64,
            sha256: sha256_hex(value),
        });
    }
    tree.apply_batch(batch)?;
    db.flush()?;
    drop(db);
    let (entries, content_sha256) = digest.finish();
    Ok(DatabaseEntry {
        path: String::new(),
        format: FORMAT_VERSION,
        entries,
        content_sha256,
        strings: StoredValue {
            bytes: strings.len() as u64,
            sha256: sha256_hex(strings),
        },
        values,
    })
}

/// What the `meta` tree of a database says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseMeta {
    /// Schema version stored in the database.
    pub schema_version: u32,
    /// Dataset version stored in the database.
    pub dataset_version: String,
}

/// Reads every year of the database at `dir`, in year order, handing each decoded year to
/// `each_year`, and checks the database against `expected`: the format version, the size
/// and SHA-256 of the string table and of every year's value (before it is decoded), that
/// the years are exactly those of the entry, and the content digest of the whole database.
///
/// Years are streamed, not collected, so a reader can keep a compact form of its own.
pub fn read_database(
    dir: &Path,
    expected: &DatabaseEntry,
    mut each_year: impl FnMut(YearFile) -> Result<(), LoadError>,
) -> Result<DatabaseMeta, LoadError> {
    let mismatch = |reason: String| LoadError::DatabaseMismatch {
        path: dir.to_path_buf(),
        reason,
    };
    if expected.format != FORMAT_VERSION {
        return Err(mismatch(format!(
            "the manifest says format {}, this program reads format {FORMAT_VERSION}",
            expected.format
        )));
    }
    let private = tempfile::Builder::new()
        .prefix("kalendorius-dataset-")
        .tempdir()
        .map_err(|source| LoadError::Io {
            path: std::env::temp_dir(),
            source,
        })?;
    let copy = private.path().join("db");
    copy_dir(dir, &copy)?;
    let db = sled::Config::new()
        .path(&copy)
        .cache_capacity(READ_CACHE_BYTES)
        .flush_every_ms(None)
        .open()
        .map_err(|source| LoadError::Database {
            path: dir.to_path_buf(),
            source,
        })?;
    let sled_err = |source| LoadError::Database {
        path: dir.to_path_buf(),
        source,
    };

    let mut digest = ContentDigest::new();
    let mut schema_version = None;
    let mut dataset_version = None;
    let mut strings = None;
    digest.tree(TREE_META);
    for item in db.open_tree(TREE_META).map_err(sled_err)?.iter() {
        let (key, value) = item.map_err(sled_err)?;
        digest.entry(&key, &value);
        if &*key == META_SCHEMA_VERSION {
            let bytes: [u8; 4] = value
                .as_ref()
                .try_into()
                .map_err(|_| mismatch("schema_version is not 4 bytes".into()))?;
            schema_version = Some(u32::from_be_bytes(bytes));
        } else if &*key == META_DATASET_VERSION {
            dataset_version = Some(
                String::from_utf8(value.to_vec())
                    .map_err(|_| mismatch("dataset_version is not UTF-8".into()))?,
            );
        } else if &*key == META_STRINGS {
            check_value(&value, &expected.strings.bytes, &expected.strings.sha256)
                .map_err(|reason| mismatch(format!("string table: {reason}")))?;
            strings =
                Some(decode_strings(&value).map_err(|e| mismatch(format!("string table: {e}")))?);
        }
    }
    let strings = strings.ok_or_else(|| mismatch("no string table".into()))?;
    digest.tree(TREE_YEARS);
    let mut listed = expected.values.iter();
    for item in db.open_tree(TREE_YEARS).map_err(sled_err)?.iter() {
        let (key, value) = item.map_err(sled_err)?;
        digest.entry(&key, &value);
        let Some(entry) = listed.next() else {
            return Err(mismatch(format!(
                "key {} is not listed in the manifest",
                hex_key(&key)
            )));
        };
        let damaged = |reason: String| LoadError::DatabaseValue {
            path: dir.to_path_buf(),
            year: entry.year,
            reason,
        };
        if key.as_ref() != year_key(entry.year) {
            return Err(damaged(format!(
                "found key {} where the manifest lists this year",
                hex_key(&key)
            )));
        }
        check_value(&value, &entry.bytes, &entry.sha256).map_err(damaged)?;
        let file = decode_year(&value, &strings).map_err(|e| damaged(e.to_string()))?;
        drop(value);
        if file.year != entry.year {
            return Err(damaged(format!("the value holds year {}", file.year)));
        }
        each_year(file)?;
    }
    if let Some(missing) = listed.next() {
        return Err(LoadError::DatabaseValue {
            path: dir.to_path_buf(),
            year: missing.year,
            reason: "listed in the manifest but not in the database".into(),
        });
    }
    drop(db);
    let (entries, content_sha256) = digest.finish();
    if entries != expected.entries || content_sha256 != expected.content_sha256 {
        return Err(mismatch(format!(
            "content digest {content_sha256} over {entries} entries, manifest says {} over {}",
            expected.content_sha256, expected.entries
        )));
    }
    Ok(DatabaseMeta {
        schema_version: schema_version.ok_or_else(|| mismatch("no schema_version".into()))?,
        dataset_version: dataset_version.ok_or_else(|| mismatch("no dataset_version".into()))?,
    })
}

/// Whether a value has the size and SHA-256 the manifest records, and if not, what differs.
fn check_value(value: &[u8], bytes: &u64, sha256: &str) -> Result<(), String> {
    if value.len() as u64 != *bytes {
        return Err(format!("{} bytes, manifest says {bytes}", value.len()));
    }
    let sha = sha256_hex(value);
    if sha != sha256 {
        return Err(format!("SHA-256 {sha}, manifest says {sha256}"));
    }
    Ok(())
}

fn hex_key(key: &[u8]) -> String {
    hex::encode(key)
}

/// Copies the directory tree `from` to `to` (created): how a reader takes its private copy
/// of a database.
pub fn copy_dir(from: &Path, to: &Path) -> Result<(), LoadError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| LoadError::Io { path, source }
    };
    fs::create_dir_all(to).map_err(io(to))?;
    for entry in fs::read_dir(from).map_err(io(from))? {
        let entry = entry.map_err(io(from))?;
        let target = to.join(entry.file_name());
        if entry.file_type().map_err(io(&entry.path()))?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target).map_err(io(&entry.path()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::Encoder;

    #[test]
    fn a_database_of_another_format_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db");
        let strings = Encoder::new().string_table();
        let mut entry = write_database(&db, "v0-test", &strings, &[]).unwrap();
        read_database(&db, &entry, |_| Ok(())).unwrap();
        entry.format = FORMAT_VERSION - 1;
        let err = read_database(&db, &entry, |_| Ok(())).unwrap_err();
        let message = err.to_string();
        let formats = format!(
            "the manifest says format {}, this program reads format {FORMAT_VERSION}",
            FORMAT_VERSION - 1
        );
        assert!(message.contains(&formats), "{message}");
        assert!(message.contains("kalendorius-generator build"), "{message}");
    }
}
