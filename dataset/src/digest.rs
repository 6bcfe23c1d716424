//! The content digest of a sled database.
//!
//! sled rewrites its files on every open and two builds of the same data give different
//! bytes, so a file hash cannot verify a database. This digest covers what the database
//! *says*: every tree, every key and value, in order, length-prefixed so that no two
//! different contents can be fed as the same byte stream.

use sha2::{Digest, Sha256};

/// Incremental SHA-256 over `(tree, key, value)` triples fed in tree order, then key order.
#[derive(Default)]
pub struct ContentDigest {
    hasher: Sha256,
    /// Pairs fed so far.
    entries: u64,
}

impl ContentDigest {
    /// A digest of nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a tree; its entries follow in key order.
    pub fn tree(&mut self, name: &str) {
        self.chunk(b"tree");
        self.chunk(name.as_bytes());
    }

    /// Feeds one key/value pair of the current tree.
    pub fn entry(&mut self, key: &[u8], value: &[u8]) {
        self.chunk(key);
        self.chunk(value);
        self.entries += 1;
    }

    fn chunk(&mut self, bytes: &[u8]) {
        self.hasher.update((bytes.len() as u64).to_be_bytes());
        self.hasher.update(bytes);
    }

    /// Number of pairs and the lower-case hex digest.
    pub fn finish(self) -> (u64, String) {
        (self.entries, hex::encode(self.hasher.finalize()))
    }
}

/// SHA-256 of bytes as lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The first 16 hex digits (64 bits) of the SHA-256 of bytes: short tags (ETags, a
/// stylesheet's URL) where a collision is only a stale cache, never wrong data.
pub fn short_sha256_hex(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..8])
}
