//! Logging: the subscriber, and the access line of every request. A key never reaches a
//! log: headers are not logged, `PresentedKey`'s `Debug` is redacted, and the path is
//! searched for `api_key` values and anything shaped like a key (one sent where none belongs
//! is as secret).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::io::Write;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Datelike, Timelike, Utc};
use parking_lot::Mutex;
use poem::http::{Method, StatusCode, Uri};
use serde::{Deserialize, Serialize};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::{FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::registry::LookupSpan;

/// How log lines are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable `key=value` lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Keeps the log writer running; dropping it writes out every pending line.
#[must_use = "dropping the guard stops the log writer"]
pub struct LogGuard {
    writer: BatchWriter,
    flusher: Option<std::thread::JoinHandle<()>>,
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        self.writer.shared.stop.store(true, Ordering::Release);
        if let Some(flusher) = self.flusher.take() {
            flusher.thread().unpark();
            let _ = flusher.join();
        }
        self.writer.write_out(&mut std::io::stdout().lock());
    }
}

/// Installs the global subscriber (`filter`: an `EnvFilter` directive), writing to stdout
/// through a [`BatchWriter`] (a channel per line cost a third of a request's CPU).
pub fn init(format: LogFormat, filter: &str) -> anyhow::Result<LogGuard> {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .map_err(|e| anyhow::anyhow!("invalid log level '{filter}': {e}"))?;
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let writer = BatchWriter::default();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer.clone())
        .with_ansi(ansi);
    let installed = match format {
        LogFormat::Text if ansi => builder.try_init(),
        LogFormat::Text => {
            // The first installation wins (as for the subscriber itself).
            let _ = PLAIN_TEXT_ACCESS.set(writer.clone());
            builder.event_format(PlainText).try_init()
        }
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    installed.map_err(|e| anyhow::anyhow!("cannot install the logger: {e}"))?;
    let flushed = writer.clone();
    let flusher = std::thread::Builder::new()
        .name("log-flusher".into())
        .spawn(move || {
            while !flushed.shared.stop.load(Ordering::Acquire) {
                std::thread::park_timeout(FLUSH_EVERY);
                flushed.write_out(&mut std::io::stdout().lock());
            }
        })?;
    Ok(LogGuard {
        writer,
        flusher: Some(flusher),
    })
}

/// The writer of the plain-text format, when installed: [`access`] writes to it directly.
static PLAIN_TEXT_ACCESS: OnceLock<BatchWriter> = OnceLock::new();

const FLUSH_EVERY: Duration = Duration::from_millis(20);

/// Pending bytes at which a thread writes its buffer itself: fits the core's cache, rare writes.
const WRITE_AT: usize = 32 << 10;

/// Log lines waiting, one buffer per thread (no lock or cache line shared between requests),
/// written out by a flusher thread or, past [`WRITE_AT`] bytes, by the thread: in order, none lost.
#[derive(Clone, Default)]
struct BatchWriter {
    shared: Arc<BatchShared>,
}

#[derive(Default)]
struct BatchShared {
    /// Each thread's, holding complete lines only.
    buffers: Mutex<Vec<ThreadBuffer>>,
    stop: AtomicBool,
}

type ThreadBuffer = Arc<Mutex<Vec<u8>>>;

struct ThreadSlot {
    owner: Weak<BatchShared>,
    buffer: ThreadBuffer,
    /// Swapped in when this thread writes its lines out itself (so neither is reallocated).
    spare: Vec<u8>,
}

thread_local! {
    static THREAD_BUFFER: RefCell<Option<ThreadSlot>> = const { RefCell::new(None) };
}

impl BatchWriter {
    fn write_out(&self, out: &mut impl Write) {
        let buffers = self.shared.buffers.lock().clone();
        for buffer in &buffers {
            let lines = {
                let mut pending = buffer.lock();
                if pending.is_empty() {
                    continue;
                }
                // Of the same size, so that the thread does not regrow it after every flush.
                let capacity = pending.capacity();
                std::mem::replace(&mut *pending, Vec::with_capacity(capacity))
            };
            // A closed stdout must not take the server down; the lines are lost only then.
            let _ = out.write_all(&lines);
        }
        let _ = out.flush();
        drop(buffers);
        // A buffer only the list holds is an ended thread's; it goes once empty.
        self.shared
            .buffers
            .lock()
            .retain(|buffer| Arc::strong_count(buffer) > 1 || !buffer.lock().is_empty());
    }

