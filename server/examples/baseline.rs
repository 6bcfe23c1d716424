//! The benchmark's baseline: the cheapest poem 3 handler that answers like our API does
//! (a small fixed JSON body, `application/json`). `make bench` loads it next to the real
//! server so the real endpoints can be reported as a ratio of "poem on this machine".
//!
//! Usage: `baseline [ADDR] [--poem-server]` (default `127.0.0.1:0`); prints `listening on
//! http://ADDR` (the bound address, so port 0 works) and serves every path until killed.
//! With `--poem-server` it runs on poem's own `Server`: the "bare poem" ceiling the bench's
//! ratios are taken against. Without it, it is served by the real server's accept loop
//! (`kalendorius_server::http::connections`, default bounds), to show what that loop costs
//! or saves against poem's.

use std::net::SocketAddr;

use std::time::Duration;

use kalendorius_server::http::client_ip::TrustedProxies;
use kalendorius_server::http::connections::{self, ConnectionSettings};
use poem::listener::TcpAcceptor;
use poem::{handler, Response};

/// The same shape and size as a `/api/v1/laisvadienis` answer, built without any work.
const BODY: &str = r#"{"date":"2026-12-24","laisvadienis":true}"#;

#[handler]
fn fixed() -> Response {
    Response::builder()
        .content_type("application/json")
        .body(BODY)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let poem_server = args.iter().any(|a| a == "--poem-server");
    let addr = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or("127.0.0.1:0", String::as_str);
    let addr: SocketAddr = addr.parse().map_err(|e| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{addr}: {e}"))
    })?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    // The bench script reads this line from a file to learn the port.
    println!("listening on http://{}", listener.local_addr()?);
    std::io::Write::flush(&mut std::io::stdout())?;
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    // Every path answers, so the script can reuse the real endpoints' paths if it likes.
    if poem_server {
        let acceptor = TcpAcceptor::from_tokio(listener)?;
        return poem::Server::new_with_acceptor(acceptor)
            .idle_timeout(Duration::from_secs(75))
            .run_with_graceful_shutdown(fixed, stop, Some(Duration::from_secs(10)))
            .await;
    }
    // Detached metrics: the accept loop records its connections as the real server's does.
    let metrics = kalendorius_server::metrics::ConnectionMetrics::default();
    connections::serve(
        listener,
        fixed,
        ConnectionSettings::default(),
        Duration::from_secs(10),
        TrustedProxies::default(),
        metrics,
        stop,
    )
    .await
}
