//! The kalendorius HTTP server: the JSON API of docs/api.md, the HTML pages, the calendar
//! feeds and the published files over a generated dataset, with API keys and rate-limit
//! counters in sled (or Redis, shared by several processes).
//!
//! The layers, top to bottom; a module imports only from the layers below it:
//! 1. `server`, `shutdown`, `config`: start-up, settings and the run loop;
//! 2. `app`: the route table, the one request gate and the OpenAPI document;
//! 3. the endpoints: `api` (one file per operation), `pages` (HTML), `published` (`/data`),
//!    `health` (probes); `feeds` (iCalendar) and `i18n` (their labels) below them;
//! 4. the dataset in service: `data` (loaded once, swapped whole on reload), `catalog` (its
//!    precomputed answers), `name_index` (the names by folded form);
//! 5. keys and limits, from the crate `kalendorius-state` (state/): `state` (keys, counters
//!    and their sled or Redis stores; the admin socket and the key tool), `limits` (the
//!    rate-limit rules);
//! 6. toolkits that know nothing above them: `http`, `telemetry` (logs), `clock`,
//!    `metrics` (recorded in by every layer, so below `http`), `memory`; `key_format`
//!    (from `kalendorius-state`).

pub mod api;
pub mod app;
pub mod catalog;
pub mod clock;
pub mod config;
pub mod data;
pub mod feeds;
pub mod health;
pub mod http;
pub mod i18n;
pub mod memory;
pub mod metrics;
pub mod name_index;
pub mod pages;
pub mod published;
pub mod server;
pub mod shutdown;
pub mod telemetry;

// Keys and rate limits live in their own crate (state/); their paths stay those of this one.
pub use kalendorius_state::{key_format, limits, state};
