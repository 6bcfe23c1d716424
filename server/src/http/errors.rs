//! The one error shape of the API (docs/api.md, Errors): every non-2xx answer is
//! `{"error","message"}` JSON ([`ApiError`]), a 5xx without detail (hyper answers unparseable
//! requests itself, with an empty body).

use poem::http::{header, HeaderValue, StatusCode};
use poem::{IntoResponse, Response};
use serde::Serialize;

pub const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";

/// The `Allow` header of every endpoint (docs/api.md, HTTP behaviour).
pub const ALLOW: &str = "GET, HEAD, OPTIONS";

/// Machine-readable error codes: the table of docs/api.md, Errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    MissingParam,
    InvalidDate,
    InvalidRange,
    RangeTooLarge,
    InvalidYear,
    ConflictingParams,
    InvalidLang,
    InvalidParam,
    InvalidHost,
    OutOfRange,
    MissingKey,
    InvalidKey,
    ExpiredKey,
    RateLimitMinute,
    RateLimitDay,
    RateLimitMonth,
    NotFound,
    MethodNotAllowed,
    NotReady,
    StateUnavailable,
    Internal,
}

impl ErrorCode {
    pub fn status(self) -> StatusCode {
        use ErrorCode::*;
        match self {
            MissingParam | InvalidDate | InvalidRange | RangeTooLarge | InvalidYear
            | ConflictingParams | InvalidLang | InvalidParam | InvalidHost | OutOfRange => {
                StatusCode::BAD_REQUEST
            }
            MissingKey | InvalidKey | ExpiredKey => StatusCode::UNAUTHORIZED,
            RateLimitMinute | RateLimitDay | RateLimitMonth => StatusCode::TOO_MANY_REQUESTS,
            NotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            NotReady | StateUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiError {
    #[serde(rename = "error")]
    pub code: ErrorCode,
    /// One English sentence naming the parameter (if any) and the accepted form.
    pub message: String,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
        }
    }
}

impl poem::IntoResponse for ApiError {
    /// `no-store`: an error must never be served from a shared cache.
    fn into_response(self) -> Response {
        let mut resp = Response::builder()
            .status(self.code.status())
            .header(header::CONTENT_TYPE, JSON_CONTENT_TYPE)
            .header(header::CACHE_CONTROL, "no-store")
            .body(serde_json::to_vec(&self).expect("an error body always serializes"));
        if self.code == ErrorCode::MethodNotAllowed {
            resp.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static(ALLOW));
        }
        resp
    }
}

pub fn method_not_allowed() -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        "method not allowed; use GET, HEAD or OPTIONS",
    )
}

pub fn state_unavailable() -> ApiError {
    ApiError::new(
        ErrorCode::StateUnavailable,
        "API keys cannot be checked now: the shared state store is unreachable; retry in a few seconds",
    )
}

pub fn internal() -> ApiError {
    ApiError::new(
        ErrorCode::Internal,
        "internal error; the request was not served, please retry or report it",
    )
}

/// `CatchPanic`'s answer (a fn: a closure is not general enough over the payload's lifetime).
pub fn panic_response(_payload: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request handler panicked");
    internal().into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_body_is_d1_shaped() {
        let error = ApiError::new(ErrorCode::InvalidDate, "parameter 'date' ...");
        let body = serde_json::to_vec(&error).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"], "invalid_date");
        assert_eq!(v["message"], "parameter 'date' ...");
        assert_eq!(v.as_object().unwrap().len(), 2);
    }

    #[test]
    fn every_code_has_a_client_or_server_status() {
        assert_eq!(ErrorCode::RateLimitDay.status(), 429);
        assert_eq!(ErrorCode::ExpiredKey.status(), 401);
        assert_eq!(ErrorCode::Internal.status(), 500);
    }
}
