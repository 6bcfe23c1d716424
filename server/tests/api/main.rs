//! End-to-end tests of the HTTP API: the real server on 127.0.0.1:0 over real HTTP, with a
//! dataset built from the fixture sources (`tests/fixtures/sources`).

mod helpers;

mod auth;
mod compression;
mod connections;
mod data;
mod errors;
mod feeds;
mod http;
mod keyed;
mod limits;
mod openapi;
mod probes;
mod process;
mod public;
