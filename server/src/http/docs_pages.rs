//! The documentation under `/docs` (Swagger UI over the OpenAPI document), rendered once and
//! answered from memory with a strong ETag (poem-openapi's endpoint copied its 1.6 MB page
//! per request, with no validator).

use bytes::Bytes;
use futures_util::FutureExt;
use poem::http::{header, HeaderValue, Method};
use poem::{Endpoint, Request, Response};

use crate::http::caching;

/// They change only with the server's version.
pub const CACHE_CONTROL: &str = "public, max-age=86400";

const HTML: HeaderValue = HeaderValue::from_static("text/html; charset=utf-8");

struct Page {
    /// Path under `/docs`.
    sub_path: &'static str,
    body: Bytes,
    etag: HeaderValue,
}

pub struct DocsPages([Page; 2]);

impl DocsPages {
    /// Swagger UI over the document `spec`: the page of an empty poem-openapi service (which
    /// alone embeds the UI) with its document replaced by ours, and its OAuth receiver.
    pub fn new(spec: &str) -> DocsPages {
        let empty = poem_openapi::OpenApiService::new((), "kalendorius", env!("CARGO_PKG_VERSION"));
        let page = ours(&empty.swagger_ui_html().replacen(&empty.spec(), spec, 1));
        let receiver = Request::builder().uri_str("/oauth-receiver.html").finish();
        let receiver = empty
            .swagger_ui()
            .get_response(receiver)
            .now_or_never()
            .filter(|resp| resp.status().is_success())
            .and_then(|resp| resp.into_body().into_string().now_or_never()?.ok())
            .unwrap_or_default();
        let pages =
            [("/", page), ("/oauth-receiver.html", receiver)].map(|(sub_path, body)| Page {
                sub_path,
                etag: caching::digest_etag("docs", body.as_bytes()),
                body: body.into(),
            });
        DocsPages(pages)
    }

    /// The answer to `/docs`, `/docs/` or `/docs/oauth-receiver.html`, else `None`. A method
    /// other than GET and HEAD gets the page without validators, as from poem-openapi.
    pub fn answer(&self, req: &Request) -> Option<Response> {
        let sub_path = match req.uri().path().strip_prefix("/docs")? {
            "" => "/",
            other => other,
        };
        let page = self.0.iter().find(|p| p.sub_path == sub_path)?;
        let body = page.body.clone();
        let resp = if req.method() == Method::GET || req.method() == Method::HEAD {
            caching::fixed(req.headers(), &page.etag, CACHE_CONTROL, HTML, body)
        } else {
            Response::builder()
                .header(header::CONTENT_TYPE, HTML)
                .body(body)
        };
        Some(resp)
    }
}

/// What replaces the head of poem-openapi's page up to its stylesheet (it declares its
/// charset on `<html>` and `<style>`, which HTML does not allow).
const HEAD: &str = "<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<title>kalendorius API documentation</title>
<meta name=\"description\" content=\"The kalendorius HTTP API (OpenAPI 3.1): working days, \
holidays, name days and working time in Lithuania, with a console to try each request.\">
<link rel=\"icon\" href=\"/favicon.ico\" sizes=\"32x32\">
<style>";

/// What replaces the UI's empty `<div>`: a heading, a `<main>` landmark, and a name for the
/// servers' `<select>`, which Swagger UI leaves unlabelled.
const BODY_START: &str = "<header><h1 class=\"vh\">kalendorius API documentation</h1></header>
<main id=\"ui\"></main>
<script>
new MutationObserver(() => {
    const servers = document.getElementById(\"servers\");
    if (servers && !servers.hasAttribute(\"aria-label\")) {
        servers.setAttribute(\"aria-label\", \"Server\");
    }
}).observe(document.body, { childList: true, subtree: true });
</script>";

/// Where poem-openapi's page ends its head.
const THEIR_STYLE: &str = "<style charset=\"UTF-8\">";

/// Corrections to Swagger UI's stylesheet, after it: texts whose contrast is below 4.5:1
/// (WCAG 2.2, 1.4.3) get darker colours, and link targets at least 24 px (2.5.8).
const STYLE_OVERRIDES: &str = include_str!("docs_overrides.css");

/// poem-openapi's page made valid HTML (Nu HTML Checker) and accessible as far as its markup
/// allows (axe); a page of another markup is served as it is (and the `/docs` tests fail).
fn ours(page: &str) -> String {
    // Their stylesheet, then their script (the UI, 1.5 MB), then the body.
    let Some((style, rest)) = page
        .split_once(THEIR_STYLE)
        .and_then(|(_, rest)| rest.split_once("</style>"))
    else {
        return page.to_string();
    };
    let mut out = String::with_capacity(page.len() + 2048);
    out.push_str(HEAD);
    out.push_str(style);
    out.push_str("</style>\n<style>");
    out.push_str(STYLE_OVERRIDES);
    out.push_str("</style>");
    let rest = escape_controls(&rest.replacen("<script charset=\"UTF-8\">", "<script>", 1));
    match rest.rsplit_once("<div id=\"ui\"></div>") {
        Some((before, after)) => {
            out.push_str(before);
            out.push_str(BODY_START);
            // Deep links put a link in each operation's button (nested controls, 19 px targets).
            out.push_str(&after.replacen("deepLinking: true", "deepLinking: false", 1));
        }
        None => out.push_str(&rest),
    }
    out
}

/// `text` with the controls HTML forbids (in Swagger UI's strings) as JavaScript escapes.
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for c in text.chars() {
        if c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c') {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}
