//! Keys and rate-limit counters, in layers from the bottom: API keys (`keys`), the rules
//! of their administration (`key_admin`), the admin socket that carries those commands to
//! a running server (`admin`), the stores that hold keys and counters and persist what
//! the rules decide (`store`: sled or Redis), and the key tool on top (`keys_cli`). The
//! counting itself is `crate::limits`, below all of them.

pub mod admin;
pub mod key_admin;
pub mod keys;
pub mod keys_cli;
pub mod store;

pub use store::sled::{State, StateOptions};
