//! Keys and rate-limit counters, from the bottom: `keys`, the rules of their administration
//! (`key_admin`), the admin socket, the stores (sled, Redis) and the key tool (`keys_cli`).

pub mod admin;
pub mod key_admin;
pub mod keys;
pub mod keys_cli;
pub mod store;

pub use store::sled::{State, StateOptions};
