//! End-to-end tests of the HTTP API: the real server on 127.0.0.1:0 over real HTTP, with a
//! dataset built from the fixture sources (`tests/fixtures/sources`).

mod helpers;

mod auth;
mod compression;
mod connections;
mod data;
mod database;
mod errors;
mod feeds;
mod http;
mod keyed;
mod layers;
mod leave;
mod limits;
mod metrics;
mod name_search;
mod openapi;
mod pages;
mod params;
mod planning;
mod probes;
mod process;
mod public;
mod ready_check;
mod redis_harness;
mod redis_store;
mod school_holidays;
mod shift_hours;
mod sky;
mod working_time;
