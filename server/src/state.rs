//! Keys and rate-limit counters, from the bottom: API keys (`keys`), the rules of their
//! administration (`key_admin`), the admin socket (`admin`), the stores of keys and counters
//! (`store`: sled or Redis) and the key tool (`keys_cli`). The counting is `crate::limits`.

pub mod admin;
pub mod key_admin;
pub mod keys;
pub mod keys_cli;
pub mod store;

pub use store::sled::{State, StateOptions};