    /// Appends whole lines to this thread's buffer, handed to `write` at [`WRITE_AT`] bytes.
    fn append_with_or_write(
        &self,
        write_lines: impl FnOnce(&mut Vec<u8>),
        write: impl FnOnce(&[u8]),
    ) {
        THREAD_BUFFER.with_borrow_mut(|slot| {
            let slot = match slot {
                Some(slot) if slot.owner.as_ptr() == Arc::as_ptr(&self.shared) => slot,
                _ => {
                    let buffer = Arc::new(Mutex::new(Vec::new()));
                    self.shared.buffers.lock().push(buffer.clone());
                    slot.insert(ThreadSlot {
                        owner: Arc::downgrade(&self.shared),
                        buffer,
                        spare: Vec::new(),
                    })
                }
            };
            {
                let mut pending = slot.buffer.lock();
                write_lines(&mut pending);
                if pending.len() < WRITE_AT {
                    return;
                }
                std::mem::swap(&mut *pending, &mut slot.spare);
            }
            // Without holding the buffer (the flusher takes the output, then the buffers);
            // only this thread appends to it, so no later line of it can go out first.
            write(&slot.spare);
            slot.spare.clear();
        });
    }

    fn append_with(&self, write_lines: impl FnOnce(&mut Vec<u8>)) {
        self.append_with_or_write(write_lines, |lines| {
            let _ = std::io::stdout().lock().write_all(lines);
        });
    }
}

impl Write for &BatchWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // The fmt layer writes each event whole, in one call.
        self.append_with(|buffer| buffer.extend_from_slice(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for BatchWriter {
    type Writer = &'a BatchWriter;

    fn make_writer(&'a self) -> Self::Writer {
        self
    }
}

/// Writes the access line of a request if `access` at INFO is enabled: in plain text straight
/// to the log buffer (`tracing`'s dispatch cost twice as much), else through `tracing`.
pub fn access(
    received: SystemTime,
    method: &Method,
    uri: &Uri,
    status: StatusCode,
    latency: Duration,
    client_ip: IpAddr,
    key_owner: Option<&str>,
) {
    if !tracing::enabled!(target: "access", tracing::Level::INFO) {
        return;
    }
    let path = redacted_path(uri);
    let mut ip_text = [0u8; 15];
    let line = AccessLine {
        method: method.as_str(),
        path: &path,
        status: status.as_u16(),
        latency_us: u64::try_from(latency.as_micros()).unwrap_or(u64::MAX),
        client_ip: &ip_string(client_ip, &mut ip_text),
        key_owner,
    };
    match PLAIN_TEXT_ACCESS.get() {
        // Stamped with the time the answer was complete, as any other event is.
        Some(writer) => writer.append_with(|buffer| {
            // Writing to memory cannot fail.
            let _ = line.write_text(&mut LineBuffer(buffer), received + latency);
        }),
        None => line.emit(),
    }
}

struct AccessLine<'a> {
    method: &'a str,
    /// Path and query, with any key redacted.
    path: &'a str,
    status: u16,
    latency_us: u64,
    client_ip: &'a str,
    key_owner: Option<&'a str>,
}

impl AccessLine<'_> {
    fn emit(&self) {
        tracing::info!(
            target: "access",
            method = self.method,
            path = self.path,
            status = self.status,
            latency_us = self.latency_us,
            client_ip = self.client_ip,
            key_owner = self.key_owner,
        );
    }

    /// [`AccessLine::emit`]'s event as the plain-text formatter writes it (a test checks).
    fn write_text(&self, out: &mut impl fmt::Write, now: SystemTime) -> fmt::Result {
        write_head(out, now, tracing::Level::INFO, "access")?;
        write_str_field(out, "method", self.method)?;
        write_str_field(out, "path", self.path)?;
        write_u64_field(out, "status", self.status.into())?;
        write_u64_field(out, "latency_us", self.latency_us)?;
        write_str_field(out, "client_ip", self.client_ip)?;
        if let Some(owner) = self.key_owner {
            write_str_field(out, "key_owner", owner)?;
        }
        out.write_char('\n')
    }
}

