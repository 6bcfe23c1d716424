//! API keys (DECISIONS D10): generation, hashing, and the in-memory key table.
//!
//! OWNER: state helper. Interface fixed by the lead; bodies to be written.
//! A key is `ltk_` + 32 random bytes in base32/hex (>= 128 bits). Only its SHA-256 is stored.
//! The plaintext is shown once, at creation, and never logged.

use chrono::{DateTime, Utc};

/// A presented key, as sent by a client (never logged; `Debug` redacts it).
pub struct PresentedKey(pub String);

impl std::fmt::Debug for PresentedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PresentedKey(<redacted>)")
    }
}

/// Stable identifier of a stored key: the hex SHA-256 of the plaintext's first 8 bytes of
/// hash (short id shown by `keys list`), used to address it in the CLI and in counters.
pub type KeyId = String;

/// A stored key, as the server sees it after a successful lookup.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KeyRecord {
    /// Short id (first 16 hex chars of the hash); what `keys show/revoke` take.
    pub id: KeyId,
    /// Full SHA-256 of the plaintext, lower-case hex.
    pub hash: String,
    /// Who the key was issued to (logged instead of the key).
    pub owner: String,
    /// Requests per sliding 60 s.
    pub per_minute: u64,
    /// Requests per sliding 24 h.
    pub per_day: u64,
    /// Creation time.
    pub created: DateTime<Utc>,
    /// Expiry; `None` = never.
    pub expires: Option<DateTime<Utc>>,
    /// False once revoked.
    pub active: bool,
}

/// Why a presented key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Unknown or revoked: 401 `invalid_key`.
    #[error("invalid_key")]
    Invalid,
    /// Past its expiry: 401 `expired_key`.
    #[error("expired_key")]
    Expired,
}
