//! [`Store`]: keys and counters in this process's sled database (`sled`, the default) or in
//! a Redis shared by several processes (`redis`); both persist what `key_admin` decides.

pub mod check;
pub mod location;
pub mod redis;
pub mod sled;

use std::sync::Arc;
use std::time::SystemTime;

use chrono::{DateTime, Utc};

use crate::limits::{Decision, LimitsConfig};
use crate::metrics::RedisMetrics;
use crate::state::keys::{KeyRecord, PresentedKey};
pub use check::{AuthError, Counted, StateUnavailable};
pub use location::{StateError, StateLocation};
use redis::RedisState;
use sled::State;

/// Keys and counters, wherever they live. Cheap to clone.
#[derive(Clone)]
pub enum Store {
    Sled(Arc<State>),
    Redis(Arc<RedisState>),
}

impl Store {
    /// Opens the state at `location`, without waiting for Redis (see [`RedisState::connect`]).
    pub fn open(location: &StateLocation, limits: LimitsConfig) -> anyhow::Result<Store> {
        location.check()?;
        Ok(match location {
            StateLocation::Directory(dir) => Store::Sled(Arc::new(State::open(dir, limits)?)),
            StateLocation::Redis(url) => Store::Redis(Arc::new(RedisState::connect(url, limits)?)),
        })
    }

    /// Looks up a presented key (never logged).
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

    /// Checks and (if admitted) counts one request of `who` at `now`.
    pub async fn check(
        &self,
        who: Counted<'_>,
        now: SystemTime,
    ) -> Result<Decision, StateUnavailable> {
        match self {
            Store::Sled(state) => Ok(state.check(who, now)),
            Store::Redis(redis) => redis.check(who, now).await,
        }
    }

    /// Notes a public request let through uncounted after [`StateUnavailable`] (Redis only).
    pub fn warn_uncounted(&self, now: SystemTime) {
        if let Store::Redis(redis) = self {
            redis.warn_uncounted(now);
        }
    }

    /// Why the state cannot serve the API now, for `/ready`; `None` when it can.
    pub fn unready_reason(&self) -> Option<&'static str> {
        match self {
            Store::Sled(state) if !state.is_usable() => Some(
                "not ready: the state database (API keys and rate-limit counters) is not usable; see the server's log",
            ),
            Store::Redis(redis) if !redis.is_reachable() => Some(
                "not ready: the shared state store (Redis: API keys and rate-limit counters) cannot be reached; see the server's log",
            ),
            Store::Sled(_) | Store::Redis(_) => None,
        }
    }

    /// The latencies of the Redis commands, for a Redis store.
    pub fn redis_metrics(&self) -> Option<&RedisMetrics> {
        match self {
            Store::Sled(_) => None,
            Store::Redis(redis) => Some(&redis.metrics),
        }
    }
}
