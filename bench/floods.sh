#!/usr/bin/env bash
# make bench (second part): the three floods that used to hurt the server, against the real
# server with its default connection bounds and rate limits, each on a fresh server:
#
# 1. slow connections: FLOOD_SLOW_CONNECTIONS (19 000) half-sent requests from 127.0.0.1,
#    re-opened as soon as they are closed, for FLOOD_SLOW_SECONDS (15), while normal
#    clients (127.0.2.x) ask ten times a second in all;
# 2. the same from FLOOD_DISTRIBUTED_CONNECTIONS (19 000) distinct addresses (127.200.x.y),
#    one connection each, so that the per-address cap does not apply;
# 3. a dribble: FLOOD_DRIBBLE_CONNECTIONS (50) connections from one address, each sending
#    an 8 191-byte partial head one byte per TCP segment, for FLOOD_SLOW_SECONDS, with the
#    CPU time the server and the attacker spent;
# 4. varied traffic (not a flood: what ordinary clients ask over a day, at full speed):
#    every long-weekend and school-holiday combination, 15 000 distinct pages, 6 000 feed
#    spans and every year file, in every encoding; the server's CPU time (first-time
#    compression is most of it), its peak RSS and its RSS after IDLE_SECONDS (35) idle,
#    when the caches are full and the rest was given back;
# 5. distinct addresses: one request from each of FLOOD_ADDRESSES (1 000 000) loopback
#    addresses; every 100th is a newcomer that must get its whole minute quota.
#
# FLOODS (default "slow distributed dribble varied addresses") picks some of them; SERVER_BIN (the
# checkout's release build by default) and GENERATOR_BIN run another build's, with the dataset
# built from SOURCES (default: this checkout's sources/; an older generator may need its own).
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
SERVER_BIN="${SERVER_BIN:-$ROOT/target/release/kalendorius-server}"
GENERATOR_BIN="${GENERATOR_BIN:-$ROOT/target/release/kalendorius-generator}"
SOURCES="${SOURCES:-sources}"
DRIBBLE_CONNECTIONS="${FLOOD_DRIBBLE_CONNECTIONS:-50}"
FLOODS="${FLOODS:-slow distributed dribble varied addresses}"
IDLE_SECONDS=35
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
"$GENERATOR_BIN" build --sources "$SOURCES" --out "$WORK/data" >&2

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

runs() { [[ " $FLOODS " == *" $1 "* ]]; }

# CPU seconds (user + system) the process $1 has used.
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$1/stat"
}

# CPU seconds the process $1 has used since it had used $2.
cpu_since() {
    awk -v a="$2" -v b="$(cpu_seconds "$1")" 'BEGIN {printf "%.1f", b - a}'
}

ROWS=()
if runs slow; then
    fresh_server slow
    log "slow-connection flood: $SLOW_CONNECTIONS half-sent connections for $SLOW_SECONDS s"
    report="$("$FLOOD_BIN" slow "$SERVER_ADDR" --connections "$SLOW_CONNECTIONS" --seconds "$SLOW_SECONDS")" \
        || report="$report (NOT every normal request was answered)"
    rss="$(peak_rss_mib "$SERVER_PID")"
    ROWS+=("| slow connections | $report | $rss MiB ($(verdict "$rss")) | $(rss_after_mib "$SERVER_PID") MiB |")
    kill "$SERVER_PID"
fi

if runs distributed; then
    fresh_server distributed
    idle="$(rss_mib "$SERVER_PID")"
    log "distributed slow flood: $DISTRIBUTED half-sent connections, each from an address of its own, for $SLOW_SECONDS s"
    report="$("$FLOOD_BIN" slow "$SERVER_ADDR" --connections "$DISTRIBUTED" --seconds "$SLOW_SECONDS" --distinct 1)" \
        || report="$report (NOT every normal request was answered)"
    rss="$(peak_rss_mib "$SERVER_PID")"
    ROWS+=("| slow connections from distinct addresses (idle before: $idle MiB) | $report | $rss MiB ($(verdict "$rss")) | $(rss_after_mib "$SERVER_PID") MiB |")
    kill "$SERVER_PID"
fi

if runs dribble; then
    fresh_server dribble
    before="$(cpu_seconds "$SERVER_PID")"
    log "dribble: $DRIBBLE_CONNECTIONS connections sending a partial head a byte per segment for $SLOW_SECONDS s"
    report="$("$FLOOD_BIN" dribble "$SERVER_ADDR" --connections "$DRIBBLE_CONNECTIONS" --seconds "$SLOW_SECONDS")"
    spent="$(cpu_since "$SERVER_PID" "$before")"
    rss="$(peak_rss_mib "$SERVER_PID")"
    ROWS+=("| a byte per segment ($DRIBBLE_CONNECTIONS connections); the server used $spent s of CPU | $report | $rss MiB ($(verdict "$rss")) | |")
    kill "$SERVER_PID"
fi

if runs varied; then
    # Every limit lifted: the traffic is one client's here, thousands' in life.
    write_unlimited_config "$WORK/varied.toml" "$WORK/state-varied" warn
    key="$(create_unlimited_key "$SERVER_BIN" "$WORK/varied.toml")"
    start_and_wait varied "$SERVER_BIN" serve --config "$WORK/varied.toml"
    SERVER_PID="$STARTED_PID"
    idle="$(rss_mib "$SERVER_PID")"
    before="$(cpu_seconds "$SERVER_PID")"
    log "varied traffic: every long-weekend and school-holiday combination, 15 000 pages, 6 000 feeds, every year file"
    report="$("$FLOOD_BIN" varied "$STARTED_ADDR" --key "$key")"
    spent="$(cpu_since "$SERVER_PID" "$before")"
    rss="$(peak_rss_mib "$SERVER_PID")"
    sleep "$IDLE_SECONDS"
    ROWS+=("| varied ordinary traffic (idle before: $idle MiB); the server used $spent s of CPU | $report | $rss MiB ($(verdict "$rss")) | $(rss_mib "$SERVER_PID") MiB after ${IDLE_SECONDS} s |")
    kill "$SERVER_PID"
fi

if runs addresses; then
    fresh_server addresses
    warn_if_conntrack
    log "address flood: one request from each of $ADDRESSES loopback addresses"
    # Bounded: after the slow floods the host's handshakes can stall (docs/performance.md#floods-benchfloodssh).
    report="$(timeout 300 "$FLOOD_BIN" addresses "$SERVER_ADDR" --count "$ADDRESSES")" \
        || report="${report:-not finished in 300 s} (SOME newcomers were refused, or the flood did not finish)"
    rss="$(peak_rss_mib "$SERVER_PID")"
    ROWS+=("| distinct addresses | $report | $rss MiB ($(verdict "$rss")) | |")
fi

echo
echo "| flood | what normal clients saw | server peak RSS (target <= $TARGET_RSS_MIB MiB) | RSS ${AFTER_SECONDS} s after |"
echo "|---|---|---:|---:|"
printf '%s\n' "${ROWS[@]}"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), nproc $(nproc); default bounds and limits, log level warn."
