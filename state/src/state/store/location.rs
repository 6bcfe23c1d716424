//! Where keys and counters live ([`StateLocation`], the `state` setting: a sled directory or
//! a `redis://` / `rediss://` URL) and why a store cannot be opened or written there.

use std::path::{Path, PathBuf};

/// The environment variables of the Redis password and ACL user name (if not `default`).
pub const REDIS_PASSWORD_ENV: &str = "KALENDORIUS_REDIS_PASSWORD";
pub const REDIS_USERNAME_ENV: &str = "KALENDORIUS_REDIS_USERNAME";

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "PathBuf", untagged)]
pub enum StateLocation {
    /// A sled database in this directory (one process).
    Directory(PathBuf),
    /// A Redis server (several processes): the URL as given, without a password.
    Redis(String),
}

/// Why the state cannot be opened or written, in one line (naming the database directory).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    #[error(
        "the state URL must not contain a password (it would show in process lists and \
         logs): remove it and set {REDIS_PASSWORD_ENV} instead"
    )]
    PasswordInUrl,
    #[error(
        "this server was built without TLS to Redis (rediss://): build it with \
         `cargo build --release -p kalendorius-server --features redis-tls`"
    )]
    TlsNotBuilt,
    #[error("the state URL is not a valid Redis URL: {0}")]
    BadUrl(String),
    #[error("invalid rate-limit configuration: {0}")]
    Config(String),
    #[error(
        "the state database {} is in use by another process (is the server running? its \
         admin socket did not answer)",
        .dir.display()
    )]
    InUse { dir: PathBuf },
    /// Refused, so that a server never starts with fewer keys than it had.
    #[error(
        "the state database at {} is damaged ({detail}): restore it from a backup (`keys \
         import`, see docs/operations.md#backups), or move it away to start empty",
        .dir.display()
    )]
    Damaged { dir: PathBuf, detail: String },
    #[error("cannot {action} the state database at {}: {message}", .dir.display())]
    Storage {
        dir: PathBuf,
        /// What was being done ("open", "read", "write counters to", ...).
        action: &'static str,
        message: String,
    },
}

impl StateLocation {
    /// Checks that a Redis URL can be used (no password in it, TLS built if asked for), when
    /// the store opens, so no message quotes a URL with a password (clap's and TOML's would).
    pub fn check(&self) -> Result<(), StateError> {
        let StateLocation::Redis(text) = self else {
            return Ok(());
        };
        if text.starts_with("rediss://") && !cfg!(feature = "redis-tls") {
            return Err(StateError::TlsNotBuilt);
        }
        let info = redis::IntoConnectionInfo::into_connection_info(text.as_str())
            .map_err(|e| StateError::BadUrl(e.to_string()))?;
        info.redis_settings()
            .password()
            .map_or(Ok(()), |_| Err(StateError::PasswordInUrl))
    }
}

/// A `redis://` or `rediss://` URL names Redis, anything else a directory (checked at open).
impl From<PathBuf> for StateLocation {
    fn from(path: PathBuf) -> StateLocation {
        let redis_url = |t: &&str| t.starts_with("redis://") || t.starts_with("rediss://");
        match path.to_str().filter(redis_url) {
            Some(url) => StateLocation::Redis(url.to_owned()),
            None => StateLocation::Directory(path),
        }
    }
}

impl StateError {
    pub(crate) fn config(message: impl ToString) -> Self {
        StateError::Config(message.to_string())
    }

    pub(crate) fn damaged(dir: &Path) -> impl Fn(String) -> StateError + Copy + '_ {
        |detail| StateError::Damaged {
            dir: dir.to_owned(),
            detail,
        }
    }

    pub(crate) fn storage(dir: &Path, action: &'static str, message: impl ToString) -> Self {
        StateError::Storage {
            dir: dir.to_owned(),
            action,
            message: message.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_redis_and_anything_else_a_directory() {
        let parse = |given: &str| {
            let location = StateLocation::from(PathBuf::from(given));
            location.check().map(|()| location)
        };
        assert_eq!(
            parse("var/state").unwrap(),
            StateLocation::Directory("var/state".into())
        );
        assert_eq!(
            parse("redis://127.0.0.1:6379/2").unwrap(),
            StateLocation::Redis("redis://127.0.0.1:6379/2".into())
        );
        assert_eq!(
            parse("redis://:secret@127.0.0.1:6379/0"),
            Err(StateError::PasswordInUrl)
        );
        assert!(matches!(
            parse("redis://127.0.0.1:6379/notanumber"),
            Err(StateError::BadUrl(_))
        ));
        if !cfg!(feature = "redis-tls") {
            assert_eq!(
                parse("rediss://127.0.0.1:6380/0"),
                Err(StateError::TlsNotBuilt)
            );
        }
    }
}
