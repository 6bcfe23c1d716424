//! Rate limits (DECISIONS D9): per IP per public endpoint, per key for the keyed ones.
//!
//! OWNER: state helper. Interface fixed by the lead; bodies to be written.

use std::net::IpAddr;

/// The configured limits; defaults are the spec's numbers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// `/laisvadienis` per IP per sliding minute.
    pub laisvadienis_per_minute: u64,
    /// `/laisvadienis` per IP per calendar month (UTC).
    pub laisvadienis_per_month: u64,
    /// `/days` per IP per sliding minute.
    pub days_per_minute: u64,
    /// `/days` per IP per calendar month (UTC).
    pub days_per_month: u64,
    /// Per-minute limit given to new keys unless `keys create --per-minute` says otherwise.
    pub key_default_per_minute: u64,
    /// Per-day limit given to new keys unless `keys create --per-day` says otherwise.
    pub key_default_per_day: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            laisvadienis_per_minute: 60,
            laisvadienis_per_month: 10_000,
            days_per_minute: 20,
            days_per_month: 2_000,
            key_default_per_minute: 60,
            key_default_per_day: 10_000,
        }
    }
}

/// The public (per-IP limited) endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PublicEndpoint {
    /// `/api/v1/laisvadienis`
    Laisvadienis,
    /// `/api/v1/days`
    Days,
}

/// Which window refused a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Sliding 60 s: `rate_limit_minute`.
    Minute,
    /// Sliding 24 h: `rate_limit_day`.
    Day,
    /// Calendar month, UTC: `rate_limit_month`.
    Month,
}

impl Window {
    /// The D1 error code of a 429 for this window.
    pub fn code(self) -> &'static str {
        match self {
            Window::Minute => "rate_limit_minute",
            Window::Day => "rate_limit_day",
            Window::Month => "rate_limit_month",
        }
    }
}

/// The outcome of one check, with what the `RateLimit-*` headers must say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// `None` = admitted (and counted); `Some(w)` = refused by `w` (the longest exhausted
    /// window), nothing counted.
    pub refused_by: Option<Window>,
    /// `RateLimit-Limit` of the tightest window.
    pub limit: u64,
    /// `RateLimit-Remaining` of the tightest window, after this request.
    pub remaining: u64,
    /// `RateLimit-Reset`: seconds until the tightest window frees capacity.
    pub reset_secs: u64,
    /// `Retry-After` seconds, on a refusal.
    pub retry_after_secs: Option<u64>,
}

/// Placeholder to keep the types used until the state helper lands the implementation.
#[allow(dead_code)]
fn _uses(_: IpAddr) {}
