//! `kalendorius-server ready-check`: asks a running server `GET /ready` and exits 0 on a 200,
//! 1 otherwise, for a container's `HEALTHCHECK` or a script on a machine without curl. Plain
//! HTTP/1.1 over one connection, with a deadline on connecting, sending and reading.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use kalendorius_server::config::Settings;
use kalendorius_server::health::READY_PATH;

/// Bytes of an answer read at most (the probe's answer is a few dozen).
const MAX_ANSWER: u64 = 64 * 1024;

#[derive(clap::Args)]
pub struct ReadyCheckArgs {
    /// The URL to ask [default: http://ADDR/ready, ADDR the server's listen address].
    #[arg(long)]
    url: Option<String>,
    /// The address the server listens on (0.0.0.0 and :: are asked on loopback)
    /// [default: `listen` of --config, or 127.0.0.1:8080].
    #[arg(long, env = "KALENDORIUS_LISTEN")]
    listen: Option<SocketAddr>,
    /// TOML settings file, for its `listen`.
    #[arg(long, env = "KALENDORIUS_CONFIG")]
    config: Option<PathBuf>,
    /// Seconds to wait for connecting, and again for the answer.
    #[arg(long, default_value_t = 5)]
    timeout: u64,
}

/// Asks once; `Ok` only for a 200. Prints the status line (and the body) on success.
pub fn run(args: &ReadyCheckArgs) -> anyhow::Result<()> {
    let url = match &args.url {
        Some(url) => url.clone(),
        None => {
            let listen = match (args.listen, &args.config) {
                (Some(listen), _) => listen,
                (None, Some(path)) => Settings::from_file(path)?.listen,
                (None, None) => Settings::default().listen,
            };
            format!("http://{}{READY_PATH}", reachable(listen))
        }
    };
    let timeout = Duration::from_secs(args.timeout.max(1));
    let (status, body) = get(&url, timeout).with_context(|| format!("not ready: {url}"))?;
    if status.split(' ').nth(1) != Some("200") {
        bail!("not ready: {url}: {status} {}", body.trim());
    }
    println!("{status} {}", body.trim());
    Ok(())
}

/// Where to reach a server listening on `listen` from this machine.
fn reachable(listen: SocketAddr) -> SocketAddr {
    let ip = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, listen.port())
}

/// `GET url` over HTTP/1.1: the status line and the body (as text, unparsed).
fn get(url: &str, timeout: Duration) -> anyhow::Result<(String, String)> {
    let rest = url
        .strip_prefix("http://")
        .context("only http:// URLs can be asked")?;
    let (authority, path) = rest.find('/').map_or((rest, "/"), |i| rest.split_at(i));
    let addr = authority
        .to_socket_addrs()
        .with_context(|| format!("bad address {authority:?} (HOST:PORT)"))?
        .next()
        .with_context(|| format!("{authority} resolves to no address"))?;
    let mut stream = TcpStream::connect_timeout(&addr, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nUser-Agent: kalendorius-ready-check\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = Vec::new();
    stream.take(MAX_ANSWER).read_to_end(&mut answer)?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default();
    if !status.starts_with("HTTP/") {
        bail!("not an HTTP answer: {status:?}");
    }
    Ok((status.to_string(), body.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unspecified_address_is_asked_on_loopback() {
        let at = |s: &str| reachable(s.parse().unwrap()).to_string();
        assert_eq!(at("0.0.0.0:8080"), "127.0.0.1:8080");
        assert_eq!(at("[::]:9000"), "[::1]:9000");
        assert_eq!(at("192.0.2.7:80"), "192.0.2.7:80");
        assert_eq!(at("[2001:db8::1]:80"), "[2001:db8::1]:80");
    }

    #[test]
    fn only_plain_http_urls_are_asked() {
        let err = get("https://127.0.0.1:1/ready", Duration::from_secs(1)).unwrap_err();
        assert!(err.to_string().contains("http://"), "{err}");
        let err = get("http://no-port/ready", Duration::from_secs(1)).unwrap_err();
        assert!(err.to_string().contains("HOST:PORT"), "{err}");
    }
}
