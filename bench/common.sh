# Shared by bench/run.sh and bench/floods.sh (sourced, not run): logging, the clean-up of
# everything a bench started, and starting a server and learning its address.
# Expects WORK (a temp dir) and PIDS (an array) to be set by the sourcing script.

log() { printf '[bench] %s\n' "$*" >&2; }
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }

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

