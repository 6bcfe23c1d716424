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

/// Declares [`LimitsConfig`] from one list of its fields and defaults.
macro_rules! limits_config {
    ($($(#[doc = $doc:expr])* $field:ident = $default:expr,)*) => {
        /// The configured limits; defaults are the numbers of docs/api.md, Rate limits.
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct LimitsConfig {
            $($(#[doc = $doc])* pub $field: u64,)*
        }

        impl Default for LimitsConfig {
            fn default() -> Self {
                LimitsConfig { $($field: $default,)* }
            }
        }

        impl LimitsConfig {
            /// Every limit set to `value` (`MAX_LIMIT` in tests and benches: never reached).
            pub fn all(value: u64) -> LimitsConfig {
                LimitsConfig { $($field: value,)* }
            }

            /// Every limit must be in `1..=MAX_LIMIT` (refusing everything is a firewall's job).
            pub fn validate(&self) -> Result<(), InvalidLimit> {
                let bad = [$((stringify!($field), self.$field)),*]
                    .into_iter()
                    .find(|(_, v)| !(1..=MAX_LIMIT).contains(v));
                bad.map_or(Ok(()), |(name, value)| Err(InvalidLimit { name, value }))
            }
        }
    };
}

limits_config! {
    /// `/laisvadienis` per IP per sliding minute.
    laisvadienis_per_minute = 60,
    /// `/laisvadienis` per IP per calendar month (UTC).
    laisvadienis_per_month = 10_000,
    days_per_minute = 20,
    days_per_month = 2_000,
    /// The HTML pages (all of them together) per IP per sliding minute.
    pages_per_minute = 120,
    pages_per_month = 20_000,
    /// The iCalendar feeds (both together) per IP per sliding minute.
    feeds_per_minute = 60,
    feeds_per_month = 10_000,
    /// The published dataset files (`/data/...`) per IP per sliding minute.
    data_per_minute = 60,
    data_per_month = 10_000,
    /// Per-minute limit given to new keys unless `keys create --per-minute` says otherwise.
    key_default_per_minute = 60,
    /// Per-day limit given to new keys unless `keys create --per-day` says otherwise.
    key_default_per_day = 10_000,
}

/// The per-IP limited endpoints; the value is the letter in their subjects' names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PublicEndpoint {
    Laisvadienis = b'l',
    Days = b'd',
    /// The HTML pages (`/`, `/{YYYY}`, ..., `/vardai`), one counter for all of them.
    Pages = b'h',
    /// The iCalendar feeds (`/api/v1/feeds/*.ics`), one counter for both.
    Feeds = b'f',
    /// The published dataset (`/data/...`), one counter for every file.
    Data = b'j',
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

impl LimitsConfig {
    /// The (minute, month) limits of a public endpoint.
    pub(crate) fn public(&self, endpoint: PublicEndpoint) -> subject::Limits {
        let (minute, long) = match endpoint {
            PublicEndpoint::Laisvadienis => {
                (self.laisvadienis_per_minute, self.laisvadienis_per_month)
            }
            PublicEndpoint::Days => (self.days_per_minute, self.days_per_month),
            PublicEndpoint::Pages => (self.pages_per_minute, self.pages_per_month),
            PublicEndpoint::Feeds => (self.feeds_per_minute, self.feeds_per_month),
            PublicEndpoint::Data => (self.data_per_minute, self.data_per_month),
        };
        subject::Limits { minute, long }
    }
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
