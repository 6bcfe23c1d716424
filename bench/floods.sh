#!/usr/bin/env bash
# make bench (second part): the three floods that used to hurt the server, against the real
# server with its default connection bounds and rate limits, each on a fresh server:
#
# 1. slow connections: FLOOD_SLOW_CONNECTIONS (19 000) half-sent requests from 127.0.0.1,
#    re-opened as soon as they are closed, for FLOOD_SLOW_SECONDS (15), while normal
#    clients (127.0.2.x) ask ten times a second in all;
# 2. the same from FLOOD_DISTRIBUTED_CONNECTIONS (19 000) distinct addresses (127.200.x.y),
#    one connection each, so that the per-address cap does not apply;
# 3. distinct addresses: one request from each of FLOOD_ADDRESSES (1 000 000) loopback
#    addresses; every 100th is a newcomer that must get its whole minute quota.
#
# For each: what the normal clients saw (from server/examples/flood.rs), the server's
# peak RSS (VmHWM) and, for the slow floods, its RSS some seconds after. Only loopback is used; every run is bounded; everything started here
# is killed on exit.
set -euo pipefail
shopt -s inherit_errexit

SLOW_CONNECTIONS="${FLOOD_SLOW_CONNECTIONS:-19000}"
SLOW_SECONDS="${FLOOD_SLOW_SECONDS:-15}"
ADDRESSES="${FLOOD_ADDRESSES:-1000000}"
# The distributed slow flood stays under the global cap, which is the descriptor limit less
# 128 (the flood client's own limit is the same): 19 000 when `ulimit -Hn` is 20 000.
DISTRIBUTED="${FLOOD_DISTRIBUTED_CONNECTIONS:-19000}"
AFTER_SECONDS=8
TARGET_RSS_MIB=64

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SERVER_BIN="$ROOT/target/release/kalendorius-server"
GENERATOR_BIN="$ROOT/target/release/kalendorius-generator"
FLOOD_BIN="$ROOT/target/release/examples/flood"
WORK="$(mktemp -d -t kalendorius-floods.XXXXXX)"
PIDS=()
source "$ROOT/bench/common.sh"

# The flood client holds tens of thousands of sockets: lift its descriptor limit.
ulimit -n "$(ulimit -Hn)"

log "building release binaries and the flood client"
cargo build --release -p kalendorius-generator -p kalendorius-server >&2
cargo build --release -p kalendorius-server --example flood >&2
log "building the dataset into $WORK/data"
"$GENERATOR_BIN" build --sources sources --out "$WORK/data" >&2

# A fresh server with the default bounds and limits (warn: 1 M access lines measure the
# log, not the limiter); sets SERVER_PID and SERVER_ADDR.
fresh_server() {
    local name="$1"
    start_and_wait "$name" "$SERVER_BIN" serve --listen 127.0.0.1:0 --data "$WORK/data" \
        --state "$WORK/state-$name" --log-level warn
    SERVER_PID="$STARTED_PID"
    SERVER_ADDR="$STARTED_ADDR"
}

peak_rss_mib() {
    awk '/^VmHWM:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"
}

rss_mib() {
    awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"
}

# The resident size some seconds after a flood ended: the server gives the memory of its
# connections back once they have fallen to a quarter of their peak (checked every 5 s).
rss_after_mib() {
    sleep "$AFTER_SECONDS"
    rss_mib "$1"
}

verdict() {
    awk -v m="$1" -v t="$TARGET_RSS_MIB" 'BEGIN {print (m <= t) ? "ok" : "ABOVE"}'
}

fresh_server slow
log "slow-connection flood: $SLOW_CONNECTIONS half-sent connections for $SLOW_SECONDS s"
slow_report="$("$FLOOD_BIN" slow "$SERVER_ADDR" --connections "$SLOW_CONNECTIONS" --seconds "$SLOW_SECONDS")" \
    || slow_report="$slow_report (NOT every normal request was answered)"
slow_rss="$(peak_rss_mib "$SERVER_PID")"
slow_after="$(rss_after_mib "$SERVER_PID")"
kill "$SERVER_PID"

fresh_server distributed
dist_idle="$(rss_mib "$SERVER_PID")"
log "distributed slow flood: $DISTRIBUTED half-sent connections, each from an address of its own, for $SLOW_SECONDS s"
dist_report="$("$FLOOD_BIN" slow "$SERVER_ADDR" --connections "$DISTRIBUTED" --seconds "$SLOW_SECONDS" --distinct 1)" \
    || dist_report="$dist_report (NOT every normal request was answered)"
dist_rss="$(peak_rss_mib "$SERVER_PID")"
dist_after="$(rss_after_mib "$SERVER_PID")"
kill "$SERVER_PID"

fresh_server addresses
warn_if_conntrack
log "address flood: one request from each of $ADDRESSES loopback addresses"
# Bounded: after the slow floods the host's handshakes can stall (docs/performance.md#floods-benchfloodssh).
addr_report="$(timeout 300 "$FLOOD_BIN" addresses "$SERVER_ADDR" --count "$ADDRESSES")" \
    || addr_report="${addr_report:-not finished in 300 s} (SOME newcomers were refused, or the flood did not finish)"
addr_rss="$(peak_rss_mib "$SERVER_PID")"

echo
echo "| flood | what normal clients saw | server peak RSS (target <= $TARGET_RSS_MIB MiB) | RSS ${AFTER_SECONDS} s after |"
echo "|---|---|---:|---:|"
echo "| slow connections | $slow_report | $slow_rss MiB ($(verdict "$slow_rss")) | $slow_after MiB |"
echo "| slow connections from distinct addresses (idle before: $dist_idle MiB) | $dist_report | $dist_rss MiB ($(verdict "$dist_rss")) | $dist_after MiB |"
echo "| distinct addresses | $addr_report | $addr_rss MiB ($(verdict "$addr_rss")) | |"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), nproc $(nproc); default bounds and limits, log level warn."
