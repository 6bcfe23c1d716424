//! Generator runs on small fixture sources (`tests/fixtures/sources/` at the workspace
//! root): what a maintainer and a downstream reader of `output/` would see.

mod helpers;

mod changes;
mod cli;
mod database;
mod determinism;
mod history;
mod places;
mod rollback;
mod school_holidays;
mod status;
mod validation;
