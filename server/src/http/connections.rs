//! The accept loop around hyper, which owns every connection bound
//! (docs/operations.md#running-the-server; poem's `Server` has neither a header deadline
//! nor caps): the header and idle deadlines, the caps, and the shutdown (in-flight requests
//! finish, the rest are cut after `shutdown_timeout`). Until its first head has arrived, a
//! connection is a small task that reads it into a buffer of its own, as large as what
//! arrived (`WaitForHead`): hyper's state holds two 8 KiB buffers from the start. Reading costs the server what sending costs the
//! peer; peeking (as before 0.4.0) made the kernel walk every segment queued on each new one,
//! so a head sent a byte per segment cost the server far more than its sender.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use parking_lot::Mutex;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Addr, Endpoint, Request, Response};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::http::client_ip::{client_network, TrustedProxies};
use crate::metrics::ConnectionMetrics;

/// Descriptors kept for the state database, the admin socket, the dataset files and the log.
pub const RESERVED_DESCRIPTORS: u64 = 128;

/// The connection bounds: `[connections]` of `kalendorius.example.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(default, deny_unknown_fields)]
pub struct ConnectionSettings {
    #[default = 10]
    pub header_read_timeout_secs: u64,
    #[default = 75]
    pub idle_timeout_secs: u64,
    /// 0 = sized from the descriptor limit.
    pub max_connections: usize,
    #[default = 256]
    pub max_connections_per_ip: usize,
}

impl ConnectionSettings {
    pub fn validate(&self) -> anyhow::Result<()> {
        let at_least_one = [
            ("header_read_timeout_secs", self.header_read_timeout_secs),
            ("idle_timeout_secs", self.idle_timeout_secs),
            ("max_connections_per_ip", self.max_connections_per_ip as u64),
        ];
        for (name, value) in at_least_one {
            anyhow::ensure!(value > 0, "connections.{name} must be at least 1");
        }
        Ok(())
    }

    fn header_read_timeout(&self) -> Duration {
        Duration::from_secs(self.header_read_timeout_secs)
    }

    /// The cap in force: the configured one, or (0) the descriptor limit less
    /// [`RESERVED_DESCRIPTORS`], at least 16; the soft limit is first raised to the hard one,
    /// so a default `ulimit -n` of 1024 does not cap a machine that allows more.
    fn effective_max_connections(&self) -> usize {
        if self.max_connections > 0 {
            return self.max_connections;
        }
        let nofile = rlimit::Resource::NOFILE;
        let limit = match nofile.get() {
            Ok((soft, hard)) if soft < hard && nofile.set(hard, hard).is_ok() => hard,
            Ok((soft, _)) => soft,
            Err(_) => 1024,
        };
        usize::try_from(limit.saturating_sub(RESERVED_DESCRIPTORS).max(16)).unwrap_or(usize::MAX)
    }
}

/// Open connections, in all and per client address (only those with one open).
#[derive(Default)]
struct OpenConnections {
    total: AtomicUsize,
    /// The most open at once since memory was last given back.
    peak: AtomicUsize,
    per_ip: Mutex<HashMap<IpAddr, usize>>,
    /// Bytes of partial heads held beyond each connection's [`FREE_HEAD_BYTES`].
    head_bytes: AtomicUsize,
    metrics: ConnectionMetrics,
}

/// One admitted connection's place in [`OpenConnections`]; given back on drop.
struct Slot {
    open: Arc<OpenConnections>,
    ip: Option<IpAddr>,
    /// Its share of [`OpenConnections::head_bytes`].
    head_bytes: usize,
}

/// Why a connection was refused: the cap it would have passed, and which one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Refusal {
    cap: usize,
    reason: &'static str,
}

/// Bytes of a partial head any waiting connection may hold: a head of ordinary size.
const FREE_HEAD_BYTES: usize = 1024;

/// Bytes of partial heads held beyond [`FREE_HEAD_BYTES`] by all waiting connections
/// together: a connection whose head would pass it is closed (as at its header deadline),
/// so thousands of connections each sending most of [`HEAD_LIMIT`] cannot take the memory.
const HEAD_BYTES_BUDGET: usize = 8 << 20;

/// The smallest peak of connections worth a heap walk when they fall to a quarter of it.
const RELEASE_AFTER_PEAK: usize = 1024;

