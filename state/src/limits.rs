//! Rate limits (docs/api.md) per IP per public endpoint and per key; the submodules count,
//! knowing nothing of storage. Every window is exact: in ANY interval of its length the
//! admitted requests never exceed the limit, under concurrent bursts too.

pub(crate) mod evicted;
pub(crate) mod rules;
pub(crate) mod subject;
pub(crate) mod table;
pub(crate) mod window;

/// Milliseconds since the Unix epoch, the clock of every check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct UnixMillis(pub i64);

impl From<chrono::DateTime<chrono::Utc>> for UnixMillis {
    fn from(t: chrono::DateTime<chrono::Utc>) -> Self {
        UnixMillis(t.timestamp_millis())
    }
}

impl From<std::time::SystemTime> for UnixMillis {
    fn from(t: std::time::SystemTime) -> Self {
        UnixMillis(match t.duration_since(std::time::UNIX_EPOCH) {
            Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
            // Floor, as `DateTime::timestamp_millis` does.
            Err(before) => i64::try_from(before.duration().as_nanos().div_ceil(1_000_000))
                .map_or(i64::MIN, |ms| -ms),
        })
    }
}

/// Far above any sane plan, small enough that per-bucket counts fit in 32 bits.
pub const MAX_LIMIT: u64 = 1_000_000_000;

/// Declares the public counters, each once: its [`PublicEndpoint`] variant, the letter in its
/// subjects' stored names (in the sled state and in Redis: a changed letter loses the counts),
/// its two settings keys and their defaults, and with whom its endpoints share it. From this list follow the
/// enum, [`LimitsConfig`]'s fields (its keys in the settings file and `KALENDORIUS_LIMITS_*`),
/// the limits of each counter, the letters the stored counters are read back with, and the
/// limit sentence of the endpoints' descriptions. The key limits follow the counters.
macro_rules! public_counters {
    ($(
        $(#[doc = $doc:expr])*
        $counter:ident = $letter:literal, $per_minute:ident = $minute:expr, $per_month:ident = $month:expr
        $(, shared $shared:literal)?;
    )*) => {
        /// The per-IP limited endpoints; the value is the letter in their subjects' names.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum PublicEndpoint {
            $($(#[doc = $doc])* $counter = $letter,)*
        }

        impl PublicEndpoint {
            /// Every public counter, in the order of their settings.
            pub const ALL: &[PublicEndpoint] = &[$(PublicEndpoint::$counter,)*];

            /// The counter whose subjects' names carry `letter` (the stored counters).
            pub fn from_letter(letter: u8) -> Option<PublicEndpoint> {
                match letter {
                    $($letter => Some(PublicEndpoint::$counter),)*
                    _ => None,
                }
            }

            /// How the limit sentence says that several endpoints share the counter (`, with the
            /// other feeds`); empty for one endpoint's own.
            fn shared(self) -> &'static str {
                match self {
                    $(PublicEndpoint::$counter => concat!("" $(, ", ", $shared)?),)*
                }
            }

            /// Its settings keys: the per-minute limit's and the per-month limit's.
            pub fn settings_keys(self) -> [&'static str; 2] {
                match self {
                    $(PublicEndpoint::$counter => [stringify!($per_minute), stringify!($per_month)],)*
                }
            }
        }

        /// The configured limits; defaults are the numbers of docs/api.md, Rate limits.
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct LimitsConfig {
            $(
                #[doc = concat!("Per IP per sliding minute: ", stringify!($counter), ".")]
                pub $per_minute: u64,
                #[doc = concat!("Per IP per calendar month (UTC): ", stringify!($counter), ".")]
                pub $per_month: u64,
            )*
            /// Per-minute limit given to new keys unless `keys create --per-minute` says otherwise.
            pub key_default_per_minute: u64,
            /// Per-day limit given to new keys unless `keys create --per-day` says otherwise.
            pub key_default_per_day: u64,
        }

        impl Default for LimitsConfig {
            fn default() -> Self {
                LimitsConfig {
                    $($per_minute: $minute, $per_month: $month,)*
                    key_default_per_minute: 60,
                    key_default_per_day: 10_000,
                }
            }
        }

        impl LimitsConfig {
            /// Every limit set to `value` (`MAX_LIMIT` in tests and benches: never reached).
            pub fn all(value: u64) -> LimitsConfig {
                LimitsConfig {
                    $($per_minute: value, $per_month: value,)*
                    key_default_per_minute: value,
                    key_default_per_day: value,
                }
            }

            /// Every limit must be in `1..=MAX_LIMIT` (refusing everything is a firewall's job).
            pub fn validate(&self) -> Result<(), InvalidLimit> {
                let public = [$(
                    (stringify!($per_minute), self.$per_minute),
                    (stringify!($per_month), self.$per_month),
                )*];
                let keys = [
                    ("key_default_per_minute", self.key_default_per_minute),
                    ("key_default_per_day", self.key_default_per_day),
                ];
                let bad = public
                    .into_iter()
                    .chain(keys)
                    .find(|(_, v)| !(1..=MAX_LIMIT).contains(v));
                bad.map_or(Ok(()), |(name, value)| Err(InvalidLimit { name, value }))
            }

            /// The (minute, month) limits of a public counter.
            pub(crate) fn public(&self, endpoint: PublicEndpoint) -> subject::Limits {
                let (minute, long) = match endpoint {
                    $(PublicEndpoint::$counter => (self.$per_minute, self.$per_month),)*
                };
                subject::Limits { minute, long }
            }
        }
    };
}

public_counters! {
    /// `/laisvadienis`.
    Laisvadienis = b'l', laisvadienis_per_minute = 60, laisvadienis_per_month = 10_000;
    /// `/days`.
    Days = b'd', days_per_minute = 20, days_per_month = 2_000;
    /// The HTML pages (`/`, `/{YYYY}`, ..., `/vardai`), one counter for all of them.
    Pages = b'h', pages_per_minute = 120, pages_per_month = 20_000;
    /// The iCalendar feeds (`/api/v1/feeds/*.ics`), one counter for all of them.
    Feeds = b'f', feeds_per_minute = 60, feeds_per_month = 10_000, shared "with the other feeds";
    /// The published dataset (`/data/...`), one counter for every file.
    Data = b'j', data_per_minute = 60, data_per_month = 10_000;
}

impl PublicEndpoint {
    /// The sentence of an endpoint's description that gives its default limits, e.g. "No key
    /// needed; limited per client IP to 20 requests per minute and 2 000 per calendar month
    /// (UTC)."
    pub fn limits_sentence(self) -> String {
        let limits = LimitsConfig::default().public(self);
        format!(
            "No key needed; limited per client IP to {} requests per minute and {} per calendar \
             month (UTC){}.",
            grouped(limits.minute),
            grouped(limits.long),
            self.shared(),
        )
    }
}

/// `n` with its thousands set apart by spaces, as the docs write numbers (`10 000`).
fn grouped(n: u64) -> String {
    let mut lower_groups = Vec::new();
    let mut rest = n;
    while rest >= 1000 {
        lower_groups.push(rest % 1000);
        rest /= 1000;
    }
    let mut text = rest.to_string();
    for group in lower_groups.iter().rev() {
        text += &format!(" {group:03}");
    }
    text
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    Minute,
    Day,
    Month,
}

/// One check's outcome and its `RateLimit-*` headers: when admitted, of the tightest window
/// (fewest remaining, ties to the shorter); when refused, of the refusing window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// `Some(w)`: refused by `w` (the longest exhausted window), nothing counted.
    pub refused_by: Option<Window>,
    pub limit: u64,
    /// After this request.
    pub remaining: u64,
    /// Seconds until that window frees capacity.
    pub reset_secs: u64,
    /// When refused: seconds (at least 1) until every exhausted window admits again.
    pub retry_after_secs: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("limit '{name}' must be between 1 and {MAX_LIMIT}, got {value}")]
