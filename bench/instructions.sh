#!/usr/bin/env bash
# Instructions per request, before and after: the server's user-space instructions (valgrind's
# callgrind) for N requests of each row, on an older server binary and this checkout's.
# Unlike req/s, the count does not move with what else the machine runs, so a change of 1 %
# shows; it leaves out the kernel's work (loopback TCP: about 60 % of a small answer's CPU),
# which `strace -c -f -p <pid>` under load shows per request (docs/performance.md).
#
# BEFORE (required): the older kalendorius-server; BEFORE_GENERATOR and BEFORE_SOURCES as in
# compare.sh; N (1000) requests per row, after 200 not counted, on 4 keep-alive connections.
# Needs valgrind (Debian: apt-get install valgrind; installed here when run as root).
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
AFTER="$ROOT/target/release/kalendorius-server"
GENERATOR_BIN="$ROOT/target/release/kalendorius-generator"
BEFORE="${BEFORE:-}"
BEFORE_GENERATOR="${BEFORE_GENERATOR:-$GENERATOR_BIN}"
BEFORE_SOURCES="${BEFORE_SOURCES:-sources}"
N="${N:-1000}"
WORK="$(mktemp -d -t kalendorius-instructions.XXXXXX)"
PIDS=()
source "$ROOT/bench/common.sh"

[ -x "$BEFORE" ] || die "set BEFORE to the older kalendorius-server binary"
[ -x "$AFTER" ] && [ -x "$GENERATOR_BIN" ] || die "build this checkout first: make release"
if ! command -v valgrind >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    log "installing valgrind from Debian"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; } >&2
fi
command -v valgrind >/dev/null || die "valgrind is missing: apt-get install valgrind"

"$GENERATOR_BIN" build --sources sources --out "$WORK/data-after" >/dev/null
"$BEFORE_GENERATOR" build --sources "$BEFORE_SOURCES" --out "$WORK/data-before" >/dev/null

# The rows of compare.sh with the state in sled: "key?|path|extra header".
ROWS=(
    "-|/api/v1/laisvadienis?date=2026-12-24|"
    "-|/api/v1/days?from=2026-01-01&to=2026-12-31|"
    "key|/api/v1/day?date=2026-12-24|"
    "key|/api/v1/working-time?year=2026|"
    "key|/api/v1/school-holidays?year=2026|"
    "key|/api/v1/holidays/upcoming?from=2026-11-24&count=4|"
    "key|/api/v1/long-weekends?year=2026&max_leave_days=4|"
    "key|/api/v1/working-days?from=2026-01-01&to=2026-12-31|"
    "key|/api/v1/working-days/add?date=2026-12-20&days=10|"
    "-|/2026/12?lang=lt|"
    "key|/api/v1/name-days/search?name=jon|"
    "-|/api/v1/feeds/holidays.ics|"
    "-|/data/years/2026.json|Accept-Encoding: gzip"
    "-|/api/v1/days?from=2026-01-01&to=2026-12-31|Accept-Encoding: gzip"
)

# Sends $5 requests of path $2 (with the key $3 when $4 is "key", and the header $6) to $1.
send() {
    python3 - "$@" <<'PY'
import http.client, sys
addr, path, key, keyed, n, header = sys.argv[1:7]
host, port = addr.rsplit(":", 1)
headers = {"X-API-Key": key} if keyed == "key" else {}
if header:
    name, value = header.split(": ", 1)
    headers[name] = value
conns = [http.client.HTTPConnection(host, int(port)) for _ in range(4)]
for i in range(int(n)):
    conn = conns[i % 4]
    conn.request("GET", path, headers=headers)
    resp = conn.getresponse()
    resp.read()
    if resp.status != 200:
        sys.exit(f"{path} answered {resp.status}")
PY
}

# Prints the instructions per request of one row on one side.
count() { # side row
    local side=$1 keyed path header bin
    IFS='|' read -r keyed path header <<<"$2"
    case $side in before) bin=$BEFORE ;; after) bin=$AFTER ;; esac
    local dir="$WORK/$side-$RANDOM"
    mkdir -p "$dir"
    write_unlimited_config "$dir/c.toml" "$dir/state" warn "$WORK/data-$side"
    local key
    key="$(create_unlimited_key "$bin" "$dir/c.toml")"
    start_and_wait "$side" valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
        "$bin" serve --config "$dir/c.toml"
    local pid=$STARTED_PID
    send "$STARTED_ADDR" "$path" "$key" "$keyed" 200 "$header"
    callgrind_control -z "$pid" >/dev/null 2>&1
    send "$STARTED_ADDR" "$path" "$key" "$keyed" "$N" "$header"
    callgrind_control -d "$pid" >/dev/null 2>&1
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    callgrind_annotate "$dir/cg.out.1" 2>/dev/null |
        awk -v n="$N" '/PROGRAM TOTALS/ {gsub(",", "", $1); printf "%d", $1 / n}'
}

echo "| row | before | after | after/before |"
echo "|---|---:|---:|---:|"
for row in "${ROWS[@]}"; do
    IFS='|' read -r keyed path header <<<"$row"
    label="GET $path"
    [ "$keyed" = key ] && label+=" (X-API-Key)"
    [ -n "$header" ] && label+=" ($header)"
    b="$(count before "$row")"
    a="$(count after "$row")"
    awk -v l="$label" -v b="$b" -v a="$a" 'BEGIN {printf "| %s | %d | %d | %.3f |\n", l, b, a, a / b}'
done
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); before: $BEFORE; after: $(git rev-parse --short HEAD); user-space instructions per request (callgrind), $N requests after 200"
