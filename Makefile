# kalendorius: the two commands a newcomer needs are `make run` and `make test`.
# Everything else here is what they are made of.

CARGO      ?= cargo
LISTEN     ?= 127.0.0.1:8080
OUT        := output
STATE      := var/state
DEV_KEY    := var/dev-key
GENERATOR  := target/release/kalendorius-generator
SERVER     := target/release/kalendorius-server

# What a dataset is made from: the sources and the code that reads and writes them.
DATASET_INPUTS := $(shell find sources dataset/src generator/src -type f 2>/dev/null) Cargo.lock

.PHONY: run test dataset check-sources release lint bench bench-floods bench-compare clean redis-server image check-image

## make run: build the dataset if the sources changed, create a local development key on
## first run (printed every time), and serve on 127.0.0.1:8080 (another address:
## `make run LISTEN=127.0.0.1:9000`, or `LISTEN=0.0.0.0:8080` to serve other machines).
run: release $(OUT)/current/manifest.json $(DEV_KEY)
	@echo "Development API key (also in $(DEV_KEY)): $$(cat $(DEV_KEY))"
	@echo "Open http://$(LISTEN)/ in a browser for the calendar pages, or"
	@echo "try: curl -s 'http://$(LISTEN)/api/v1/laisvadienis?date=2026-12-24'"
	@echo "     curl -s -H \"X-API-Key: $$(cat $(DEV_KEY))\" 'http://$(LISTEN)/api/v1/day?date=2026-12-24'"
	$(SERVER) serve --listen $(LISTEN) --data $(OUT) --state $(STATE)

## make test: formatting, lints, and every test of the workspace (unit, generator runs on
## fixtures, data checks on the real sources, HTTP end-to-end against the real server, the
## Redis store against a real redis-server that the tests start themselves).
##
## The lints and the tests share one build: clippy's driver compiles the workspace's own
## crates (their lints as `make lint` gives them, warnings denied, then their code), so the
## dependencies are compiled once for the tests instead of also being checked for clippy
## (docs/performance.md, How long `make test` takes).
test: redis-server
	$(CARGO) fmt --all -- --check
	RUSTC_WORKSPACE_WRAPPER="$(CLIPPY_DRIVER)" CLIPPY_ARGS="$(CLIPPY_ARGS)" \
	    $(CARGO) $(TEST_CONFIG) test --workspace --all-targets

# The driver `cargo clippy` runs, and the arguments `cargo clippy -- -D warnings` gives it
# (cargo-clippy passes them in CLIPPY_ARGS, separated by __CLIPPY_HACKERY__).
CLIPPY_DRIVER := $(shell rustup which clippy-driver 2>/dev/null || command -v clippy-driver)
CLIPPY_ARGS   := -D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

# CI builds once from nothing (`.ci/run` sets CI=true): the bookkeeping of incremental
# compilation only costs there, and so do line tables nobody reads (a failing test still
# names the file and line of its assertion).
ifdef CI
export CARGO_INCREMENTAL := 0
export CARGO_PROFILE_DEV_DEBUG := false
# ... and one build from nothing is mostly the dependencies' code generation: at level 1
# it takes about half of level 2's time, and the tests' heavy work runs only a little slower.
TEST_CONFIG := --config 'profile.dev.package."*".opt-level=1'
endif

# The Redis store's tests start their own redis-server (a free loopback port, a temporary
# directory) and fail without one: Debian's package is installed when it is missing and
# apt can be used (as root), as the bench installs wrk.
redis-server:
	@command -v redis-server >/dev/null || { \
	    if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	        echo "installing redis-server from Debian"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; \
	    else \
	        echo "redis-server is missing: install it (Debian: apt-get install redis-server); the Redis store's tests need it" >&2; \
	    fi; }

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# One release build of both binaries, always with the same package selection: cargo unifies
# the dependencies' features over the packages it builds, so building the generator alone
# would compile (and link, with fat LTO) a second variant of the shared dependencies.
release:
	$(CARGO) build --release -p kalendorius-generator -p kalendorius-server

## make dataset: (re)build output/ from sources/ when anything it depends on changed; the
## build ends by printing what it changes against the version in service (the previous
## output/current, if any), which it also writes to the new version's changes.json.
dataset: $(OUT)/current/manifest.json

# The generator comes from `release` (order-only: a build that changed nothing does not
# make the dataset stale; a change to the generator's code is in DATASET_INPUTS).
$(OUT)/current/manifest.json: $(DATASET_INPUTS) | release
	$(GENERATOR) build --sources sources --out $(OUT)

## make check-sources: validate the sources without writing anything.
check-sources: release
	$(GENERATOR) check --sources sources

# The development key: created once with the key tool, kept (mode 600) for local use only.
$(DEV_KEY): | release
	@mkdir -p $(dir $(DEV_KEY))
	@umask 077 && $(SERVER) keys --state $(STATE) create --owner local-development | tail -n 1 > $(DEV_KEY).tmp
	@mv $(DEV_KEY).tmp $(DEV_KEY)

## make bench: release build, load test against the server and a minimal handler, then the
## floods (slow connections, a million client addresses) with the server's peak RSS.
bench:
	bash bench/run.sh
	bash bench/floods.sh

## make bench-floods: only the floods.
bench-floods:
	bash bench/floods.sh

## make bench-compare BEFORE=path/to/older/kalendorius-server: the bench's rows for an older
## server binary and this checkout's, side by side in one run (docs/performance.md); add
## BEFORE_GENERATOR=<its generator> when the older server reads another database format, and
## BEFORE_SOURCES=<its sources/> when the older generator refuses this checkout's sources.
## Installs wrk from Debian when it is missing, as `make bench` does.
bench-compare: release redis-server
	bash bench/compare.sh

## make image: the container image (Containerfile; docs/operations.md#running-in-a-container), tagged
## IMAGE (kalendorius:latest), with podman or docker (ENGINE; ENGINE_OPTS are its global
## options). BUILDER_IMAGE and RUNTIME_IMAGE replace the base images (e.g. the local ones
## of deploy/container/base-images.sh), JOBS limits the compile jobs, IMAGE_BUILD_OPTS
## adds build options (e.g. --network host). Not part of `make test`: it needs an engine.
ENGINE           ?= $(shell command -v podman >/dev/null 2>&1 && echo podman || echo docker)
ENGINE_OPTS      ?=
IMAGE            ?= kalendorius:latest
BUILDER_IMAGE    ?=
RUNTIME_IMAGE    ?=
JOBS             ?=
IMAGE_BUILD_OPTS ?=

image:
	$(ENGINE) $(ENGINE_OPTS) build -f Containerfile -t $(IMAGE) \
	    $(if $(filter podman,$(notdir $(ENGINE))),--format docker) \
	    $(if $(BUILDER_IMAGE),--build-arg BUILDER_IMAGE=$(BUILDER_IMAGE)) \
	    $(if $(RUNTIME_IMAGE),--build-arg RUNTIME_IMAGE=$(RUNTIME_IMAGE)) \
	    $(if $(JOBS),--build-arg JOBS=$(JOBS)) \
	    $(IMAGE_BUILD_OPTS) .

## make check-image: run the built image with a temporary volume and check it (health check,
## /ready, a public and a keyed request, a key made inside, a reload, a clean stop).
check-image:
	ENGINE="$(ENGINE)" ENGINE_OPTS="$(ENGINE_OPTS)" IMAGE="$(IMAGE)" bash deploy/container/check-image.sh

clean:
	$(CARGO) clean
	rm -rf $(OUT)/current $(OUT)/v*-* var
