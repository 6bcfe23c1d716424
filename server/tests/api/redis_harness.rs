//! A real `redis-server` for the tests of the Redis store: started on a free loopback port
//! with its own temporary directory (append-only file on, as docs/operations.md#running-several-processes recommends), stopped
//! and started again on the same port and directory to test outages and recovery.
//!
//! A test that cannot start Redis fails: `make test` installs Debian's `redis-server` when
//! it is missing (as root with apt), and otherwise it must be installed by hand.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The binary started (`redis-server` on PATH, or `KALENDORIUS_TEST_REDIS_SERVER`).
fn binary() -> String {
    std::env::var("KALENDORIUS_TEST_REDIS_SERVER").unwrap_or_else(|_| "redis-server".into())
}

/// A running (or stopped) redis-server owned by one test.
pub struct RedisServer {
    port: u16,
    dir: tempfile::TempDir,
    /// The password clients must give (`requirepass`), if any.
    password: Option<String>,
    /// The process while it runs (behind a lock: a server shared by test apps can be
    /// stopped through any of them).
    child: Mutex<Option<Child>>,
}

impl RedisServer {
    /// Starts a redis-server on a free loopback port; panics (failing the test) when it
    /// cannot.
    pub fn start() -> RedisServer {
        RedisServer::start_with(None)
    }

    /// [`RedisServer::start`], requiring `password` of every client.
    pub fn start_with_password(password: &str) -> RedisServer {
        RedisServer::start_with(Some(password.to_owned()))
    }

    fn start_with(password: Option<String>) -> RedisServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let server = RedisServer {
            port,
            dir: tempfile::tempdir().expect("a temporary directory for Redis"),
            password,
            child: Mutex::new(None),
        };
        server.start_again();
        server
    }

    /// The URL of this server's database 0, for `state`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// Starts the server (again) on the same port and directory, and waits until it
    /// answers PING.
    pub fn start_again(&self) {
        let mut running = self.child.lock().unwrap();
        assert!(running.is_none(), "redis-server is running already");
        let mut command = Command::new(binary());
        if let Some(password) = &self.password {
            command.args(["--requirepass", password]);
        }
        let child = command
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(self.dir.path())
            .args(["--appendonly", "yes", "--appendfsync", "everysec"])
            .args(["--save", "", "--daemonize", "no", "--protected-mode", "yes"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start {} ({e}): the Redis store's tests need it (`make test` \
                     installs Debian's redis-server when run as root)",
                    binary()
                )
            });
        let child = running.insert(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        // Without the password, PING is refused (NOAUTH): it still shows Redis is up.
        let up =
            |reply: Option<String>| reply.is_some_and(|r| r == "+PONG" || r.starts_with("-NOAUTH"));
        while !up(self.command(&["PING"])) {
            if let Some(status) = child.try_wait().unwrap() {
                panic!("redis-server exited at start-up: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer PING"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops the server (SIGTERM: it writes its append-only file and exits) and waits.
    pub fn stop(&self) {
        let Some(mut child) = self.child.lock().unwrap().take() else {
            return;
        };
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        child.wait().expect("redis-server exits");
    }

    /// Sends one command and returns the first line of the reply (`+PONG`, `:42`, `$3`
    /// followed by the value for bulk strings: the value itself is returned), or `None`
    /// when the server cannot be reached.
    pub fn command(&self, args: &[&str]) -> Option<String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        let mut request = format!("*{}\r\n", args.len());
        for a in args {
            request.push_str(&format!("${}\r\n{a}\r\n", a.len()));
        }
        stream.write_all(request.as_bytes()).ok()?;
        let mut reply = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = stream.read(&mut buf).ok()?;
            if n == 0 {
                break;
            }
            reply.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&reply);
            let complete = match text.strip_prefix('$') {
                Some(rest) => match rest.split_once("\r\n") {
                    Some(("-1", _)) => true,
                    Some((len, body)) => body.len() >= len.parse::<usize>().ok()? + 2,
                    None => false,
                },
                None => text.ends_with("\r\n"),
            };
            if complete {
                break;
            }
        }
        let text = String::from_utf8_lossy(&reply).into_owned();
        Some(match text.strip_prefix('$') {
            Some(rest) => match rest.split_once("\r\n") {
                Some(("-1", _)) => "(nil)".to_owned(),
                Some((_, body)) => body.trim_end_matches("\r\n").to_owned(),
                None => text,
            },
            None => text.trim_end_matches("\r\n").to_owned(),
        })
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.lock().unwrap().take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
