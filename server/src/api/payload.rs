//! A JSON payload whose bytes are already written, documented with the schema of `T`.
//!
//! poem-openapi's `Json<T>` goes through a `serde_json::Value` tree on every response; a
//! year of `/days` is a copy of precomputed bytes instead.

use std::marker::PhantomData;

use poem::http::header;
use poem::{IntoResponse, Response};
use poem_openapi::payload::Payload;
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::Type;

use crate::http::errors::JSON_CONTENT_TYPE;

/// Serialized JSON of a `T`.
pub struct JsonBytes<T> {
    /// The body. Invariant: valid JSON matching `T`'s schema.
    body: Vec<u8>,
    _schema: PhantomData<fn() -> T>,
}

impl<T> JsonBytes<T> {
    /// Wraps bytes written for `T`.
    pub fn new(body: Vec<u8>) -> Self {
        JsonBytes {
            body,
            _schema: PhantomData,
        }
    }
}

impl<T: Type> Payload for JsonBytes<T> {
    const CONTENT_TYPE: &'static str = JSON_CONTENT_TYPE;

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T> IntoResponse for JsonBytes<T> {
    fn into_response(self) -> Response {
        Response::builder()
            .header(header::CONTENT_TYPE, JSON_CONTENT_TYPE)
            .body(self.body)
    }
}
