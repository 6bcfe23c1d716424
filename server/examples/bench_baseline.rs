//! The performance baseline of `make bench`: a minimal poem handler returning a small JSON
//! object, on the same runtime defaults as the server. The API's throughput targets are
//! stated relative to this (`/laisvadienis` >= 0.8x, `/days` full year and `/day` >= 0.6x).
//!
//! `cargo run --release -p kalendorius-server --example bench_baseline -- 127.0.0.1:8090`

use poem::listener::TcpListener;
use poem::web::{Json, RemoteAddr};
use poem::{get, handler, Route, Server};

#[handler]
fn hello(addr: &RemoteAddr) -> Json<serde_json::Value> {
    Json(serde_json::json!({"ok": true, "ip": addr.to_string()}))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8090".into());
    println!("listening on http://{listen}");
    Server::new(TcpListener::bind(listen))
        .run(Route::new().at("/", get(hello)))
        .await
}
