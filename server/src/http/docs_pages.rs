//! The browsable documentation under `/docs` (Swagger UI over the OpenAPI document), served
//! from memory with a strong ETag and a day's caching.
//!
//! poem-openapi's UI endpoint copies its 1.6 MB page into a new string on every request and
//! sends it with no validator, so a browser downloaded it again on every visit. The page
//! is the same bytes for the life of the process (the UI's scripts are compiled in and the
//! document is fixed), so it is rendered once at start-up, tagged by its SHA-256, and a
//! request is a shared-buffer copy (compressed once by `crate::http::compression`), or a
//! 304.

use bytes::Bytes;
use futures_util::FutureExt;
use poem::http::{header, HeaderValue, Method, StatusCode, Uri};
use poem::{Endpoint, IntoResponse, Request, Response};

use crate::http::caching;

/// `Cache-Control` of the documentation pages: they change only with the server's version.
pub const CACHE_CONTROL: &str = "public, max-age=86400";

/// One rendered page.
struct Page {
    /// Path under `/docs`, as the UI endpoint routes it.
    sub_path: &'static str,
    content_type: HeaderValue,
    body: Bytes,
    /// `"docs-<16 hex digits of the body's SHA-256>"`.
    etag: HeaderValue,
}

/// The pages of `/docs`, rendered once.
pub struct DocsPages {
    pages: Vec<Page>,
}

/// The pages the UI endpoint serves.
const SUB_PATHS: [&str; 2] = ["/", "/oauth-receiver.html"];

impl DocsPages {
    /// Renders every page of the UI endpoint `ui` (mounted at `/docs`). A page the endpoint
    /// does not answer at once with a 200 is left to the endpoint itself.
    pub fn render<E: Endpoint>(ui: &E) -> DocsPages {
        let pages = SUB_PATHS
            .iter()
            .filter_map(|&sub_path| {
                let req = Request::builder().uri(Uri::from_static(sub_path)).finish();
                let resp = ui.call(req).now_or_never()?.ok()?.into_response();
                if resp.status() != StatusCode::OK {
                    return None;
                }
                let content_type = resp.headers().get(header::CONTENT_TYPE)?.clone();
                let body = resp.into_body().into_bytes().now_or_never()?.ok()?;
                let etag = caching::digest_etag("docs", &body);
                Some(Page {
                    sub_path,
                    content_type,
                    body,
                    etag,
                })
            })
            .collect();
        DocsPages { pages }
    }

    /// The answer to a GET of a rendered page (`/docs`, `/docs/`, `/docs/oauth-receiver.html`),
    /// or `None` for anything else (left to the UI endpoint and the 404 of unknown paths).
    /// A HEAD is answered as the GET; the gate drops its body.
    pub fn answer(&self, req: &Request) -> Option<Response> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return None;
        }
        let sub_path = match req.uri().path().strip_prefix("/docs")? {
            "" => "/",
            other => other,
        };
        let page = self.pages.iter().find(|p| p.sub_path == sub_path)?;
        let builder = Response::builder()
            .header(header::ETAG, page.etag.clone())
            .header(header::CACHE_CONTROL, CACHE_CONTROL);
        if caching::not_modified(req.headers(), &page.etag) {
            return Some(builder.status(StatusCode::NOT_MODIFIED).finish());
        }
        Some(
            builder
                .header(header::CONTENT_TYPE, page.content_type.clone())
                .body(page.body.clone()),
        )
    }
}

/// Swagger UI over the document `spec`, as an endpoint to mount at `/docs`.
///
/// The UI's page and scripts come from poem-openapi, which embeds them only through one of
/// its own services: the page of an empty service is taken and its document replaced by
/// ours (the page holds the document once, verbatim).
pub fn swagger_ui(spec: &str) -> poem::Route {
    use poem::endpoint::make_sync;
    use poem::web::Html;

    let empty = poem_openapi::OpenApiService::new((), "kalendorius", env!("CARGO_PKG_VERSION"));
    let page = empty.swagger_ui_html().replacen(&empty.spec(), spec, 1);
    let receiver = Request::builder()
        .uri(Uri::from_static("/oauth-receiver.html"))
        .finish();
    let receiver = empty
        .swagger_ui()
        .call(receiver)
        .now_or_never()
        .and_then(Result::ok)
        .map(IntoResponse::into_response)
        .and_then(|resp| resp.into_body().into_string().now_or_never()?.ok())
        .unwrap_or_default();
    poem::Route::new()
        .at("/", make_sync(move |_| Html(page.clone())))
        .at(
            "/oauth-receiver.html",
            make_sync(move |_| Html(receiver.clone())),
        )
}
