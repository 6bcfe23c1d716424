//! Successful answers, written directly as HTTP responses: poem's builder parses header
//! names and copies values, a measurable share of a small `/laisvadienis`; these use static
//! values and a header map sized once for everything the gate adds.

use poem::http::{header, HeaderValue, StatusCode};
use poem::{Body, Response};
use serde::Serialize;

use crate::http::caching;
use crate::http::errors::JSON_CONTENT_TYPE;

/// Headers of a full answer: the three set here and the six the gate adds (reserved at
/// once: no regrowth per request).
const HEADERS_PER_ANSWER: usize = 9;

/// The JSON of an answer type.
pub fn to_json(answer: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(answer).expect("answer types always serialize")
}

/// A public 200: the JSON `body`, its strong `etag`, cacheable by anyone for an hour.
pub fn public(body: impl Into<Body>, etag: HeaderValue) -> Response {
    cacheable(json(body), etag)
}

/// A public 200 of another type than JSON (a calendar feed): the `body` of `content_type`,
/// its strong `etag`, cacheable by anyone for an hour.
pub fn public_typed(
    body: impl Into<Body>,
    content_type: &'static str,
    etag: HeaderValue,
) -> Response {
    let mut response = with_room(Response::builder().body(body));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    cacheable(response, etag)
}

/// A public 304: `If-None-Match` matched `etag`.
pub fn not_modified(etag: HeaderValue) -> Response {
    let response = with_room(
        Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .finish(),
    );
    cacheable(response, etag)
}

/// A keyed 200: the JSON `body`, for the key holder only.
pub fn private(body: impl Into<Body>) -> Response {
    with_cache_control(json(body), caching::PRIVATE)
}

/// `response` with its `etag`, cacheable by anyone for an hour.
fn cacheable(mut response: Response, etag: HeaderValue) -> Response {
    response.headers_mut().insert(header::ETAG, etag);
    with_cache_control(response, caching::PUBLIC)
}

fn with_cache_control(mut response: Response, policy: &'static str) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    response
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
