//! The bench's attacker: reproduces the two floods that used to hurt the server, on
//! loopback only, bounded in count and time, and reports what normal clients saw.
//!
//! `flood slow ADDR [--connections N] [--seconds S] [--distinct 0|1]`: opens N connections
//! (default 20 000) from 127.0.0.1 (with `--distinct 1`: each from an address of its own,
//! 127.200.x.y, so no per-address cap applies), each sending half a request and then nothing,
//! and keeps re-opening them for S seconds (default 15) while normal clients (127.0.2.x) ask
//! `/api/v1/laisvadienis` ten times a second in all. Prints the normal requests answered and
//! how the flood's connections ended.
//!
//! `flood addresses ADDR [--count N] [--concurrency C]`: one request to
//! `/api/v1/laisvadienis` from each of N distinct loopback addresses (default 1 000 000,
//! from 127.1.0.0 up), C at a time (default 128). Every 100th address is a "newcomer"
//! whose first answer must be a 200 with `RateLimit-Remaining` = limit - 1. Prints the
//! rate reached, the newcomers' worst remaining quota and how many got a 429.
//!
//! Only 127.0.0.0/8 is ever used as a source or a target.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const REQUEST: &[u8] =
    b"GET /api/v1/laisvadienis?date=2026-12-24 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
const HALF_REQUEST: &[u8] =
    b"GET /api/v1/laisvadienis?date=2026-12-24 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ";

fn usage() -> ! {
    eprintln!("usage: flood slow ADDR [--connections N] [--seconds S] [--distinct 0|1]");
    eprintln!("       flood addresses ADDR [--count N] [--concurrency C]");
    std::process::exit(2)
}

fn flag(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().unwrap_or_else(|_| usage()))
}

async fn connect_from(source: Ipv4Addr, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    socket.bind(SocketAddr::from((source, 0)))?;
    socket.connect(server).await
}

/// One whole request from `source`: (status, RateLimit-Remaining).
async fn ask(source: Ipv4Addr, server: SocketAddr) -> std::io::Result<(u16, Option<u64>)> {
    let mut stream = connect_from(source, server).await?;
    stream.write_all(REQUEST).await?;
    let mut answer = Vec::with_capacity(1024);
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "no answer in 5 s"))??;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let remaining = text
        .lines()
        .find_map(|l| l.strip_prefix("ratelimit-remaining: "))
        .and_then(|v| v.trim().parse().ok());
    Ok((status, remaining))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(mode), Some(server)) = (args.first(), args.get(1)) else {
        usage()
    };
    let server: SocketAddr = server.parse().unwrap_or_else(|_| usage());
    assert!(server.ip().is_loopback(), "only loopback targets");
    match mode.as_str() {
        "slow" => {
            slow(
                server,
                flag(&args, "--connections", 20_000),
                flag(&args, "--seconds", 15),
                flag(&args, "--distinct", 0) == 1,
            )
            .await
        }
        "addresses" => {
            addresses(
                server,
                flag(&args, "--count", 1_000_000),
                flag(&args, "--concurrency", 128),
            )
            .await
        }
        _ => usage(),
    }
}

