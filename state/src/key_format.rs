//! How an API key looks on the wire, for the key store that makes keys, the gate that reads
//! them and the log that hides them, all above this.

/// Printable prefix of every key, so leaked keys are easy to recognise (and scan for).
pub const KEY_PREFIX: &str = "ltk_";

/// The query parameter of the testing-only way to send a key.
pub const KEY_QUERY: &str = "api_key";