/// The path and query of `uri` with every `api_key` value and every key-shaped token
/// replaced by `REDACTED`, both found through percent-encoding, as the key lookup decodes.
/// Borrowed unless it may hold a key: `_` is in `api_key` and every key's prefix, and `%`
/// may encode either; the usual request has neither, and pays one scan of a short string.
fn redacted_path(uri: &Uri) -> Cow<'_, str> {
    let shown = uri.path_and_query().map_or(uri.path(), |pq| pq.as_str());
    if !shown.bytes().any(|b| b == b'_' || b == b'%') {
        return Cow::Borrowed(shown);
    }
    let mut out = String::new();
    push_without_keys(&mut out, uri.path());
    let pairs = uri.query().into_iter().flat_map(|q| q.split('&'));
    for (i, pair) in pairs.enumerate() {
        out.push(if i == 0 { '?' } else { '&' });
        let name = pair.split_once('=').map_or(pair, |(n, _)| n);
        let decoded = form_urlencoded::parse(name.as_bytes()).next();
        if decoded.is_some_and(|(n, _)| n == crate::key_format::KEY_QUERY) {
            out.push_str(name);
            out.push_str("=REDACTED");
        } else {
            push_without_keys(&mut out, pair);
        }
    }
    Cow::Owned(out)
}

/// `ip` as text; an IPv4 address is written into `buf`, without `core::fmt`.
fn ip_string(ip: IpAddr, buf: &mut [u8; 15]) -> Cow<'_, str> {
    let IpAddr::V4(v4) = ip else {
        return Cow::Owned(ip.to_string());
    };
    let mut len = 0;
    let mut digits = itoa::Buffer::new();
    for (i, octet) in v4.octets().into_iter().enumerate() {
        if i > 0 {
            buf[len] = b'.';
            len += 1;
        }
        let octet = digits.format(octet).as_bytes();
        buf[len..len + octet.len()].copy_from_slice(octet);
        len += octet.len();
    }
    Cow::Borrowed(std::str::from_utf8(&buf[..len]).expect("digits and dots"))
}

/// Appends `raw` with every key-shaped token replaced by `REDACTED`.
fn push_without_keys(out: &mut String, raw: &str) {
    let bytes = raw.as_bytes();
    let (mut written, mut at) = (0, 0);
    while at < bytes.len() {
        match key_token_end(bytes, at) {
            Some(end) => {
                // A token starts and ends at ASCII bytes, so these are character boundaries.
                out.push_str(&raw[written..at]);
                out.push_str("REDACTED");
                (written, at) = (end, end);
            }
            None => at += 1,
        }
    }
    out.push_str(&raw[written..]);
}

/// Where the key-shaped token starting at `raw[at]` ends, if one does: `ltk_` in any case,
/// then letters and digits (all, so a mistyped key is hidden whole), any percent-encoded.
fn key_token_end(raw: &[u8], mut at: usize) -> Option<usize> {
    for expected in crate::key_format::KEY_PREFIX.bytes() {
        let (b, len) = decoded_at(raw, at)?;
        if b.to_ascii_lowercase() != expected {
            return None;
        }
        at += len;
    }
    let body = at;
    while let Some((_, len)) = decoded_at(raw, at).filter(|(b, _)| b.is_ascii_alphanumeric()) {
        at += len;
    }
    (at > body).then_some(at)
}

/// The byte at `raw[at]` after percent-decoding, and how many bytes of `raw` it takes.
fn decoded_at(raw: &[u8], at: usize) -> Option<(u8, usize)> {
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    match *raw.get(at)? {
        b'%' => {
            let (hi, lo) = (hex(*raw.get(at + 1)?)?, hex(*raw.get(at + 2)?)?);
            Some((hi << 4 | lo, 3))
        }
        b => Some((b, 1)),
    }
}

/// The text format away from a terminal, as `tracing_subscriber::fmt`'s default without colours:
/// `2026-11-21T15:17:52.718629Z  INFO access: method="GET" path="/" status=200 ...`. Its writers
/// avoid `core::fmt` (which cost as much as the rest of a small request) for [`access`]. Strings
/// are quoted and escaped as `Debug` does, so no value can start a line or forge a field.
struct PlainText;

impl<S, N> FormatEvent<S, N> for PlainText
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        write_head(&mut writer, SystemTime::now(), *meta.level(), meta.target())?;
        event.record(&mut Fields(writer.by_ref()));
        writer.write_char('\n')
    }
}

