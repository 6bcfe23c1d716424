//! Process signals: SIGTERM and SIGINT stop the server gracefully; SIGHUP reloads the dataset.
//! SIGTERM is what `kill`, systemd and Docker send (`ctrl_c` alone would miss it and the
//! final counter flush); handlers are registered before the address is announced, so no
//! signal can hit the default action.

use std::sync::Arc;

use anyhow::Context;
use tokio::signal::unix::{signal, Signal, SignalKind};

use crate::data::DataHandle;

/// Registered SIGTERM and SIGINT handlers.
pub struct StopSignals {
    term: Signal,
    int: Signal,
}

impl StopSignals {
    /// Registers both handlers now (inside a Tokio runtime).
    pub fn register() -> anyhow::Result<StopSignals> {
        Ok(StopSignals {
            term: signal(SignalKind::terminate()).context("cannot handle SIGTERM")?,
            int: signal(SignalKind::interrupt()).context("cannot handle SIGINT")?,
        })
    }

    /// Resolves on the first SIGTERM or SIGINT.
    pub async fn recv(mut self) {
        tokio::select! {
            _ = self.term.recv() => tracing::info!("SIGTERM received, shutting down"),
            _ = self.int.recv() => tracing::info!("SIGINT received, shutting down"),
        }
    }
}

/// Registers the SIGHUP handler now and returns the task that reloads the dataset on every
/// SIGHUP, forever. A failed reload keeps the old dataset and logs why.
pub fn reload_on_hangup(
    data: Arc<DataHandle>,
) -> anyhow::Result<impl std::future::Future<Output = ()> + Send> {
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
