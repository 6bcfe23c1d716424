#!/usr/bin/env bash
# make bench: load the real server and a minimal poem handler (the baseline) on this
# machine, and print one markdown table of req/s, p50, p99 and the ratio to the baseline.
#
# Only loopback (127.0.0.1) is ever loaded, every run has a bounded duration, and every
# process started here is killed on exit. Throughput is noisy: compare only runs made on
# the same machine, and never gate CI on it (see docs/performance.md).
#
# Knobs (environment): BENCH_DURATION (3s), BENCH_WARMUP (1s), BENCH_ROUNDS (7), BENCH_CONNECTIONS (64),
# BENCH_THREADS (2, wrk only), BENCH_TOOL (wrk, or oha to skip wrk), BENCH_LOG_LEVEL (info: the server logs one access line per request,
# as it does in production; set warn to measure without that cost).
set -euo pipefail
# Functions run inside $(...) must stop at their first failure too.
shopt -s inherit_errexit

DURATION="${BENCH_DURATION:-3s}"
WARMUP="${BENCH_WARMUP:-1s}"
ROUNDS="${BENCH_ROUNDS:-7}"
CONNECTIONS="${BENCH_CONNECTIONS:-64}"
THREADS="${BENCH_THREADS:-2}"
LOG_LEVEL="${BENCH_LOG_LEVEL:-info}"
TOOL="${BENCH_TOOL:-wrk}"

# Targets (ratio of baseline req/s) and the memory budget, from the product brief.
TARGET_LAISVADIENIS=0.8
TARGET_DAYS=0.6
TARGET_DAY=0.6
TARGET_WORKING_TIME=0.6
TARGET_SCHOOL_HOLIDAYS=0.6
# A year of the sun at one place, and a year of the moon's phases (issue 37).
TARGET_SUN=0.5
TARGET_MOON=0.5
TARGET_UPCOMING=0.6
TARGET_LONG_WEEKENDS=0.6
TARGET_WORKING_DAYS=0.6
TARGET_WORKING_ADD=0.6
TARGET_REDUCED_YEAR=0.6
TARGET_LEAVE=0.6
TARGET_SHIFT_HOURS=0.6
TARGET_PAGE=0.5
TARGET_NAME_SEARCH=0.5
TARGET_FEED=0.5
TARGET_DATA_GZIP=0.5
TARGET_DAYS_GZIP=0.6
TARGET_RSS_MIB=64
# Loading the dataset at start-up (and on SIGHUP): well under a second.
TARGET_STARTUP_MS=1000
# With keys and counters in Redis on loopback (several processes,
# docs/operations.md#running-several-processes): every request waits for one Redis script.
TARGET_REDIS=0.3
# Distinct client addresses sent to a server on Redis before Redis's memory is read.
REDIS_ADDRESSES="${BENCH_REDIS_ADDRESSES:-1000000}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SERVER_BIN="$ROOT/target/release/kalendorius-server"
GENERATOR_BIN="$ROOT/target/release/kalendorius-generator"
BASELINE_BIN="$ROOT/target/release/examples/baseline"

WORK="$(mktemp -d -t kalendorius-bench.XXXXXX)"
PIDS=()
LOAD_TOOL=""
OHA="oha"

# log, die, cleanup (on exit) and start_and_wait, shared with bench/floods.sh.
source "$ROOT/bench/common.sh"

# wrk from Debian is a 1-second install; oha from crates.io (a few minutes of compiling)
# is the fallback when apt is not usable (not root, no network to the mirror, not Debian).
ensure_load_tool() {
    case "$TOOL" in
        wrk | oha) ;;
        *) die "BENCH_TOOL must be wrk or oha, not '$TOOL'" ;;
    esac
    if [ "$TOOL" = oha ]; then
        ensure_oha
        return
    fi
    if ensure_wrk; then
        LOAD_TOOL=wrk
        return
    fi
    log "no wrk, and apt-get could not install it; falling back to oha"
    ensure_oha
}

