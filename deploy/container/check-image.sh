#!/usr/bin/env bash
# Checks a built image end to end (docs/operations.md#running-in-a-container): it runs the image
# with a temporary state volume, as its non-root user with no capabilities and a read-only
# root file system, and checks
#   1. it runs as uid and gid 10001 (kalendorius); the health check (the image's
#      HEALTHCHECK command, `kalendorius-server ready-check`) passes and GET /ready answers
#      200 from the host; the first start does not take the new volume for an old database;
#   2. a public request: GET /api/v1/laisvadienis?date=2026-12-24 is 200 with JSON;
#   3. a key made with the key tool inside the container works: GET /api/v1/day with
#      X-API-Key is 200 with JSON (and 401 without it);
#   4. a reload: a second container on the same volume serves a dataset root in the volume
#      (built there with the generator inside the container, years 2000..2100), still
#      knows the key, and after a new build (all the years) and SIGHUP serves the new
#      version (X-Dataset-Version changes, 1990-01-01 goes from 400 to 200) without a
#      restart;
#   5. SIGTERM stops it with exit code 0.
# Then it removes the containers and the volume (the image is kept).
#
# Usage: deploy/container/check-image.sh [IMAGE]      (make check-image)
# Environment: IMAGE (kalendorius:latest), ENGINE (podman, or docker), ENGINE_OPTS (global
# options of the engine), PORT (the host port published on 127.0.0.1, 18080). Needs curl
# and jq on the host.
set -euo pipefail

IMAGE=${1:-${IMAGE:-kalendorius:latest}}
ENGINE=${ENGINE:-$(command -v podman >/dev/null && echo podman || echo docker)}
read -r -a engine_opts <<<"${ENGINE_OPTS:-}"
PORT=${PORT:-18080}
base="http://127.0.0.1:$PORT"
name=kalendorius-check-$$
volume=kalendorius-check-$$
# Hardened as a deployment would run it: nothing but the volume and /tmp is writable.
run_opts=(--read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges
    -v "$volume:/var/lib/kalendorius")
publish=(-p "127.0.0.1:$PORT:8080")
tmp=$(mktemp -d)

engine() { "$ENGINE" "${engine_opts[@]}" "$@"; }
step() { printf '\n== %s\n' "$*"; }
fail() {
    echo "FAIL: $*" >&2
    for c in "$name" "$name-2"; do
        engine logs --tail 20 "$c" >&2 2>/dev/null || true
    done
    exit 1
}
cleanup() {
    engine rm -f -t 0 "$name" "$name-2" >/dev/null 2>&1 || true
    engine volume rm -f "$volume" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# Waits until the container's health check passes (podman: runs the image's HEALTHCHECK
# command now, as its timer would; docker: the health status docker keeps).
wait_healthy() {
    local c=$1 i
    for i in $(seq 1 60); do
        if [ "$ENGINE" = docker ] || [ "$(basename "$ENGINE")" = docker ]; then
            [ "$(engine inspect --format '{{.State.Health.Status}}' "$c")" = healthy ] && return 0
        elif engine healthcheck run "$c" >/dev/null 2>&1; then
            return 0
        fi
        [ "$(engine inspect --format '{{.State.Running}}' "$c")" = true ] ||
            fail "$c is not running"
        sleep 1
    done
    fail "$c did not become healthy in 60 s"
}

# GET with optional headers: sets status, ctype, version, body.
get() {
    local path=$1 out
    shift
    out=$(curl -sS -o "$tmp/body" -D "$tmp/head" "$@" "$base$path" -w '%{http_code}') ||
        fail "GET $path: curl failed"
    status=$out
    body=$(cat "$tmp/body")
    ctype=$(grep -i '^content-type:' "$tmp/head" | tr -d '\r' | cut -d' ' -f2- || true)
    version=$(grep -i '^x-dataset-version:' "$tmp/head" | tr -d '\r' | cut -d' ' -f2 || true)
    rm -f "$tmp/body" "$tmp/head"
}
expect_json() {
    local path=$1 want=$2
    shift 2
    get "$path" "$@"
    [ "$status" = "$want" ] || fail "GET $path: status $status, expected $want: $body"
    case $ctype in application/json*) ;; *) fail "GET $path: content type $ctype" ;; esac
    jq -e . <<<"$body" >/dev/null || fail "GET $path: not JSON: $body"
    echo "GET $path -> $status $ctype (X-Dataset-Version $version)"
}

