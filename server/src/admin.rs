//! The local admin channel: a Unix socket (mode 0600) in the state directory through which
//! `kalendorius-server keys ...` reaches a running server, so sled keeps a single writer.
//!
//! OWNER: state helper.
