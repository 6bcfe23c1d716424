//! The local admin channel: a Unix socket in the state directory through which `keys ...`
//! reaches a running server (sled allows a single writer, and a revocation takes effect at
//! once): one JSON line each way, several per connection, a [`KeysCommand`] in and an
//! [`AdminResponse`] out; peers other than the server's uid or root are refused.

use std::io::{BufRead as _, Write as _};
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

use crate::state::key_admin::{AdminResponse, KeysCommand};

/// Longest request (some 25 000 keys): an import sends every record at once, all or none.
pub const MAX_REQUEST: u64 = 8 * 1024 * 1024;
/// Longest response accepted by the client (a `list` of many keys).
const MAX_RESPONSE: u64 = 64 * 1024 * 1024;
/// Idle time after which a connection is closed (server) or a reply given up on (client).
const IO_TIMEOUT: Duration = Duration::from_secs(30);
const MAX_CONNECTIONS: usize = 8;

/// The admin socket of a state directory, where `keys` commands look for a server.
pub fn socket_path(state_dir: &Path) -> PathBuf {
    state_dir.join("admin.sock")
}

/// What serves the requests of the socket: a store's key administration (blocking).
pub type Executor = Arc<dyn Fn(KeysCommand) -> AdminResponse + Send + Sync>;

