//! The HTTP side below the application: how connections are accepted, bounded and closed.
//!
//! `connections` owns the accept loop that replaces poem's `Server` (header deadline,
//! connection caps, draining on shutdown).

pub mod connections;
