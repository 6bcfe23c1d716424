//! `kalendorius-generator`: build or check the dataset from the command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use kalendorius_generator::versions::{self, DEFAULT_KEEP};
use kalendorius_generator::{build, check, parse_years, BuildError, BuildOptions};

/// Compiles the curated sources (holidays, transfers, name days) into the kalendorius
/// dataset: one JSON file per year 1583..2100 (the published form), a manifest with
/// checksums, and a sled database of the same days in a compact form, which the server loads.
#[derive(Parser)]
#[command(name = "kalendorius-generator", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate the sources and write a new dataset into the output root (atomically:
    /// on any error the previous dataset stays exactly as it was).
    Build {
        /// The sources directory.
        #[arg(long, default_value = "sources")]
        sources: PathBuf,
        /// The output root; the dataset goes to OUT/<version>, linked as OUT/current.
        #[arg(long, default_value = "output")]
        out: PathBuf,
        /// Build only these years, e.g. 2000..2030 (inclusive; default 1583..2100).
        #[arg(long, value_name = "A..B")]
        years: Option<String>,
        /// Previous versions to keep in OUT besides the new one, for `rollback`: the one in
        /// service before this build, then the most recently built others. Older versions
        /// are removed; 0 keeps none.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_KEEP)]
        keep: usize,
    },
    /// Validate the sources and compute every day, writing nothing.
    Check {
        /// The sources directory.
        #[arg(long, default_value = "sources")]
        sources: PathBuf,
    },
    /// Check a published dataset: manifest, schema version, every year file's checksum,
    /// every sled database value's checksum and the database's content digest, that the
    /// database and the year files hold the same days, and its changes.json (checksum, shape,
    /// and equal to a new comparison when the version it was compared with is kept).
    Verify {
        /// The output root (its `current` link) or a dataset directory.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
    /// Point OUT/current at a kept version (by default the one built before the current
    /// one) after checking it as `verify` does; on any problem `current` stays as it was.
    /// Removes nothing. A running server keeps what it loaded until it gets SIGHUP.
    Rollback {
        /// The output root.
        #[arg(long, default_value = "output")]
        out: PathBuf,
        /// The version to go to (default: the newest one built before the current one).
        #[arg(long, value_name = "VERSION")]
        to: Option<String>,
    },
    /// List the dataset versions kept in OUT, newest build first, marking the current one.
    Versions {
        /// The output root.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
    /// List every date whose answer differs between two datasets, grouped by kind: status
    /// (laisvadienis, reason, holiday name), shortened days and working hours (5- and 6-day
    /// week), holidays added, removed or changed (by id: renamed, red or not, type, source),
    /// name days and transfers. Only the years both cover are compared. Exits 0 whether or
    /// not anything differs.
    Diff {
        /// The old dataset: a version directory (output/v4-...) or an output root (its
        /// `current`).
        old: PathBuf,
        /// The new dataset, likewise.
        new: PathBuf,
        /// Print the changes as JSON (the shape of changes.json; its JSON Schema is
        /// kalendorius_dataset::schema::changes_schema).
        #[arg(long)]
        json: bool,
        /// Print at most N entries of each kind (text only).
        #[arg(long, value_name = "N", conflicts_with = "json")]
        limit: Option<usize>,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Build {
            sources,
            out,
            years,
            keep,
        } => years
            .as_deref()
            .map(parse_years)
            .transpose()
            .and_then(|years| {
                build(&BuildOptions {
                    sources,
                    out,
                    years,
                    keep,
                })
            })
            .map(|summary| summary.to_string())
            .map_err(build_failure),
        Command::Check { sources } => check(&sources)
            .map(|summary| summary.to_string())
            .map_err(build_failure),
        Command::Verify { out } => kalendorius_generator::verify(&out)
            .map(|v| {
                format!(
                    "verified {}: {} days; year files and database match the manifest; changes.json {}",
                    v.dataset_version, v.days, v.changes
                )
            })
            .map_err(|e| format!("error: {e}")),
        Command::Diff {
            old,
            new,
            json,
            limit,
        } => kalendorius_generator::diff::diff_dirs(&old, &new)
            .map(|changes| {
                if json {
                    serde_json::to_string_pretty(&changes).expect("changes serialize")
                } else {
                    kalendorius_generator::diff::text(&changes, limit)
                }
            })
            .map_err(|e| format!("error: {e}")),
        Command::Rollback { out, to } => rollback(&out, to.as_deref()),
        Command::Versions { out } => list_versions(&out),
    };
    match result {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// How a failed build or check reads: each source problem on its own line.
fn build_failure(error: BuildError) -> String {
    match error {
        BuildError::Invalid(errors) => {
            let mut text: String = errors.iter().map(|e| format!("error: {e}\n")).collect();
            text += &format!(
                "{} problem(s) in the sources; nothing was written",
                errors.len()
            );
            text
        }
        e => format!("error: {e}"),
    }
}

/// What `rollback` prints: the change, and that the server needs SIGHUP to see it.
fn rollback(out: &Path, to: Option<&str>) -> Result<String, String> {
    let done = versions::rollback(out, to).map_err(|e| format!("error: {e}"))?;
    let link = out.join(kalendorius_dataset::layout::CURRENT_LINK);
    let (to, days) = (&done.to, done.days);
    let what = match done.from.as_deref() {
        Some(from) if from == to => {
            return Ok(format!(
                "{} already names {to} ({days} days verified); nothing changed",
                link.display()
            ))
        }
        Some(from) => format!("switched {} from {from} to {to}", link.display()),
        None => format!("pointed {} at {to}", link.display()),
    };
    Ok(format!(
        "{what} ({days} days verified)\n\
         a running server still serves what it loaded; send it SIGHUP to load {to}: \
         `kill -HUP <pid>` (or `systemctl reload kalendorius` under systemd)"
    ))
}

/// What `versions` prints: one line per kept version, newest build first.
fn list_versions(out: &Path) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("error: cannot read {}: {e}", out.display());
    let current = versions::current(out).map_err(cannot)?;
    let kept = versions::list(out).map_err(cannot)?;
    if kept.is_empty() {
        return Ok(format!("no dataset versions in {}", out.display()));
    }
    let lines: Vec<String> = kept
        .iter()
        .map(|v| {
            let manifest = out
                .join(&v.name)
                .join(kalendorius_dataset::layout::MANIFEST_FILE);
            let years = std::fs::read(&manifest)
                .ok()
                .and_then(|b| serde_json::from_slice::<kalendorius_dataset::Manifest>(&b).ok())
                .map_or("unreadable manifest".into(), |m| {
                    format!("years {}..{}", m.first_year, m.last_year)
                });
            let is_current = current.as_deref() == Some(v.name.as_str());
            format!(
                "{} {}  built {}  {years}{}",
                if is_current { "*" } else { " " },
                v.name,
                chrono::DateTime::<chrono::Utc>::from(v.built).format("%Y-%m-%d %H:%M:%S UTC"),
                if is_current { "  (current)" } else { "" }
            )
        })
        .collect();
    Ok(lines.join("\n"))
}
