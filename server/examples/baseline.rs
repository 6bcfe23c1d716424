//! The benchmark's baseline: the cheapest poem 3 handler that answers like our API does
//! (a small fixed JSON body, `application/json`). `make bench` loads it next to the real
//! server so the real endpoints can be reported as a ratio of "poem on this machine".
//!
//! Usage: `baseline [ADDR]` (default `127.0.0.1:0`); prints `listening on http://ADDR`
//! (the bound address, so port 0 works) and serves every path until killed.

use std::net::SocketAddr;

use poem::listener::{Acceptor, Listener, TcpListener};
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
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:0".to_owned());
    let addr: SocketAddr = addr.parse().map_err(|e| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{addr}: {e}"))
    })?;
    let acceptor = TcpListener::bind(addr).into_acceptor().await?;
    let bound = acceptor
        .local_addr()
        .first()
        .and_then(|a| a.as_socket_addr().copied())
        .ok_or_else(|| std::io::Error::other("the listener has no socket address"))?;
    // The bench script reads this line from a file to learn the port.
    println!("listening on http://{bound}");
    std::io::Write::flush(&mut std::io::stdout())?;
    // Every path answers, so the script can reuse the real endpoints' paths if it likes.
    // Started the same way as the real server (`kalendorius_server::server`): the same idle
    // timeout and graceful shutdown, so the ratio measures only what a request costs.
    poem::Server::new_with_acceptor(acceptor)
        .idle_timeout(kalendorius_server::server::IDLE_TIMEOUT)
        .run_with_graceful_shutdown(
            fixed,
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
            Some(std::time::Duration::from_secs(10)),
        )
        .await
}
