//! `/data`: the dataset's files byte for byte, tagged with their SHA-256 and checked against
//! the manifest, and their JSON Schemas. The manifest is read once per version, the other
//! files (67 MB of years: more than the memory budget) on first request into a cache. A year
//! file listed but absent (the server needs only the database) is a JSON 404 saying so.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use kalendorius_dataset::layout::{year_file, CHANGES_FILE, MANIFEST_FILE, SCHOOL_HOLIDAYS_FILE};
use kalendorius_dataset::{FileEntry, Manifest};
use parking_lot::RwLock;
use poem::http::HeaderValue;
use poem::{IntoResponse, Request, Response};

use crate::catalog::Catalog;
use crate::http::cache::ByteCache;
use crate::http::caching;
use crate::http::errors::{self, ApiError, ErrorCode, JSON_CONTENT_TYPE};
use crate::metrics::CacheMetrics;

pub const PREFIX: &str = "/data";

/// A dataset changes at most daily.
pub const CACHE_CONTROL: &str = "public, max-age=86400";

/// Bytes of year files kept in memory (about 10 years of 185 KB).
pub const YEAR_CACHE_BUDGET: usize = 2 << 20;

pub const SCHEMA_CONTENT_TYPE: &str = "application/schema+json";

pub const SCHEMA_DIR: &str = "schema";

/// In the order of `Published::schemas`.
pub const SCHEMA_FILES: [&str; 4] = [
    "manifest.schema.json",
    "year.schema.json",
    "school_holidays.schema.json",
    "changes.schema.json",
];

/// A fault of the installation (a dataset directory removed or altered while in service),
/// answered as a 500, except [`PublishedError::FileMissing`], a 404.
#[derive(Debug, thiserror::Error)]
pub enum PublishedError {
    #[error("{path} is listed in the manifest but missing")]
    FileMissing { year: i32, path: PathBuf },
    #[error("no dataset directory of version {version} under {root}")]
    Missing { root: PathBuf, version: String },
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("manifest {path} does not parse: {source}")]
    BadManifest {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{path} does not match its manifest entry: {reason}")]
    Mismatch { path: PathBuf, reason: String },
}

#[derive(Clone)]
struct Document {
    body: Bytes,
    etag: HeaderValue,
}

/// The published files of every dataset version put in service, one at a time.
pub struct Published {
    /// An output root or a dataset directory.
    root: PathBuf,
    /// The files of the version in service, once a request has needed them.
    current: RwLock<Option<Arc<PublishedDataset>>>,
    schemas: [Document; 4],
    /// Each version's cache counts in them.
    cache_metrics: CacheMetrics,
}

impl Published {
    pub fn new(root: &Path, cache_metrics: CacheMetrics) -> Published {
        let schema = |value: serde_json::Value| {
            let body = serde_json::to_vec_pretty(&value).expect("a JSON value always serializes");
            let body = Bytes::from(body);
            let etag = quoted(&kalendorius_dataset::digest::sha256_hex(&body));
            Document { body, etag }
        };
        Published {
            root: root.to_path_buf(),
            current: RwLock::new(None),
            schemas: [
                kalendorius_dataset::schema::manifest_schema(),
                kalendorius_dataset::schema::year_schema(),
                kalendorius_dataset::schema::school_holidays_schema(),
                kalendorius_dataset::schema::changes_schema(),
            ]
            .map(schema),
            cache_metrics,
        }
    }

    fn dataset(&self, catalog: &Catalog) -> Result<Arc<PublishedDataset>, PublishedError> {
        let current = self.current.read().clone();
        if let Some(dataset) = current.filter(|d| d.manifest.dataset_version == catalog.version) {
            return Ok(dataset);
        }
        let metrics = self.cache_metrics.clone();
        let dataset = PublishedDataset::open(&self.root, catalog.version, metrics).map(Arc::new)?;
        *self.current.write() = Some(dataset.clone());
        Ok(dataset)
    }

    pub fn answer(&self, req: &Request, catalog: &Catalog) -> Response {
        let path = req.uri().path();
        let rest = path.strip_prefix(PREFIX).unwrap_or(path);
        let schema = rest
            .strip_prefix('/')
            .and_then(|r| r.strip_prefix(SCHEMA_DIR)?.strip_prefix('/'))
            .and_then(|name| SCHEMA_FILES.iter().position(|&file| file == name));
        if let Some(index) = schema {
            return serve(req, &self.schemas[index], SCHEMA_CONTENT_TYPE);
        }
        let document = self
            .dataset(catalog)
            .and_then(|dataset| dataset.document(rest));
        let (first, last) = (catalog.first.year(), catalog.last.year());
        let message = match document {
            Ok(Some(document)) => return serve(req, &document, JSON_CONTENT_TYPE),
            Ok(None) => match year_of(rest) {
                Some(year) => format!(
                    "year {year} is not in the dataset in service, which covers {first}..{last}"
                ),
                None => format!(
                    "no such published file; the files are /data/manifest.json, /data/school_holidays.json, /data/changes.json, /data/years/YYYY.json ({first}..{last}) and /data/schema/{{manifest,year,school_holidays,changes}}.schema.json"
                ),
            },
            Err(PublishedError::FileMissing { year, path }) => {
                tracing::warn!(path = %path.display(), "a published year file is missing");
                format!(
                    "year {year} is in the dataset in service ({}), but its published file {} is missing on this server; the API and the feeds still answer for it",
                    catalog.version,
                    year_file(year)
                )
            }
            Err(err) => {
                tracing::error!(error = %err, "a published file cannot be served");
                return errors::internal().into_response();
            }
        };
        ApiError::new(ErrorCode::NotFound, message).into_response()
    }
}

