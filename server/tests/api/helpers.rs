//! Shared test machinery: a dataset built once from the fixture sources, and `spawn_app`,
//! which runs the real server (the same `Server` the binary runs) on 127.0.0.1:0.

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use chrono::{DateTime, Utc};
use kalendorius_server::config::Settings;
use kalendorius_server::data::DataHandle;
use kalendorius_server::http::connections::ConnectionSettings;
use kalendorius_server::limits::LimitsConfig;
use kalendorius_server::limits::PublicEndpoint;
use kalendorius_server::server::Server;
use kalendorius_server::state::key_admin::{
    AdminResponse, CreateArgs, IdArg, ImportArgs, KeysCommand,
};
use kalendorius_server::state::keys::{hash_key, KeyRecord};
use kalendorius_server::state::store::location::StateLocation;
use kalendorius_server::state::store::redis::{self as redis_keys, RedisState};
use kalendorius_server::state::store::Store;
use kalendorius_server::state::State;
use serde_json::Value;

use crate::redis_harness::RedisServer;

/// Years of the shared test dataset: covers the fixture's transfers (2010, 2011), Christmas
/// Eve turning red (2011), All Souls' Day turning red (2020) and 2022-05-01.
pub const YEARS: RangeInclusive<i32> = 2009..=2024;

/// The fixture sources.
pub fn fixture_sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sources")
}

/// Builds a dataset of `years` from the fixture sources into `out`.
pub fn build_dataset(out: &Path, years: RangeInclusive<i32>) -> String {
    build_dataset_from(fixture_sources(), out, years)
}

/// Builds a dataset of `years` from `sources` into `out`.
pub fn build_dataset_from(sources: PathBuf, out: &Path, years: RangeInclusive<i32>) -> String {
    let summary = kalendorius_generator::build(&kalendorius_generator::BuildOptions {
        sources,
        out: out.to_path_buf(),
        years: Some(years),
        keep: kalendorius_generator::versions::DEFAULT_KEEP,
    })
    .expect("the sources build");
    let dir = kalendorius_dataset::open_dataset(out).expect("the built dataset opens");
    let _ = summary;
    dir.manifest.dataset_version
}

/// The shared dataset's output root, built afresh on first use in each run (under the
/// target directory, so nothing accumulates in the system's temp directory).
pub fn dataset() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kalendorius-api-dataset");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("the previous run's dataset is removable");
        }
        build_dataset(&dir, YEARS);
        dir
    })
}

/// Years of the dataset built from the repository's own `sources/` (the official
/// working-time figures are of real years; the name search and the pages need every name and transfer): the days in lieu of 2006-2008 through the last
/// served date, 2100-12-31.
pub const REAL_YEARS: RangeInclusive<i32> = 2005..=2100;

/// The dataset built from the repository's `sources/` for [`REAL_YEARS`], built afresh on
/// first use in each run.
pub fn real_dataset() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kalendorius-api-real-dataset");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("the previous run's dataset is removable");
        }
        let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sources");
        build_dataset_from(sources, &dir, REAL_YEARS);
        dir
    })
}

/// The real dataset, loaded once.
pub fn real_data() -> Arc<DataHandle> {
    static DATA: OnceLock<Arc<DataHandle>> = OnceLock::new();
    DATA.get_or_init(|| Arc::new(DataHandle::open(real_dataset()).expect("the dataset loads")))
        .clone()
}

/// The shared dataset, loaded once (every in-process server shares it).
pub fn shared_data() -> Arc<DataHandle> {
    static DATA: OnceLock<Arc<DataHandle>> = OnceLock::new();
    DATA.get_or_init(|| Arc::new(DataHandle::open(dataset()).expect("the dataset loads")))
        .clone()
}

/// Where a test server keeps keys and counters: the tests of limits and keys run on both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreKind {
    /// A sled database in a temporary directory (the default).
    Sled,
    /// A redis-server of the test's own (`redis_harness`).
    Redis,
}

impl StoreKind {
    /// Options for a server on this store (a freshly started redis-server for Redis).
    pub fn options(self) -> AppOptions {
        AppOptions {
            redis: (self == StoreKind::Redis).then(|| Arc::new(RedisServer::start())),
            ..AppOptions::default()
        }
    }
}

/// The sled state of a test server, for tests that reach into it. A server on Redis has
/// none: the tests that run on both stores use `TestApp`'s methods instead.
pub struct SledState(Option<Arc<State>>);

impl std::ops::Deref for SledState {
    type Target = State;

    fn deref(&self) -> &State {
        self.0
            .as_deref()
            .expect("this test server keeps its state in Redis: use TestApp's methods")
    }
}

