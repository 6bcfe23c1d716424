//! `kalendorius-server keys ...`: through the admin socket of a server running on the state
//! directory, else on the database itself, or on Redis. Every command first prints the state's
//! absolute path or URL to stderr, so a wrong directory never goes unnoticed; only `create` and
//! `import` may create a database. Only `create` prints a key: alone, on stdout's last line.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use chrono::{DateTime, Utc};

use crate::limits::LimitsConfig;
use crate::state::admin;
pub use crate::state::key_admin::KeysCommand;
use crate::state::key_admin::{AdminResponse, ExportArgs, KeyView};
use crate::state::keys::{ExportedKey, KeyAdminError, KeyRecord};
use crate::state::store::location::StateLocation;
use crate::state::store::redis;
use crate::state::store::sled::{write_private_file, State};

/// Runs a keys command, printing to `out` and notes (`state: ...`, `created ...`) to `notes`.
pub fn run(
    mut cmd: KeysCommand,
    state: &StateLocation,
    limits: &LimitsConfig,
    out: &mut dyn Write,
    notes: &mut dyn Write,
) -> anyhow::Result<()> {
    state.check()?;
    let shown = match state {
        StateLocation::Redis(url) => PathBuf::from(url),
        StateLocation::Directory(dir) => std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
    };
    writeln!(notes, "state: {}", shown.display())?;
    notes.flush()?;
    let now = Utc::now();
    match &mut cmd {
        KeysCommand::Create(a) => {
            if let Some(e) = a.expires.filter(|e| *e <= now) {
                bail!("--expires {} is not in the future", time(e));
            }
        }
        KeysCommand::SetLimits(a) if a.per_minute.is_none() && a.per_day.is_none() => {
            return Err(KeyAdminError::NothingToChange.into());
        }
        KeysCommand::Import(a) => a.records = read_records(&a.file)?,
        _ => {}
    }
    let response = match state {
        StateLocation::Redis(url) => redis::execute(url, limits, cmd.clone(), now)?,
        StateLocation::Directory(dir) => {
            let fresh = State::is_fresh(dir);
            if fresh && !matches!(cmd, KeysCommand::Create(_) | KeysCommand::Import(_)) {
                bail!(
                    "no state database at {} (check --state, --config or KALENDORIUS_STATE; \
                     `keys create` makes a new one)",
                    shown.display()
                );
            }
            match admin::request(&admin::socket_path(dir), &cmd)
                .context("a server seems to be running but its admin socket cannot be used")?
            {
                Some(response) => response,
                None => {
                    // Key changes (and the counters `delete` removes) are flushed as made.
                    let response = State::open(dir, limits.clone())
                        .map(|state| state.execute(cmd.clone(), now));
                    // Said even when the command then failed: the database stays.
                    if fresh && !State::is_fresh(dir) {
                        writeln!(notes, "created a new state database at {}", shown.display())?;
                        notes.flush()?;
                    }
                    response??
                }
            }
        }
    };
    print(&cmd, response, out)
}

fn plural_keys(n: usize) -> String {
    format!("{n} key{}", if n == 1 { "" } else { "s" })
}

/// Reads the records of an export file (`-` = standard input); blank lines are skipped.
fn read_records(path: &Path) -> anyhow::Result<Vec<KeyRecord>> {
    let (name, reader): (String, Box<dyn std::io::Read>) = if path == Path::new("-") {
        ("standard input".into(), Box::new(std::io::stdin()))
    } else {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).with_context(|| format!("cannot read {name}"))?;
        (name, Box::new(file))
    };
    let mut records = vec![];
    for (n, line) in std::io::BufReader::new(reader).lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {name}"))?;
        if line.trim().is_empty() {
            continue;
        }
        // Not serde's message: it can quote a value, and a wrong file may hold keys.
        let record = serde_json::from_str::<ExportedKey>(&line).map_err(|e| {
            anyhow::anyhow!(
                "{name} line {}: not a key record from `keys export` ({:?} error at column {})",
                n + 1,
                e.classify(),
                e.column()
            )
        })?;
        records.push(record.record);
    }
    Ok(records)
}