step "image $IMAGE"
engine image inspect "$IMAGE" >/dev/null || fail "no image $IMAGE (make image)"
# One-off containers (--no-healthcheck: no health timer for them).
ids=$(engine run --rm --no-healthcheck "$IMAGE" id)
# The user and group the documents name, by number and name (a bind-mounted directory is
# given to 10001:10001).
case $ids in
    "uid=10001(kalendorius) gid=10001(kalendorius) "*) ;;
    *) fail "the image runs as $ids, not uid and gid 10001 (kalendorius)" ;;
esac
echo "runs as $ids; size $(engine image inspect --format '{{.Size}}' "$IMAGE") bytes"
engine volume create "$volume" >/dev/null

step "start (state volume $volume, host port $PORT)"
engine run -d --name "$name" "${run_opts[@]}" "${publish[@]}" "$IMAGE" >/dev/null
wait_healthy "$name"
echo "health check passed: $(engine inspect --format '{{.State.Health.Status}}' "$name")"
expect_json /ready 200
echo "$body"
image_version=$version
# A new volume is a fresh state, not a database of an earlier version.
if engine logs "$name" 2>&1 | grep 'earlier version'; then
    fail "the first start on a new volume took it for a database of an earlier version"
fi

step "one public request"
expect_json '/api/v1/laisvadienis?date=2026-12-24' 200
echo "$body"

step "a key made inside the container"
key=$(engine exec "$name" kalendorius-server keys create --owner container-check | tail -n 1)
case $key in ltk_*) echo "key ${key:0:8}..." ;; *) fail "keys create printed $key" ;; esac
expect_json '/api/v1/day?date=2026-12-24' 401
expect_json '/api/v1/day?date=2026-12-24' 200 -H "X-API-Key: $key"
jq -c '{date, status: .status.reason, holidays: [.holidays[].name], name_days: [.name_days[].name]}' <<<"$body" ||
    fail "GET /api/v1/day: not the day's record: $body"

step "stop (SIGTERM), exit code"
engine stop -t 20 "$name" >/dev/null
code=$(engine inspect --format '{{.State.ExitCode}}' "$name")
[ "$code" = 0 ] || fail "exit code $code after stop"
echo "exit code 0"
engine rm "$name" >/dev/null

step "reload: a dataset root in the volume"
engine run --rm --no-healthcheck "${run_opts[@]}" "$IMAGE" \
    kalendorius-generator build --sources /usr/share/kalendorius/sources \
    --out /var/lib/kalendorius/output --years 2000..2100 | tail -n 3
engine run -d --name "$name-2" "${run_opts[@]}" "${publish[@]}" \
    -e KALENDORIUS_DATA=/var/lib/kalendorius/output "$IMAGE" >/dev/null
wait_healthy "$name-2"
expect_json '/api/v1/day?date=2026-12-24' 200 -H "X-API-Key: $key"
echo "the key made in the first container still works (state on the volume)"
old_version=$version
expect_json '/api/v1/laisvadienis?date=1990-01-01' 400
engine exec "$name-2" kalendorius-generator build --sources /usr/share/kalendorius/sources \
    --out /var/lib/kalendorius/output | tail -n 3
engine kill --signal HUP "$name-2" >/dev/null
for i in $(seq 1 30); do
    get '/api/v1/laisvadienis?date=1990-01-01'
    [ "$status" = 200 ] && break
    sleep 1
done
expect_json '/api/v1/laisvadienis?date=1990-01-01' 200
[ "$version" != "$old_version" ] || fail "the version did not change on reload"
echo "reloaded without a restart: $old_version -> $version"
[ "$version" = "$image_version" ] &&
    echo "(the same version as the image's own dataset: same sources, same years)"
engine logs "$name-2" 2>&1 | grep -m 1 'dataset reloaded' || fail "no 'dataset reloaded' in the log"

step "stop"
engine stop -t 20 "$name-2" >/dev/null
code=$(engine inspect --format '{{.State.ExitCode}}' "$name-2")
[ "$code" = 0 ] || fail "exit code $code after stop"
echo "exit code 0"

printf '\nOK: %s passed every check\n' "$IMAGE"