/// A running server and a client for it.
pub struct TestApp {
    /// Base URL, `http://127.0.0.1:PORT`.
    pub base: String,
    /// The server's sled state (create keys here); see [`SledState`].
    pub state: SledState,
    /// The server's store, sled or Redis.
    pub store: Store,
    /// The Redis the store is in, if it is.
    redis: Option<Arc<RedisServer>>,
    limits: LimitsConfig,
    /// HTTP client.
    pub client: reqwest::Client,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    _tmp: Option<tempfile::TempDir>,
}

/// How to start a test server.
#[derive(Clone, Default)]
pub struct AppOptions {
    /// Limits (default: those of docs/api.md).
    pub limits: Option<LimitsConfig>,
    /// Trusted proxies.
    pub trusted_proxies: Vec<&'static str>,
    /// The clients `/metrics` answers (default: the server's, loopback).
    pub metrics_allow: Option<Vec<&'static str>>,
    /// Reuse this state directory (for restart tests); default: a fresh one.
    pub state_dir: Option<PathBuf>,
    /// Connection bounds (default: the server's).
    pub connections: Option<ConnectionSettings>,
    /// Serve the dataset of the repository's `sources/` ([`real_dataset`]) instead of the
    /// fixture's.
    pub real_sources: bool,
    /// Make `today` read a clock set to this time at start (see `Server::bind_with_store`).
    pub today_at: Option<std::time::SystemTime>,
    /// Serve the dataset at this root, loaded afresh (default: the shared dataset).
    pub data: Option<PathBuf>,
    /// Keep keys and counters in this Redis instead of sled (see [`StoreKind`]).
    pub redis: Option<Arc<RedisServer>>,
}

/// Starts a server over [`real_dataset`] with the default limits and a fresh state.
pub async fn spawn_real_app() -> TestApp {
    spawn_app_with(AppOptions {
        real_sources: true,
        ..AppOptions::default()
    })
    .await
}

/// Starts a server with the default limits and a fresh state.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(AppOptions::default()).await
}

/// Starts a server with options.
pub async fn spawn_app_with(options: AppOptions) -> TestApp {
    let (tmp, state_dir) = match options.state_dir {
        Some(dir) => (None, dir),
        None => {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("state");
            (Some(tmp), dir)
        }
    };
    let limits = options.limits.unwrap_or_default();
    let (data_root, data) = match options.data {
        Some(root) => {
            let data = DataHandle::open(&root).expect("the dataset loads");
            (root, Arc::new(data))
        }
        None if options.real_sources => (real_dataset().to_path_buf(), real_data()),
        None => (dataset().to_path_buf(), shared_data()),
    };
    let mut settings = Settings {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        data: data_root,
        state: match &options.redis {
            Some(redis) => StateLocation::Redis(redis.url()),
            None => StateLocation::Directory(state_dir.clone()),
        },
        trusted_proxies: options
            .trusted_proxies
            .iter()
            .map(|p| p.parse().unwrap())
            .collect(),
        limits: limits.clone(),
        shutdown_timeout_secs: 5,
        connections: options.connections.unwrap_or_default(),
        ..Settings::default()
    };
    if let Some(allow) = &options.metrics_allow {
        settings.metrics_allow = allow.iter().map(|net| net.parse().unwrap()).collect();
    }
    let (state, store) = match &options.redis {
        Some(redis) => {
            let redis =
                Arc::new(RedisState::connect(&redis.url(), limits.clone()).expect("Redis URL"));
            // Reached before the first request, so that every request is counted.
            redis.refresh().await.expect("the test's Redis answers");
            (None, Store::Redis(redis))
        }
        None => {
            let state = Arc::new(State::open(&state_dir, limits.clone()).expect("state opens"));
            (Some(state.clone()), Store::Sled(state))
        }
    };
    let server = Server::bind_with_store(settings, data, store.clone(), options.today_at)
        .await
        .expect("server binds");
    let base = format!("http://{}", server.local_addr());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let stopped = async move {
        let _ = rx.await;
    };
    let task = tokio::spawn(server.run(stopped, |_| {}));
    TestApp {
        base,
        state: SledState(state),
        store,
        redis: options.redis,
        limits,
        client: reqwest::Client::new(),
        shutdown: Some(tx),
        task: Some(task),
        _tmp: tmp,
    }
}