ensure_oha() {
    if ! command -v oha >/dev/null; then
        if [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/oha" ]; then
            OHA="${CARGO_HOME:-$HOME/.cargo}/bin/oha"
        else
            log "installing oha with cargo (takes a few minutes)"
            cargo install oha --locked >&2
            OHA="${CARGO_HOME:-$HOME/.cargo}/bin/oha"
        fi
    fi
    LOAD_TOOL=oha
}

build() {
    log "building release binaries"
    cargo build --release -p kalendorius-generator -p kalendorius-server >&2
    cargo build --release -p kalendorius-server --example baseline >&2
    cargo build --release -p kalendorius-server --example flood >&2
}

# Debian's redis-server (with redis-cli), installed like wrk when it is missing.
ensure_redis() {
    if command -v redis-server >/dev/null && command -v redis-cli >/dev/null; then
        return
    fi
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        log "installing redis-server from Debian"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; } >&2
    fi
    command -v redis-server >/dev/null || die "redis-server is needed (apt-get install redis-server)"
}

# A private redis-server on a free loopback port, persistence as docs/operations.md#running-several-processes recommends; sets
# REDIS_PORT.
start_redis() {
    local port
    for port in $(seq 16379 16479); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            REDIS_PORT="$port"
            break
        fi
    done
    [ -n "${REDIS_PORT:-}" ] || die "no free port for redis-server"
    mkdir -p "$WORK/redis"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$WORK/redis" \
        --appendonly yes --appendfsync everysec --save '' >"$WORK/redis.out" 2>&1 &
    PIDS+=("$!")
    for _ in $(seq 1 100); do
        if [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; then
            log "redis-server on 127.0.0.1:$REDIS_PORT"
            return
        fi
        sleep 0.1
    done
    die "redis-server did not answer"
}

# Redis's used_memory in MiB.
redis_memory_mib() {
    redis-cli -p "$REDIS_PORT" info memory | awk -F: '/^used_memory:/ {printf "%.1f", $2 / 1048576}'
}

# A private dataset, so a bench never depends on (or touches) output/ of `make run`.
build_dataset() {
    log "building the dataset into $WORK/data"
    "$GENERATOR_BIN" build --sources sources --out "$WORK/data" >&2
}

# Fails loudly unless URL answers 200: a bench of 404s or 429s measures nothing.
check_200() {
    local url="$1"
    shift
    local code
    code="$(curl -s -o "$WORK/check.body" -w '%{http_code}' "$@" "$url")" || code="curl failed"
    if [ "$code" != 200 ]; then
        head -c 500 "$WORK/check.body" >&2 2>/dev/null || true
        die "$url answered $code, not 200"
    fi
}

# Start-up: three starts of the server alone (they share the state, so one at a time),
# each timed from spawn to /ready answering 200 (the dataset is loaded before the server
# listens), with the load time the server logs ("dataset loaded from its sled database ...
# load_ms=N") and its resident memory right after; sets STARTUP_LINE to the medians.
measure_startup() {
    local i t0 t1 out pid addr spawn_ms=() load_ms=() rss_kib=()
    for i in 1 2 3; do
        out="$WORK/startup-$i.out"
        t0="$(date +%s%N)"
        "$SERVER_BIN" serve --config "$WORK/bench.toml" >"$out" 2>&1 &
        pid=$!
        PIDS+=("$pid")
        addr=""
        for _ in $(seq 1 3000); do
            addr="$(sed -n 's|^listening on http://||p' "$out" | head -n 1)"
            [ -n "$addr" ] && break
            kill -0 "$pid" 2>/dev/null || { cat "$out" >&2; die "the server exited during start-up"; }
            sleep 0.01
        done
        [ -n "$addr" ] || die "the server did not listen within 30 s"
        check_200 "http://$addr/ready"
        t1="$(date +%s%N)"
        spawn_ms+=("$(( (t1 - t0) / 1000000 ))")
        load_ms+=("$(grep -o 'load_ms=[0-9]*' "$out" | head -n 1 | cut -d= -f2)")
        rss_kib+=("$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")")
        kill "$pid"
        wait "$pid" 2>/dev/null || true
    done
    [ -n "${load_ms[0]}" ] || die "the server logged no load time ($WORK/startup-1.out)"
    local rss_mib rss_ok
    rss_mib="$(awk -v k="$(median "${rss_kib[@]}")" 'BEGIN {printf "%.1f", k / 1024}')"
    rss_ok="$(awk -v m="$rss_mib" -v t="$TARGET_RSS_MIB" 'BEGIN {print (m <= t) ? "ok" : "ABOVE"}')"
    STARTUP_LINE="Start-up (median of 3): /ready 200 after $(median "${spawn_ms[@]}") ms from spawn;"
    STARTUP_LINE="$STARTUP_LINE dataset loaded from its sled database in $(median "${load_ms[@]}") ms"
    STARTUP_LINE="$STARTUP_LINE (target < $TARGET_STARTUP_MS ms: $(awk -v m="$(median "${load_ms[@]}")" -v t="$TARGET_STARTUP_MS" 'BEGIN {print (m < t) ? "ok" : "ABOVE"}'));"
    STARTUP_LINE="$STARTUP_LINE RSS after load $rss_mib MiB (target <= $TARGET_RSS_MIB MiB: $rss_ok)."
}

# wrk prints latencies as 812.00us / 1.23ms / 2.00s; the table uses milliseconds.
wrk_time_to_ms() {
    awk -v t="$1" 'BEGIN {
        v = t + 0
        if (t ~ /us$/) v /= 1000; else if (t ~ /ms$/) v = v; else if (t ~ /m$/) v *= 60000; else if (t ~ /s$/) v *= 1000
        printf "%.2f", v
    }'
}

