//! The HTTP side below the operations: how connections are accepted and bounded, and the
//! gate every request passes.
//!
//! `connections` owns the accept loop that replaces poem's `Server` (header deadline,
//! connection caps, draining on shutdown); `app` is the gate (client IP, Host check, CORS,
//! authentication, rate limits, routing, common headers); `caching`, `errors`, `client_ip`,
//! `auth` and `health` are the pieces it uses.

pub mod app;
pub mod auth;
pub mod caching;
pub mod client_ip;
pub mod compression;
pub mod connections;
pub mod docs_pages;
pub mod errors;
pub mod health;
