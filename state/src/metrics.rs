//! The metrics the stores record in, registered by the server's `/metrics`: a latency
//! histogram (also the server's, per route) and the Redis store's command latencies.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::{MetricType, TypedMetric};

/// Upper bounds of the latency buckets, in microseconds: 50 µs to 2.5 s (an answer from
/// memory takes some tens of microseconds; a Redis round trip, hundreds).
const BUCKET_MICROS: [u64; 14] = [
    50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000,
    2_500_000,
];

/// A latency histogram of atomic buckets: observing is two atomic adds, no lock
/// (`prometheus-client`'s own takes a lock per observation).
#[derive(Debug, Clone, Default)]
pub struct Latency(Arc<LatencyCells>);

#[derive(Debug, Default)]
struct LatencyCells {
    /// Observations per bucket (not cumulative), the last one past every bound (`+Inf`).
    buckets: [AtomicU64; BUCKET_MICROS.len() + 1],
    sum_nanos: AtomicU64,
}

impl Latency {
    pub fn observe(&self, elapsed: Duration) {
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        // `bound < micros` exactly when `bound * 1000 < nanos`.
        let micros = nanos.div_ceil(1_000);
        let bucket = BUCKET_MICROS.partition_point(|&bound| bound < micros);
        self.0.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        self.0.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }
}

impl TypedMetric for Latency {
    const TYPE: MetricType = MetricType::Histogram;
}

impl EncodeMetric for Latency {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        let buckets: [(f64, u64); BUCKET_MICROS.len() + 1] = std::array::from_fn(|i| {
            // The last bucket's bound is infinity, which the encoder writes `+Inf`.
            let bound = BUCKET_MICROS
                .get(i)
                .map_or(f64::INFINITY, |b| *b as f64 / 1e6);
            (bound, self.0.buckets[i].load(Ordering::Relaxed))
        });
        let count = buckets.iter().map(|(_, n)| n).sum();
        let sum = self.0.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        encoder.encode_histogram::<NoLabelSet>(sum, count, &buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

/// The Redis store's command latencies, by command.
#[derive(Debug, Clone, Default)]
pub struct RedisMetrics {
    /// Registered by the server under `kalendorius_redis_command_duration_seconds`.
    pub latency: Family<[(&'static str, &'static str); 1], Latency>,
}

impl RedisMetrics {
    pub fn observe(&self, command: &'static str, elapsed: Duration) {
        self.latency
            .get_or_create(&[("command", command)])
            .observe(elapsed);
    }
}
