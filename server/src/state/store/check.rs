//! What the request gate asks of a store: whose request a check counts ([`Counted`]) and
//! how asking can fail ([`StateUnavailable`], [`AuthError`]).

use std::net::IpAddr;

use crate::limits::PublicEndpoint;
use crate::state::keys::{KeyError, KeyRecord};

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
    Public(IpAddr, PublicEndpoint),
    /// An API key (all keyed endpoints together).
    Key(&'a KeyRecord),
}
