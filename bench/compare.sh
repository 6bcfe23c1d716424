#!/usr/bin/env bash
# make bench-compare BEFORE=path/to/old/kalendorius-server: the rows of `make bench`, side
# by side, for an older server binary and this checkout's (target/release), in one run.
#
# Throughput on a shared machine drifts by several percent within minutes, so two separate
# `make bench` runs cannot show whether a change cost 2 %. Here both servers (and, for the
# Redis rows, both on one redis-server) stay up for the whole run, and every round loads
# each row on both, alternating which goes first. The table gives each row's median req/s
# and the ratio after/before; a ratio within the rounds' spread is noise.
#
# Knobs (environment): BEFORE (required), BEFORE_GENERATOR (the older generator, when the
# older server reads another database format: it then gets its own dataset, built from the
# same sources), BENCH_DURATION (3s), BENCH_WARMUP (1s), BENCH_ROUNDS (3),
# BENCH_CONNECTIONS (64), BENCH_THREADS (2).
set -euo pipefail
shopt -s inherit_errexit

DURATION="${BENCH_DURATION:-3s}"
WARMUP="${BENCH_WARMUP:-1s}"
ROUNDS="${BENCH_ROUNDS:-3}"
CONNECTIONS="${BENCH_CONNECTIONS:-64}"
THREADS="${BENCH_THREADS:-2}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
AFTER="$ROOT/target/release/kalendorius-server"
GENERATOR_BIN="$ROOT/target/release/kalendorius-generator"
BEFORE="${BEFORE:-}"
BEFORE_GENERATOR="${BEFORE_GENERATOR:-}"

WORK="$(mktemp -d -t kalendorius-compare.XXXXXX)"
PIDS=()
source "$ROOT/bench/common.sh"

[ -n "$BEFORE" ] || die "set BEFORE to the older kalendorius-server binary (e.g. a release build of the previous commit)"
[ -x "$BEFORE" ] || die "BEFORE=$BEFORE is not an executable"
[ -z "$BEFORE_GENERATOR" ] || [ -x "$BEFORE_GENERATOR" ] || die "BEFORE_GENERATOR=$BEFORE_GENERATOR is not an executable"
[ -x "$AFTER" ] && [ -x "$GENERATOR_BIN" ] || die "build this checkout first: make release"
ensure_wrk || die "wrk is missing and could not be installed (it is installed from Debian when run as root with apt): apt-get install wrk"
command -v redis-server >/dev/null || die "redis-server is missing: make redis-server installs it"

log "building the dataset into $WORK/data"
"$GENERATOR_BIN" build --sources sources --out "$WORK/data" >/dev/null
BEFORE_DATA="$WORK/data"
if [ -n "$BEFORE_GENERATOR" ]; then
    BEFORE_DATA="$WORK/data-before"
    log "building the older server's dataset into $BEFORE_DATA"
    "$BEFORE_GENERATOR" build --sources sources --out "$BEFORE_DATA" >/dev/null
fi

REDIS_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK" >"$WORK/redis.log" 2>&1 &
PIDS+=("$!")
for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

# One config per server and store (every limit lifted, so every measured request is a real
# 200); the two Redis servers use different databases of the one redis-server.
declare -A ADDR KEY PID
for side in before after; do
    case $side in
        before) bin=$BEFORE db=1 data=$BEFORE_DATA ;;
        after) bin=$AFTER db=2 data=$WORK/data ;;
    esac
    write_unlimited_config "$WORK/$side.toml" "$WORK/state-$side" info "$data"
    write_unlimited_config "$WORK/$side-redis.toml" "redis://127.0.0.1:$REDIS_PORT/$db" info "$data"
    for store in "" "-redis"; do
        KEY[$side$store]="$(create_unlimited_key "$bin" "$WORK/$side$store.toml" 2>>"$WORK/keys.err")" ||
            { cat "$WORK/keys.err" >&2; die "keys create failed for $side$store"; }
        start_and_wait "$side$store" "$bin" serve --config "$WORK/$side$store.toml"
        ADDR[$side$store]="$STARTED_ADDR"
        PID[$side$store]="$STARTED_PID"
    done
