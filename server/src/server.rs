//! Starting, running and stopping the server. [`Server::bind`] does everything that can fail
//! before a request is served, so a bad start fails fast; [`Server::run`] serves until its
//! `shutdown` future resolves, then drains, stops the state's background task and flushes.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use anyhow::Context;
use futures_util::future::{poll_immediate, BoxFuture};
use poem::EndpointExt;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::api::today::TodayClock;
use crate::app::App;
use crate::config::Settings;
use crate::data::DataHandle;
use crate::http::client_ip::TrustedProxies;
use crate::http::connections;
use crate::http::errors;
use crate::state::store::Store;
use crate::state::State;

pub struct Server {
    settings: Settings,
    listener: TcpListener,
    data: Arc<DataHandle>,
    store: Store,
    today_clock: Option<TodayClock>,
}

impl Server {
    pub async fn bind(settings: Settings) -> anyhow::Result<Server> {
        let data_root = settings.data.clone();
        let data = tokio::task::spawn_blocking(move || DataHandle::open(&data_root))
            .await
            .context("loading the dataset")?
            .with_context(|| {
                format!(
                    "cannot serve the dataset at {} (build one with `kalendorius-generator build`)",
                    settings.data.display()
                )
            })?;
        // Its errors name the state directory (or URL) and say what to do.
        let store = Store::open(&settings.state, settings.limits.clone())?;
        Server::bind_with_store(settings, Arc::new(data), store, None).await
    }

    /// `today_at` (tests): the time `today` reads at start (limits, expiry and the log do not).
    pub async fn bind_with_store(
        settings: Settings,
        data: Arc<DataHandle>,
        store: Store,
        today_at: Option<SystemTime>,
    ) -> anyhow::Result<Server> {
        // Calibrates the request clock (under a millisecond, once per process) before any request.
        let _ = crate::clock::Instant::now();
        settings.connections.validate()?;
        let listener = connections::listen(settings.listen)
            .with_context(|| format!("cannot listen on {}", settings.listen))?;
        Ok(Server {
            settings,
            listener,
            data,
            store,
            today_clock: today_at.map(TodayClock::starting_at),
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound socket has an address")
    }

    pub fn data(&self) -> Arc<DataHandle> {
        self.data.clone()
    }

    /// The sled state, for tests and tools; panics when the state is in Redis.
    pub fn state(&self) -> Arc<State> {
        match &self.store {
            Store::Sled(state) => state.clone(),
            Store::Redis(_) => panic!("the state is a sled database, not Redis"),
        }
    }

    /// Serves until `shutdown`, calling `ready` with the bound address once the admin socket is
    /// up too (so a `keys` command issued on that signal reaches this server).
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
        ready: impl FnOnce(SocketAddr),
    ) -> anyhow::Result<()> {
        let local_addr = self.local_addr();
        let Server {
            settings,
            listener,
            data,
            store,
            today_clock,
        } = self;
        let trusted = TrustedProxies(settings.trusted_proxies.clone());
        let app = App::new(
            data,
            store.clone(),
            trusted.clone(),
            settings.metrics_allow.clone(),
            today_clock,
        );
        let connection_metrics = app.connection_metrics();
        let app = app.with(
            // Last resort: a panic outside the operations still answers a JSON 500.
            poem::middleware::CatchPanic::new().with_handler(errors::panic_response),
        );

        // The background task stops after the HTTP server, so requests still in flight are counted.
        let server_done = CancellationToken::new();
        let background_stop = server_done.clone().cancelled_owned();
        let background: BoxFuture<'static, anyhow::Result<()>> = match &store {
            Store::Sled(state) => {
                let state = state.clone();
                let mut background = Box::pin(async move {
                    let admin_socket = crate::state::admin::socket_path(state.dir());
                    state.run_background(&admin_socket, background_stop).await
                });
                // One poll binds the admin socket (before run_background's first await).
                match poll_immediate(&mut background).await {
                    Some(result) => Box::pin(std::future::ready(result)),
                    None => background,
                }
            }
            Store::Redis(redis) => {
                let redis = redis.clone();
                // The first round, so keys are known before the first request.
                if let Err(e) = redis.refresh().await {
                    tracing::error!(url = redis.url(), error = %e, "Redis cannot be reached; public requests are answered uncounted until it can");
                }
                Box::pin(async move {
                    redis.run_background(background_stop).await;
                    Ok(())
                })
            }
        };
        ready(local_addr);

        let http = async move {
            let _stop_background = server_done.drop_guard();
            tracing::info!(%local_addr, "serving");
            connections::serve(
                listener,
                app,
                settings.connections,
                Duration::from_secs(settings.shutdown_timeout_secs),
                trusted,
                connection_metrics,
                shutdown,
            )
            .await
        };
        let (http_result, background_result) = tokio::join!(http, background);
        if let Err(e) = &background_result {
            tracing::error!(error = format!("{e:#}"), "state background task failed");
        }
        let flushed = match &store {
            Store::Sled(state) => state.flush().context("final flush of the state"),
            // Redis holds every count already.
            Store::Redis(_) => Ok(()),
        };
        http_result.context("the HTTP server failed")?;
        flushed?;
        background_result.context("the state background task failed")?;
        tracing::info!("stopped; state flushed");
        Ok(())
    }
}
