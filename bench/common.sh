# Shared by bench/run.sh, bench/compare.sh and bench/floods.sh (sourced, not run): logging,
# wrk, the clean-up of everything a bench started, starting a server and learning its address, and
# the config and key that lift every limit.
# Expects WORK (a temp dir) and PIDS (an array) to be set by the sourcing script.

# The largest limit the server accepts (limits::MAX_LIMIT): high enough that no request of
# a bench run is ever refused, so every measured request is a real 200.
NO_LIMIT=1000000000

log() { printf '[bench] %s\n' "$*" >&2; }
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }

# wrk, installed from Debian when it is missing and apt can be used (as root): a 1-second
# install. Fails (status 1, nothing printed) when it cannot be had; run.sh then falls back
# to oha, compare.sh (which reads wrk's output) stops with the reason.
ensure_wrk() {
    command -v wrk >/dev/null && return 0
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        log "installing wrk from Debian"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; } >&2 || true
    fi
    command -v wrk >/dev/null
}

# The address floods open a million loopback connections. Where the kernel tracks
# connections (nf_conntrack, loaded for example by a container engine's NAT rules), its table
# fills and new handshakes are dropped ("nf_conntrack: table full" in dmesg): the flood then
# stalls in SYN retransmits, whatever the server does. Say so before the results mislead.
warn_if_conntrack() {
    local count=/proc/sys/net/netfilter/nf_conntrack_count max=/proc/sys/net/netfilter/nf_conntrack_max
    if [ -r "$count" ] && [ -r "$max" ]; then
        log "WARNING: connection tracking is on ($(cat "$count") of $(cat "$max") entries): an address flood can fill its table and stall; the flood rates are then the host's, not the server's (docs/performance.md#floods-benchfloodssh)"
    fi
}

# Kill what we started (by PID, nothing else), then drop the temp dir with its dataset,
# state database and logs.
cleanup() {
    local pid
    for pid in "${PIDS[@]+"${PIDS[@]}"}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]+"${PIDS[@]}"}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts "$@" in the background with stdout to $1's log file and waits until it prints
# "listening on http://ADDR" (both servers do); sets STARTED_PID and STARTED_ADDR.
# The binary is exec'ed directly, so the PID is the server's own (for /proc/PID/status).
start_and_wait() {
    local name="$1"
    shift
    local out="$WORK/$name.out"
    "$@" >"$out" 2>"$WORK/$name.err" &
    STARTED_PID=$!
    PIDS+=("$STARTED_PID")
    for _ in $(seq 1 300); do
        STARTED_ADDR="$(sed -n 's|^listening on http://||p' "$out" | head -n 1)"
        if [ -n "$STARTED_ADDR" ]; then
            log "$name listening on $STARTED_ADDR (pid $STARTED_PID)"
            return
        fi
        if ! kill -0 "$STARTED_PID" 2>/dev/null; then
            cat "$WORK/$name.err" >&2
            die "$name exited before listening"
        fi
        sleep 0.1
    done
    die "$name did not print its address within 30 s"
}


# Writes to $1 a server config that lifts every per-IP limit and the default key limits
# (NO_LIMIT), listens on a free loopback port, reads the dataset
# in $4 ($WORK/data when not given) and keeps keys and counters in $2 (a directory or a
# redis:// URL); $3 is the log level.
write_unlimited_config() {
    cat >"$1" <<EOF
listen = "127.0.0.1:0"
data = "${4:-$WORK/data}"
state = "$2"
shutdown_timeout_secs = 2

[log]
format = "text"
level = "$3"

[limits]
EOF
    local limit
    for limit in {laisvadienis,days,pages,feeds,data}_per_{minute,month} key_default_per_{minute,day}; do
        echo "$limit = $NO_LIMIT" >>"$1"
    done
}

# Creates a key without limits with server binary $1 on the state of config $2 (before the
# server starts: they share the state) and prints it.
create_unlimited_key() {
    "$1" keys --config "$2" create --owner bench --per-minute "$NO_LIMIT" --per-day "$NO_LIMIT" |
        tail -n 1
}
