//! API keys and rate limits for kalendorius: the rules, and the stores that persist what
//! the rules decide. The server's gate asks this crate two questions (whose key is this? may
//! this client or key have one more request?); the key tool (`kalendorius-server keys`)
//! administers the keys through it.
//!
//! Its own crate because nothing in it knows HTTP, the dataset or the pages: the compiler
//! keeps it so. The modules, top to bottom; a module imports only from the ones below it:
//! 1. `state`: keys and counters, their sled and Redis stores (`state::store`), the rules of
//!    key administration (`state::key_admin`), the admin socket and the key tool;
//! 2. `limits`: the rate-limit rules (windows, counters per client and per key, what a
//!    refusal says), pure: they decide, the stores persist;
//! 3. `key_format` (how a key looks), `network` (the network a client is counted by),
//!    `metrics` (what the stores record for `/metrics`).

pub mod key_format;
pub mod limits;
pub mod metrics;
pub mod network;
pub mod state;
