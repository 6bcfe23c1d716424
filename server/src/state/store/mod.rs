//! The boundary between the HTTP layer and the state: [`Store`], "keys and counters",
//! held either by this process's sled database (`crate::state::State`, the default) or by
//! a Redis (or Valkey) server shared by several processes (`crate::state::redis`).
//!
//! Where the state lives is one setting, `state` ([`StateLocation`]): a directory for
//! sled, or a `redis://` / `rediss://` URL. The password of Redis is never part of that
//! setting (it would show on command lines and in process lists): it comes from the
//! environment variable [`REDIS_PASSWORD_ENV`].
//!
//! The sled store answers in memory, so its checks stay synchronous: the gate asks
//! [`Store::sled`] first and counts on the spot, exactly as before the boundary existed.
//! The Redis store must wait for Redis, so the gate awaits [`Store::check`] instead. When
//! Redis cannot be reached, a check answers [`StateUnavailable`]: the gate lets public
//! requests through uncounted and refuses keyed ones with 503 `state_unavailable`.

pub mod redis;
pub mod sled;

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::limits::{Decision, LimitsConfig, PublicEndpoint};
use crate::state::keys::{KeyError, KeyRecord, PresentedKey};
use crate::state::redis::RedisState;
use crate::state::State;

/// The environment variable holding the Redis password (with `KALENDORIUS_REDIS_USERNAME`
/// for an ACL user other than `default`).
pub const REDIS_PASSWORD_ENV: &str = "KALENDORIUS_REDIS_PASSWORD";

/// The environment variable holding the Redis ACL user name, if not `default`.
pub const REDIS_USERNAME_ENV: &str = "KALENDORIUS_REDIS_USERNAME";

/// Where keys and counters live, as the `state` setting says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateLocation {
    /// A sled database in this directory (one process).
    Directory(PathBuf),
    /// A Redis server (several processes): the URL as given, without a password.
    Redis(String),
}

/// Why a `state` setting cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LocationError {
    /// The URL carries a password, which would be visible to every user of the machine.
    #[error(
        "the state URL must not contain a password (it would show in process lists and \
         logs): remove it and set {REDIS_PASSWORD_ENV} instead"
    )]
    PasswordInUrl,
    /// A `rediss://` URL in a server built without TLS to Redis.
    #[error(
        "this server was built without TLS to Redis (rediss://): build it with \
         `cargo build --release -p kalendorius-server --features redis-tls`"
    )]
    TlsNotBuilt,
    /// The URL is not one Redis understands.
    #[error("the state URL is not a valid Redis URL: {0}")]
    BadUrl(String),
}

impl StateLocation {
    /// Reads a `state` setting: a `redis://` or `rediss://` URL, or else a directory.
    pub fn parse(given: &Path) -> Result<StateLocation, LocationError> {
        let Some(text) = given.to_str().filter(|t| is_redis_url(t)) else {
            return Ok(StateLocation::Directory(given.to_owned()));
        };
        if text.starts_with("rediss://") && !cfg!(feature = "redis-tls") {
            return Err(LocationError::TlsNotBuilt);
        }
        let info = redis::IntoConnectionInfo::into_connection_info(text)
            .map_err(|e| LocationError::BadUrl(e.to_string()))?;
        if info.redis_settings().password().is_some() {
            return Err(LocationError::PasswordInUrl);
        }
        Ok(StateLocation::Redis(text.to_owned()))
    }
}

/// True when `text` names a Redis server rather than a directory.
fn is_redis_url(text: &str) -> bool {
    text.starts_with("redis://") || text.starts_with("rediss://")
}

/// A check could not be made: the shared store did not answer (in time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the shared state store cannot be reached")]
pub struct StateUnavailable;

/// Why a presented key was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// The key is unknown, revoked or expired.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// The keys cannot be read now.
    #[error(transparent)]
    Unavailable(#[from] StateUnavailable),
}

/// Whose requests one check counts.
#[derive(Debug, Clone, Copy)]
pub enum Counted<'a> {
    /// An address on a public endpoint.
    Public(IpAddr, PublicEndpoint),
    /// An API key (all keyed endpoints together).
    Key(&'a KeyRecord),
}

/// Keys and counters, wherever they live. Cheap to clone.
#[derive(Clone)]
pub enum Store {
    /// This process's sled database.
    Sled(Arc<State>),
    /// A Redis server shared with other processes.
    Redis(Arc<RedisState>),
}

