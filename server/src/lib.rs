//! The kalendorius HTTP server: the JSON API of docs/api.md over a generated
//! dataset, with API keys and rate-limit counters in a separate sled database.
//!
//! Where things live, by concern:
//! - `catalog`, `data`: the dataset in service (loaded once, swapped whole on reload);
//! - `name_index`: the names of the dataset by folded form, for the name search;
//! - `pages`: the calendar for people, HTML pages rendered from templates;
//! - `http`: the gate every request passes (`http::app`), connections, caching, errors,
//!   client IP, authentication, health probes;
//! - `api`: the `/api/v1` operations, their parameters and the OpenAPI document;
//! - `feeds`: the iCalendar feeds of holidays and name days;
//! - `published`: the dataset's files and their JSON Schemas over HTTP (`/data`);
//! - `limits`: the rate-limit windows and the table of subjects;
//! - `state`: keys, counters and their persistence, the admin socket and the key tool;
//! - `telemetry`: logs and metrics;
//! - `config`, `server`, `shutdown`, `clock`: settings, start-up and the run loop.

pub mod api;
pub mod app;
pub mod catalog;
pub mod clock;
pub mod config;
pub mod data;
pub mod feeds;
pub mod health;
pub mod http;
pub mod limits;
pub mod name_index;
pub mod pages;
pub mod published;
pub mod server;
pub mod shutdown;
pub mod state;
pub mod telemetry;
