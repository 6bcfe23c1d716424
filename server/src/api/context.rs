//! What a handler answers from, and its parameters are read against ([`Context`]).

use crate::api::today::Today;
use crate::catalog::Catalog;
use crate::feeds::Feeds;

/// What a handler answers from: the dataset in service at arrival, its `today`, the feeds.
pub struct Context<'a> {
    pub catalog: &'a Catalog,
    pub today: &'a Today,
    pub feeds: &'a Feeds,
}
