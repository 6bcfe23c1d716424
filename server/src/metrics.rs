//! The metrics of `GET /metrics`: one registry per server and the handles every layer
//! records with, shared by their clones ([`Metrics::new`] registers those made before it).
//! Label values are `&'static str` or the routes given at start, so each label has a bounded
//! set; a request's counter and histogram are reached by index: no lock, allocation or hash.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use parking_lot::Mutex;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, MetricEncoder};
use prometheus_client::metrics::counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::{MetricType, TypedMetric};
use prometheus_client::registry::Registry;

/// The path of the metrics (outside the API: not counted, no key).
pub const PATH: &str = "/metrics";

pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The latency histogram every route records in, and the Redis store's: defined with the
/// store, which records in it too.
pub use kalendorius_state::metrics::{Latency, RedisMetrics};

/// A counter as the text format 0.0.4 (read by every Prometheus) has it: its `# HELP` and
/// `# TYPE` lines name it `x_total`, as its samples, where OpenMetrics would say `x`.
#[derive(Debug, Clone, Default)]
pub struct Counter(counter::Counter);

impl std::ops::Deref for Counter {
    type Target = counter::Counter;

    fn deref(&self) -> &counter::Counter {
        &self.0
    }
}

impl TypedMetric for Counter {
    const TYPE: MetricType = MetricType::Counter;
}

impl EncodeMetric for Counter {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        // A gauge's sample has no suffix, and its value is written as a counter's is.
        encoder.encode_gauge(&self.get())
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Counter
    }
}

/// One label's name and value (`{window="minute"}`).
type Label<V = &'static str> = [(&'static str, V); 1];

const STATUS_CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/// One route's counter per status class and histogram, each made (and so shown) on first use.
#[derive(Default)]
struct RouteCells {
    label: String,
    by_class: [OnceLock<Counter>; 5],
    latency: OnceLock<Latency>,
}

/// The handles of the accept loop. Detached (recorded, never shown) by default.
#[derive(Debug, Clone, Default)]
pub struct ConnectionMetrics {
    pub open: Gauge,
    pub refused_total_cap: Counter,
    pub refused_per_ip_cap: Counter,
}

/// The handles of one cache of built answers. Detached (recorded, never shown) by default.
#[derive(Debug, Clone, Default)]
pub struct CacheMetrics {
    pub hits: Counter,
    pub misses: Counter,
    pub bytes: Gauge,
}