impl TestApp {
    /// GET `path` (with query).
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request sent")
    }

    /// A request of `method` to `path` (with query) with extra `headers`.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("request sent")
    }

    /// GET with an `X-API-Key` header.
    pub async fn get_keyed(&self, path: &str, key: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .header("X-API-Key", key)
            .send()
            .await
            .expect("request sent")
    }

    /// GET, expecting 200, returning the JSON body.
    pub async fn json(&self, path: &str) -> Value {
        let resp = self.get(path).await;
        assert_eq!(resp.status(), 200, "GET {path}");
        resp.json_body().await
    }

    /// GET with a key, expecting 200, returning the JSON body.
    pub async fn json_keyed(&self, path: &str, key: &str) -> Value {
        let resp = self.get_keyed(path, key).await;
        assert_eq!(resp.status(), 200, "GET {path}");
        resp.json_body().await
    }

    /// Issues a key with the given limits (on Redis: with the key tool's code, as an
    /// operator would).
    pub fn key(&self, per_minute: Option<u64>, per_day: Option<u64>) -> (String, KeyRecord) {
        self.key_at("test-owner", per_minute, per_day, None, Utc::now())
    }

    /// Issues a key created at `now` with the key commands.
    fn key_at(
        &self,
        owner: &str,
        per_minute: Option<u64>,
        per_day: Option<u64>,
        expires: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> (String, KeyRecord) {
        let args = CreateArgs {
            owner: owner.into(),
            per_minute,
            per_day,
            expires,
        };
        let response = self.key_command(KeysCommand::Create(args), now);
        let AdminResponse::Created { key, view } = response else {
            panic!("not a created key: {response:?}");
        };
        let record = KeyRecord {
            id: view.id,
            hash: hex::encode(hash_key(&key)),
            owner: view.owner,
            per_minute: view.per_minute,
            per_day: view.per_day,
            created: view.created,
            expires: view.expires,
            active: view.active,
        };
        (key, record)
    }

    /// Runs a key command at `now`: on sled in the server's state, on Redis with the key
    /// tool's code (on a thread of its own: it runs its own runtime); fails on an error.
    fn key_command(&self, command: KeysCommand, now: DateTime<Utc>) -> AdminResponse {
        let Some(redis) = &self.redis else {
            return self
                .state
                .execute(command, now)
                .expect("the key command succeeds");
        };
        let url = redis.url();
        let response = std::thread::scope(|s| {
            s.spawn(|| redis_keys::execute(&url, &self.limits, command, now))
                .join()
                .expect("the key tool does not panic")
        })
        .expect("the key tool succeeds");
        if let AdminResponse::Error { message } = &response {
            panic!("the key tool failed: {message}");
        }
        response
    }

    /// Reads the keys again now, as the server does every 250 ms on its own (Redis only).
    async fn reload_keys(&self) {
        if let Store::Redis(redis) = &self.store {
            redis.refresh().await.expect("the test's Redis answers");
        }
    }

    /// Revokes a key (on Redis: with the key tool's code, and the server reloads its keys
    /// at once instead of within 250 ms).
    pub async fn revoke(&self, id: &str) {
        self.key_command(KeysCommand::Revoke(IdArg { id: id.to_owned() }), Utc::now());
        self.reload_keys().await;
    }

    /// Issues a key that expired yesterday (on Redis: a key created with the tool, then
    /// given a past expiry by importing its record).
    pub async fn expired_key(&self) -> String {
        let now = Utc::now();
        let (yesterday, before) = (
            now - chrono::Duration::days(1),
            now - chrono::Duration::days(2),
        );
        if self.redis.is_none() {
            return self
                .key_at("expired-owner", None, None, Some(yesterday), before)
                .0;
        }
        let (key, mut record) = self.key(None, None);
        (record.created, record.expires) = (before, Some(yesterday));
        let import = ImportArgs {
            file: PathBuf::new(),
            records: vec![record],
            replace: true,
        };
        self.key_command(KeysCommand::Import(import), now);
        self.reload_keys().await;
        key
    }

    /// Stops the Redis this server keeps its state in, and waits until the server has
    /// noticed (`/ready` answers 503).
    pub async fn stop_redis(&self) {
        let redis = self.redis.as_ref().expect("a server on Redis");
        redis.stop();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while self.get("/ready").await.status() != 503 {
            assert!(
                std::time::Instant::now() < deadline,
                "the server did not notice"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Requests of the key `id` counted now in its (minute, day) windows.
    pub async fn key_usage(&self, id: &str) -> (u64, u64) {
        match &self.store {
            Store::Sled(state) => state.key_usage(id, Utc::now()),
            Store::Redis(redis) => redis
                .key_usage(id, Utc::now())
                .await
                .expect("the store answers"),
        }
    }

    /// Requests of `ip` on `endpoint` counted now in its (minute, month) windows.
    pub async fn public_usage(&self, ip: std::net::IpAddr, endpoint: PublicEndpoint) -> (u64, u64) {
        match &self.store {
            Store::Sled(state) => state.public_usage(ip, endpoint, Utc::now()),
            Store::Redis(redis) => redis
                .public_usage(ip, endpoint, Utc::now())
                .await
                .expect("the store answers"),
        }
    }

    /// Stops the server gracefully and waits for the final flush.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.await
                .expect("server task")
                .expect("server stops cleanly");
        }
    }
}

/// GETs `path` `served` times, each a 200, then once more: refused with 429 `code`.
pub async fn use_up(app: &TestApp, path: &str, served: usize, code: &str) {
    for _ in 0..served {
        assert_eq!(app.get(path).await.status(), 200, "GET {path}");
    }
    assert_error(app.get(path).await, 429, code).await;
}

/// A response read off the socket as it came: status, header lines, body.
#[derive(Debug)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// Header lines, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body (the request asks for `Connection: close`, so it ends with the stream).
    pub body: Vec<u8>,
}

