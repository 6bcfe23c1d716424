//! Keys and rate-limit counters (see `store` for where they live).

pub mod admin;
pub mod keys;
pub mod keys_cli;
pub mod redis_keys;
pub mod store;

pub use store::redis;
pub use store::sled::{write_private_file, ImportReport, State, StateError, StateOptions, UnixMillis};
