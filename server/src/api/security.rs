//! The three ways to send an API key, as OpenAPI security schemes (docs/api.md, Keys).
//!
//! Authentication and rate limiting happen before an operation's handler runs (`crate::app`),
//! which answers 401 and 429 itself with the `{"error","message"}` body. These schemes put
//! the three ways into the document (as alternatives); the decision stays in one place.
//! Should the operations ever be mounted as a poem-openapi service, the checkers accept only
//! a request carrying the [`Authenticated`] context such a gate must leave, so they can never
//! let a request through on their own. A scheme's checker runs only when poem-openapi sees
//! its key present; `crate::app::auth` uses the same presence tests.

use std::sync::Arc;

use poem::Request;
use poem_openapi::auth::{ApiKey, Bearer};
use poem_openapi::SecurityScheme;

use crate::app::auth::Authenticated;
use crate::state::keys::KeyRecord;

/// Recommended: the key in the `X-API-Key` header.
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "X-API-Key",
    key_in = "header",
    checker = "api_key_context"
)]
pub struct HeaderKey(pub Arc<KeyRecord>);

/// Allowed: `Authorization: Bearer <key>`.
#[derive(SecurityScheme)]
#[oai(ty = "bearer", checker = "bearer_context")]
pub struct BearerKey(pub Arc<KeyRecord>);

/// Testing only: the `api_key` query parameter (it ends up in proxy logs).
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "api_key",
    key_in = "query",
    checker = "api_key_context"
)]
pub struct QueryKey(pub Arc<KeyRecord>);

/// Any of the three; when several are sent, `X-API-Key` wins, then Bearer, then `api_key`.
#[derive(SecurityScheme)]
pub enum ApiKeyAuth {
    /// `X-API-Key` header.
    Header(HeaderKey),
    /// `Authorization: Bearer`.
    Bearer(BearerKey),
    /// `api_key` query parameter.
    Query(QueryKey),
}

fn context(req: &Request) -> Option<Arc<KeyRecord>> {
    req.extensions().get::<Authenticated>().map(|a| a.0.clone())
}

async fn api_key_context(req: &Request, _key: ApiKey) -> Option<Arc<KeyRecord>> {
    context(req)
}

async fn bearer_context(req: &Request, _bearer: Bearer) -> Option<Arc<KeyRecord>> {
    context(req)
}
