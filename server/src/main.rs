//! `kalendorius-server`: `serve` runs the HTTP API; `keys` manages API keys; `ready-check`
//! asks a running server whether it is ready (a container's health check).
//!
//! Exit codes: 0 after a clean stop (SIGTERM/SIGINT) or a successful command; 1 when the
//! server cannot start or a command fails (the reason is printed to stderr); 2 for usage
//! errors (clap).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use kalendorius_server::config::{ServeArgs, Settings};
use kalendorius_server::server::Server;
use kalendorius_server::shutdown;
use kalendorius_server::state::keys_cli::{self, KeysCommand};
use kalendorius_server::state::store::location::StateLocation;
use kalendorius_server::telemetry::{self, LogFormat};

mod ready_check;

/// Lithuanian calendar data service.
#[derive(Parser)]
#[command(name = "kalendorius-server", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the HTTP API until SIGTERM or SIGINT; SIGHUP reloads the dataset.
    Serve(ServeArgs),
    /// Create, list, show, revoke, restore, delete API keys, set their limits, back them up.
    /// Every command prints the state directory it uses to stderr (`state: PATH`).
    Keys(KeysArgs),
    /// GET /ready of a running server: exit 0 when it answers 200, 1 otherwise (a health
    /// check for a container or a supervisor; needs no curl).
    ReadyCheck(ready_check::ReadyCheckArgs),
}

#[derive(clap::Args)]
struct KeysArgs {
    /// State database directory, or a redis://HOST:PORT/DB URL (the password from
    /// KALENDORIUS_REDIS_PASSWORD) [default: var/state, or `state` of --config]. May be
    /// given before or after the command.
    #[arg(long, env = "KALENDORIUS_STATE", global = true)]
    state: Option<PathBuf>,
    /// TOML settings file (for the state directory and the default key limits). May be
    /// given before or after the command.
    #[arg(long, env = "KALENDORIUS_CONFIG", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: KeysCommand,
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Serve(args) => serve(args),
        Command::Keys(args) => keys(args),
        Command::ReadyCheck(args) => ready_check::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kalendorius-server: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let settings = Settings::resolve(args)?;
    bound_allocator_slack();
    let _log = telemetry::init(settings.log.format, &settings.log.level)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let stop = shutdown::stop_signals()?;
        let format = settings.log.format;
        let server = Server::bind(settings).await?;
        tokio::spawn(shutdown::reload_on_hangup(server.data())?);
        server
            .run(stop, |addr| {
                // Printed whatever the log level, so scripts and tests can read the port; every
                // signal handler and the admin socket are in place by now.
                println!("{}", announcement(format, addr));
            })
            .await
    })
}

/// The start-up line: `listening on http://ADDR`, in the JSON log format shaped like the
/// other log lines, so that every line on stdout is JSON.
fn announcement(format: LogFormat, addr: SocketAddr) -> String {
    let url = format!("http://{addr}");
    match format {
        LogFormat::Text => format!("listening on {url}"),
        // The other JSON lines' fields in their order; an address needs no escaping.
        LogFormat::Json => format!(
            r#"{{"timestamp":"{}","level":"INFO","message":"listening on {url}","url":"{url}","target":"kalendorius_server"}}"#,
            chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        ),
    }
}

fn keys(args: KeysArgs) -> anyhow::Result<()> {
    let settings = Settings::load(args.config.as_deref())?;
    let state = args.state.map_or(settings.state, StateLocation::from);
    let (mut out, mut notes) = (std::io::stdout().lock(), std::io::stderr().lock());
    keys_cli::run(args.command, &state, &settings.limits, &mut out, &mut notes)
}

/// glibc gives each allocating thread an arena (up to 8 per core) and raises its mmap
/// threshold on every large free, so tables that grow and shrink (the rate-limit ledger
/// under a flood) stay in arenas that never return the memory. Two arenas and a fixed
/// 128 KiB threshold cut a million-address flood's peak RSS by some 2 MB (`make bench`).
fn bound_allocator_slack() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; called before any thread is spawned.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}