pub struct InvalidLimit {
    pub name: &'static str,
    pub value: u64,
}

impl Window {
    /// The `error` code of a 429 for this window.
    pub fn code(self) -> &'static str {
        match self {
            Window::Minute => "rate_limit_minute",
            Window::Day => "rate_limit_day",
            Window::Month => "rate_limit_month",
        }
    }

    pub fn name(self) -> &'static str {
        &self.code()["rate_limit_".len()..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        let shown = [0, 60, 999, 1_000, 2_000, 10_000, 1_002_003].map(grouped);
        assert_eq!(
            shown,
            ["0", "60", "999", "1 000", "2 000", "10 000", "1 002 003"]
        );
    }

    #[test]
    fn every_counter_has_its_own_letter_and_settings() {
        let defaults = toml::Table::try_from(LimitsConfig::default()).unwrap();
        let mut letters = std::collections::BTreeSet::new();
        for &counter in PublicEndpoint::ALL {
            assert!(
                letters.insert(counter as u8),
                "{counter:?}: a letter used twice"
            );
            assert_eq!(PublicEndpoint::from_letter(counter as u8), Some(counter));
            let limits = LimitsConfig::default().public(counter);
            let [minute, month] = counter
                .settings_keys()
                .map(|key| defaults[key].as_integer());
            assert_eq!(
                [minute, month],
                [limits.minute, limits.long].map(|n| Some(n as i64))
            );
        }
    }
}
