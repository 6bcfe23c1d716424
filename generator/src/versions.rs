//! The dataset versions kept in an output root, and the `current` link that picks one.
//!
//! A build publishes a new version directory and swaps `current` to it. This module owns
//! what surrounds that swap, so an operator can go back after a bad regeneration: the swap
//! itself, which older versions a build keeps, and listing them.
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