# Loads URL (extra args: headers as "Name: value") for $DURATION after a $WARMUP run
# whose numbers are discarded; prints "req_per_s p50_ms p99_ms".
load() {
    local url="$1"
    shift
    local header_args=() h
    for h in "$@"; do
        header_args+=(-H "$h")
    done
    if [ "$LOAD_TOOL" = wrk ]; then
        load_wrk "$url" "${header_args[@]+"${header_args[@]}"}"
    else
        load_oha "$url" "${header_args[@]+"${header_args[@]}"}"
    fi
}

load_wrk() {
    local url="$1"
    shift
    local out="$WORK/wrk.out" rps p50 p99 non2xx
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "$@" "$url" >/dev/null
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "$url" >"$out"
    non2xx="$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$out")"
    if [ -n "$non2xx" ]; then
        cat "$out" >&2
        die "$url: $non2xx responses were not 2xx under load"
    fi
    if grep -q 'Socket errors' "$out"; then
        log "warning: $url: $(grep 'Socket errors' "$out" | sed 's/^ *//')"
    fi
    rps="$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$out")"
    p50="$(wrk_time_to_ms "$(awk '$1 == "50%" {print $2}' "$out")")"
    p99="$(wrk_time_to_ms "$(awk '$1 == "99%" {print $2}' "$out")")"
    [ -n "$rps" ] || { cat "$out" >&2; die "cannot read wrk's output"; }
    echo "$rps $p50 $p99"
}

# oha's JSON (latencies in seconds) is read with grep, so no jq/python is needed. The
# numbers come from named objects: a bare "p50" also appears in oha's other sections
# (e.g. metrics.latency_ms, in milliseconds).
oha_field() {
    local json="$1" object="$2" key="$3"
    tr -d ' \n' <"$json" | grep -oE "\"$object\":\{[^}]*\}" | head -n 1 \
        | grep -oE "\"$key\":[0-9.eE+-]+" | head -n 1 | cut -d: -f2 || true
}

load_oha() {
    local url="$1"
    shift
    local out="$WORK/oha.json" rps p50 p99 statuses
    "$OHA" -z "$WARMUP" -c "$CONNECTIONS" --no-tui "$@" "$url" >/dev/null
    "$OHA" -z "$DURATION" -c "$CONNECTIONS" --no-tui --output-format json "$@" "$url" >"$out"
    # Every status seen, e.g. "200" (a request cut off at the deadline is not counted).
    statuses="$(tr -d ' \n' <"$out" | grep -oE '"statusCodeDistribution":\{[^}]*\}' \
        | grep -oE '"[0-9]{3}"' | tr -d '"' | sort -u | tr '\n' ' ' || true)"
    if [ "$statuses" != "200 " ]; then
        die "$url: statuses under load were: ${statuses:-none}"
    fi
    rps="$(oha_field "$out" summary requestsPerSec)"
    p50="$(oha_field "$out" latencyPercentiles p50)"
    p99="$(oha_field "$out" latencyPercentiles p99)"
    if [ -z "$rps" ] || [ -z "$p50" ] || [ -z "$p99" ]; then
        die "cannot read oha's JSON ($out)"
    fi
    awk -v r="$rps" -v a="$p50" -v b="$p99" 'BEGIN {printf "%.0f %.2f %.2f\n", r, a * 1000, b * 1000}'
}

