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

use crate::http::caching;
use crate::http::errors::JSON_CONTENT_TYPE;

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
        Answer::cacheable(json(body), etag)
    }

    /// A public 200 of another type than JSON (a calendar feed): the `body` of
    /// `content_type`, its strong `etag`, cacheable by anyone for an hour.
    pub fn public_typed(
        body: impl Into<Body>,
        content_type: &'static str,
        etag: HeaderValue,
    ) -> Self {
        let mut response = with_room(Response::builder().body(body));
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        Answer::cacheable(response, etag)
    }

    /// A public 304: `If-None-Match` matched `etag`.
    pub fn not_modified(etag: HeaderValue) -> Self {
        let response = with_room(
            Response::builder()
                .status(StatusCode::NOT_MODIFIED)
                .finish(),
        );
        Answer::cacheable(response, etag)
    }

    /// A keyed 200: the JSON `body`, for the key holder only.
    pub fn private(body: impl Into<Body>) -> Self {
        Answer::with_cache_control(json(body), caching::PRIVATE)
    }

    /// `response` with its `etag`, cacheable by anyone for an hour.
    fn cacheable(mut response: Response, etag: HeaderValue) -> Self {
        response.headers_mut().insert(header::ETAG, etag);
        Answer::with_cache_control(response, caching::PUBLIC)
    }

    fn with_cache_control(mut response: Response, policy: &'static str) -> Self {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
        Answer {
            response,
            _documented_as: PhantomData,
        }
    }
}

/// `response` with room for every header of an answer.
fn with_room(mut response: Response) -> Response {
    response.headers_mut().reserve(HEADERS_PER_ANSWER);
    response
}

/// A 200 with a JSON body and room for every header of an answer.
fn json(body: impl Into<Body>) -> Response {
    let mut response = with_room(Response::builder().body(body));
    response.headers_mut().insert(
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
