//! How an API key looks on the wire: the prefix every key starts with and the query
//! parameter that may carry one. The key store makes keys of this shape, the gate reads
//! them, and the log hides them; all three take the shape from here, below them all.

/// Printable prefix of every key, so leaked keys are easy to recognise (and scan for).
pub const KEY_PREFIX: &str = "ltk_";

/// The query parameter of the testing-only way to send a key.
pub const KEY_QUERY: &str = "api_key";
