//! Shared test machinery: a dataset built once from the fixture sources, and `spawn_app`,
//! which runs the real server (the same `Server` the binary runs) on 127.0.0.1:0.

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use kalendorius_server::config::Settings;
use kalendorius_server::data::DataHandle;
use kalendorius_server::http::connections::ConnectionSettings;
use kalendorius_server::limits::LimitsConfig;
use kalendorius_server::server::Server;
use kalendorius_server::state::keys::KeyRecord;
use kalendorius_server::state::State;
use serde_json::Value;

/// Years of the shared test dataset: covers the fixture's transfers (2010, 2011), Christmas
/// Eve turning red (2011), All Souls' Day turning red (2020) and 2022-05-01.
pub const YEARS: RangeInclusive<i32> = 2009..=2024;

/// The fixture sources.
pub fn fixture_sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sources")
}

/// Builds a dataset of `years` from the fixture sources into `out`.
pub fn build_dataset(out: &Path, years: RangeInclusive<i32>) -> String {
    let summary = kalendorius_generator::build(&kalendorius_generator::BuildOptions {
        sources: fixture_sources(),
        out: out.to_path_buf(),
        years: Some(years),
        keep: kalendorius_generator::versions::DEFAULT_KEEP,
    })
    .expect("the fixture sources build");
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

/// The shared dataset, loaded once (every in-process server shares it).
pub fn shared_data() -> Arc<DataHandle> {
    static DATA: OnceLock<Arc<DataHandle>> = OnceLock::new();
    DATA.get_or_init(|| Arc::new(DataHandle::open(dataset()).expect("the dataset loads")))
        .clone()
}

/// A running server and a client for it.
pub struct TestApp {
    /// Base URL, `http://127.0.0.1:PORT`.
    pub base: String,
    /// The server's state (create keys here).
    pub state: Arc<State>,
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
    /// Reuse this state directory (for restart tests); default: a fresh one.
    pub state_dir: Option<PathBuf>,
    /// Connection bounds (default: the server's).
    pub connections: Option<ConnectionSettings>,
    /// Serve the dataset under this output root, loaded afresh (default: the shared one).
    pub data_root: Option<PathBuf>,
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
    let (data, data_root) = match options.data_root {
        Some(root) => (
            Arc::new(DataHandle::open(&root).expect("the dataset loads")),
            root,
        ),
        None => (shared_data(), dataset().to_path_buf()),
    };
    let settings = Settings {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        data: data_root,
        state: state_dir.clone(),
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
    let state = Arc::new(State::open(&state_dir, limits).expect("state opens"));
    let server = Server::bind_with(settings, data, state.clone())
        .await
        .expect("server binds");
    let base = format!("http://{}", server.local_addr());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = rx.await;
    }));
    TestApp {
        base,
        state,
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

    /// Issues a key with the given limits.
    pub fn key(&self, per_minute: Option<u64>, per_day: Option<u64>) -> (String, KeyRecord) {
        self.state
            .create_key("test-owner", per_minute, per_day, None)
            .expect("key created")
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

/// Header value as u64.
pub fn header_u64(resp: &reqwest::Response, name: &str) -> u64 {
    header(resp, name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .parse()
        .unwrap()
}

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