# Loads the baseline ($base, appended to base_res), then URL (extra args: headers); sets
# PAIRED to "req_per_s p50_ms p99_ms ratio" of URL against that baseline load. Not run in
# $(...), so that the arrays it appends to survive.
after_baseline() {
    local baseline measured
    baseline="$(load "$base")"
    base_res+=("$baseline 1")
    measured="$(load "$@")"
    PAIRED="$measured $(ratio "${measured%% *}" "${baseline%% *}")"
}

# "1.00" style ratio, and whether it meets its target.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN {print (r >= t) ? "ok" : "BELOW"}'; }

# Human-readable, with thousands separators, e.g. 85,123.
thousands() { printf '%s' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }

cpu_model() {
    local m
    m="$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)"
    [ -n "$m" ] || m="$(lscpu 2>/dev/null | awk -F': *' '/Model name/ {print $2; exit}' || true)"
    echo "${m:-unknown}"
}

# The median of the numbers given as arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# "min-max" of the numbers given as arguments.
spread() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%s-%s", lo, hi}'; }

# One table row from per-round results "rps p50 p99 ratio" (one argument per round): the
# medians, and the spread of the per-round ratios.
summary_row() {
    local name="$1" target="$2" r
    shift 2
    local rps=() p50=() p99=() ratios=()
    for r in "$@"; do
        read -r a b c d <<<"$r"
        rps+=("$a"); p50+=("$b"); p99+=("$c"); ratios+=("$d")
    done
    local m_ratio
    m_ratio="$(median "${ratios[@]}")"
    m_ratio="$(awk -v r="$m_ratio" 'BEGIN {printf "%.2f", r}')"
    local verdict_text="-"
    if [ "$target" != "-" ]; then verdict_text=">= $target ($(verdict "$m_ratio" "$target"))"; fi
    printf '| %s | %s | %s ms | %s ms | %s (%s) | %s |\n' "$name" \
        "$(thousands "$(median "${rps[@]}" | awk '{printf "%.0f", $1}')")" \
        "$(median "${p50[@]}")" "$(median "${p99[@]}")" "$m_ratio" "$(spread "${ratios[@]}")" "$verdict_text"
}

