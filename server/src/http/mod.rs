//! The HTTP toolkit the gate and the endpoints use; it imports nothing above it:
//! `connections` (the accept loop: header deadline, caps, draining), `caching` (ETags, 304),
//! `cache` (the bounded cache of built answers), `compression`, `errors` (the JSON error
//! body), `client_ip` (TCP peer or trusted proxy), `docs_pages` (`/docs` from memory).

pub mod cache;
pub mod caching;
pub mod client_ip;
pub mod compression;
pub mod connections;
pub mod docs_pages;
pub mod errors;
