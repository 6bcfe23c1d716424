//! Logging: the subscriber, and the one structured line per request.
//!
//! The access line names method, path (with any `api_key` value redacted), status, latency,
//! client IP and the key's owner; a key itself never reaches a log (D4): headers are not
//! logged and `PresentedKey`'s `Debug` is redacted.

use std::fmt;
use std::net::IpAddr;
use std::time::Duration;

use poem::http::{Method, StatusCode, Uri};
use serde::{Deserialize, Serialize};

/// How log lines are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable `key=value` lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Keeps the log writer running; dropping it writes out every pending line.
#[must_use = "dropping the guard stops the log writer"]
pub struct LogGuard(#[allow(dead_code)] tracing_appender::non_blocking::WorkerGuard);

/// Installs the global subscriber, writing to stdout. `filter` is an `EnvFilter` directive
/// such as `info` (every request) or `warn`.
///
/// Lines are written by a dedicated thread through a buffer: under load many lines go out
/// in one `write`, instead of one system call per request on the request's thread. The
/// buffer is flushed whenever the thread has nothing queued, so a quiet server's lines
/// appear at once. Lines are never dropped: when the queue is full, requests wait for it.
pub fn init(format: LogFormat, filter: &str) -> anyhow::Result<LogGuard> {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .map_err(|e| anyhow::anyhow!("invalid log level '{filter}': {e}"))?;
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .finish(std::io::BufWriter::new(std::io::stdout()));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        // Colour codes only for a human at a terminal, never in files or collectors.
        .with_ansi(ansi);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    installed.map_err(|e| anyhow::anyhow!("cannot install the logger: {e}"))?;
    Ok(LogGuard(guard))
}

/// Writes the access line of one request.
pub fn access(
    method: &Method,
    uri: &Uri,
    status: StatusCode,
    latency: Duration,
    client_ip: IpAddr,
    key_owner: Option<&str>,
) {
    tracing::info!(
        target: "access",
        method = %method,
        path = %RedactedUri(uri),
        status = status.as_u16(),
        latency_us = latency.as_micros() as u64,
        client_ip = %client_ip,
        key_owner,
    );
}

/// Displays a URI's path and query with every `api_key` value replaced by `REDACTED`.
/// Names are compared after percent-decoding, as the key lookup decodes them.
pub struct RedactedUri<'a>(pub &'a Uri);

impl fmt::Display for RedactedUri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.path())?;
        let Some(query) = self.0.query() else {
            return Ok(());
        };
        f.write_str("?")?;
        for (i, pair) in query.split('&').enumerate() {
            if i > 0 {
                f.write_str("&")?;
            }
            let name = pair.split_once('=').map_or(pair, |(n, _)| n);
            let decoded = form_urlencoded::parse(name.as_bytes()).next();
            if decoded.is_some_and(|(n, _)| n == crate::auth::KEY_QUERY) {
                write!(f, "{name}=REDACTED")?;
            } else {
                f.write_str(pair)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_key_values_are_redacted_however_spelled() {
        let uri: Uri = "/api/v1/day?date=2024-01-01&api_key=ltk_secret&api%5Fkey=ltk_x&api_key"
            .parse()
            .unwrap();
        let shown = RedactedUri(&uri).to_string();
        assert!(!shown.contains("ltk_"), "{shown}");
        assert_eq!(
            shown,
            "/api/v1/day?date=2024-01-01&api_key=REDACTED&api%5Fkey=REDACTED&api_key=REDACTED"
        );
    }
}
