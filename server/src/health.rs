//! The probes, outside the versioned API: `GET /health` (liveness) and `GET /ready`
//! (readiness), as [`PROBES`] describes them to the OpenAPI document.

use poem::http::header;
use poem::{IntoResponse, Response};

use crate::http::errors::{ApiError, ErrorCode, JSON_CONTENT_TYPE};
use crate::state::store::Store;

pub const HEALTH_PATH: &str = "/health";

pub const READY_PATH: &str = "/ready";

/// A cached "ok" says nothing about now.
pub const CACHE_CONTROL: &str = "no-store";

/// [`ProbeOk`] as JSON (a unit test holds them together).
const OK_BODY: &str = r#"{"status":"ok"}"#;

/// The answer of a probe that is fine.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ProbeOk {
    /// Always `ok`.
    pub status: ProbeState,
}

/// The state a successful probe reports.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProbeState {
    /// Serving.
    Ok,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Probe {
    pub path: &'static str,
    /// Also its route label in the metrics.
    pub operation_id: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    /// May answer 503 `not_ready`.
    pub may_be_unready: bool,
}

pub static PROBES: [Probe; 2] = [
    Probe {
        path: HEALTH_PATH,
        operation_id: "health",
        summary: "Liveness",
        description: "200 whenever the process serves HTTP. Never counted or rate-limited, \
                      no key, `Cache-Control: no-store`.",
        may_be_unready: false,
    },
    Probe {
        path: READY_PATH,
        operation_id: "ready",
        summary: "Readiness",
        description: "200 when the service can answer the API: a dataset is loaded and the \
                      state database (keys and counters; with several processes, Redis) is \
                      usable; otherwise 503 `not_ready`. Never counted or rate-limited, no \
                      key, `Cache-Control: no-store`.",
        may_be_unready: true,
    },
];

/// Only the store is checked: a server always holds a checked dataset (failed reloads keep the old).
pub fn answer(probe: &Probe, store: &Store) -> Response {
    if probe.may_be_unready {
        if let Some(reason) = store.unready_reason() {
            return ApiError::new(ErrorCode::NotReady, reason).into_response();
        }
    }
    Response::builder()
        .header(header::CONTENT_TYPE, JSON_CONTENT_TYPE)
        .header(header::CACHE_CONTROL, CACHE_CONTROL)
        .body(OK_BODY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ok_body_is_json() {
        let v: serde_json::Value = serde_json::from_str(OK_BODY).unwrap();
        assert_eq!(v, serde_json::json!({"status": "ok"}));
        let typed = ProbeOk {
            status: ProbeState::Ok,
        };
        assert_eq!(serde_json::to_string(&typed).unwrap(), OK_BODY);
    }
}