/// Writes `<timestamp> <LEVEL> <target>:`, the start of every line.
fn write_head(
    out: &mut impl fmt::Write,
    now: SystemTime,
    level: Level,
    target: &str,
) -> fmt::Result {
    let mut stamp = [0u8; 27];
    out.write_str(timestamp(now, &mut stamp))?;
    let name = level.as_str();
    // Right-aligned in five columns.
    out.write_str(if name.len() == 4 { "  " } else { " " })?;
    out.write_str(name)?;
    out.write_char(' ')?;
    out.write_str(target)?;
    out.write_char(':')
}

/// Writes ` name="value"`, escaped as `Debug` escapes a string, without its machinery when
/// nothing needs escaping (printable ASCII, no quote or backslash).
fn write_str_field(out: &mut impl fmt::Write, name: &str, value: &str) -> fmt::Result {
    write_name(out, name)?;
    // No early exit, so the compiler checks 32 bytes at a time: values are short and plain.
    let plain = value.bytes().fold(true, |plain, b| {
        plain & (b' '..=b'~').contains(&b) & (b != b'"') & (b != b'\\')
    });
    if plain {
        out.write_char('"')?;
        out.write_str(value)?;
        out.write_char('"')
    } else {
        write!(out, "{value:?}")
    }
}

fn write_u64_field(out: &mut impl fmt::Write, name: &str, value: u64) -> fmt::Result {
    write_name(out, name)?;
    out.write_str(itoa::Buffer::new().format(value))
}

fn write_name(out: &mut impl fmt::Write, name: &str) -> fmt::Result {
    out.write_char(' ')?;
    out.write_str(name)?;
    out.write_char('=')
}

/// `now` as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, its part down to the second kept per thread.
fn timestamp(now: SystemTime, buf: &mut [u8; 27]) -> &str {
    thread_local! {
        static SECOND: Cell<(i64, [u8; 20])> = const { Cell::new((i64::MIN, [0; 20])) };
    }
    let (second, micros) = match now.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(since) => (
            i64::try_from(since.as_secs()).unwrap_or(i64::MAX),
            since.subsec_micros(),
        ),
        Err(_) => {
            let t = DateTime::<Utc>::from(now);
            (t.timestamp(), t.timestamp_subsec_micros().min(999_999))
        }
    };
    let (cached, mut prefix) = SECOND.get();
    if cached != second {
        let now = DateTime::<Utc>::from(now);
        let (date, time) = (now.date_naive(), now.time());
        prefix = *b"0000-00-00T00:00:00.";
        // Years 0..=9999 only; a clock outside them is not worth a log line's branch.
        put_digits(&mut prefix[0..4], date.year().clamp(0, 9999) as u32);
        put_digits(&mut prefix[5..7], date.month());
        put_digits(&mut prefix[8..10], date.day());
        put_digits(&mut prefix[11..13], time.hour());
        put_digits(&mut prefix[14..16], time.minute());
        put_digits(&mut prefix[17..19], time.second().min(59));
        SECOND.set((second, prefix));
    }
    buf[..20].copy_from_slice(&prefix);
    put_digits(&mut buf[20..26], micros);
    buf[26] = b'Z';
    std::str::from_utf8(buf).expect("digits and separators")
}

