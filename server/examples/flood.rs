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
//! `flood dribble ADDR [--connections N] [--seconds S]`: N connections (default 50) from
//! 127.0.0.1, each sending an 8 191-byte partial head one byte per TCP segment (a write per
//! byte, no delay, a millisecond apart), re-opened when closed, for S seconds (default 15),
//! while normal clients ask ten times a second. Prints the normal clients' median and
//! slowest answer and the CPU time the flood itself used.
//!
//! `flood varied ADDR --key KEY [--concurrency C]`: ordinary varied traffic, C requests at a
//! time (default 8), each asking for no, gzip, brotli or either compression in turn: every
//! long-weekend combination of 2000-2100 (`max_leave_days` 0-3, four languages), every
//! school-holiday year, grade and language, 15 000 distinct pages, 6 000 holiday feed spans
//! and every year file. Prints the requests answered and how long they took.
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
    eprintln!("       flood dribble ADDR [--connections N] [--seconds S]");
    eprintln!("       flood varied ADDR --key KEY [--concurrency C]");
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
        "dribble" => {
            dribble(
                server,
                flag(&args, "--connections", 50),
                flag(&args, "--seconds", 15),
            )
            .await
        }
        "varied" => {
            let key = args
                .iter()
                .position(|a| a == "--key")
                .and_then(|i| args.get(i + 1))
                .unwrap_or_else(|| usage())
                .clone();
            varied(server, key, flag(&args, "--concurrency", 8)).await
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

/// The paths of `flood varied`, in the order asked.
fn varied_paths() -> Vec<String> {
    let langs = ["lt", "en", "pl", "ru"];
    let mut paths = Vec::new();
    for year in 2000..=2100 {
        for leave in 0..=3 {
            for lang in langs {
                paths.push(format!(
                    "/api/v1/long-weekends?year={year}&max_leave_days={leave}&lang={lang}"
                ));
            }
        }
    }
    for year in 2019..=2027 {
        for grade in 0..=12 {
            for lang in langs {
                paths.push(format!(
                    "/api/v1/school-holidays?year={year}&grade={grade}&lang={lang}"
                ));
            }
        }
    }
    let pages = (1583..=2100)
        .flat_map(|year| (1..=12).map(move |month| format!("/{year}/{month:02}")))
        .flat_map(|page| langs.map(|lang| format!("{page}?lang={lang}")));
    paths.extend(pages.take(15_000));
    for from in 1900..=2099 {
        for span in 0..30 {
            paths.push(format!(
                "/api/v1/feeds/holidays.ics?from_year={from}&to_year={}&scope=all&shortened=true",
                (from + span).min(2100)
            ));
        }
    }
    paths.extend((1583..=2100).map(|year| format!("/data/years/{year}.json")));
    paths
}

async fn varied(server: SocketAddr, key: String, concurrency: u64) {
    let paths: Arc<[String]> = varied_paths().into();
    let next = Arc::new(AtomicU64::new(0));
    let (answered, failed) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let key: Arc<str> = key.into();
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let (paths, next, answered, failed, key) = (
            paths.clone(),
            next.clone(),
            answered.clone(),
            failed.clone(),
            key.clone(),
        );
        workers.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(path) = paths.get(i) else { break };
                let accept = ["", "gzip", "br", "gzip, br"][i % 4];
                let request = format!(
                    "GET {path} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: {key}\r\n\
                     Accept-Encoding: {accept}\r\nConnection: close\r\n\r\n"
                );
                let asked = async {
                    let mut stream = TcpStream::connect(server).await?;
                    stream.write_all(request.as_bytes()).await?;
                    let mut answer = Vec::new();
                    stream.read_to_end(&mut answer).await?;
                    Ok::<_, std::io::Error>(answer.starts_with(b"HTTP/1.1 200"))
                };
                match asked.await {
                    Ok(true) => answered.fetch_add(1, Ordering::Relaxed),
                    _ => failed.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    for w in workers {
        let _ = w.await;
    }
    println!(
        "varied traffic: {} requests in {:.1} s, {} answered 200, {} not",
        paths.len(),
        started.elapsed().as_secs_f64(),
        answered.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
    );
}

/// The length of the dribbled partial head: one byte short of the server's head limit.
const DRIBBLED_HEAD: usize = 8191;

async fn dribble(server: SocketAddr, connections: u64, seconds: u64) {
    let end = Instant::now() + Duration::from_secs(seconds);
    let segments = Arc::new(AtomicU64::new(0));
    let mut head =
        b"GET /api/v1/laisvadienis?date=2026-12-24 HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
            .to_vec();
    head.resize(DRIBBLED_HEAD, b'a');
    let head: Arc<[u8]> = head.into();
    let mut flood = Vec::new();
    for _ in 0..connections {
        let (segments, head) = (segments.clone(), head.clone());
        flood.push(tokio::spawn(async move {
            while Instant::now() < end {
                let Ok(mut s) = connect_from(Ipv4Addr::LOCALHOST, server).await else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                let _ = s.set_nodelay(true);
                for byte in head.iter() {
                    if Instant::now() >= end || s.write_all(&[*byte]).await.is_err() {
                        break;
                    }
                    segments.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut latencies = Vec::new();
    let mut failures = 0;
    while Instant::now() < end {
        let started = Instant::now();
        let source = Ipv4Addr::new(127, 0, 2, latencies.len() as u8);
        match ask(source, server).await {
            Ok((200, _)) => latencies.push(started.elapsed()),
            _ => failures += 1,
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for task in flood {
        let _ = task.await;
    }
    latencies.sort();
    let median = latencies
        .get(latencies.len() / 2)
        .copied()
        .unwrap_or_default();
    let slowest = latencies.last().copied().unwrap_or_default();
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let cpu = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    println!(
        "dribble: {connections} connections sent {} one-byte segments in {seconds} s, using \
         {:.1} s of CPU (user {:.1} s, system {:.1} s); normal clients: {} answered 200, {failures} \
         failed, median {:.1} ms, slowest {:.1} ms",
        segments.load(Ordering::Relaxed),
        cpu(usage.ru_utime) + cpu(usage.ru_stime),
        cpu(usage.ru_utime),
        cpu(usage.ru_stime),
        latencies.len(),
        median.as_secs_f64() * 1e3,
        slowest.as_secs_f64() * 1e3,
    );
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
