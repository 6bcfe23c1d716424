//! Successful answers, written without poem's builder, whose header parsing and copying
//! is a measurable share of a small `/laisvadienis`: static values, and a header map sized
//! once for everything the gate adds.

use chrono::Datelike;
use poem::http::{header, HeaderName, HeaderValue, StatusCode};
use poem::{Body, Request, Response};
use serde::Serialize;

use crate::api::context::Context;
use crate::api::endpoint::Params;
use crate::feeds::{FeedRequest, CONTENT_TYPE};
use crate::http::caching;
use crate::http::errors::JSON_CONTENT_TYPE;

/// Headers of a full answer: the three set here and the six the gate adds.
const HEADERS_PER_ANSWER: usize = 9;

pub fn to_json(answer: &impl Serialize) -> Vec<u8> {
    // Most answers fit: serde_json's own start (128 bytes) grew most of them three times.
    let mut out = Vec::with_capacity(1024);
    serde_json::to_writer(&mut out, answer).expect("answer types always serialize");
    out
}

/// A public 200: the `body` of `content_type` (built only now), its strong `etag`,
/// cacheable by anyone for an hour; a 304 when `If-None-Match` matches `etag`.
pub fn public<B: Into<Body>>(
    req: &Request,
    etag: HeaderValue,
    content_type: &'static str,
    body: impl FnOnce() -> B,
) -> Response {
    let mut response = if caching::not_modified(req.headers(), &etag) {
        with_room(Response::from(StatusCode::NOT_MODIFIED))
    } else {
        typed(body(), content_type)
    };
    response.headers_mut().insert(header::ETAG, etag);
    with_header(response, header::CACHE_CONTROL, caching::PUBLIC)
}

/// The feed of `request` (built once per key, see `crate::feeds`), or its 304.
pub fn feed(req: &Request, cx: &Context, request: FeedRequest) -> Response {
    let feed = cx
        .feeds
        .feed(request, cx.catalog, cx.today.current().year());
    public(req, feed.etag.clone(), CONTENT_TYPE, || feed.body.clone())
}

/// A keyed 200 of the answer `build` gives, kept in the catalog's cache of answers under
/// `operation` and its parsed `params` (built on a miss only).
pub fn private_cached<P: Params, T: Serialize>(
    cx: &Context,
    operation: &'static str,
    params: &P,
    build: impl FnOnce() -> T,
) -> Response {
    private(cx.catalog.answer(operation, params, || to_json(&build())))
}

/// A keyed 200: the JSON `body`, for the key holder only.
pub fn private(body: impl Into<Body>) -> Response {
    let response = typed(body, JSON_CONTENT_TYPE);
    with_header(response, header::CACHE_CONTROL, caching::PRIVATE)
}

fn with_header(mut response: Response, name: HeaderName, value: &'static str) -> Response {
    let value = HeaderValue::from_static(value);
    response.headers_mut().insert(name, value);
    response
}

fn typed(body: impl Into<Body>, content_type: &'static str) -> Response {
    let response = with_room(Response::builder().body(body));
    with_header(response, header::CONTENT_TYPE, content_type)
}

fn with_room(mut response: Response) -> Response {
    response.headers_mut().reserve(HEADERS_PER_ANSWER);
    response
}
