//! The manifest: what a dataset is, and how to check that it is intact.

use serde::{Deserialize, Serialize};

/// `manifest.json` at the root of a dataset directory. Deterministic: the same sources give
/// the same bytes (no timestamps; files in path order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`crate::SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// Derived from the content of the sources (and the schema version): equal sources give
    /// an equal version, and any change to a source gives a new one.
    pub dataset_version: String,
    /// First year covered.
    #[schemars(range(min = crate::FIRST_YEAR, max = crate::LAST_YEAR))]
    pub first_year: i32,
    /// Last year covered.
    #[schemars(range(min = crate::FIRST_YEAR, max = crate::LAST_YEAR))]
    pub last_year: i32,
    /// Every file of the dataset besides the manifest, `changes.json` and the database:
    /// `places.json`, `school_holidays.json` and the year files (`years/YYYY.json`), in
    /// path order.
    pub files: Vec<FileEntry>,
    /// `changes.json`: what this version changes against the version it replaced
    /// ([`crate::Changes`]). Unlike the year files it depends on that version too, not only
    /// on the sources.
    pub changes: FileEntry,
    /// The sled database.
    pub database: DatabaseEntry,
    /// Totals, for a human reading the manifest and for checks.
    pub counts: Counts,
}

/// A file and its checksum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// Path relative to the dataset directory, with `/` separators.
    pub path: String,
    /// Size in bytes.
    pub bytes: u64,
    /// SHA-256 of the content, lower-case hex.
    #[schemars(pattern(crate::schema::SHA256_PATTERN))]
    pub sha256: String,
}

/// The sled database, verified by content because its files are not byte-stable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DatabaseEntry {
    /// Directory relative to the dataset directory.
    pub path: String,
    /// [`crate::encoding::FORMAT_VERSION`] of the year values.
    pub format: u32,
    /// Number of key/value pairs over all trees.
    pub entries: u64,
    /// [`crate::digest::ContentDigest`] of every tree, lower-case hex.
    #[schemars(pattern(crate::schema::SHA256_PATTERN))]
    pub content_sha256: String,
    /// The string table (`meta` key `strings`) the years refer to.
    pub strings: StoredValue,
    /// Every value of the `years` tree, in year order.
    pub values: Vec<DatabaseValue>,
}

/// A value of the sled database and its checksum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StoredValue {
    /// Size of the value in bytes.
    pub bytes: u64,
    /// SHA-256 of the value, lower-case hex.
    #[schemars(pattern(crate::schema::SHA256_PATTERN))]
    pub sha256: String,
}

/// One year's value in the sled database and its checksum, so a damaged year is refused by
/// name before it is decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DatabaseValue {
    /// The year (its key is [`crate::layout::year_key`]).
    #[schemars(range(min = crate::FIRST_YEAR, max = crate::LAST_YEAR))]
    pub year: i32,
    /// Size of the value in bytes.
    pub bytes: u64,
    /// SHA-256 of the value, lower-case hex.
    #[schemars(pattern(crate::schema::SHA256_PATTERN))]
    pub sha256: String,
}

/// Totals over the dataset.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Days covered.
    pub days: u64,
    /// Holiday records over all days.
    pub holiday_records: u64,
    /// Holiday records with `is_red`.
    pub red_holiday_records: u64,
    /// Days that are non-working.
    pub non_working_days: u64,
    /// Days with a declared transfer.
    pub transfers: u64,
    /// Name-day records over all days.
    pub name_day_records: u64,
    /// Holiday records in the sources.
    pub source_holidays: u64,
    /// Transfer records in the sources.
    pub source_transfers: u64,
    /// Name-day rows in the sources.
    pub source_name_days: u64,
}
