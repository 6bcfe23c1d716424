//! The kalendorius HTTP server: the JSON API of docs/api.md over a generated
//! dataset, with API keys and rate-limit counters in a separate sled database.

// State side (keys, limits, persistence, admin channel, keys CLI).
pub mod admin;
pub mod keys;
pub mod keys_cli;
pub mod limits;
pub mod state;
// HTTP side: modules are added below this line by the HTTP owner.
pub mod api;
pub mod app;
pub mod auth;
pub mod caching;
pub mod catalog;
pub mod client_ip;
pub mod clock;
pub mod config;
pub mod data;
pub mod errors;
pub mod health;
pub mod http;
pub mod params;
pub mod server;
pub mod shutdown;
pub mod telemetry;
