//! `kalendorius-generator`: build or check the dataset from the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use kalendorius_generator::versions::DEFAULT_KEEP;
use kalendorius_generator::{build, check, parse_years, BuildError, BuildOptions};

/// Compiles the curated sources (holidays, transfers, name days) into the kalendorius
/// dataset: one JSON file per year 1583..2100, a manifest with checksums, and a sled
/// database for the server.
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
    /// Check a published dataset: manifest, schema version, every year file's checksum and
    /// the sled database's content digest.
    Verify {
        /// The output root (its `current` link) or a dataset directory.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Verify { out } = &cli.command {
        return match kalendorius_generator::verify(out) {
            Ok((version, days)) => {
                println!(
                    "verified {version}: {days} days; year files and database match the manifest"
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let result = match cli.command {
        Command::Verify { .. } => unreachable!("handled above"),
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
            }),
        Command::Check { sources } => check(&sources),
    };
    match result {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(BuildError::Invalid(errors)) => {
            for e in &errors {
                eprintln!("error: {e}");
            }
            eprintln!(
                "{} problem(s) in the sources; nothing was written",
                errors.len()
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