done

# The rows of bench/run.sh: "store|key?|path|extra header".
ROWS=(
    "|-|/api/v1/laisvadienis?date=2026-12-24|"
    "|-|/api/v1/days?from=2026-01-01&to=2026-12-31|"
    "|key|/api/v1/day?date=2026-12-24|"
    "|key|/api/v1/working-time?year=2026|"
    "|key|/api/v1/school-holidays?year=2026|"
    "|key|/api/v1/holidays/upcoming?from=2026-11-24&count=4|"
    "|key|/api/v1/long-weekends?year=2026&max_leave_days=4|"
    "|key|/api/v1/working-days?from=2026-01-01&to=2026-12-31|"
    "|key|/api/v1/working-days/add?date=2026-12-20&days=10|"
    "|-|/2026/12?lang=lt|"
    "|key|/api/v1/name-days/search?name=jon|"
    "-redis|-|/api/v1/laisvadienis?date=2026-12-24|"
    "-redis|key|/api/v1/day?date=2026-12-24|"
    "|-|/api/v1/feeds/holidays.ics|"
    "|-|/data/years/2026.json|Accept-Encoding: gzip"
    "|-|/api/v1/days?from=2026-01-01&to=2026-12-31|Accept-Encoding: gzip"
)

# Prints the req/s of one load of a row on one side; fails unless the row answers 200.
load() { # side row
    local store keyed path header
    IFS='|' read -r store keyed path header <<<"$2"
    local url="http://${ADDR[$1$store]}$path" args=()
    [ "$keyed" = key ] && args+=(-H "X-API-Key: ${KEY[$1$store]}")
    [ -n "$header" ] && args+=(-H "$header")
    local status
    status="$(curl -s -o /dev/null -w '%{http_code}' "${args[@]+"${args[@]}"}" "$url")"
    [ "$status" = 200 ] || die "$1: $url answered $status, not 200"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "${args[@]+"${args[@]}"}" "$url" >/dev/null
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "${args[@]+"${args[@]}"}" "$url" |
        awk '/^Requests\/sec/ {printf "%d", $2}'
}

declare -A RESULTS
for round in $(seq 1 "$ROUNDS"); do
    log "round $round/$ROUNDS"
    order=(before after)
    [ $((round % 2)) = 0 ] && order=(after before)
    for i in "${!ROWS[@]}"; do
        for side in "${order[@]}"; do
            RESULTS[$side,$i]+="$(load "$side" "${ROWS[$i]}") "
        done
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo
echo "| row | before req/s | after req/s | after/before (rounds) |"
echo "|---|---:|---:|---:|"
for i in "${!ROWS[@]}"; do
    IFS='|' read -r store keyed path header <<<"${ROWS[$i]}"
    label="GET $path"
    [ "$keyed" = key ] && label+=" (X-API-Key)"
    [ -n "$header" ] && label+=" ($header)"
    [ -n "$store" ] && label+=", state in Redis"
    b="$(median <<<"${RESULTS[before,$i]}")"
    a="$(median <<<"${RESULTS[after,$i]}")"
    per_round="$(paste -d' ' <(tr ' ' '\n' <<<"${RESULTS[after,$i]}" | grep -v '^$') \
        <(tr ' ' '\n' <<<"${RESULTS[before,$i]}" | grep -v '^$') |
        awk '{printf "%s%.2f", (NR > 1 ? " " : ""), $1 / $2}')"
    awk -v l="$label" -v b="$b" -v a="$a" -v r="$per_round" \
        'BEGIN {printf "| %s | %d | %d | %.2f (%s) |\n", l, b, a, a / b, r}'
done
for side in before after; do
    echo "$side: peak RSS $(awk '/VmHWM/ {printf "%.1f MiB", $2 / 1024}' "/proc/${PID[$side]}/status")"
done
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), nproc $(nproc); before: $BEFORE; after: $(git rev-parse --short HEAD); $ROUNDS rounds, wrk -t$THREADS -c$CONNECTIONS -d$DURATION after $WARMUP warm-up"
