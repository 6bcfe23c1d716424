//! The dataset versions kept in an output root, and the `current` link that picks one.
//!
//! A build publishes a new version directory and swaps `current` to it. This module owns
//! what surrounds that swap, so an operator can go back after a bad regeneration: the swap
//! itself (also used by rollback, so both are equally atomic), which older versions a build
//! keeps, repointing `current` to a kept version after verifying it, and listing them.
//!
//! A version is a directory of the output root named like one (`v<schema>-<12 hex>`) with
//! a manifest; nothing else in the output root is ever removed. Versions are ordered by
//! build time, which is their directory's modification time (what `ls -t` shows): a
//! published directory is never written again, and publishing makes it strictly the newest
//! ([`stamp_newest`]).

use std::fs;
use std::io;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use kalendorius_dataset::layout::{CURRENT_LINK, MANIFEST_FILE};
use kalendorius_dataset::LoadError;

/// How many previous versions a build keeps besides the new current one.
pub const DEFAULT_KEEP: usize = 2;

/// One dataset version in an output root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The dataset version, which is also the directory's name.
    pub name: String,
    /// When it was built (its directory's modification time).
    pub built: SystemTime,
}

/// Why a rollback did not happen. In every case `current` is unchanged.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RollbackError {
    /// `current` is missing or names no kept version, so "the previous one" means nothing.
    #[error("nothing to roll back from: {link} {reason}; name a version with --to (see `kalendorius-generator versions`)")]
    NoCurrent {
        /// The `current` link.
        link: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// `current` is the oldest kept version.
    #[error("nothing to roll back to: {current} ({link}) is the oldest version kept in {out}")]
    NothingOlder {
        /// The version `current` names.
        current: String,
        /// The `current` link.
        link: PathBuf,
        /// The output root.
        out: PathBuf,
    },
    /// `--to` is not a version name (so it cannot be a path out of the output root either).
    #[error("'{0}' is not a dataset version (expected v<schema>-<12 hex>, as `kalendorius-generator versions` lists them)")]
    BadName(String),
    /// The named version is not kept.
    #[error("no dataset version at {0} (no such directory or no manifest in it)")]
    Missing(PathBuf),
    /// The version fails the checks of `verify`.
    #[error("refusing to roll back to {path}, it is damaged: {source}")]
    Damaged {
        /// The version's directory.
        path: PathBuf,
        /// What failed.
        source: LoadError,
    },
    /// The version's manifest names another version.
    #[error("refusing to roll back to {path}, it is damaged: its manifest says it is {found}")]
    Misnamed {
        /// The version's directory.
        path: PathBuf,
        /// The version in its manifest.
        found: String,
    },
    /// The output root or the link could not be read or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// "read" or "write".
        action: &'static str,
        /// What was being read or written.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

/// What a rollback did.
#[derive(Debug, Clone)]
pub struct Rollback {
    /// The version `current` named before, if any.
    pub from: Option<String>,
    /// The version `current` names now.
    pub to: String,
    /// Days in it (all checked).
    pub days: u64,
}

/// Whether a directory name is a dataset version: `v<digits>-<12 hex>`.
pub fn is_version_name(name: &str) -> bool {
    let Some((schema, hash)) = name.strip_prefix('v').and_then(|r| r.split_once('-')) else {
        return false;
    };
    !schema.is_empty()
        && schema.bytes().all(|b| b.is_ascii_digit())
        && hash.len() == 12
        && hash.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The versions in `out`, newest build first (ties by name, so the order is total).
pub fn list(out: &Path) -> io::Result<Vec<Version>> {
    let mut versions = Vec::new();
    for entry in fs::read_dir(out)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // `file_type` does not follow symlinks: a link named like a version is not one.
        if !is_version_name(&name)
            || !entry.file_type()?.is_dir()
            || !entry.path().join(MANIFEST_FILE).is_file()
        {
            continue;
        }
        let built = entry.metadata()?.modified()?;
        versions.push(Version { name, built });
    }
    versions.sort_by(|a, b| b.built.cmp(&a.built).then_with(|| b.name.cmp(&a.name)));
    Ok(versions)
}

/// The version `out/current` names: `Ok(None)` when there is no link.
pub fn current(out: &Path) -> io::Result<Option<String>> {
    match fs::read_link(out.join(CURRENT_LINK)) {
        Ok(target) => Ok(Some(target.to_string_lossy().into_owned())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Points `out/current` at `version` atomically: a new link under a temporary name renamed
/// over the old one, so a reader sees the old target or the new one, never no link.
pub fn point_current(out: &Path, version: &str) -> Result<(), (PathBuf, io::Error)> {
    let link_tmp = out.join(format!(".{CURRENT_LINK}-{}", std::process::id()));
    let _ = fs::remove_file(&link_tmp);
    symlink(version, &link_tmp).map_err(|e| (link_tmp.clone(), e))?;
    let link = out.join(CURRENT_LINK);
    fs::rename(&link_tmp, &link).map_err(|e| {
        let _ = fs::remove_file(&link_tmp);
        (link, e)
    })
}

/// Makes the freshly published `version` strictly the newest build: two builds within one
/// tick of the filesystem clock (or after the clock stepped back) would otherwise tie or
/// invert, and rollback would pick the wrong one.
pub fn stamp_newest(out: &Path, version: &str) -> io::Result<()> {
    let dir = fs::File::open(out.join(version))?;
    let mine = dir.metadata()?.modified()?;
    let newest_other = list(out)?
        .into_iter()
        .find(|v| v.name != version)
        .map(|v| v.built);
    match newest_other {
        Some(other) if other >= mine => dir.set_modified(other + Duration::from_millis(1)),
        _ => Ok(()),
    }
}

/// After a build: keeps `keep` previous versions and removes older ones. The kept ones are
/// the version that was in service before the build (`previous`, the natural rollback
/// target even when it was itself rolled back to), then the most recently built others.
/// Whatever `current` names now is never removed. Failures are ignored: the build
/// succeeded, and the next one tries again.
pub fn prune(out: &Path, keep: usize, previous: Option<&str>) {
    let (Ok(Some(current)), Ok(versions)) = (current(out), list(out)) else {
        return;
    };
    let mut older: Vec<&Version> = versions.iter().filter(|v| v.name != current).collect();
    // A stable sort: `previous` first, the rest stay newest first.
    older.sort_by_key(|v| Some(v.name.as_str()) != previous);
    for version in older.into_iter().skip(keep) {
        // Renamed away first, so a half-removed directory never looks like a version.
        let doomed = out.join(format!(".removing-{}-{}", version.name, std::process::id()));
        if fs::rename(out.join(&version.name), &doomed).is_ok() {
            let _ = fs::remove_dir_all(&doomed);
        }
    }
}

/// Points `out/current` at `to`, or at the newest version built before the current one,
/// after checking it as `kalendorius-generator verify` does. On any error `current` is
/// unchanged. Removes nothing.
pub fn rollback(out: &Path, to: Option<&str>) -> Result<Rollback, RollbackError> {
    let read_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| RollbackError::Io {
            action: "read",
            path,
            source,
        }
    };
    let link = out.join(CURRENT_LINK);
    let from = current(out).map_err(read_err(&link))?;
    let versions = list(out).map_err(read_err(out))?;
    let target = match to {
        Some(name) if !is_version_name(name) => {
            return Err(RollbackError::BadName(name.to_string()))
        }
        Some(name) if versions.iter().any(|v| v.name == name) => name.to_string(),
        Some(name) => return Err(RollbackError::Missing(out.join(name))),
        None => {
            let no_current = |reason: String| RollbackError::NoCurrent {
                link: link.clone(),
                reason,
            };
            let from = from
                .as_deref()
                .ok_or_else(|| no_current("does not exist".into()))?;
            let at = versions
                .iter()
                .position(|v| v.name == from)
                .ok_or_else(|| no_current(format!("names {from}, which is not a kept version")))?;
            versions
                .get(at + 1)
                .map(|v| v.name.clone())
                .ok_or_else(|| RollbackError::NothingOlder {
                    current: from.to_string(),
                    link: link.clone(),
                    out: out.to_path_buf(),
                })?
        }
    };
    let dir = out.join(&target);
    let crate::Verified {
        dataset_version: found,
        days,
        ..
    } = crate::verify(&dir).map_err(|source| RollbackError::Damaged {
        path: dir.clone(),
        source,
    })?;
    if found != target {
        return Err(RollbackError::Misnamed { path: dir, found });
    }
    if from.as_deref() != Some(target.as_str()) {
        point_current(out, &target).map_err(|(path, source)| RollbackError::Io {
            action: "write",
            path,
            source,
        })?;
    }
    Ok(Rollback {
        from,
        to: target,
        days,
    })
}

#[cfg(test)]
mod tests {
    use super::is_version_name;

    #[test]
    fn version_names() {
        assert!(is_version_name("v1-0123456789ab"));
        assert!(is_version_name("v12-ABCDEF012345"));
        for name in [
            "current",
            "v1-0123456789a",
            "v1-0123456789abc",
            "v-0123456789ab",
            "vx-0123456789ab",
            "v1-0123456789ag",
            "v1-../../etc/xx",
            ".build-v1-0123456789ab",
        ] {
            assert!(!is_version_name(name), "{name}");
        }
    }
}
