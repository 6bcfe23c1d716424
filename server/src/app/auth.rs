//! Finding the API key in a request (docs/api.md, Keys): `X-API-Key`, then
//! `Authorization: Bearer`, then `api_key`; the first non-empty one counts.

use poem::web::headers::{authorization::Bearer, Authorization, HeaderMapExt};
use poem::Request;

use crate::key_format::KEY_QUERY;
use crate::state::keys::PresentedKey;

pub fn presented_key(req: &Request) -> Option<PresentedKey> {
    // Bytes that are not visible ASCII cannot be a key; keeping them (lossily) makes the
    // request an `invalid_key` rather than letting a later way win.
    if let Some(value) = req.headers().get("x-api-key").filter(|v| !v.is_empty()) {
        return Some(PresentedKey(
            String::from_utf8_lossy(value.as_bytes()).into_owned(),
        ));
    }
    let bearer = req.headers().typed_get::<Authorization<Bearer>>();
    if let Some(Authorization(bearer)) = bearer.filter(|b| !b.token().is_empty()) {
        return Some(PresentedKey(bearer.token().to_string()));
    }
    let query = req.uri().query()?;
    form_urlencoded::parse(query.as_bytes())
        .find(|(name, value)| name == KEY_QUERY && !value.is_empty())
        .map(|(_, value)| PresentedKey(value.into_owned()))
}

/// True when an `Authorization` header does not use Bearer (a bare key, `Basic ...`): no
/// key is presented, but the `missing_key` answer says how to send one.
pub fn has_other_scheme(req: &Request) -> bool {
    let values = req.headers().get_all(poem::http::header::AUTHORIZATION);
    values.iter().any(|value| {
        let mut words = value.as_bytes().split(u8::is_ascii_whitespace);
        let scheme = words.find(|word| !word.is_empty());
        scheme.is_some_and(|s| !s.eq_ignore_ascii_case(b"bearer"))
    })
}