/// The year of `/years/YYYY.json` (four digits).
fn year_of(rest: &str) -> Option<i32> {
    let digits = rest.strip_prefix("/years/")?.strip_suffix(".json")?;
    let four_digits = digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_digit());
    digits.parse().ok().filter(|_| four_digits)
}

fn serve(req: &Request, document: &Document, content_type: &'static str) -> Response {
    let (etag, body) = (&document.etag, document.body.clone());
    caching::fixed(req.headers(), etag, CACHE_CONTROL, content_type, body)
}

pub struct PublishedDataset {
    dir: PathBuf,
    manifest: Manifest,
    /// Year → index of its entry in `manifest.files`.
    year_entries: HashMap<i32, usize>,
    manifest_file: Document,
    /// Files read so far, by their path in the manifest.
    files: ByteCache<String, Bytes>,
}

impl PublishedDataset {
    /// Finds the directory of `version` among the candidates under `root`; reads its manifest.
    fn open(root: &Path, version: &str, metrics: CacheMetrics) -> Result<Self, PublishedError> {
        for candidate in [root.join(version), root.join("current"), root.to_path_buf()] {
            let manifest_path = candidate.join(MANIFEST_FILE);
            let Ok(bytes) = std::fs::read(&manifest_path) else {
                continue;
            };
            let manifest: Manifest =
                serde_json::from_slice(&bytes).map_err(|source| PublishedError::BadManifest {
                    path: manifest_path.clone(),
                    source,
                })?;
            if manifest.dataset_version != version {
                continue;
            }
            let dir = std::fs::canonicalize(&candidate).map_err(|source| PublishedError::Io {
                path: candidate.clone(),
                source,
            })?;
            let etag = quoted(&kalendorius_dataset::digest::sha256_hex(&bytes));
            let year_entries = (manifest.first_year..=manifest.last_year)
                .filter_map(|year| {
                    let name = year_file(year);
                    Some((year, manifest.files.iter().position(|f| f.path == name)?))
                })
                .collect();
            return Ok(PublishedDataset {
                dir,
                manifest,
                year_entries,
                manifest_file: Document {
                    body: Bytes::from(bytes),
                    etag,
                },
                files: ByteCache::new(YEAR_CACHE_BUDGET, metrics),
            });
        }
        Err(PublishedError::Missing {
            root: root.to_path_buf(),
            version: version.to_string(),
        })
    }

    /// The document at `rest` (the path after `/data`), `None` when there is none.
    fn document(&self, rest: &str) -> Result<Option<Document>, PublishedError> {
        let mismatch = |reason: String| PublishedError::Mismatch {
            path: self.dir.join(MANIFEST_FILE),
            reason,
        };
        let year = year_of(rest);
        let entry = match rest {
            "/manifest.json" => return Ok(Some(self.manifest_file.clone())),
            "/school_holidays.json" => self
                .manifest
                .files
                .iter()
                .find(|f| f.path == SCHOOL_HOLIDAYS_FILE)
                .ok_or_else(|| mismatch(format!("{SCHOOL_HOLIDAYS_FILE} is not listed")))?,
            "/changes.json" if self.manifest.changes.path != CHANGES_FILE => {
                let reason = format!("the changes entry names {}", self.manifest.changes.path);
                return Err(mismatch(reason));
            }
            "/changes.json" => &self.manifest.changes,
            _ => match year.and_then(|year| self.year_entries.get(&year)) {
                Some(&index) => &self.manifest.files[index],
                None => return Ok(None),
            },
        };
        Ok(Some(Document {
            body: self.file_bytes(entry, year)?,
            etag: quoted(&entry.sha256),
        }))
    }

    /// The bytes of `entry`'s file, checked against its size and SHA-256, and cached. Only a
    /// missing year file is [`PublishedError::FileMissing`].
    fn file_bytes(&self, entry: &FileEntry, year: Option<i32>) -> Result<Bytes, PublishedError> {
        if let Some(bytes) = self.files.get(entry.path.as_str()) {
            return Ok(bytes);
        }
        let path = self.dir.join(&entry.path);
        let bytes = std::fs::read(&path).map_err(|source| match year {
            Some(year) if source.kind() == std::io::ErrorKind::NotFound => {
                PublishedError::FileMissing {
                    year,
                    path: path.clone(),
                }
            }
            _ => PublishedError::Io {
                path: path.clone(),
                source,
            },
        })?;
        let sha = kalendorius_dataset::digest::sha256_hex(&bytes);
        if bytes.len() as u64 != entry.bytes || sha != entry.sha256 {
            return Err(PublishedError::Mismatch {
                reason: format!(
                    "{} bytes with SHA-256 {sha}, the manifest says {} bytes with {}",
                    bytes.len(),
                    entry.bytes,
                    entry.sha256
                ),
                path,
            });
        }
        let bytes = Bytes::from(bytes);
        self.files.insert(entry.path.clone(), bytes.clone());
        Ok(bytes)
    }
}

fn quoted(text: &str) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{text}\"")).expect("hex digits are a valid header value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_four_digit_years_are_year_files() {
        assert_eq!(year_of("/years/2026.json"), Some(2026));
        assert_eq!(year_of("/years/0999.json"), Some(999));
        assert_eq!(year_of("/years/20261.json"), None);
        assert_eq!(year_of("/years/+202.json"), None);
        assert_eq!(year_of("/years/2026"), None);
        assert_eq!(year_of("/manifest.json"), None);
    }
}