/// Every cache's handles as three families labelled by cache: a collector, as a family
/// makes its own handles and the answers cache's are made before this registry.
#[derive(Debug, Default)]
struct Caches(Mutex<Vec<(&'static str, CacheMetrics)>>);

impl Collector for Caches {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let caches = self.0.lock();
        type Pick = fn(&CacheMetrics) -> &dyn EncodeMetric;
        let families: [(&str, &str, MetricType, Pick); 3] = [
            (
                "kalendorius_cache_hits_total",
                "Cache lookups that found their entry, by cache",
                MetricType::Counter,
                |m| &m.hits,
            ),
            (
                "kalendorius_cache_misses_total",
                "Cache lookups that did not find their entry, by cache",
                MetricType::Counter,
                |m| &m.misses,
            ),
            (
                "kalendorius_cache_bytes",
                "Bytes kept by each cache",
                MetricType::Gauge,
                |m| &m.bytes,
            ),
        ];
        for (name, help, kind, pick) in families {
            let mut family = encoder.encode_descriptor(name, help, None, kind)?;
            for (cache, handles) in caches.iter() {
                pick(handles).encode(family.encode_family(&[("cache", *cache)])?)?;
            }
        }
        Ok(())
    }
}

/// The dataset's reloads, owned by the dataset handle and registered by every server.
#[derive(Debug, Clone, Default)]
pub struct ReloadMetrics {
    last: Gauge,
    last_ok: Gauge,
    results: Family<Label, Counter>,
}

impl ReloadMetrics {
    /// Records the end of a load (`reload`: not the one at start).
    pub fn loaded(&self, unix_secs: i64, reload: bool, ok: bool) {
        if ok {
            self.last.set(unix_secs);
        }
        self.last_ok.set(i64::from(ok));
        if reload {
            let result = if ok { "success" } else { "failure" };
            self.results.get_or_create(&[("result", result)]).inc();
        }
    }
}

/// One server's metrics. Built once at start; recording takes `&self`.
#[derive(Default)]
pub struct Metrics {
    registry: Registry,
    /// The dataset version shown; locked for a whole scrape, which sets gauges first.
    scraping: Mutex<String>,
    routes: Vec<RouteCells>,
    requests: Family<(Label<String>, Label), Counter>,
    latency: Family<Label<String>, Latency>,
    refusals: Family<Label, Counter>,
    key_failures: Family<Label, Counter>,
    pub connections: ConnectionMetrics,
    caches: Arc<Caches>,
    dataset: Family<Label<String>, Gauge>,
    state_up: Gauge,
}

impl Metrics {
    /// The metrics of a server with these `routes` (by index), the dataset's and Redis's.
    pub fn new(
        routes: impl IntoIterator<Item = impl AsRef<str>>,
        reloads: &ReloadMetrics,
        redis: Option<&RedisMetrics>,
    ) -> Metrics {
        let refused = Family::<Label, Counter>::default();
        let reason = |reason| refused.get_or_create(&[("reason", reason)]).clone();
        let mut metrics = Metrics {
            routes: routes
                .into_iter()
                .map(|label| RouteCells {
                    label: label.as_ref().to_owned(),
                    ..RouteCells::default()
                })
                .collect(),
            connections: ConnectionMetrics {
                open: Gauge::default(),
                refused_total_cap: reason("max_connections"),
                refused_per_ip_cap: reason("max_connections_per_ip"),
            },
            ..Metrics::default()
        };
        // Registered in this order, which is the order of the scrape.
        macro_rules! register {
            ($($name:literal, $help:literal, $metric:expr;)*) => {
                $(metrics.registry.register($name, $help, $metric.clone());)*
            };
        }
        register! {
            "kalendorius_http_requests_total", "Requests answered, by route template and status class", metrics.requests;
            "kalendorius_http_request_duration_seconds", "Time from a request's arrival to its answer's headers, by route template", metrics.latency;
            "kalendorius_rate_limit_refusals_total", "Requests refused with 429, by the window that was used up", metrics.refusals;
            "kalendorius_key_failures_total", "Requests to a keyed endpoint refused with 401, by error code", metrics.key_failures;
            "kalendorius_connections_open", "Connections open now", metrics.connections.open;
            "kalendorius_connections_refused_total", "Connections closed at once, by the cap they were over", refused;
            "kalendorius_dataset_info", "The dataset in service (always 1), by its version", metrics.dataset;
            "kalendorius_dataset_last_reload_timestamp_seconds", "When the dataset in service was loaded (at start or by the last successful reload), in Unix seconds", reloads.last;
            "kalendorius_dataset_last_reload_success", "1 when the last load of the dataset (at start or by a reload) succeeded, 0 when the last reload failed", reloads.last_ok;
            "kalendorius_dataset_reloads_total", "Dataset reloads (SIGHUP), by result", reloads.results;
            "kalendorius_state_store_up", "1 when the state store (sled, or Redis) is usable, else 0", metrics.state_up;
        }
        // Both shown from the start, at 0, so `increase()` sees the first failure.
        for result in ["success", "failure"] {
            let _ = reloads.results.get_or_create(&[("result", result)]);
        }
        metrics
            .registry
            .register_collector(Box::new(metrics.caches.clone()));
        if let Some(redis) = redis {
            metrics.registry.register(
                "kalendorius_redis_command_duration_seconds",
                "Time of the commands sent to Redis, by command",
                redis.latency.clone(),
            );
        }
        metrics
    }

    /// Records an answer to route `route`; an index past the table counts as the last route.
    pub fn request(&self, route: usize, status: u16, elapsed: Duration) {
        let Some(cells) = self.routes.get(route).or(self.routes.last()) else {
            return;
        };
        let class = usize::from(status / 100).clamp(1, 5) - 1;
        cells.by_class[class]
            .get_or_init(|| {
                let labels = (
                    [("route", cells.label.clone())],
                    [("status", STATUS_CLASSES[class])],
                );
                self.requests.get_or_create(&labels).clone()
            })
            .inc();
        cells
            .latency
            .get_or_init(|| {
                let labels = [("route", cells.label.clone())];
                self.latency.get_or_create(&labels).clone()
            })
            .observe(elapsed);
    }

    /// Shows these limiter windows' refusals and key errors' failures from the start, at 0:
    /// a counter that first appears at 1 hides its first increase from `rate()`.
    pub fn start_at_zero(&self, windows: &[&'static str], key_codes: &[&'static str]) {
        for &window in windows {
            let _ = self.refusals.get_or_create(&[("window", window)]);
        }
        for &code in key_codes {
            let _ = self.key_failures.get_or_create(&[("code", code)]);
        }
    }

    pub fn limiter_refusal(&self, window: &'static str) {
        self.refusals.get_or_create(&[("window", window)]).inc();
    }

    pub fn key_failure(&self, code: &'static str) {
        self.key_failures.get_or_create(&[("code", code)]).inc();
    }

    /// The handles of the cache called `name` (one name per cache).
    pub fn cache(&self, name: &'static str) -> CacheMetrics {
        let handles = CacheMetrics::default();
        self.show_cache(name, &handles);
        handles
    }

    /// Shows the cache `name` with its owner's handles (the answers cache's outlive a catalog).
    pub fn show_cache(&self, name: &'static str, handles: &CacheMetrics) {
        self.caches.0.lock().push((name, handles.clone()));
    }

    /// Everything, in the Prometheus text format.
    pub fn scrape(&self, dataset_version: &str, state_up: bool) -> String {
        let mut shown = self.scraping.lock();
        self.state_up.set(i64::from(state_up));
        if *shown != dataset_version {
            // At the first scrape, or after a reload: only the version in service is shown.
            self.dataset.clear();
            *shown = dataset_version.to_owned();
            let labels = [("version", shown.clone())];
            self.dataset.get_or_create(&labels).set(1);
        }
        let mut text = String::new();
        prometheus_client::encoding::text::encode_registry(&mut text, &self.registry)
            .expect("writing to a String does not fail");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics() -> Metrics {
        Metrics::new(["/api/v1/day", "other"], &ReloadMetrics::default(), None)
    }

    #[test]
    fn counters_are_named_by_their_samples_and_there_is_no_eof() {
        let m = metrics();
        m.request(0, 200, Duration::from_micros(30));
        m.limiter_refusal("minute");
        let text = m.scrape("2026.1", true);
        assert!(text.contains("# TYPE kalendorius_http_requests_total counter\n"));
        assert!(text.contains("# HELP kalendorius_http_requests_total Requests answered"));
        assert!(text
            .contains("kalendorius_http_requests_total{route=\"/api/v1/day\",status=\"2xx\"} 1\n"));
        assert!(text.contains("kalendorius_rate_limit_refusals_total{window=\"minute\"} 1\n"));
        assert!(text.contains("# TYPE kalendorius_http_request_duration_seconds histogram\n"));
        assert!(text.contains("kalendorius_dataset_info{version=\"2026.1\"} 1\n"));
        assert!(text.contains("kalendorius_state_store_up 1\n"));
        assert!(!text.contains("# EOF"));
        assert!(!text.contains("# TYPE kalendorius_http_requests counter"));
    }

    #[test]
    fn the_latency_buckets_are_cumulative_and_count_every_observation() {
        let m = metrics();
        m.request(0, 200, Duration::from_micros(10));
        m.request(0, 404, Duration::from_millis(3));
        m.request(0, 500, Duration::from_secs(10));
        let text = m.scrape("v", true);
        let bucket = |le: &str| {
            format!("kalendorius_http_request_duration_seconds_bucket{{le=\"{le}\",route=\"/api/v1/day\"}}")
        };
        let value = |prefix: &str| -> f64 {
            let line = text
                .lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("no {prefix} in\n{text}"));
            line.rsplit(' ').next().unwrap().parse().unwrap()
        };
        assert_eq!(value(&bucket("0.00005")), 1.0, "{text}");
        assert_eq!(value(&bucket("0.005")), 2.0);
        assert_eq!(value(&bucket("+Inf")), 3.0);
        assert_eq!(
            value("kalendorius_http_request_duration_seconds_count{route=\"/api/v1/day\"}"),
            3.0
        );
        for class in ["2xx", "4xx", "5xx"] {
            let sample = format!(
                "kalendorius_http_requests_total{{route=\"/api/v1/day\",status=\"{class}\"}}"
            );
            assert_eq!(value(&sample), 1.0);
        }
    }

    #[test]
    fn an_index_past_the_routes_counts_as_the_last_route() {
        let m = metrics();
        m.request(99, 200, Duration::ZERO);
        assert!(m
            .scrape("v", true)
            .contains("kalendorius_http_requests_total{route=\"other\",status=\"2xx\"} 1\n"));
    }

    #[test]
    fn reloads_are_counted_by_result_and_a_failed_one_keeps_the_load_time() {
        let reloads = ReloadMetrics::default();
        reloads.loaded(1000, false, true);
        let m = Metrics::new(["other"], &reloads, None);
        let text = m.scrape("v", true);
        assert!(text.contains("kalendorius_dataset_reloads_total{result=\"failure\"} 0\n"));
        reloads.loaded(2000, true, false);
        let text = m.scrape("v", true);
        assert!(text.contains("kalendorius_dataset_last_reload_timestamp_seconds 1000\n"));
        assert!(text.contains("kalendorius_dataset_last_reload_success 0\n"));
        assert!(text.contains("kalendorius_dataset_reloads_total{result=\"failure\"} 1\n"));
        reloads.loaded(3000, true, true);
        let text = m.scrape("v", true);
        assert!(text.contains("kalendorius_dataset_last_reload_timestamp_seconds 3000\n"));
        assert!(text.contains("kalendorius_dataset_last_reload_success 1\n"));
        assert!(text.contains("kalendorius_dataset_reloads_total{result=\"success\"} 1\n"));
    }

    #[test]
    fn redis_latencies_are_shown_only_for_a_redis_store() {
        let redis = RedisMetrics::default();
        redis.observe("check", Duration::from_micros(300));
        let name = "kalendorius_redis_command_duration_seconds_count{command=\"check\"} 1\n";
        let with = Metrics::new(["other"], &ReloadMetrics::default(), Some(&redis));
        assert!(with.scrape("v", true).contains(name));
        assert!(!metrics().scrape("v", true).contains("redis"));
    }

    #[test]
    fn a_new_dataset_version_replaces_the_old_one() {
        let m = metrics();
        m.scrape("old", true);
        let text = m.scrape("new", false);
        assert!(text.contains("kalendorius_dataset_info{version=\"new\"} 1\n"));
        assert!(!text.contains("version=\"old\""));
        assert!(text.contains("kalendorius_state_store_up 0\n"));
    }
}
