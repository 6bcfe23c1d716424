//! Process signals: SIGTERM (what `kill`, systemd and Docker send) and SIGINT stop the server
//! gracefully; SIGHUP reloads the dataset. The handlers are registered before the address is
//! announced, so no signal can hit the default action.

use std::future::Future;
use std::sync::Arc;

use anyhow::Context;
use tokio::signal::unix::{signal, SignalKind};

use crate::data::DataHandle;

/// Registers the SIGTERM and SIGINT handlers now; resolves on the first signal.
pub fn stop_signals() -> anyhow::Result<impl Future<Output = ()>> {
    let mut term = signal(SignalKind::terminate()).context("cannot handle SIGTERM")?;
    let mut int = signal(SignalKind::interrupt()).context("cannot handle SIGINT")?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => tracing::info!("SIGTERM received, shutting down"),
            _ = int.recv() => tracing::info!("SIGINT received, shutting down"),
        }
    })
}

/// Registers the SIGHUP handler now; the task reloads the dataset on every SIGHUP.
pub fn reload_on_hangup(data: Arc<DataHandle>) -> anyhow::Result<impl Future<Output = ()> + Send> {
    let mut hup = signal(SignalKind::hangup()).context("cannot handle SIGHUP")?;
    Ok(async move {
        while hup.recv().await.is_some() {
            tracing::info!("SIGHUP received, reloading the dataset");
            match data.reload().await {
                Ok(catalog) => tracing::info!(
                    dataset_version = catalog.version,
                    first = %catalog.first,
                    last = %catalog.last,
                    "dataset reloaded"
                ),
                Err(e) => tracing::error!(
                    error = format!("{e:#}"),
                    "dataset reload failed; still serving the previous dataset"
                ),
            }
        }
    })
}
