//! The HTTP toolkit: pieces the gate and the endpoints use, none of which
//! knows about them. It imports nothing above it.
//!
//! `connections` owns the accept loop that replaces poem's `Server` (header deadline,
//! connection caps, draining on shutdown); `caching` (ETags, 304), `cache` (the bounded
//! cache of built answers), `compression`, `errors` (the JSON error body), `client_ip` (TCP
//! peer or trusted proxy) and `docs_pages` (the `/docs` pages, served from memory).

pub mod cache;
pub mod caching;
pub mod client_ip;
pub mod compression;
pub mod connections;
pub mod docs_pages;
pub mod errors;