/// Writes the last `out.len()` decimal digits of `value`, zero-padded.
fn put_digits(out: &mut [u8], mut value: u32) {
    for digit in out.iter_mut().rev() {
        *digit = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// A log buffer as the writers' target (they write whole `str`s, so it stays UTF-8).
struct LineBuffer<'a>(pub &'a mut Vec<u8>);

impl fmt::Write for LineBuffer<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Writes fields as ` name=value` (`message` bare) as `Debug` does, into a `String`: cannot fail.
struct Fields<'w>(Writer<'w>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            let _ = write!(self.0, " {value}");
        } else {
            let _ = write_str_field(&mut self.0, field.name(), value);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let _ = match field.name() {
            "message" => write!(self.0, " {value:?}"),
            name => write!(self.0, " {name}={value:?}"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that `out` holds exactly `per_thread` lines of each of `threads` threads, in
    /// order (lines are `thread T line I ...`).
    fn assert_whole_and_in_order(out: &[u8], threads: usize, per_thread: usize) {
        let out = std::str::from_utf8(out).unwrap();
        for t in 0..threads {
            let numbers: Vec<usize> = out
                .lines()
                .filter_map(|l| l.strip_prefix(&format!("thread {t} line ")))
                .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
                .collect();
            assert_eq!(numbers, (0..per_thread).collect::<Vec<_>>(), "thread {t}");
        }
        assert_eq!(out.lines().count(), threads * per_thread);
    }

    #[test]
    fn a_busy_thread_writes_its_lines_itself_in_order_beside_the_flusher() {
        const THREADS: usize = 4;
        const LINES: usize = 3000;
        let writer = BatchWriter::default();
        let sink = Arc::new(Mutex::new(Vec::new()));
        let writers_done = Arc::new(AtomicBool::new(false));
        // The flusher, racing with the threads that write out their own buffers.
        let flusher = {
            let (writer, sink, done) = (writer.clone(), sink.clone(), writers_done.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Acquire) {
                    // The sink stays locked for the whole write, as stdout is.
                    writer.write_out(&mut *sink.lock());
                    std::thread::yield_now();
                }
            })
        };
        let threads: Vec<_> = (0..THREADS)
            .map(|t| {
                let (writer, sink) = (writer.clone(), sink.clone());
                std::thread::spawn(move || {
                    for i in 0..LINES {
                        let line = format!("thread {t} line {i} {}\n", "x".repeat(40));
                        let line = line.as_bytes();
                        writer.append_with_or_write(
                            |b| b.extend_from_slice(line),
                            |lines| sink.lock().extend_from_slice(lines),
                        );
                    }
                    // What is left is below the threshold.
                    THREAD_BUFFER.with_borrow(|slot| {
                        let slot = slot.as_ref().unwrap();
                        assert!(slot.buffer.lock().len() < WRITE_AT);
                    });
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        writers_done.store(true, Ordering::Release);
        flusher.join().unwrap();
        writer.write_out(&mut *sink.lock());
        assert_whole_and_in_order(&sink.lock(), THREADS, LINES);
    }

    #[test]
    fn a_thread_past_the_threshold_writes_without_the_flusher() {
        let writer = BatchWriter::default();
        let sink = Mutex::new(Vec::new());
        let line = format!("thread 0 line 0 {}\n", "x".repeat(100));
        let mut appended = 0;
        while appended < WRITE_AT {
            let lines = |b: &mut Vec<u8>| b.extend_from_slice(line.as_bytes());
            writer.append_with_or_write(lines, |lines| sink.lock().extend_from_slice(lines));
            appended += line.len();
            assert!(sink.lock().is_empty() || appended >= WRITE_AT);
        }
        assert_eq!(
            sink.lock().len(),
            appended,
            "every pending line written at once"
        );
    }

    #[test]
    fn every_threads_lines_are_written_whole_and_ended_threads_let_go() {
        let writer = BatchWriter::default();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for i in 0..100 {
                        let line = format!("thread {t} line {i}\n");
                        writer.append_with(|b| b.extend_from_slice(line.as_bytes()));
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let mut out = Vec::new();
        writer.write_out(&mut out);
        assert_whole_and_in_order(&out, 4, 100);
        assert!(
            writer.shared.buffers.lock().is_empty(),
            "ended threads' buffers dropped"
        );
    }

    #[test]
    fn direct_access_lines_are_what_the_formatter_writes() {
        let captured = BatchWriter::default();
        let dispatch = tracing::Dispatch::new(
            tracing_subscriber::fmt()
                .with_writer(captured.clone())
                .event_format(PlainText)
                .finish(),
        );
        let owners = [None, Some("ops team"), Some("quote\" and\nnewline")];
        for key_owner in owners {
            let line = AccessLine {
                method: "HEAD",
                path: "/api/v1/day?date=2024-01-01&api_key=REDACTED",
                status: 429,
                latency_us: 1234,
                client_ip: "2001:db8::7",
                key_owner,
            };
            tracing::dispatcher::with_default(&dispatch, || line.emit());
            let mut through_tracing = Vec::new();
            captured.write_out(&mut through_tracing);
            let through_tracing = String::from_utf8(through_tracing).unwrap();
            let mut direct = Vec::new();
            line.write_text(&mut LineBuffer(&mut direct), SystemTime::now())
                .unwrap();
            let direct = String::from_utf8(direct).unwrap();
            // Equal after the timestamp (27 characters), which differs by the clock.
            assert_eq!(through_tracing[27..], direct[27..], "{key_owner:?}");
            assert_eq!(direct.lines().count(), 1, "{direct}");
        }
    }

    #[test]
    fn ip_addresses_are_written_as_displayed() {
        for ip in [
            "0.0.0.0",
            "127.0.0.1",
            "255.255.255.255",
            "10.20.3.199",
            "::1",
            "2001:db8::7",
        ] {
            let ip: IpAddr = ip.parse().unwrap();
            assert_eq!(ip_string(ip, &mut [0; 15]), ip.to_string());
        }
    }

    #[test]
    fn paths_are_borrowed_unless_a_key_may_be_in_them() {
        let plain: Uri = "/api/v1/days?from=2024-01-01&to=2024-01-02"
            .parse()
            .unwrap();
        assert!(matches!(
            redacted_path(&plain),
            Cow::Borrowed("/api/v1/days?from=2024-01-01&to=2024-01-02")
        ));
        let keyed: Uri = "/api/v1/day?date=2024-01-01&api_key=ltk_secret"
            .parse()
            .unwrap();
        assert_eq!(
            redacted_path(&keyed),
            "/api/v1/day?date=2024-01-01&api_key=REDACTED"
        );
        let encoded: Uri = "/api/v1/day?%61pi_key=ltk_secret".parse().unwrap();
        assert_eq!(redacted_path(&encoded), "/api/v1/day?%61pi_key=REDACTED");
    }

    #[test]
    fn key_shaped_tokens_are_redacted_under_any_name_and_in_the_path() {
        let key = format!("ltk_{}", "0123456789abcdef".repeat(4));
        // After `/api/v1`; `{key}` is the key, `{body}` its part after `ltk_`, `{upper}` it
        // upper-cased, `{part}` its first 20 characters.
        for (sent, logged) in [
            ("/day?apikey={key}", "/day?apikey=REDACTED"),
            (
                "/day?API_KEY={key}&lang=en",
                "/day?API_KEY=REDACTED&lang=en",
            ),
            ("/day?date={key}", "/day?date=REDACTED"),
            ("/day?date=2024-01-01{key}", "/day?date=2024-01-01REDACTED"),
            ("/day?{key}", "/day?REDACTED"),
            ("/{key}/day", "/REDACTED/day"),
            // Encoded, upper-cased, or mistyped: still the secret.
            ("/day?k=%6Ctk%5F{body}", "/day?k=REDACTED"),
            ("/day?k={upper}", "/day?k=REDACTED"),
            ("/day?k={part}xyz-1", "/day?k=REDACTED-1"),
        ] {
            let sent = format!("/api/v1{sent}")
                .replace("{key}", &key)
                .replace("{body}", &key[4..])
                .replace("{upper}", &key.to_uppercase())
                .replace("{part}", &key[..20]);
            let uri: Uri = sent.parse().unwrap();
            assert_eq!(redacted_path(&uri), format!("/api/v1{logged}"), "{sent}");
        }
        // Not keys: left alone.
        for plain in [
            "/api/v1/day?ltk_=1&x=ltk&y=%zz%",
            "/api/v1/name_days?x=ltk_-",
        ] {
            let uri: Uri = plain.parse().unwrap();
            assert_eq!(redacted_path(&uri), plain);
        }
    }

    #[test]
    fn api_key_values_are_redacted_however_spelled() {
        let uri: Uri = "/api/v1/day?date=2024-01-01&api_key=ltk_secret&api%5Fkey=ltk_x&api_key"
            .parse()
            .unwrap();
        let shown = redacted_path(&uri);
        assert!(!shown.contains("ltk_"), "{shown}");
        assert_eq!(
            shown,
            "/api/v1/day?date=2024-01-01&api_key=REDACTED&api%5Fkey=REDACTED&api_key=REDACTED"
        );
    }

    #[test]
    fn timestamps_are_rfc3339_with_microseconds() {
        let at = DateTime::parse_from_rfc3339("2026-01-02T03:04:05.000678Z").unwrap();
        let mut buf = [0u8; 27];
        assert_eq!(
            timestamp(SystemTime::from(at.with_timezone(&Utc)), &mut buf),
            "2026-01-02T03:04:05.000678Z"
        );
        // The same second again (from the per-thread prefix), then the next one.
        let later = at + chrono::Duration::microseconds(999_000);
        assert_eq!(
            timestamp(SystemTime::from(later.with_timezone(&Utc)), &mut buf),
            "2026-01-02T03:04:05.999678Z"
        );
        let next = later + chrono::Duration::microseconds(1_000);
        assert_eq!(
            timestamp(SystemTime::from(next.with_timezone(&Utc)), &mut buf),
            "2026-01-02T03:04:06.000678Z"
        );
    }
}
