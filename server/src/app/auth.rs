//! Finding the API key in a request (docs/api.md, Keys): `X-API-Key`, then
//! `Authorization: Bearer`, then `api_key`; the first non-empty one counts.

use poem::http::{header, HeaderName, HeaderValue};
use poem::Request;

use crate::key_format::KEY_QUERY;
use crate::state::keys::PresentedKey;

/// Parsed once (a `&str` name is parsed and hashed on every look-up).
const X_API_KEY: HeaderName = HeaderName::from_static("x-api-key");

pub fn presented_key(req: &Request) -> Option<PresentedKey> {
    // Bytes that are not visible ASCII cannot be a key; keeping them (lossily) makes the
    // request an `invalid_key` rather than letting a later way win.
    let lossy = |bytes: &[u8]| PresentedKey(String::from_utf8_lossy(bytes).into_owned());
    let headers = req.headers();
    let api_key = headers.get_all(X_API_KEY).iter();
    if let Some(value) = api_key.map(HeaderValue::as_bytes).find(|v| !v.is_empty()) {
        return Some(lossy(value));
    }
    let authorization = headers.get_all(header::AUTHORIZATION).iter();
    if let Some(token) = authorization.filter_map(bearer_token).next() {
        return Some(lossy(token));
    }
    let query = req.uri().query()?;
    form_urlencoded::parse(query.as_bytes())
        .find(|(name, value)| name == KEY_QUERY && !value.is_empty())
        .map(|(_, value)| PresentedKey(value.into_owned()))
}

/// The token of `Authorization: Bearer <token>` (the scheme in any case), if not empty.
fn bearer_token(value: &HeaderValue) -> Option<&[u8]> {
    let value = value.as_bytes().trim_ascii();
    let (scheme, token) = value.split_at_checked(6)?;
    let separated = token.first().is_some_and(u8::is_ascii_whitespace);
    let token = token.trim_ascii();
    (scheme.eq_ignore_ascii_case(b"bearer") && separated && !token.is_empty()).then_some(token)
}

/// True when an `Authorization` header does not use Bearer (a bare key, `Basic ...`): no
/// key is presented, but the `missing_key` answer says how to send one.
pub fn has_other_scheme(req: &Request) -> bool {
    let values = req.headers().get_all(header::AUTHORIZATION);
    values.iter().any(|value| {
        let mut words = value.as_bytes().split(u8::is_ascii_whitespace);
        let scheme = words.find(|word| !word.is_empty());
        scheme.is_some_and(|s| !s.eq_ignore_ascii_case(b"bearer"))
    })
}