/// Sends one command to the server on `socket`; `Ok(None)` when none listens there (no
/// socket file, or a stale one), so the caller may open the database itself.
pub fn request(socket: &Path, command: &KeysCommand) -> anyhow::Result<Option<AdminResponse>> {
    use std::io::ErrorKind::{ConnectionRefused, NotFound};
    let io = |e: std::io::Error| {
        let message = format!("admin socket {}: {e}", socket.display());
        anyhow::Error::new(e).context(message)
    };
    let mut line = serde_json::to_vec(command).expect("commands serialise");
    line.push(b'\n');
    anyhow::ensure!(
        line.len() as u64 <= MAX_REQUEST,
        "the request ({} bytes) is longer than the {MAX_REQUEST} bytes the server's admin \
         socket accepts",
        line.len()
    );
    let mut stream = match std::os::unix::net::UnixStream::connect(socket) {
        Ok(s) => s,
        Err(e) if matches!(e.kind(), NotFound | ConnectionRefused) => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    stream.set_read_timeout(Some(IO_TIMEOUT)).map_err(io)?;
    stream.set_write_timeout(Some(IO_TIMEOUT)).map_err(io)?;
    stream.write_all(&line).map_err(io)?;
    let mut answer = String::new();
    std::io::BufReader::new(std::io::Read::take(&stream, MAX_RESPONSE))
        .read_line(&mut answer)
        .map_err(io)?;
    let complete = answer.ends_with('\n');
    let detail = match complete.then(|| serde_json::from_str(&answer)) {
        None => "the connection closed before a full answer".to_owned(),
        Some(Ok(response)) => return Ok(Some(response)),
        // Not serde's message: it can quote a value, and an answer may carry a new key.
        Some(Err(e)) => format!("{:?} error at column {}", e.classify(), e.column()),
    };
    let socket = socket.display();
    anyhow::bail!("admin socket {socket}: unexpected answer from the server: {detail}")
}

pub(crate) struct AdminHandle {
    task: tokio::task::JoinHandle<()>,
    path: PathBuf,
    /// Identity (device, inode) of the socket file, so `stop` removes only our own.
    file_id: (u64, u64),
}

impl AdminHandle {
    /// Binds `path` with mode 0600, replacing a stale socket (a live one or another file is an
    /// error), and serves it with `execute` on the current tokio runtime. The socket is made in
    /// a fresh 0700 directory and renamed into place, so no other user can ever connect.
    pub fn serve(path: &Path, execute: Executor) -> std::io::Result<AdminHandle> {
        use std::io::{Error, ErrorKind};
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(e),
            Ok(m) if !m.file_type().is_socket() => {
                return Err(Error::new(
                    ErrorKind::AlreadyExists,
                    "a file that is not a socket is in the way; refusing to replace it",
                ))
            }
            Ok(_) if std::os::unix::net::UnixStream::connect(path).is_ok() => {
                return Err(Error::new(
                    ErrorKind::AddrInUse,
                    "another server is answering on this admin socket",
                ))
            }
            Ok(_) => std::fs::remove_file(path)?,
        }
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        let parent = parent.unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)?;
        let tmp = parent.join(format!(".adm{:08x}", rand::random::<u32>()));
        std::fs::DirBuilder::new().mode(0o700).create(&tmp)?;
        let bound = (|| {
            let inner = tmp.join("s");
            let listener = std::os::unix::net::UnixListener::bind(&inner)?;
            std::fs::set_permissions(&inner, std::fs::Permissions::from_mode(0o600))?;
            std::fs::rename(&inner, path)?;
            Ok::<_, Error>(listener)
        })();
        let _ = std::fs::remove_dir_all(&tmp);
        let listener = bound?;
        listener.set_nonblocking(true)?;
        let meta = std::fs::symlink_metadata(path)?;
        // The server's effective uid: the peers allowed besides root.
        let owner_uid = meta.uid();
        let task = tokio::spawn(async move {
            match tokio::net::UnixListener::from_std(listener) {
                Ok(l) => accept_loop(l, execute, owner_uid).await,
                Err(e) => tracing::error!(error = %e, "cannot serve the admin socket"),
            }
        });
        Ok(AdminHandle {
            task,
            path: path.to_owned(),
            file_id: (meta.dev(), meta.ino()),
        })
    }

    /// Stops serving (requests in progress are dropped: a key change either completed or did
    /// not start) and removes the socket file if it is still ours.
    pub async fn stop(self) {
        self.task.abort();
        let _ = self.task.await;
        let meta = std::fs::symlink_metadata(&self.path);
        if meta.is_ok_and(|m| (m.dev(), m.ino()) == self.file_id) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

async fn accept_loop(listener: tokio::net::UnixListener, execute: Executor, owner_uid: u32) {
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            Err(e) => {
                // Typically EMFILE: back off instead of spinning.
                tracing::warn!(error = %e, "admin socket accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let uid = stream.peer_cred().map(|c| c.uid());
        if !uid.is_ok_and(|uid| uid == owner_uid || uid == 0) {
            tracing::warn!("refused an admin connection from another user");
            continue;
        }
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            tracing::warn!("too many admin connections; refused one");
            continue;
        };
        let execute = Arc::clone(&execute);
        tokio::spawn(async move {
            if let Err(e) = serve_connection(stream, execute).await {
                tracing::debug!(error = %e, "admin connection ended");
            }
            drop(slot);
        });
    }
}

async fn serve_connection(
    stream: tokio::net::UnixStream,
    execute: Executor,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut read = tokio::io::BufReader::new(read);
    loop {
        let mut line = String::new();
        let n = tokio::time::timeout(
            IO_TIMEOUT,
            (&mut read).take(MAX_REQUEST).read_line(&mut line),
        )
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "idle"))??;
        if n == 0 {
            return Ok(());
        }
        let too_long = !line.ends_with('\n');
        let command = if too_long {
            Err(format!("request longer than {MAX_REQUEST} bytes"))
        } else {
            serde_json::from_str(&line).map_err(|e| format!("malformed request: {e}"))
        };
        let response = match command {
            Ok(command) => {
                let execute = Arc::clone(&execute);
                tokio::task::spawn_blocking(move || execute(command))
                    .await
                    .unwrap_or_else(|e| AdminResponse::Error {
                        message: format!("internal error: {e}"),
                    })
            }
            Err(message) => AdminResponse::Error { message },
        };
        let mut out = serde_json::to_vec(&response).expect("responses serialise");
        out.push(b'\n');
        tokio::time::timeout(IO_TIMEOUT, write.write_all(&out))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "write"))??;
        if too_long {
            return Ok(());
        }
    }
}
