//! The server's mutable state: keys and rate-limit counters in their own sled database
//! (default `var/state`), separate from the dataset so regenerating never touches them.
//!
//! OWNER: state helper. Interface fixed by the lead; bodies to be written.
//! The hot path never waits on disk: counts live in memory; a background task persists
//! them at least once a second in one batch; `flush` runs on shutdown.

use std::net::IpAddr;
use std::path::Path;

use chrono::{DateTime, Utc};

use crate::keys::{KeyError, KeyRecord, PresentedKey};
use crate::limits::{Decision, LimitsConfig, PublicEndpoint};

/// Keys, counters and their persistence. Shared as `Arc<State>`.
pub struct State {
    _private: (),
}

impl State {
    /// Opens (creating if needed) the state database at `dir` and loads keys and counters.
    pub fn open(_dir: &Path, _limits: LimitsConfig) -> anyhow::Result<State> {
        todo!("state helper")
    }

    /// Looks up a presented key. Never logs it.
    pub fn authenticate(&self, _key: &PresentedKey, _now: DateTime<Utc>) -> Result<KeyRecord, KeyError> {
        todo!("state helper")
    }

    /// Checks and (if admitted) counts one request of `ip` to a public endpoint.
    pub fn check_public(&self, _ip: IpAddr, _endpoint: PublicEndpoint, _now: DateTime<Utc>) -> Decision {
        todo!("state helper")
    }

    /// Checks and (if admitted) counts one request made with `key`.
    pub fn check_key(&self, _key: &KeyRecord, _now: DateTime<Utc>) -> Decision {
        todo!("state helper")
    }

    /// Runs until `shutdown` resolves: persists counters at least once a second, serves the
    /// admin socket (keys commands from `kalendorius-server keys ...` while the server runs),
    /// then does a final flush.
    pub async fn run_background(
        self: std::sync::Arc<Self>,
        _admin_socket: &Path,
        _shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        todo!("state helper")
    }

    /// Persists every counter and key change now and waits for sled to flush.
    pub fn flush(&self) -> anyhow::Result<()> {
        todo!("state helper")
    }
}
