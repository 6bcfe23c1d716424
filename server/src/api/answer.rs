//! Successful answers, written directly as HTTP responses and documented by the derived
//! `ApiResponse` types of `super::responses`.
//!
//! A derived response converts itself on every request by parsing its header names and
//! copying each header value into a new allocation; on `/laisvadienis`, whose whole answer
//! is a few hundred bytes, that was a measurable share of the server's time per request
//! (README, Performance). [`Answer`] writes the same status, headers and body with static
//! header values, one allocation for the ETag and a header map sized once for everything
//! `crate::app` adds, and takes its OpenAPI description from `D`, so the document is exactly
//! what it was. The `openapi` integration test holds real responses to that document.

use std::marker::PhantomData;

use poem::http::{header, HeaderValue, StatusCode};
use poem::{Body, IntoResponse, Response};
use poem_openapi::registry::{MetaResponses, Registry};
use poem_openapi::ApiResponse;

use crate::caching;
use crate::errors::JSON_CONTENT_TYPE;

/// Headers of a full answer: the three set here and the six `crate::app` adds
/// (`X-Dataset-Version`, two CORS headers, three `RateLimit-*`). Reserving them at once
/// spares the header map a regrowth (and a rehash) on every request.
const HEADERS_PER_ANSWER: usize = 9;

/// A successful answer, documented as the derived response `D`.
pub struct Answer<D> {
    /// The response. Invariant: its status, headers and body are those `D` documents.
    response: Response,
    _documented_as: PhantomData<fn() -> D>,
}

impl<D> Answer<D> {
    /// A public 200: the JSON `body`, its strong `etag`, cacheable by anyone for an hour.
    pub fn public(body: impl Into<Body>, etag: HeaderValue) -> Self {
        let mut response = json(body);
        let headers = response.headers_mut();
        headers.insert(header::ETAG, etag);
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(caching::PUBLIC),
        );
        Answer::wrap(response)
    }

    /// A public 304: `If-None-Match` matched `etag`.
    pub fn not_modified(etag: HeaderValue) -> Self {
        let mut response = Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .finish();
        let headers = response.headers_mut();
        headers.reserve(HEADERS_PER_ANSWER);
        headers.insert(header::ETAG, etag);
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(caching::PUBLIC),
        );
        Answer::wrap(response)
    }

    /// A keyed 200: the JSON `body`, for the key holder only.
    pub fn private(body: impl Into<Body>) -> Self {
        let mut response = json(body);
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(caching::PRIVATE),
        );
        Answer::wrap(response)
    }

    fn wrap(response: Response) -> Self {
        Answer {
            response,
            _documented_as: PhantomData,
        }
    }
}

/// A 200 with a JSON body and room for every header of an answer.
fn json(body: impl Into<Body>) -> Response {
    let mut response = Response::builder().body(body);
    let headers = response.headers_mut();
    headers.reserve(HEADERS_PER_ANSWER);
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(JSON_CONTENT_TYPE),
    );
    response
}

impl<D> IntoResponse for Answer<D> {
    fn into_response(self) -> Response {
        self.response
    }
}

impl<D: ApiResponse> ApiResponse for Answer<D> {
    fn meta() -> MetaResponses {
        D::meta()
    }

    fn register(registry: &mut Registry) {
        D::register(registry);
    }
}