impl OpenConnections {
    /// A place for a connection from `ip`, or why it has none.
    fn admit(
        self: &Arc<Self>,
        ip: IpAddr,
        bounds: &ConnectionSettings,
        trusted: &TrustedProxies,
    ) -> Result<Slot, Refusal> {
        let before = self.total.fetch_add(1, Ordering::AcqRel);
        if before >= bounds.max_connections {
            self.total.fetch_sub(1, Ordering::AcqRel);
            self.metrics.refused_total_cap.inc();
            return Err(Refusal {
                cap: bounds.max_connections,
                reason: "too many connections",
            });
        }
        self.peak.fetch_max(before + 1, Ordering::Relaxed);
        self.metrics.open.inc();
        let mut slot = Slot {
            open: self.clone(),
            ip: None,
            head_bytes: 0,
        };
        if !trusted.contains(ip) {
            let key = client_network(ip);
            let mut per_ip = self.per_ip.lock();
            let n = per_ip.entry(key).or_insert(0);
            if *n >= bounds.max_connections_per_ip {
                if *n == 0 {
                    per_ip.remove(&key); // a cap of 0 (unvalidated settings) leaves no entry
                }
                self.metrics.refused_per_ip_cap.inc();
                // `slot` gives the global place back.
                return Err(Refusal {
                    cap: bounds.max_connections_per_ip,
                    reason: "too many connections from this address",
                });
            }
            *n += 1;
            slot.ip = Some(key);
        }
        Ok(slot)
    }

    /// Gives free memory back (`crate::memory`) once the connections open have fallen to a
    /// quarter of a peak of at least [`RELEASE_AFTER_PEAK`]; returns whether it did.
    fn release_memory_after_peak(&self) -> bool {
        let now = self.total.load(Ordering::Acquire);
        let peak = self.peak.load(Ordering::Relaxed);
        if peak < RELEASE_AFTER_PEAK || now > peak / 4 {
            return false;
        }
        self.peak.store(now, Ordering::Relaxed);
        crate::memory::release_free();
        true
    }
}

impl Slot {
    /// Takes a partial head of `len` bytes into account; false when the budget is spent.
    fn hold_head(&mut self, len: usize) -> bool {
        let wanted = len.saturating_sub(FREE_HEAD_BYTES);
        if wanted > self.head_bytes {
            let more = wanted - self.head_bytes;
            let before = self.open.head_bytes.fetch_add(more, Ordering::AcqRel);
            self.head_bytes = wanted;
            return before + more <= HEAD_BYTES_BUDGET;
        }
        true
    }

    /// The head is handed over: its bytes are no longer counted.
    fn release_head(&mut self) {
        let held = std::mem::take(&mut self.head_bytes);
        self.open.head_bytes.fetch_sub(held, Ordering::AcqRel);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.release_head();
        if let Some(ip) = self.ip {
            let mut per_ip = self.open.per_ip.lock();
            if let Some(n) = per_ip.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    per_ip.remove(&ip);
                }
            }
        }
        self.open.total.fetch_sub(1, Ordering::AcqRel);
        self.open.metrics.open.dec();
    }
}

/// Lets through one a second of the warnings a flood would repeat per connection.
#[derive(Default)]
struct WarnGate(Option<Instant>);

impl WarnGate {
    fn open(&mut self) -> bool {
        let open = self
            .0
            .is_none_or(|last| last.elapsed() >= Duration::from_secs(1));
        if open {
            self.0 = Some(Instant::now());
        }
        open
    }
}

/// What a connection's requests tell its watchdog: requests in flight, and when the last
/// one started or ended (ms since accepted; `u64::MAX` = none yet).
struct Activity {
    /// For the deadlines (tokio's timers take std time).
    accepted: Instant,
    /// The same moment on the request clock, cheaper for `touch` (twice per request).
    accepted_tsc: crate::clock::Instant,
    in_flight: AtomicUsize,
    last_ms: AtomicU64,
}

impl Activity {
    fn touch(&self) {
        let ms = crate::clock::Instant::now()
            .saturating_duration_since(self.accepted_tsc)
            .as_millis() as u64;
        self.last_ms.store(ms, Ordering::Release);
    }