impl RawResponse {
    /// The value of the only header named `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl TestApp {
    /// Sends `request` byte for byte over a new connection (for requests an HTTP client
    /// will not write, such as one without `Host`) and reads the answer until the server
    /// closes the connection. `request` should ask for `Connection: close`.
    pub async fn raw(&self, request: &[u8]) -> RawResponse {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let addr = self.base.strip_prefix("http://").unwrap();
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(request).await.unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(
            std::time::Duration::from_secs(10),
            stream.read_to_end(&mut answer),
        )
        .await
        .expect("the server closes the connection")
        .unwrap();
        let split = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(&answer)));
        let head = std::str::from_utf8(&answer[..split]).unwrap();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .map(|l| {
                let (n, v) = l.split_once(':').unwrap();
                (n.to_ascii_lowercase(), v.trim().to_string())
            })
            .collect();
        RawResponse {
            status,
            headers,
            body: answer[split + 4..].to_vec(),
        }
    }
}

/// Reading a response body as JSON with a helpful failure.
pub trait JsonBody {
    /// The body as JSON.
    async fn json_body(self) -> Value;
}

impl JsonBody for reqwest::Response {
    async fn json_body(self) -> Value {
        let ct = self
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string());
        assert_eq!(ct.as_deref(), Some("application/json; charset=utf-8"));
        let bytes = self.bytes().await.expect("body");
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&bytes)))
    }
}

/// Asserts an error response: status, code, JSON content type, exactly two string fields.
pub async fn assert_error(resp: reqwest::Response, status: u16, code: &str) -> String {
    assert_eq!(resp.status(), status, "expected {status} {code}");
    assert_eq!(
        resp.headers().get("cache-control").unwrap(),
        "no-store",
        "errors are never cached"
    );
    let body = resp.json_body().await;
    assert_eq!(body["error"], code, "{body}");
    let obj = body.as_object().unwrap();
    assert_eq!(obj.len(), 2, "{body}");
    let message = body["message"].as_str().expect("message is a string");
    assert!(!message.is_empty());
    message.to_string()
}

/// Header value as str.
pub fn header<'a>(resp: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    resp.headers().get(name).map(|v| v.to_str().unwrap())
}

/// The bytes a gzip stream decompresses to.
pub fn gunzip(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(body), &mut out)
        .expect("a valid gzip stream");
    out
}

/// Header value as u64.
pub fn header_u64(resp: &reqwest::Response, name: &str) -> u64 {
    header(resp, name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .parse()
        .unwrap()
}

/// Declares a test whose body runs on both stores, as `NAME::sled` and `NAME::redis`; the
/// body gets the [`StoreKind`] under the name given:
///
/// ```ignore
/// on_both_stores! {
///     #[tokio::test]
///     async fn counts(store) { let app = spawn_app_with(store.options()).await; ... }
/// }
/// ```
macro_rules! on_both_stores {
    (#[$test:meta] async fn $name:ident($store:ident) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn body($store: StoreKind) $body

            #[$test]
            async fn sled() {
                body(StoreKind::Sled).await
            }

            #[$test]
            async fn redis() {
                body(StoreKind::Redis).await
            }
        }
    };
}
pub(crate) use on_both_stores;

/// Copies the directory `from` to `to`, recursively (a dataset to alter, sources to edit).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// What a strict validator (ajv in strict mode) or a generated client would object to in a
/// JSON Schema, each with where it is: a `format` JSON Schema 2020-12 does not define, an
/// object schema that is not closed (`additionalProperties: false`), a choice of strings
/// written as a `oneOf` of `const`s rather than an `enum`.
pub fn schema_problems(schema: &Value) -> Vec<String> {
    const FORMATS: [&str; 19] = [
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    ];
    fn walk(value: &Value, at: &str, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(format) = map.get("format").and_then(Value::as_str) {
                    if !FORMATS.contains(&format) {
                        out.push(format!("{at}: format {format}"));
                    }
                }
                if map.contains_key("properties")
                    && map.get("additionalProperties") != Some(&Value::Bool(false))
                {
                    out.push(format!("{at}: an open object"));
                }
                if let Some(Value::Array(variants)) = map.get("oneOf") {
                    if variants.iter().all(|v| v.get("const").is_some()) {
                        out.push(format!("{at}: oneOf of consts"));
                    }
                }
                for (key, item) in map {
                    walk(item, &format!("{at}/{key}"), out);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, "", &mut out);
    out
}
