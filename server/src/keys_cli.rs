//! `kalendorius-server keys create|list|show|revoke|set-limits`.
//!
//! OWNER: state helper. Exposes `KeysCommand` (a clap `Subcommand`) and
//! `pub fn run(cmd: KeysCommand, state_dir: &Path, limits: &LimitsConfig) -> anyhow::Result<()>`:
//! through the admin socket when a server is running, else on the state database directly.