main() {
    command -v curl >/dev/null || die "curl is needed (apt-get install -y curl)"
    ensure_load_tool
    ensure_redis
    build
    build_dataset
    # Every limit lifted, state in the temp dir (a fresh database every run).
    write_unlimited_config "$WORK/bench.toml" "$WORK/state" "$LOG_LEVEL"
    # Every result goes through an assignment, not `read < <(...)`, so a failed load (die in
    # the subshell) stops the script under set -e.
    local key res
    key="$(create_unlimited_key "$SERVER_BIN" "$WORK/bench.toml")"
    [ -n "$key" ] || die "keys create printed no key"
    log "start-up: three starts of the server alone"
    measure_startup
    start_redis
    write_unlimited_config "$WORK/redis.toml" "redis://127.0.0.1:$REDIS_PORT/0" "$LOG_LEVEL"
    local redis_key
    redis_key="$(create_unlimited_key "$SERVER_BIN" "$WORK/redis.toml")"
    [ -n "$redis_key" ] || die "keys create printed no key (Redis)"

    # All servers stay up for the whole run; an idle one costs next to nothing. The ceiling
    # is the minimal handler on poem's own server (what "bare poem" has always meant here);
    # the same handler on our accept loop is loaded once a round to show that loop's cost.
    start_and_wait baseline "$BASELINE_BIN" 127.0.0.1:0 --poem-server
    local base="http://$STARTED_ADDR/"
    start_and_wait loop-baseline "$BASELINE_BIN" 127.0.0.1:0
    local loop_base="http://$STARTED_ADDR/"
    start_and_wait server "$SERVER_BIN" serve --config "$WORK/bench.toml"
    local server_pid="$STARTED_PID" srv="http://$STARTED_ADDR"
    local laisv="$srv/api/v1/laisvadienis?date=2026-12-24"
    local days="$srv/api/v1/days?from=2026-01-01&to=2026-12-31"
    local day="$srv/api/v1/day?date=2026-12-24"
    local wtime="$srv/api/v1/working-time?year=2026"
    local school="$srv/api/v1/school-holidays?year=2026"
    local sun="$srv/api/v1/sun?from=2026-01-01&to=2026-12-31&place=zarasai"
    local moon="$srv/api/v1/moon?year=2026"
    local upcoming="$srv/api/v1/holidays/upcoming?from=2026-11-24&count=4"
    local longw="$srv/api/v1/long-weekends?year=2026&max_leave_days=4"
    local wdays="$srv/api/v1/working-days?from=2026-01-01&to=2026-12-31"
    local wadd="$srv/api/v1/working-days/add?date=2026-12-20&days=10"
    local reduced="$srv/api/v1/working-time?year=2026&hours_per_week=36&norm=reduced"
    local leave="$srv/api/v1/leave?start=2026-12-21&days=10"
    # A 12-hour night shift from Christmas Eve into Christmas Day.
    local shift="$srv/api/v1/shift-hours?start=2026-12-24T20:00&end=2026-12-25T08:00"
    local page="$srv/2026/12?lang=lt"
    local search="$srv/api/v1/name-days/search?name=jon"
    local feed="$srv/api/v1/feeds/holidays.ics"
    local year_file="$srv/data/years/2026.json"
    local gzip="Accept-Encoding: gzip"
    check_200 "$base"
    check_200 "$loop_base"
    check_200 "$laisv"
    check_200 "$days"
    check_200 "$day" -H "X-API-Key: $key"
    check_200 "$wtime" -H "X-API-Key: $key"
    check_200 "$school" -H "X-API-Key: $key"
    check_200 "$sun" -H "X-API-Key: $key"
    check_200 "$moon" -H "X-API-Key: $key"
    check_200 "$upcoming" -H "X-API-Key: $key"
    check_200 "$longw" -H "X-API-Key: $key"
    check_200 "$wdays" -H "X-API-Key: $key"
    check_200 "$wadd" -H "X-API-Key: $key"
    check_200 "$reduced" -H "X-API-Key: $key"
    check_200 "$leave" -H "X-API-Key: $key"
    check_200 "$shift" -H "X-API-Key: $key"
    check_200 "$page"
    check_200 "$search" -H "X-API-Key: $key"
    start_and_wait server-redis "$SERVER_BIN" serve --config "$WORK/redis.toml"
    local redis_srv="http://$STARTED_ADDR"
    local laisv_redis="$redis_srv/api/v1/laisvadienis?date=2026-12-24"
    local day_redis="$redis_srv/api/v1/day?date=2026-12-24"
    check_200 "$laisv_redis"
    check_200 "$day_redis" -H "X-API-Key: $redis_key"

    # Interleaved rounds, and within a round every endpoint is loaded right after its own
    # baseline load: its ratio is taken against the baseline of the moment, so the drift of a
    # shared machine (neighbours, frequency; it moves throughput by a third here within
    # seconds) cancels out as far as it can. The table shows the median ratio over the rounds
    # and its spread.
    local round l_res=() s_res=() d_res=() o_res=() base_res=() p_res=() n_res=()
    local wt_res=() wd_res=() wa_res=() rl_res=() rd_res=() f_res=() y_res=() g_res=()
    local sh_res=() up_res=() lw_res=() sf_res=() sun_res=() moon_res=() rw_res=() lv_res=()
    for round in $(seq 1 "$ROUNDS"); do
        log "round $round/$ROUNDS: every endpoint of the table, each right after a baseline load"
        after_baseline "$loop_base"; o_res+=("$PAIRED")
        after_baseline "$laisv"; l_res+=("$PAIRED")
        after_baseline "$days"; s_res+=("$PAIRED")
        after_baseline "$day" "X-API-Key: $key"; d_res+=("$PAIRED")
        after_baseline "$wtime" "X-API-Key: $key"; wt_res+=("$PAIRED")
        after_baseline "$school" "X-API-Key: $key"; sh_res+=("$PAIRED")
        after_baseline "$sun" "X-API-Key: $key"; sun_res+=("$PAIRED")
        after_baseline "$moon" "X-API-Key: $key"; moon_res+=("$PAIRED")
        after_baseline "$upcoming" "X-API-Key: $key"; up_res+=("$PAIRED")
        after_baseline "$longw" "X-API-Key: $key"; lw_res+=("$PAIRED")
        after_baseline "$wdays" "X-API-Key: $key"; wd_res+=("$PAIRED")
        after_baseline "$wadd" "X-API-Key: $key"; wa_res+=("$PAIRED")
        after_baseline "$reduced" "X-API-Key: $key"; rw_res+=("$PAIRED")
        after_baseline "$leave" "X-API-Key: $key"; lv_res+=("$PAIRED")
        after_baseline "$shift" "X-API-Key: $key"; sf_res+=("$PAIRED")
        after_baseline "$page"; p_res+=("$PAIRED")
        after_baseline "$search" "X-API-Key: $key"; n_res+=("$PAIRED")
        after_baseline "$laisv_redis"; rl_res+=("$PAIRED")
        after_baseline "$day_redis" "X-API-Key: $redis_key"; rd_res+=("$PAIRED")
        after_baseline "$feed"; f_res+=("$PAIRED")
        after_baseline "$year_file" "$gzip"; y_res+=("$PAIRED")
        after_baseline "$days" "$gzip"; g_res+=("$PAIRED")
    done

    # Redis's memory after one request from each of REDIS_ADDRESSES loopback addresses
    # (a fresh server on an emptied Redis, default limits, log level warn as in the floods),
    # and again once their minute windows have expired: what stays is one month count per
    # address, until the month ends.
    redis-cli -p "$REDIS_PORT" flushall >/dev/null
    start_and_wait flood-redis "$SERVER_BIN" serve --listen 127.0.0.1:0 --data "$WORK/data" \
        --state "redis://127.0.0.1:$REDIS_PORT/0" --log-level warn
    local flood_addr="$STARTED_ADDR" redis_before redis_flooded redis_later redis_keys
    redis_before="$(redis_memory_mib)"
    warn_if_conntrack
    log "address flood on the Redis store: $REDIS_ADDRESSES loopback addresses"
    "$ROOT/target/release/examples/flood" addresses "$flood_addr" --count "$REDIS_ADDRESSES" >&2 \
        || log "warning: some newcomers were refused on the Redis store"
    redis_flooded="$(redis_memory_mib)"
    redis_keys="$(redis-cli -p "$REDIS_PORT" dbsize)"
    sleep 65
    redis_later="$(redis_memory_mib)"

    # High-water mark of resident memory over the whole run (dataset load and all loads).
    local hwm_kib rss_mib rss_ok
    hwm_kib="$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")"
    rss_mib="$(awk -v k="$hwm_kib" 'BEGIN {printf "%.1f", k / 1024}')"
    rss_ok="$(awk -v m="$rss_mib" -v t="$TARGET_RSS_MIB" 'BEGIN {print (m <= t) ? "ok" : "ABOVE"}')"

    local rev tool="$LOAD_TOOL -c$CONNECTIONS"
    rev="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if [ -n "$(git status --porcelain 2>/dev/null)" ]; then rev="$rev+uncommitted"; fi
    if [ "$LOAD_TOOL" = wrk ]; then tool="wrk -t$THREADS -c$CONNECTIONS --latency"; fi

    echo
    echo "| endpoint | req/s | p50 | p99 | ratio to baseline (spread) | target |"
    echo "|---|---:|---:|---:|---:|---|"
    summary_row "baseline: poem #[handler], fixed JSON, poem's own server" - "${base_res[@]}"
    summary_row "the same handler on our accept loop (http::connections)" - "${o_res[@]}"
    summary_row "GET /api/v1/laisvadienis?date=2026-12-24" "$TARGET_LAISVADIENIS" "${l_res[@]}"
    summary_row "GET /api/v1/days?from=2026-01-01&to=2026-12-31" "$TARGET_DAYS" "${s_res[@]}"
    summary_row "GET /api/v1/day?date=2026-12-24 (X-API-Key)" "$TARGET_DAY" "${d_res[@]}"
    summary_row "GET /api/v1/working-time?year=2026 (X-API-Key)" "$TARGET_WORKING_TIME" "${wt_res[@]}"
    summary_row "GET /api/v1/school-holidays?year=2026 (X-API-Key)" "$TARGET_SCHOOL_HOLIDAYS" "${sh_res[@]}"
    summary_row "GET /api/v1/sun?from=2026-01-01&to=2026-12-31&place=zarasai (X-API-Key)" "$TARGET_SUN" "${sun_res[@]}"
    summary_row "GET /api/v1/moon?year=2026 (X-API-Key)" "$TARGET_MOON" "${moon_res[@]}"
    summary_row "GET /api/v1/holidays/upcoming?from=2026-11-24&count=4 (X-API-Key)" "$TARGET_UPCOMING" "${up_res[@]}"
    summary_row "GET /api/v1/long-weekends?year=2026&max_leave_days=4 (X-API-Key)" "$TARGET_LONG_WEEKENDS" "${lw_res[@]}"
    summary_row "GET /api/v1/working-days?from=2026-01-01&to=2026-12-31 (X-API-Key)" "$TARGET_WORKING_DAYS" "${wd_res[@]}"
    summary_row "GET /api/v1/working-days/add?date=2026-12-20&days=10 (X-API-Key)" "$TARGET_WORKING_ADD" "${wa_res[@]}"
    summary_row "GET /api/v1/working-time?year=2026&hours_per_week=36&norm=reduced (X-API-Key)" "$TARGET_REDUCED_YEAR" "${rw_res[@]}"
    summary_row "GET /api/v1/leave?start=2026-12-21&days=10 (X-API-Key)" "$TARGET_LEAVE" "${lv_res[@]}"
    summary_row "GET /api/v1/shift-hours?start=2026-12-24T20:00&end=2026-12-25T08:00 (X-API-Key)" "$TARGET_SHIFT_HOURS" "${sf_res[@]}"
    summary_row "GET /2026/12?lang=lt (HTML page)" "$TARGET_PAGE" "${p_res[@]}"
    summary_row "GET /api/v1/name-days/search?name=jon (X-API-Key)" "$TARGET_NAME_SEARCH" "${n_res[@]}"
    summary_row "GET /api/v1/laisvadienis?date=2026-12-24, state in Redis (loopback)" "$TARGET_REDIS" "${rl_res[@]}"
    summary_row "GET /api/v1/day?date=2026-12-24 (X-API-Key), state in Redis (loopback)" "$TARGET_REDIS" "${rd_res[@]}"
    summary_row "GET /api/v1/feeds/holidays.ics" "$TARGET_FEED" "${f_res[@]}"
    summary_row "GET /data/years/2026.json (Accept-Encoding: gzip)" "$TARGET_DATA_GZIP" "${y_res[@]}"
    summary_row "GET /api/v1/days?from=2026-01-01&to=2026-12-31 (Accept-Encoding: gzip)" "$TARGET_DAYS_GZIP" "${g_res[@]}"
    echo
    echo "Medians over $ROUNDS interleaved rounds; each ratio is to the baseline load just before it."
    echo "Server peak RSS (VmHWM): $rss_mib MiB (target <= $TARGET_RSS_MIB MiB: $rss_ok)."
    echo "$STARTUP_LINE"
    echo "Redis used_memory: $redis_before MiB empty, $redis_flooded MiB after one request from each of $REDIS_ADDRESSES addresses ($redis_keys keys), $redis_later MiB 65 s later (minute windows expired; month counts stay until the month ends)."
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $rev, nproc $(nproc), CPU: $(cpu_model)." \
        "$tool, $DURATION per load after $WARMUP warm-up;" \
        "client and server share this machine (127.0.0.1); server log level $LOG_LEVEL."
}

main "$@"
