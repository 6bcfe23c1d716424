#!/usr/bin/env bash
# Local stand-ins for the two base images of the Containerfile, for a machine that cannot
# pull from an image registry: both are Debian bookworm made with mmdebstrap from Debian's
# package mirror and imported with `podman import` (or `docker import`).
#
#   runtime base  (RUNTIME_IMAGE): Debian's minbase with the documentation left out, the
#                 equivalent of debian:bookworm-slim; /usr is merged by mmdebstrap's
#                 merged-usr hook, not by the usrmerge package (which brings perl: about
#                 127 MB instead of 78).
#   builder base  (BUILDER_IMAGE): the same plus gcc, libc6-dev and ca-certificates, and a
#                 Rust toolchain copied in from this machine (`rustc --print sysroot`, its
#                 bin/ and lib/ only) into /usr/local/rust, on the PATH: the offline
#                 equivalent of rust:<version>-slim-bookworm. The toolchain is whatever the
#                 host has; its version is in the image's tag.
#
# Usage: deploy/container/base-images.sh            (as root, or where mmdebstrap can work)
# On a host where podman's defaults cannot run containers, export CONTAINERS_CONF first
# (deploy/container/restricted-host.containers.conf, which needs Debian's runc): the
# script runs a container of the builder base at its end.
# Then:  make image BUILDER_IMAGE=<printed> RUNTIME_IMAGE=<printed>
#
# Environment: ENGINE (podman, or docker), ENGINE_OPTS (global options of the engine, e.g.
# "--runtime /usr/sbin/runc --cgroup-manager=cgroupfs"), MIRROR (a Debian mirror URL; the
# default is apt's own configuration), SUITE (bookworm), RUST_SYSROOT (the toolchain to
# copy; default `rustc --print sysroot`), BUILDER_CA_BUNDLE (a PEM file that replaces the
# builder's /etc/ssl/certs/ca-certificates.crt: for a network whose TLS is intercepted by a
# proxy, give the host's bundle, so cargo can fetch from crates.io; the runtime image does
# not get it).
set -euo pipefail

ENGINE=${ENGINE:-$(command -v podman >/dev/null && echo podman || echo docker)}
read -r -a engine_opts <<<"${ENGINE_OPTS:-}"
engine() { "$ENGINE" "${engine_opts[@]}" "$@"; }
SUITE=${SUITE:-bookworm}
mirror=()
if [ -n "${MIRROR:-}" ]; then mirror=("$MIRROR"); fi

command -v mmdebstrap >/dev/null || {
    echo "mmdebstrap is missing (Debian: apt-get install mmdebstrap)" >&2
    exit 1
}
sysroot=${RUST_SYSROOT:-$(rustc --print sysroot)}
rust_version=$("$sysroot/bin/rustc" --version | awk '{print $2}')
[ -x "$sysroot/bin/cargo" ] || { echo "no cargo in $sysroot/bin" >&2; exit 1; }

RUNTIME_IMAGE=${RUNTIME_IMAGE:-localhost/kalendorius-base-runtime:$SUITE}
BUILDER_IMAGE=${BUILDER_IMAGE:-localhost/kalendorius-base-builder:$rust_version-$SUITE}

# Merged /usr as debian:*-slim has it, made by mmdebstrap's hook (bookworm's mmdebstrap has
# it) instead of the usrmerge package and its perl.
merged_usr=()
if [ -d /usr/share/mmdebstrap/hooks/merged-usr ]; then
    merged_usr=(--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr)
fi

# What debian:*-slim leaves out: manuals, documentation (but the copyright files), locales.
slim=(
    "${merged_usr[@]}"
    --dpkgopt='path-exclude=/usr/share/man/*'
    --dpkgopt='path-exclude=/usr/share/doc/*'
    --dpkgopt='path-include=/usr/share/doc/*/copyright'
    --dpkgopt='path-exclude=/usr/share/info/*'
    --dpkgopt='path-exclude=/usr/share/locale/*'
    --dpkgopt='path-include=/usr/share/locale/locale.alias'
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin'
)

echo "building $RUNTIME_IMAGE" >&2
mmdebstrap --variant=minbase "${slim[@]}" "$SUITE" - "${mirror[@]}" |
    engine import --change 'CMD ["bash"]' - "$RUNTIME_IMAGE"

ca_hook=()
if [ -n "${BUILDER_CA_BUNDLE:-}" ]; then
    [ -r "$BUILDER_CA_BUNDLE" ] || { echo "cannot read $BUILDER_CA_BUNDLE" >&2; exit 1; }
    ca_hook=(--customize-hook="cp '$BUILDER_CA_BUNDLE' \"\$1/etc/ssl/certs/ca-certificates.crt\"")
fi

echo "building $BUILDER_IMAGE (Rust $rust_version from $sysroot)" >&2
mmdebstrap --variant=minbase "${slim[@]}" "${ca_hook[@]}" \
    --include=gcc,libc6-dev,ca-certificates \
    --customize-hook="mkdir -p \"\$1/usr/local/rust\" && cp -a '$sysroot/bin' '$sysroot/lib' \"\$1/usr/local/rust/\"" \
    "$SUITE" - "${mirror[@]}" |
    engine import \
        --change 'ENV PATH=/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV CARGO_HOME=/usr/local/cargo' \
        --change 'CMD ["bash"]' \
        - "$BUILDER_IMAGE"

engine run --rm "$BUILDER_IMAGE" sh -c 'rustc --version && cargo --version && cc --version | head -n 1'
echo "base images ready; build the image with:" >&2
echo "  make image BUILDER_IMAGE=$BUILDER_IMAGE RUNTIME_IMAGE=$RUNTIME_IMAGE"