impl Store {
    /// Opens the state at `location` (sled: loads and checks the database; Redis: starts
    /// connecting, without waiting for Redis, so a server starts during a Redis outage).
    pub fn open(location: &Path, limits: LimitsConfig) -> anyhow::Result<Store> {
        Ok(match StateLocation::parse(location)? {
            StateLocation::Directory(dir) => Store::Sled(Arc::new(State::open(&dir, limits)?)),
            StateLocation::Redis(url) => Store::Redis(Arc::new(RedisState::connect(&url, limits)?)),
        })
    }

    /// The sled state, whose checks are synchronous (the gate's fast path).
    pub fn sled(&self) -> Option<&Arc<State>> {
        match self {
            Store::Sled(state) => Some(state),
            Store::Redis(_) => None,
        }
    }

    /// Looks up a presented key. Never logs it. (The gate's sled path calls
    /// `State::authenticate` directly, without a future.)
    pub async fn authenticate(
        &self,
        key: &PresentedKey,
        now: DateTime<Utc>,
    ) -> Result<KeyRecord, AuthError> {
        match self {
            Store::Sled(state) => Ok(state.authenticate(key, now)?),
            Store::Redis(redis) => redis.authenticate(key, now).await,
        }
    }

    /// Requests of the key `id` counted at `now` in its (minute, day) windows.
    pub async fn key_usage(
        &self,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<(u64, u64), StateUnavailable> {
        match self {
            Store::Sled(state) => Ok(state.key_usage(id, now)),
            Store::Redis(redis) => redis.key_usage(id, now).await,
        }
    }

    /// Requests of `ip` on `endpoint` counted at `now` in its (minute, month) windows.
    pub async fn public_usage(
        &self,
        ip: IpAddr,
        endpoint: PublicEndpoint,
        now: DateTime<Utc>,
    ) -> Result<(u64, u64), StateUnavailable> {
        match self {
            Store::Sled(state) => Ok(state.public_usage(ip, endpoint, now)),
            Store::Redis(redis) => redis.public_usage(ip, endpoint, now).await,
        }
    }

    /// Checks and (if admitted) counts one request of `who` at `now`.
    pub async fn check(
        &self,
        who: Counted<'_>,
        now: std::time::SystemTime,
    ) -> Result<Decision, StateUnavailable> {
        match self {
            Store::Sled(state) => Ok(check_sled(state, who, now)),
            Store::Redis(redis) => redis.check(who, now).await,
        }
    }

    /// Why the state cannot serve the API now, for `/ready`; `None` when it can.
    pub fn unready_reason(&self) -> Option<&'static str> {
        match self {
            Store::Sled(state) if !state.is_usable() => Some(
                "not ready: the state database (API keys and rate-limit counters) is not usable; see the server's log",
            ),
            Store::Sled(_) => None,
            Store::Redis(redis) if !redis.is_reachable() => Some(
                "not ready: the shared state store (Redis: API keys and rate-limit counters) cannot be reached; see the server's log",
            ),
            Store::Redis(_) => None,
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &LimitsConfig {
        match self {
            Store::Sled(state) => state.limits(),
            Store::Redis(redis) => redis.limits(),
        }
    }
}

/// The sled store's check: synchronous, in memory.
pub fn check_sled(state: &State, who: Counted<'_>, now: std::time::SystemTime) -> Decision {
    match who {
        Counted::Public(ip, endpoint) => state.check_public(ip, endpoint, now),
        Counted::Key(record) => state.check_key(record, now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_redis_and_anything_else_a_directory() {
        assert_eq!(
            StateLocation::parse(Path::new("var/state")).unwrap(),
            StateLocation::Directory("var/state".into())
        );
        assert_eq!(
            StateLocation::parse(Path::new("redis://127.0.0.1:6379/2")).unwrap(),
            StateLocation::Redis("redis://127.0.0.1:6379/2".into())
        );
        assert_eq!(
            StateLocation::parse(Path::new("redis://:secret@127.0.0.1:6379/0")),
            Err(LocationError::PasswordInUrl)
        );
        assert!(matches!(
            StateLocation::parse(Path::new("redis://127.0.0.1:6379/notanumber")),
            Err(LocationError::BadUrl(_))
        ));
        if !cfg!(feature = "redis-tls") {
            assert_eq!(
                StateLocation::parse(Path::new("rediss://127.0.0.1:6380/0")),
                Err(LocationError::TlsNotBuilt)
            );
        }
    }
}