/// With `distinct`, each flood connection comes from an address of its own (127.200.x.y, apart from the address flood's 127.1.0.0 and up), so
/// the per-address cap does not apply: only the cap on waiting connections does.
async fn slow(server: SocketAddr, connections: u64, seconds: u64, distinct: bool) {
    let end = Instant::now() + Duration::from_secs(seconds);
    let opened = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let closed_by_server = Arc::new(AtomicU64::new(0));
    // The flood: `connections` tasks, each holding one half-sent request at a time and
    // opening another as soon as the server closes it.
    let mut flood = Vec::new();
    for i in 0..connections {
        let (opened, failed, closed) = (opened.clone(), failed.clone(), closed_by_server.clone());
        let source = if distinct {
            Ipv4Addr::new(127, 200, (i >> 8) as u8, i as u8)
        } else {
            Ipv4Addr::LOCALHOST
        };
        flood.push(tokio::spawn(async move {
            while Instant::now() < end {
                let Ok(mut s) = connect_from(source, server).await else {
                    failed.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                opened.fetch_add(1, Ordering::Relaxed);
                let _ = s.write_all(HALF_REQUEST).await;
                let mut buf = [0u8; 64];
                let left = end.saturating_duration_since(Instant::now());
                if let Ok(Ok(0) | Err(_)) = tokio::time::timeout(left, s.read(&mut buf)).await {
                    closed.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    // Normal clients, ten requests a second in all, from other addresses.
    let (mut asked, mut answered, mut worst) = (0u64, 0u64, Duration::ZERO);
    let mut failures: Vec<String> = Vec::new();
    tokio::time::sleep(Duration::from_secs(1)).await;
    while Instant::now() < end {
        asked += 1;
        let started = Instant::now();
        // Normal clients on 127.0.2.x, a different one each time, so none of them nears
        // its own rate limit (60 a minute).
        match ask(Ipv4Addr::new(127, 0, 2, asked as u8), server).await {
            Ok((200, _)) => {
                answered += 1;
                worst = worst.max(started.elapsed());
            }
            Ok((status, _)) => failures.push(format!("status {status}")),
            Err(e) => failures.push(format!("{e} after {} ms", started.elapsed().as_millis())),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for task in flood {
        let _ = task.await;
    }
    println!(
        "slow flood: {connections} half-sent connections{} held at a time for {seconds} s; \
         {} opened, {} closed by the server, {} connects failed; normal clients: {answered} of \
         {asked} answered 200 (slowest {} ms)",
        if distinct {
            ", each from an address of its own,"
        } else {
            " from one address"
        },
        opened.load(Ordering::Relaxed),
        closed_by_server.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
        worst.as_millis()
    );
    if answered != asked {
        failures.dedup();
        eprintln!("normal client failures: {}", failures.join("; "));
        std::process::exit(1);
    }
}

async fn addresses(server: SocketAddr, count: u64, concurrency: u64) {
    let next = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let refused_newcomers = Arc::new(AtomicU64::new(0));
    let newcomers = Arc::new(AtomicU64::new(0));
    let worst_remaining = Arc::new(AtomicU64::new(u64::MAX));
    let best_remaining = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let (next, errors, refused, newcomers, worst, best) = (
            next.clone(),
            errors.clone(),
            refused_newcomers.clone(),
            newcomers.clone(),
            worst_remaining.clone(),
            best_remaining.clone(),
        );
        workers.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                // 127.1.0.0 + i: up to 16 M distinct loopback sources.
                let source = Ipv4Addr::from(u32::from(Ipv4Addr::new(127, 1, 0, 0)) + i as u32);
                match ask(source, server).await {
                    Ok((status, remaining)) if i % 100 == 0 => {
                        newcomers.fetch_add(1, Ordering::Relaxed);
                        if status == 429 {
                            refused.fetch_add(1, Ordering::Relaxed);
                        }
                        if let Some(r) = remaining {
                            worst.fetch_min(r, Ordering::Relaxed);
                            best.fetch_max(r, Ordering::Relaxed);
                        }
                    }
                    Ok(_) => {}
                    Err(_) => {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    for w in workers {
        let _ = w.await;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "address flood: {count} distinct addresses in {secs:.1} s ({:.0}/s), {} errors; \
         {} newcomers: {} got 429, first-request RateLimit-Remaining {}..{}",
        count as f64 / secs,
        errors.load(Ordering::Relaxed),
        newcomers.load(Ordering::Relaxed),
        refused_newcomers.load(Ordering::Relaxed),
        worst_remaining.load(Ordering::Relaxed),
        best_remaining.load(Ordering::Relaxed),
    );
    if refused_newcomers.load(Ordering::Relaxed) > 0 {
        std::process::exit(1);
    }
}
