//! Typed settings of `kalendorius-server serve`, from (lowest to highest precedence) built-in
//! defaults, a TOML file (`--config`; `kalendorius.example.toml` has and explains every key),
//! `KALENDORIUS_*` environment variables, and flags.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::http::client_ip::IpNet;
use crate::http::connections::ConnectionSettings;
use crate::limits::LimitsConfig;
use crate::state::store::location::StateLocation;
use crate::telemetry::LogFormat;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    #[default(SocketAddr::from(([127, 0, 0, 1], 8080)))]
    pub listen: SocketAddr,
    #[default = "output"]
    pub data: PathBuf,
    #[default(StateLocation::Directory("var/state".into()))]
    pub state: StateLocation,
    pub trusted_proxies: Vec<IpNet>,
    #[default(["127.0.0.0/8", "::1/128"].map(|net| net.parse().unwrap()).to_vec())]
    pub metrics_allow: Vec<IpNet>,
    #[default = 10]
    pub shutdown_timeout_secs: u64,
    pub connections: ConnectionSettings,
    pub log: LogSettings,
    pub limits: LimitsConfig,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(default, deny_unknown_fields)]
pub struct LogSettings {
    pub format: LogFormat,
    #[default = "info"]
    pub level: String,
}

/// Flags of `serve`; each also reads its `KALENDORIUS_*` variable.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "KALENDORIUS_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// Dataset root (with `current`) or dataset directory [default: output].
    #[arg(long, env = "KALENDORIUS_DATA")]
    pub data: Option<PathBuf>,
    /// State database directory, or a redis://HOST:PORT/DB URL shared by several processes
    /// (its password from KALENDORIUS_REDIS_PASSWORD) [default: var/state].
    #[arg(long, env = "KALENDORIUS_STATE")]
    pub state: Option<PathBuf>,
    /// TOML settings file.
    #[arg(long, env = "KALENDORIUS_CONFIG")]
    pub config: Option<PathBuf>,
    /// A trusted proxy address or CIDR network; repeat, or comma-separate in the variable.
    #[arg(
        long = "trusted-proxy",
        env = "KALENDORIUS_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<IpNet>,
    /// A client address or CIDR network `/metrics` answers; repeat, or comma-separate in
    /// the variable [default: 127.0.0.0/8, ::1/128].
    #[arg(
        long = "metrics-allow",
        env = "KALENDORIUS_METRICS_ALLOW",
        value_delimiter = ','
    )]
    pub metrics_allow: Vec<IpNet>,
    /// Log line format.
    #[arg(long, env = "KALENDORIUS_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
    /// Log filter, e.g. `info` (every request) or `warn`.
    #[arg(long, env = "KALENDORIUS_LOG_LEVEL")]
    pub log_level: Option<String>,
}

impl Settings {
    pub fn resolve(args: ServeArgs) -> anyhow::Result<Settings> {
        let mut settings = Settings::load(args.config.as_deref())?;
        settings.listen = args.listen.unwrap_or(settings.listen);
        settings.data = args.data.unwrap_or(settings.data);
        settings.state = args.state.map_or(settings.state, StateLocation::from);
        if !args.trusted_proxies.is_empty() {
            settings.trusted_proxies = args.trusted_proxies;
        }
        if !args.metrics_allow.is_empty() {
            settings.metrics_allow = args.metrics_allow;
        }
        settings.log.format = args.log_format.unwrap_or(settings.log.format);
        settings.log.level = args.log_level.unwrap_or(settings.log.level);
        Ok(settings)
    }

    /// The settings file at `config` (else the defaults) with `KALENDORIUS_LIMITS_*` applied.
    pub fn load(config: Option<&Path>) -> anyhow::Result<Settings> {
        let mut settings = config.map_or_else(|| Ok(Settings::default()), Settings::from_file)?;
        settings.limits = limits_from_env(settings.limits, |name| std::env::var(name).ok())?;
        Ok(settings)
    }

    /// Reads a TOML settings file; unknown keys are errors (a typo must not pass silently).
    pub fn from_file(path: &Path) -> anyhow::Result<Settings> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read settings file {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("invalid settings file {}", path.display()))
    }
}

/// Applies `KALENDORIUS_LIMITS_<FIELD>` over `limits`, whatever fields it has.
fn limits_from_env(
    limits: LimitsConfig,
    var: impl Fn(&str) -> Option<String>,
) -> anyhow::Result<LimitsConfig> {
    let mut table = toml::Table::try_from(&limits).context("limits are a table")?;
    for (field, value) in table.iter_mut() {
        let name = format!("KALENDORIUS_LIMITS_{}", field.to_uppercase());
        if let Some(text) = var(&name) {
            let number: i64 = text
                .trim()
                .parse()
                .ok()
                .filter(|n| *n >= 0)
                .with_context(|| format!("{name} must be a non-negative integer, got '{text}'"))?;
            *value = toml::Value::Integer(number);
        }
    }
    table
        .try_into()
        .context("limits from the environment do not fit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_env_and_flags_stack_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("k.toml");
        std::fs::write(
            &file,
            "listen = \"127.0.0.1:9000\"\ndata = \"/d\"\ntrusted_proxies = [\"10.0.0.0/8\"]\nmetrics_allow = [\"192.0.2.0/24\"]\n[log]\nformat = \"json\"\n[limits]\ndays_per_minute = 7\n",
        )
        .unwrap();
        let args = ServeArgs {
            config: Some(file),
            data: Some("/flag".into()),
            metrics_allow: vec!["10.1.2.3".parse().unwrap()],
            ..ServeArgs::default()
        };
        let s = Settings::resolve(args).unwrap();
        assert_eq!(s.listen, "127.0.0.1:9000".parse().unwrap());
        assert_eq!(s.data, PathBuf::from("/flag"));
        assert_eq!(s.state, StateLocation::Directory("var/state".into()));
        assert_eq!(s.log.format, LogFormat::Json);
        assert_eq!(s.limits.days_per_minute, 7);
        assert_eq!(s.trusted_proxies.len(), 1);
        assert_eq!(s.metrics_allow, vec!["10.1.2.3".parse().unwrap()]);
    }

    #[test]
    fn metrics_answer_loopback_by_default() {
        let allow = Settings::default().metrics_allow;
        let allowed = |ip: &str| allow.iter().any(|n| n.contains(ip.parse().unwrap()));
        assert!(allowed("127.0.0.1") && allowed("127.9.9.9") && allowed("::1"));
        assert!(allowed("::ffff:127.0.0.1"));
        assert!(!allowed("192.0.2.1") && !allowed("::2"));
        let file: Settings = toml::from_str("metrics_allow = [\"10.0.0.0/8\"]").unwrap();
        assert_eq!(file.metrics_allow.len(), 1);
    }

    #[test]
    fn unknown_keys_are_refused() {
        assert!(toml::from_str::<Settings>("lisen = \"x\"").is_err());
    }

    #[test]
    fn limits_read_the_environment() {
        let limits = limits_from_env(LimitsConfig::default(), |name| {
            (name == "KALENDORIUS_LIMITS_DAYS_PER_MONTH").then(|| "5".to_string())
        })
        .unwrap();
        assert_eq!(limits.days_per_month, 5);
        let err = limits_from_env(LimitsConfig::default(), |_| Some("-1".into()));
        assert!(err.is_err());
    }
}
