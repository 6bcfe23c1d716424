//! Where things live in a dataset directory, and the byte form of the per-year files.
//!
//! ```text
//! output/                      the output root (--out); only README.md is tracked by git
//!   current -> v1-3f2a...      symlink to the dataset in service, swapped atomically
//!   v1-3f2a.../                one dataset directory, named by its dataset version
//!     manifest.json            versions, year range, checksums, counts
//!     places.json              the municipalities' centres whose sun is computed
//!     school_holidays.json     the pupils' holidays: school years and periods
//!     changes.json             what it changes against the version it replaced
//!     years/1583.json ...      one file per year, one day per line
//!     kalendorius.sled/        the sled database the server loads
//! ```
//!
//! sled trees: `meta` (`schema_version` as u32 big-endian, `dataset_version` as UTF-8,
//! `strings`: the string table of [`crate::encoding`]) and `years` (key: [`year_key`],
//! value: the year in the binary form of [`crate::encoding`], which decodes to the same
//! [`crate::YearFile`] as `years/YYYY.json`). The size and SHA-256 of the string table and
//! of every year's value are in the manifest.

/// The manifest file, relative to a dataset directory.
pub const MANIFEST_FILE: &str = "manifest.json";
/// The places ([`crate::PlacesFile`]), relative to a dataset directory.
pub const PLACES_FILE: &str = "places.json";
/// The pupils' holidays ([`crate::SchoolHolidaysFile`]), relative to a dataset directory.
pub const SCHOOL_HOLIDAYS_FILE: &str = "school_holidays.json";
/// The changes against the version replaced ([`crate::Changes`]), relative to a dataset
/// directory.
pub const CHANGES_FILE: &str = "changes.json";
/// The directory of per-year files.
pub const YEARS_DIR: &str = "years";
/// The sled database directory.
pub const DATABASE_DIR: &str = "kalendorius.sled";
/// The symlink in the output root that names the dataset in service.
pub const CURRENT_LINK: &str = "current";

/// sled tree of dataset metadata.
pub const TREE_META: &str = "meta";
/// sled tree of years.
pub const TREE_YEARS: &str = "years";
/// `meta` key of the schema version (u32 big-endian).
pub const META_SCHEMA_VERSION: &[u8] = b"schema_version";
/// `meta` key of the dataset version (UTF-8).
pub const META_DATASET_VERSION: &[u8] = b"dataset_version";
/// `meta` key of the string table ([`crate::encoding::Encoder::string_table`]).
pub const META_STRINGS: &[u8] = b"strings";

/// Path of a year's file, relative to the dataset directory.
pub fn year_file(year: i32) -> String {
    format!("{YEARS_DIR}/{year}.json")
}

/// The sled key of a year: the year as a big-endian u32, so keys sort like years.
pub fn year_key(year: i32) -> [u8; 4] {
    (year as u32).to_be_bytes()
}

/// The bytes of a year file from the JSON of its pupils' holidays (`school_holidays`, a
/// JSON array from `serde_json::to_vec`) and of its days (each from `serde_json::to_vec`).
///
/// The layout is `{"schema_version":..,"year":..,"school_holidays":[..],"days":[` then one
/// day per line: valid JSON that still diffs line by line between dataset versions.
pub fn year_file_bytes<'a>(
    year: i32,
    school_holidays: &[u8],
    day_json: impl IntoIterator<Item = &'a [u8]>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(366 * 400 + school_holidays.len());
    out.extend_from_slice(
        format!(
            "{{\"schema_version\":{},\"year\":{year},\"school_holidays\":",
            crate::SCHEMA_VERSION
        )
        .as_bytes(),
    );
    out.extend_from_slice(school_holidays);
    out.extend_from_slice(b",\"days\":[");
    for (i, day) in day_json.into_iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        out.extend_from_slice(day);
    }
    out.extend_from_slice(b"\n]}\n");
    out
}
