//! The HTTP toolkit the gate and the endpoints use; it imports nothing above it.

pub mod cache;
pub mod caching;
pub mod client_ip;
pub mod compression;
pub mod connections;
pub mod docs_pages;
pub mod errors;
