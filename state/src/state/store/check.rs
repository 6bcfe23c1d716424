//! What the gate asks of a store: whose request a check counts ([`Counted`]), how asking
//! can fail ([`StateUnavailable`], [`AuthError`]), and the steps both stores take alike.

use std::net::IpAddr;

use crate::limits::subject::Limits;
use crate::limits::{LimitsConfig, PublicEndpoint, MAX_LIMIT};
use crate::state::keys::{KeyError, KeyRecord, KeyTable};

/// A check could not be made: the shared store did not answer (in time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the shared state store cannot be reached")]
pub struct StateUnavailable;

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error(transparent)]
    Unavailable(#[from] StateUnavailable),
}

/// Whose requests one check counts.
#[derive(Debug, Clone, Copy)]
pub enum Counted<'a> {
    Public(IpAddr, PublicEndpoint),
    /// An API key (all keyed endpoints together).
    Key(&'a KeyRecord),
}

impl Counted<'_> {
    /// The limits a check counts against: the endpoint's, or the key's own.
    pub(crate) fn limits(self, config: &LimitsConfig) -> Limits {
        match self {
            Counted::Public(_, endpoint) => config.public(endpoint),
            Counted::Key(key) => Limits {
                minute: key.per_minute.clamp(1, MAX_LIMIT),
                long: key.per_day.clamp(1, MAX_LIMIT),
            },
        }
    }
}

/// Adds key `id`'s stored record to `table`, or answers the id's start (for a message).
pub(crate) fn load_record(table: &mut KeyTable, id: &[u8], json: &[u8]) -> Result<(), String> {
    let loaded = serde_json::from_slice::<KeyRecord>(json)
        .ok()
        .filter(|r| r.id.as_bytes() == id)
        .is_some_and(|r| table.upsert(r));
    loaded
        .then_some(())
        .ok_or_else(|| String::from_utf8_lossy(id).chars().take(40).collect())
}
