//! Slow and half-open connections: a flood of them from one address neither keeps other
//! clients out nor holds its sockets past the header deadline.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use kalendorius_server::http::connections::ConnectionSettings;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::helpers::{spawn_app_with, AppOptions, TestApp};

const HALF_REQUEST: &[u8] =
    b"GET /api/v1/laisvadienis?date=2022-12-24 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ";

/// A server with these connection bounds.
async fn spawn_with(connections: ConnectionSettings) -> TestApp {
    spawn_app_with(AppOptions {
        connections: Some(connections),
        ..AppOptions::default()
    })
    .await
}

pub(crate) fn addr_of(base: &str) -> SocketAddr {
    base.trim_start_matches("http://").parse().unwrap()
}

/// Connects from `source` (any loopback address) to `server`.
pub(crate) async fn connect_from(source: [u8; 4], server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((source, 0))).unwrap();
    socket.connect(server).await.unwrap()
}

/// A whole request from `source`; the status line of the answer.
async fn status_line_from(source: [u8; 4], server: SocketAddr) -> String {
    let mut stream = connect_from(source, server).await;
    stream
        .write_all(
            b"GET /api/v1/laisvadienis?date=2022-12-24 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        )
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .unwrap();
    String::from_utf8_lossy(&answer)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

/// Asks for `date` on a kept-alive `stream` and asserts a 200.
async fn served_on(stream: &mut TcpStream, date: &str) {
    let request =
        format!("GET /api/v1/laisvadienis?date={date} HTTP/1.1\r\nHost: localhost\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = stream.read(&mut buf).await.unwrap();
    assert!(
        buf[..n].starts_with(b"HTTP/1.1 200 OK"),
        "{}",
        String::from_utf8_lossy(&buf[..n])
    );
}

/// True when the server has closed `stream` (EOF or reset) within `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 256];
    match tokio::time::timeout(within, stream.read(&mut buf)).await {
        Ok(Ok(0)) | Ok(Err(_)) => true,
        Ok(Ok(_)) => panic!("a half-sent request got an answer"),
        Err(_) => false,
    }
}

#[tokio::test]
async fn half_sent_requests_neither_lock_others_out_nor_outlive_the_header_deadline() {
    let app = spawn_with(ConnectionSettings {
        header_read_timeout_secs: 2,
        max_connections_per_ip: 100,
        ..ConnectionSettings::default()
    })
    .await;
    let server = addr_of(&app.base);

    // 300 connections from 127.0.0.1, each with half a request.
    let first_opened = Instant::now();
    let mut held = Vec::new();
    for _ in 0..300 {
        let mut s = connect_from([127, 0, 0, 1], server).await;
        let _ = s.write_all(HALF_REQUEST).await;
        held.push(s);
    }
    let flood_started = Instant::now();
    // Over the per-address cap, 200 were closed at once (looked at well before the
    // 2 s deadline of the others).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut refused = 0;
    for s in &mut held {
        if closed_within(s, Duration::from_millis(1)).await {
            refused += 1;
        }
    }
    assert!(flood_started.elapsed() < Duration::from_millis(1_500));
    assert_eq!(refused, 200, "the per-address cap is 100, {refused} closed");

    // Another client is answered meanwhile.
    assert_eq!(
        status_line_from([127, 0, 0, 2], server).await,
        "HTTP/1.1 200 OK"
    );

    // The 100 held ones are closed once the header deadline (2 s) has passed.
    for (i, s) in held.iter_mut().enumerate() {
        assert!(
            closed_within(s, Duration::from_secs(4)).await,
            "connection {i} still open {:?} after it started",
            flood_started.elapsed()
        );
    }
    // None before its deadline: counted from the first connection's opening, as opening
    // them all takes a while on a loaded machine.
    assert!(first_opened.elapsed() >= Duration::from_millis(1_900));
    // Their places are given back: the flooding address is served again.
    assert_eq!(
        status_line_from([127, 0, 0, 1], server).await,
        "HTTP/1.1 200 OK"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_after_the_header_deadline() {
    let app = spawn_with(ConnectionSettings {
        header_read_timeout_secs: 1,
        ..ConnectionSettings::default()
    })
    .await;
    let server = addr_of(&app.base);
    let mut silent = connect_from([127, 0, 0, 1], server).await;
    let started = Instant::now();
    assert!(!closed_within(&mut silent, Duration::from_millis(500)).await);
    assert!(closed_within(&mut silent, Duration::from_secs(4)).await);
    assert!(started.elapsed() >= Duration::from_millis(900));

    // A keep-alive connection that served a request and then goes quiet mid-way through
    // the next one is closed too.
    let mut stream = connect_from([127, 0, 0, 1], server).await;
    served_on(&mut stream, "2022-12-24").await;
    stream.write_all(HALF_REQUEST).await.unwrap();
    assert!(closed_within(&mut stream, Duration::from_secs(4)).await);

    // An idle HTTP/1 keep-alive connection is closed by the header deadline too (it runs
    // from the end of the previous answer), well before the idle deadline (75 s).
    let mut kept = connect_from([127, 0, 0, 1], server).await;
    served_on(&mut kept, "2022-12-24").await;
    let quiet_from = Instant::now();
    assert!(closed_within(&mut kept, Duration::from_secs(4)).await);
    assert!(quiet_from.elapsed() >= Duration::from_millis(900));
    app.stop().await;
}

#[tokio::test]
async fn the_global_cap_refuses_new_connections_and_keeps_the_served_ones() {
    let app = spawn_with(ConnectionSettings {
        max_connections: 10,
        ..ConnectionSettings::default()
    })
    .await;
    let server = addr_of(&app.base);
    // Ten keep-alive clients from ten addresses, each served once.
    let mut served = Vec::new();
    for i in 0..10u8 {
        let mut s = connect_from([127, 0, 1, i], server).await;
        served_on(&mut s, "2022-12-24").await;
        served.push(s);
    }
    // An eleventh is closed at once.
    let mut eleventh = connect_from([127, 0, 2, 1], server).await;
    assert!(closed_within(&mut eleventh, Duration::from_secs(2)).await);
    // The ten keep working.
    for s in &mut served {
        served_on(s, "2022-12-25").await;
    }
    app.stop().await;
}

/// Reads until the server closes `stream`; the status line of what it sent, if anything.
/// Panics if the server has not closed it within `within`.
async fn answer_and_close(stream: &mut TcpStream, within: Duration) -> String {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(within, stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "not closed within {within:?}");
    String::from_utf8_lossy(&answer)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

/// A connection waits for its first request's head without hyper (the bytes are only
/// peeked at); these are the ways a head arrives, and must be handed over unchanged.
#[tokio::test]
async fn a_request_head_is_served_however_it_arrives_and_a_half_sent_one_is_not_kept() {
    let app = spawn_with(ConnectionSettings {
        header_read_timeout_secs: 10,
        ..ConnectionSettings::default()
    })
    .await;
    let server = addr_of(&app.base);
    let started = Instant::now();

    // In four pieces, one split inside the final empty line.
    let mut pieces = connect_from([127, 0, 0, 1], server).await;
    for piece in [
        &b"GET /api/v1/laisvadienis?da"[..],
        b"te=2022-12-24 HTTP/1.1\r\nHost: localhost\r\n",
        b"Connection: close\r\n\r",
        b"\n",
    ] {
        pieces.write_all(piece).await.unwrap();
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let status = answer_and_close(&mut pieces, Duration::from_secs(5)).await;
    assert_eq!(status, "HTTP/1.1 200 OK");

    // With bare line feeds, which hyper's parser accepts.
    let mut bare = connect_from([127, 0, 0, 1], server).await;
    bare.write_all(b"GET /api/v1/laisvadienis?date=2022-12-24 HTTP/1.1\nHost: localhost\nConnection: close\n\n")
        .await
        .unwrap();
    let status = answer_and_close(&mut bare, Duration::from_secs(5)).await;
    assert_eq!(status, "HTTP/1.1 200 OK");

    // A head and its body in one write.
    let mut with_body = connect_from([127, 0, 0, 1], server).await;
    with_body
        .write_all(b"POST /api/v1/laisvadienis?date=2022-12-24 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}")
        .await
        .unwrap();
    let status = answer_and_close(&mut with_body, Duration::from_secs(5)).await;
    assert!(status.starts_with("HTTP/1.1 405"), "{status}");

    // Not HTTP at all (the start of a TLS handshake): hyper's 400 at once, not the deadline.
    let mut tls = connect_from([127, 0, 0, 1], server).await;
    tls.write_all(&[
        0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03,
    ])
    .await
    .unwrap();
    let status = answer_and_close(&mut tls, Duration::from_secs(3)).await;
    assert!(status.starts_with("HTTP/1.1 400"), "{status}");

    // Half a head, then the sender finishes (FIN): closed at once, not at the deadline.
    let mut finished = connect_from([127, 0, 0, 1], server).await;
    finished.write_all(HALF_REQUEST).await.unwrap();
    finished.shutdown().await.unwrap();
    answer_and_close(&mut finished, Duration::from_secs(3)).await;
    assert!(started.elapsed() < Duration::from_secs(8));

    // A half-sent request still waiting does not hold up the shutdown.
    let mut waiting = connect_from([127, 0, 0, 1], server).await;
    waiting.write_all(HALF_REQUEST).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let stopping = Instant::now();
    app.stop().await;
    assert!(stopping.elapsed() < Duration::from_secs(3));
    answer_and_close(&mut waiting, Duration::from_secs(1)).await;
}

/// A half-sent request is closed at the header deadline with a FIN, as when hyper had read
/// it, not a reset: the bytes it sent are read first.
#[tokio::test]
async fn a_half_sent_request_is_closed_at_the_deadline_without_a_reset() {
    let app = spawn_with(ConnectionSettings {
        header_read_timeout_secs: 1,
        ..ConnectionSettings::default()
    })
    .await;
    let server = addr_of(&app.base);
    let mut half = connect_from([127, 0, 0, 1], server).await;
    half.write_all(HALF_REQUEST).await.unwrap();
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(4), half.read(&mut buf))
        .await
        .expect("closed at the deadline");
    assert_eq!(read.expect("an end of stream, not a reset"), 0);
    app.stop().await;
}
