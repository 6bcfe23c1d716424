//! The dataset in service and its atomic replacement (SIGHUP). A request keeps the
//! `Arc<Catalog>` it started with, so a reload never mixes two datasets in one answer; a
//! failed reload keeps the old one. Loads and reloads go to [`ReloadMetrics`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arc_swap::ArcSwap;

use crate::catalog::{Catalog, CatalogError};
use crate::metrics::{CacheMetrics, ReloadMetrics};

/// Loads and checks the dataset at `root` (an output root or a dataset directory).
fn load_catalog(root: &Path, answers_metrics: CacheMetrics) -> Result<Catalog, CatalogError> {
    let dir = kalendorius_dataset::open_manifest(root)?;
    Catalog::load(&dir, answers_metrics)
}

/// The catalog in service. Cheap to read from any thread.
pub struct DataHandle {
    pub root: PathBuf,
    current: ArcSwap<Catalog>,
    /// So that two SIGHUPs in a row cannot race.
    reloading: tokio::sync::Mutex<()>,
    pub reload_metrics: ReloadMetrics,
    /// Shared by every catalog loaded here.
    pub answers_metrics: CacheMetrics,
}

impl DataHandle {
    /// Loads the dataset at `root`; an error stops the server's start.
    pub fn open(root: &Path) -> Result<DataHandle, CatalogError> {
        let started = std::time::Instant::now();
        let answers_metrics = CacheMetrics::default();
        let catalog = load_catalog(root, answers_metrics.clone())?;
        // Loading parses every year file into short-lived records.
        crate::memory::release_free();
        // `make bench` reads the load time from this line.
        tracing::info!(
            dataset_version = catalog.version,
            load_ms = started.elapsed().as_millis() as u64,
            "dataset loaded from its sled database"
        );
        let reload_metrics = ReloadMetrics::default();
        reload_metrics.loaded(chrono::Utc::now().timestamp(), false, true);
        Ok(DataHandle {
            root: root.to_path_buf(),
            current: ArcSwap::from_pointee(catalog),
            reloading: tokio::sync::Mutex::new(()),
            reload_metrics,
            answers_metrics,
        })
    }

    /// The catalog in service now, held for as long as the guard lives (a guard, not an `Arc`,
    /// so requests do not share a reference count's cache line).
    pub fn current(&self) -> arc_swap::Guard<Arc<Catalog>> {
        self.current.load()
    }

    /// Loads the dataset again, off the async threads, and swaps it in if it loaded.
    pub async fn reload(&self) -> anyhow::Result<Arc<Catalog>> {
        let _one_at_a_time = self.reloading.lock().await;
        let root = self.root.clone();
        let answers_metrics = self.answers_metrics.clone();
        let loaded = tokio::task::spawn_blocking(move || load_catalog(&root, answers_metrics))
            .await
            .map_err(|join| anyhow::anyhow!("the reload task failed: {join}"))
            .and_then(|loaded| loaded.map_err(anyhow::Error::from));
        self.reload_metrics
            .loaded(chrono::Utc::now().timestamp(), true, loaded.is_ok());
        let catalog = Arc::new(loaded?);
        // In-flight requests may still hold the old catalog; it is freed with the last one.
        self.current.store(catalog.clone());
        crate::memory::release_free();
        Ok(catalog)
    }
}