    /// When the connection closes if nothing happens before; `None` while a request is in flight.
    fn deadline(&self, bounds: &ConnectionSettings) -> Option<Instant> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        let since_accepted = match self.last_ms.load(Ordering::Acquire) {
            u64::MAX => bounds.header_read_timeout(),
            ms => Duration::from_millis(ms) + Duration::from_secs(bounds.idle_timeout_secs),
        };
        Some(self.accepted + since_accepted)
    }
}

/// Counts a request in flight for as long as it lives (also when its future is dropped).
struct InFlight(Arc<Activity>);

impl InFlight {
    fn new(activity: &Arc<Activity>) -> InFlight {
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        activity.touch();
        InFlight(activity.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

const RELEASE_CHECK: Duration = Duration::from_secs(5);

/// Free memory is given back this often whatever the traffic (a heap walk of a few
/// milliseconds): the caches' churn and big answers built and dropped leave free pages in
/// the allocator's arenas, which would otherwise stay in the resident size.
const RELEASE_EVERY_CHECKS: u32 = 6;

/// Unaccepted connections the kernel may hold (at most `net.core.somaxconn`): tokio's 1024
/// overflows when a flood cut at its header deadline comes back, delaying others a second.
const LISTEN_BACKLOG: u32 = 4096;

/// Binds the listening socket as `TcpListener::bind` does on Unix, with [`LISTEN_BACKLOG`].
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

pub async fn serve<E>(
    listener: TcpListener,
    endpoint: E,
    mut bounds: ConnectionSettings,
    shutdown_timeout: Duration,
    trusted: TrustedProxies,
    metrics: ConnectionMetrics,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()>
where
    E: Endpoint + 'static,
{
    let local_addr = listener.local_addr()?;
    // From here on `max_connections` is the cap itself (0 would refuse every connection).
    bounds.max_connections = bounds.effective_max_connections();
    let open = Arc::new(OpenConnections {
        metrics,
        ..OpenConnections::default()
    });
    let mut refusal_warning = WarnGate::default();
    let mut accept_error_warning = WarnGate::default();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(bounds.header_read_timeout());
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Duration::from_secs(20))
        .keep_alive_timeout(Duration::from_secs(20))
        .max_concurrent_streams(64)
        .max_header_list_size(64 * 1024)
        .max_pending_accept_reset_streams(Some(20));
    let shared = Arc::new(Shared {
        endpoint,
        builder,
        bounds,
        local_addr,
        graceful: CancellationToken::new(),
        cut: CancellationToken::new(),
        tracker: TaskTracker::new(),
    });
    let bounds = &shared.bounds;
    let mut shutdown = pin!(shutdown);
    tracing::info!(
        max_connections = bounds.max_connections,
        max_connections_per_ip = bounds.max_connections_per_ip,
        header_read_timeout_secs = bounds.header_read_timeout_secs,
        "accepting connections"
    );
    let mut release_check = tokio::time::interval(RELEASE_CHECK);
    let mut checks_since_release = 0;
    release_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            _ = release_check.tick() => {
                if open.release_memory_after_peak() {
                    tracing::info!(
                        connections = open.total.load(Ordering::Relaxed),
                        "connections fell after a peak: free memory given back"
                    );
                }
                checks_since_release = (checks_since_release + 1) % RELEASE_EVERY_CHECKS;
                if checks_since_release == 0 {
                    crate::memory::release_free();
                }
                continue;
            }
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of descriptors or memory (the caps should prevent it): don't spin.
                    if accept_error_warning.open() {
                        tracing::warn!(error = %e, "accept failed");
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let slot = match open.admit(peer.ip(), bounds, &trusted) {
            Ok(slot) => slot,
            Err(refusal) => {
                if refusal_warning.open() {
                    tracing::warn!(
                        peer = %peer.ip(),
                        cap = refusal.cap,
                        reason = refusal.reason,
                        "connection refused (logged at most once a second)"
                    );
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        shared.tracker.spawn(WaitForHead {
            connection: Some((stream, slot)),
            head: Vec::new(),
            deadline: tokio::time::sleep(bounds.header_read_timeout()),
            shutdown: shared.graceful.clone().cancelled_owned(),
            shared: shared.clone(),
        });
    }
    drop(listener);
    let tracker = &shared.tracker;
    tracker.close();
    shared.graceful.cancel();
    let drained = tokio::time::timeout(shutdown_timeout, tracker.wait()).await;
    if drained.is_err() {
        tracing::warn!(
            connections = tracker.len(),
            "shutdown timeout: cutting the connections still open"
        );
        shared.cut.cancel();
        tracker.wait().await;
    }
    Ok(())
}

/// What every connection's task shares: one pointer in each, so a waiting task stays small.
struct Shared<E> {
    endpoint: E,
    builder: auto::Builder<TokioExecutor>,
    bounds: ConnectionSettings,
    local_addr: SocketAddr,
    graceful: CancellationToken,
    cut: CancellationToken,
    tracker: TaskTracker,
}

pin_project_lite::pin_project! {
    /// A connection waiting for its first request's head, read into `head`. Once it holds a
    /// whole head (or [`HEAD_LIMIT`] bytes, or the peer stopped sending: hyper then answers
    /// or closes as usual), it spawns [`serve_http`] on the socket behind those bytes. At
    /// the header deadline, on shutdown, when the peer resets or leaves, or when the bytes
    /// of partial heads pass their budget, the connection is closed without a word.
    ///
    /// Written by hand because its size is each waiting connection's cost (about 300 bytes):
    /// `TcpStream::ready` would add a 136-byte waiter to `poll_read_ready`, and an `async fn`
    /// keeps its moved arguments beside the futures they went into.
    struct WaitForHead<E> {
        connection: Option<(TcpStream, Slot)>,
        // What arrived of a partial head (no allocation until a read leaves one).
        head: Vec<u8>,
        #[pin]
        deadline: tokio::time::Sleep,
        #[pin]
        shutdown: tokio_util::sync::WaitForCancellationFutureOwned,
        shared: Arc<Shared<E>>,
    }
}

impl<E: Endpoint + 'static> Future for WaitForHead<E> {
    type Output = ();

    fn poll(self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut this = self.project();
        let (stream, slot) = this
            .connection
            .as_mut()
            .expect("not polled after the handover");
        if this.shutdown.poll(cx).is_ready() || this.deadline.as_mut().poll(cx).is_ready() {
            discard_unread(stream);
            return Poll::Ready(());
        }
        // On this call's stack, never in the connection's task.
        let mut buf = [0u8; HEAD_LIMIT];
        let head = loop {
            if ready!(stream.poll_read_ready(cx)).is_err() {
                return Poll::Ready(());
            }
            let room = HEAD_LIMIT - this.head.len();
            let arrived = match stream.try_read(&mut buf[..room]) {
                // Not yet: the readiness is cleared, so the next poll waits for more bytes.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(_) => return Poll::Ready(()),
                Ok(0) if this.head.is_empty() => return Poll::Ready(()),
                // The peer has finished a partial head: hyper answers or closes.
                Ok(0) => break std::mem::take(this.head),
                Ok(n) => &buf[..n],
            };
            // What came before was partial; parsed again only when a line may have ended:
            // a head sent a byte at a time costs one parse per line, not one per byte.
            let parse = this.head.is_empty() || arrived.contains(&b'\n');
            this.head.extend_from_slice(arrived);
            let complete = parse && head_state(this.head) == HeadState::Complete;
            if complete || this.head.len() == HEAD_LIMIT {
                break std::mem::take(this.head);
            }
            if !slot.hold_head(this.head.len()) {
                discard_unread(stream);
                return Poll::Ready(());
            }
        };
        let shared = this.shared;
        let accepted = this.deadline.deadline().into_std() - shared.bounds.header_read_timeout();
        let (stream, mut slot) = this.connection.take().expect("handed over once");
        slot.release_head();
        if let Ok(peer) = stream.peer_addr() {
            let stream = HeadFirst {
                head,
                read: 0,
                stream,
            };
            let serve = serve_http(stream, peer, accepted, slot, shared.clone());
            shared.tracker.spawn(serve);
        }
        Poll::Ready(())
    }
}

/// Reads and drops what the peer sent, so that closing sends a FIN, not a reset (an error to
/// the client); directly, as the last read cleared tokio's readiness.
fn discard_unread(stream: &TcpStream) {
    use std::io::Read;
    let socket = socket2::SockRef::from(stream);
    let mut buf = [0u8; HEAD_LIMIT];
    while matches!((&*socket).read(&mut buf), Ok(n) if n > 0) {}
}

/// How much of a head is read before the handover (hyper limits longer heads).
const HEAD_LIMIT: usize = 8 * 1024;

#[derive(Debug, PartialEq, Eq)]
enum HeadState {
    Partial,
    /// A whole head, [`HEAD_LIMIT`] bytes, or bytes that are no HTTP/1 request.
    Complete,
}

/// What the start of a connection is to hyper's parser (httparse, hyper's defaults). Bytes
/// that are no HTTP/1 (the HTTP/2 preface, TLS, garbage) are `Complete`: hyper answers at once.
fn head_state(bytes: &[u8]) -> HeadState {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    match httparse::Request::new(&mut headers).parse(bytes) {
        Ok(httparse::Status::Partial) if bytes.len() < HEAD_LIMIT => HeadState::Partial,
        _ => HeadState::Complete,
    }
}

/// The socket of a connection whose first head was already read: hyper reads that head
/// first, then the socket.
struct HeadFirst {
    head: Vec<u8>,
    read: usize,
    stream: TcpStream,
}

impl AsyncRead for HeadFirst {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.read < this.head.len() {
            let rest = &this.head[this.read..];
            let n = rest.len().min(buf.remaining());
            buf.put_slice(&rest[..n]);
            this.read += n;
            if this.read == this.head.len() {
                // Given back once read.
                this.head = Vec::new();
                this.read = 0;
            }
            return Poll::Ready(Ok(()));
        }
        std::pin::Pin::new(&mut this.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for HeadFirst {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        std::pin::Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: std::pin::Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        std::pin::Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Serves a connection whose first head has arrived. Its idle deadline also ends an HTTP/2
/// stream whose headers never complete (later HTTP/1 heads have hyper's header deadline).
async fn serve_http<E>(
    stream: HeadFirst,
    peer: SocketAddr,
    accepted: Instant,
    _slot: Slot,
    shared: Arc<Shared<E>>,
) where
    E: Endpoint + 'static,
{
    let bounds = &shared.bounds;
    let activity = Arc::new(Activity {
        accepted,
        accepted_tsc: crate::clock::Instant::now(),
        in_flight: AtomicUsize::new(0),
        last_ms: AtomicU64::new(u64::MAX),
    });
    let service = hyper::service::service_fn({
        let activity = activity.clone();
        let shared = shared.clone();
        move |req: hyper::Request<Incoming>| {
            let shared = shared.clone();
            let in_flight = InFlight::new(&activity);
            async move {
                let req = Request::from((
                    req,
                    LocalAddr(Addr::SocketAddr(shared.local_addr)),
                    RemoteAddr(Addr::SocketAddr(peer)),
                    poem::http::uri::Scheme::HTTP,
                ));
                let response: Response = shared.endpoint.get_response(req).await;
                drop(in_flight);
                Ok::<_, std::convert::Infallible>(hyper::Response::from(response))
            }
        }
    });
    let mut conn = pin!(shared
        .builder
        .serve_connection(TokioIo::new(stream), service));
    let mut draining = false;
    loop {
        // Re-checked at least every second while a request is in flight.
        let deadline = activity
            .deadline(bounds)
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
        tokio::select! {
            _ = conn.as_mut() => break,
            _ = shared.cut.cancelled() => break,
            _ = shared.graceful.cancelled(), if !draining => {
                draining = true;
                conn.as_mut().graceful_shutdown();
            }
            _ = tokio::time::sleep_until(deadline.into()) => {
                if activity.deadline(bounds).is_some_and(|d| d <= Instant::now()) {
                    // Nothing in flight and nothing asked in time: close without a word.
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn bounds(total: usize, per_ip: usize) -> ConnectionSettings {
        ConnectionSettings {
            header_read_timeout_secs: 1,
            idle_timeout_secs: 1,
            max_connections: total,
            max_connections_per_ip: per_ip,
        }
    }

    fn open() -> Arc<OpenConnections> {
        Arc::new(OpenConnections::default())
    }

    #[test]
    fn caps_count_per_address_and_in_all_and_give_places_back() {
        let open = open();
        let b = bounds(3, 2);
        let none = TrustedProxies(vec![]);
        let a = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let c = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
        let s1 = open.admit(a, &b, &none).unwrap();
        let _s2 = open.admit(a, &b, &none).unwrap();
        let per_ip = Refusal {
            cap: 2,
            reason: "too many connections from this address",
        };
        assert_eq!(open.admit(a, &b, &none).err(), Some(per_ip));
        let _s3 = open.admit(c, &b, &none).unwrap();
        let total = Refusal {
            cap: 3,
            reason: "too many connections",
        };
        assert_eq!(open.admit(c, &b, &none).err(), Some(total));
        drop(s1);
        let _s4 = open.admit(a, &b, &none).expect("the place was given back");
        assert_eq!(open.total.load(Ordering::Relaxed), 3);
        assert_eq!(open.per_ip.lock().get(&a), Some(&2));
        let m = &open.metrics;
        assert_eq!(m.open.get(), 3);
        assert_eq!(
            (m.refused_total_cap.get(), m.refused_per_ip_cap.get()),
            (1, 1)
        );
    }

    #[test]
    fn trusted_proxies_count_only_in_all() {
        let open = open();
        let b = bounds(10, 1);
        let proxy = IpAddr::V4(Ipv4Addr::new(10, 9, 9, 9));
        let trusted = TrustedProxies(vec!["10.9.9.9".parse().unwrap()]);
        let held: Vec<_> = (0..5)
            .map(|_| open.admit(proxy, &b, &trusted).unwrap())
            .collect();
        assert_eq!(held.len(), 5);
        assert!(open.per_ip.lock().is_empty());
    }

    #[test]
    fn a_head_ends_at_its_empty_line_or_at_the_limit() {
        let partial = HeadState::Partial;
        let complete = HeadState::Complete;
        assert_eq!(head_state(b"GET / HTTP/1.1\r\nHost: a\r\n"), partial);
        assert_eq!(head_state(b"GET / HTTP/1.1\r\nHost: a\r\n\r"), partial);
        assert_eq!(head_state(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"), complete);
        assert_eq!(head_state(b"GET / HTTP/1.1\nHost: a\n\n"), complete);
        assert_eq!(head_state(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), complete);
        // Not HTTP/1 (TLS spoken to this port): hyper answers it at once.
        assert_eq!(head_state(&[0x16, 0x03, 0x01, 0x02, 0x00, 0x01]), complete);
        let long = vec![b'a'; HEAD_LIMIT];
        assert_eq!(head_state(&long), complete);
        assert_eq!(head_state(&long[1..]), partial);
    }

    #[test]
    fn partial_heads_past_the_free_bytes_share_one_budget() {
        let open = open();
        let b = bounds(10, 10);
        let none = TrustedProxies(vec![]);
        let a = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let mut first = open.admit(a, &b, &none).unwrap();
        assert!(first.hold_head(FREE_HEAD_BYTES));
        assert_eq!(open.head_bytes.load(Ordering::Relaxed), 0, "free");
        assert!(first.hold_head(FREE_HEAD_BYTES + HEAD_BYTES_BUDGET));
        let mut second = open.admit(a, &b, &none).unwrap();
        assert!(!second.hold_head(FREE_HEAD_BYTES + 1), "over the budget");
        drop(second);
        first.release_head();
        assert_eq!(open.head_bytes.load(Ordering::Relaxed), 0);
        let mut third = open.admit(a, &b, &none).unwrap();
        assert!(third.hold_head(FREE_HEAD_BYTES + 1));
        drop(third);
        assert_eq!(
            open.head_bytes.load(Ordering::Relaxed),
            0,
            "given back on drop"
        );
    }

    #[test]
    fn memory_is_given_back_once_a_peak_of_connections_is_over() {
        let open = open();
        let b = bounds(5000, 5000);
        let none = TrustedProxies(vec![]);
        let ip = |i: usize| IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + i as u32));
        let mut held: Vec<_> = (0..RELEASE_AFTER_PEAK - 1)
            .map(|i| open.admit(ip(i), &b, &none).unwrap())
            .collect();
        held.clear();
        assert!(!open.release_memory_after_peak(), "a small peak is let be");
        let mut held: Vec<_> = (0..2000)
            .map(|i| open.admit(ip(i), &b, &none).unwrap())
            .collect();
        held.truncate(501);
        assert!(
            !open.release_memory_after_peak(),
            "above a quarter of the peak"
        );
        held.truncate(500);
        assert!(open.release_memory_after_peak());
        assert_eq!(
            open.peak.load(Ordering::Relaxed),
            500,
            "the next peak starts here"
        );
        assert!(!open.release_memory_after_peak(), "once per peak");
    }
}