fn export_lines(records: &[ExportedKey]) -> Vec<u8> {
    let mut text = vec![];
    for r in records {
        serde_json::to_writer(&mut text, r).expect("records serialise");
        text.push(b'\n');
    }
    text
}

fn time(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

fn state_of(v: &KeyView) -> &'static str {
    match (v.active, v.expired) {
        (false, _) => "revoked",
        (true, true) => "expired",
        (true, false) => "active",
    }
}

fn print_view(v: &KeyView, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "id:         {}", v.id)?;
    writeln!(out, "owner:      {}", v.owner)?;
    writeln!(out, "per-minute: {}", v.per_minute)?;
    writeln!(out, "per-day:    {}", v.per_day)?;
    writeln!(out, "created:    {}", time(v.created))?;
    let expires = v.expires.map_or("never".to_owned(), time);
    writeln!(out, "expires:    {expires}")?;
    writeln!(out, "state:      {}", state_of(v))?;
    writeln!(
        out,
        "used:       {} in the last minute, {} in the last 24 h",
        v.used_minute, v.used_day
    )
}

/// Prints the answer to `cmd` (an export with `--out` goes to that file).
fn print(cmd: &KeysCommand, response: AdminResponse, out: &mut dyn Write) -> anyhow::Result<()> {
    match response {
        AdminResponse::Error { message } => bail!(message),
        AdminResponse::Created { key, view } => {
            writeln!(out, "created a key for {}", view.owner)?;
            print_view(&view, out)?;
            writeln!(
                out,
                "the key (shown only this once; only its hash is stored):\n{key}"
            )?;
        }
        AdminResponse::Key { view, changed } => {
            let id = &view.id;
            match (cmd, changed) {
                (KeysCommand::Revoke(_), true) => writeln!(out, "revoked key {id}")?,
                (KeysCommand::Revoke(_), false) => writeln!(out, "key {id} was already revoked")?,
                (KeysCommand::Restore(_), true) => writeln!(out, "restored key {id}")?,
                (KeysCommand::Restore(_), false) => writeln!(out, "key {id} was not revoked")?,
                (KeysCommand::SetLimits(_), _) => writeln!(out, "updated the limits of key {id}")?,
                _ => {}
            }
            print_view(&view, out)?;
        }
        AdminResponse::Deleted { id, owner } => writeln!(out, "deleted key {id} (owner {owner})")?,
        AdminResponse::Exported { records } => match cmd {
            KeysCommand::Export(ExportArgs {
                out: Some(path), ..
            }) => {
                write_private_file(path, &export_lines(&records))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                let n = plural_keys(records.len());
                writeln!(out, "exported {n} to {}", path.display())?;
            }
            _ => out.write_all(&export_lines(&records))?,
        },
        AdminResponse::Imported { report } => writeln!(
            out,
            "imported {}: {} added, {} unchanged, {} replaced",
            plural_keys(report.added + report.unchanged + report.replaced),
            report.added,
            report.unchanged,
            report.replaced
        )?,
        AdminResponse::Keys { views } if views.is_empty() => writeln!(out, "no keys")?,
        AdminResponse::Keys { views } => {
            writeln!(
                out,
                "{:<16}  {:<7}  {:>10}  {:>10}  {:<20}  {:<20}  {:>8}  {:>8}  OWNER",
                "ID", "STATE", "PER-MIN", "PER-DAY", "CREATED", "EXPIRES", "USED-MIN", "USED-DAY"
            )?;
            for v in &views {
                writeln!(
                    out,
                    "{:<16}  {:<7}  {:>10}  {:>10}  {:<20}  {:<20}  {:>8}  {:>8}  {}",
                    v.id,
                    state_of(v),
                    v.per_minute,
                    v.per_day,
                    time(v.created),
                    v.expires.map_or("never".to_owned(), time),
                    v.used_minute,
                    v.used_day,
                    v.owner
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::key_admin::{parse_expiry, CreateArgs, IdArg, ImportArgs, SetLimitsArgs};
    use clap::Parser;

    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(subcommand)]
        keys: KeysCommand,
    }

    /// Parses `keys ARGS` (arguments split at spaces).
    fn parse(args: &str) -> Result<KeysCommand, clap::Error> {
        Cli::try_parse_from(std::iter::once("keys").chain(args.split_whitespace())).map(|c| c.keys)
    }

    #[test]
    fn parses_commands() {
        let id = |id: &str| IdArg { id: id.into() };
        let create = CreateArgs {
            owner: "Ona".into(),
            per_minute: Some(5),
            per_day: None,
            expires: "2099-01-02T22:00:00Z".parse().ok(),
        };
        let set_limits = SetLimitsArgs {
            id: "abc".into(),
            per_minute: None,
            per_day: Some(7),
        };
        let export = ExportArgs {
            out: Some("b.jsonl".into()),
            counters: true,
        };
        let import = ImportArgs {
            file: "-".into(),
            records: vec![],
            replace: true,
        };
        for (args, command) in [
            (
                "create --owner Ona --per-minute 5 --expires 2099-01-02",
                KeysCommand::Create(create),
            ),
            (
                "set-limits abc --per-day 7",
                KeysCommand::SetLimits(set_limits),
            ),
            ("revoke x", KeysCommand::Revoke(id("x"))),
            ("restore abcd", KeysCommand::Restore(id("abcd"))),
            ("delete abcd", KeysCommand::Delete(id("abcd"))),
            (
                "export --out b.jsonl --counters",
                KeysCommand::Export(export),
            ),
            ("import - --replace", KeysCommand::Import(import)),
        ] {
            assert_eq!(parse(args).unwrap(), command, "{args:?}");
        }
    }

    #[test]
    fn rejects_bad_input() {
        for args in [
            "create",
            "create --owner a --per-minute 0",
            "create --owner a --per-day ten",
            "create --owner a --per-day -1",
            "create --owner a --expires 2099-02-30",
            "create --owner a --expires tomorrow",
            "create --owner a --expires +2099-01-01",
            "set-limits abc --per-minute 1000000001",
            "show",
            "delete",
            "import",
            "export extra",
            "frobnicate",
        ] {
            assert!(parse(args).is_err(), "{args:?} parsed");
        }
    }

    #[test]
    fn expiry_forms() {
        assert_eq!(
            parse_expiry("2030-06-01T12:00:00+02:00")
                .unwrap()
                .to_rfc3339(),
            "2030-06-01T10:00:00+00:00"
        );
        assert!(parse_expiry("2030-6-1").is_err());
        assert!(parse_expiry("").is_err());
    }

    #[test]
    fn a_date_expires_at_the_end_of_that_day_in_vilnius() {
        for (date, refused_from) in [
            // Winter (UTC+2) and summer (UTC+3) time.
            ("2027-12-31", "2027-12-31T22:00:00+00:00"),
            ("2027-07-31", "2027-07-31T21:00:00+00:00"),
            // Clocks go forward on Sunday 28 March 2027 at 03:00 and back on Sunday
            // 31 October at 04:00: the midnights around them are unambiguous.
            ("2027-03-27", "2027-03-27T22:00:00+00:00"),
            ("2027-03-28", "2027-03-28T21:00:00+00:00"),
            ("2027-10-30", "2027-10-30T21:00:00+00:00"),
            ("2027-10-31", "2027-10-31T22:00:00+00:00"),
            // The year rolls over; a leap day.
            ("2028-02-29", "2028-02-29T22:00:00+00:00"),
        ] {
            assert_eq!(
                parse_expiry(date).unwrap().to_rfc3339(),
                refused_from,
                "{date}"
            );
        }
        assert!(parse_expiry("2027-02-29").is_err());
    }
}
