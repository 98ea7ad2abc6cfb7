# The two commands: `make play` and `make test`. Both set up .venv from the pinned constraints first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,compare,bots,tui,rl,server,cluster
STAMP := $(VENV)/.installed-$(EXTRAS)
JOBS ?= 2
# Browser tests drive Debian's Chromium; Playwright never downloads a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = 1

NODE_STAMP := client/node_modules/.installed

.PHONY: install native cargo-test play test lint typecheck pytest client client-test client-e2e bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[$(EXTRAS)]"
	touch $(STAMP)

install: $(STAMP)

# The native core (native/: Rust, PyO3, built by maturin from Cargo.lock) into the environment.
# pagoda runs without it (the Python reference cores), so `make install` alone does not need Rust.
NATIVE_STAMP := $(VENV)/.native-built
NATIVE_SRC := $(shell find native/src -name '*.rs') native/Cargo.toml native/Cargo.lock native/pyproject.toml
$(NATIVE_STAMP): $(STAMP) $(NATIVE_SRC)
	@command -v cargo >/dev/null || { echo "cargo not found: the native core needs a Rust toolchain (https://rustup.rs)"; exit 1; }
	VIRTUAL_ENV=$(abspath $(VENV)) $(BIN)/maturin develop --release --locked --quiet -m native/Cargo.toml
	touch $(NATIVE_STAMP)

native: $(NATIVE_STAMP)

# The native core's own tests (plain Rust: no Python needed), proptest included.
cargo-test:
	@command -v cargo >/dev/null || { echo "cargo not found: the native core needs a Rust toolchain (https://rustup.rs)"; exit 1; }
	cd native && cargo test --locked --release --quiet

# The browser table with bots on an embedded SQLite: http://127.0.0.1:8000
play: install native client
	$(BIN)/pagoda serve

lint: install
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: install
	$(BIN)/mypy --strict

# The Redis tests (tests/server/test_redis*.py) start Debian's redis-server on a free port;
# tests/server/test_postgres.py starts Debian's PostgreSQL (/usr/lib/postgresql/*/bin) in a temp folder.
pytest: install native
	@test -x /usr/bin/redis-server || { apt-get update -q && apt-get install -y -q redis-server; }
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q postgresql; }
	$(BIN)/pytest -n $(JOBS)

test: lint typecheck cargo-test client-test client-e2e pytest

# The whole volume of the differential tests (10,000 rounds per preset and engine), of the batched
# environments (8 x 6,000 steps a Tichu case) and of the Dou Di Zhu laizi invariants (make test
# runs the day's slice of each): long, run on purpose.
.PHONY: volume
volume: install native
	PAGODA_DIFF_SLICE=all DDZ_SLICE=all $(BIN)/pytest -n $(JOBS) -m slow tests/native tests/envs/test_vector.py tests/doudizhu/test_invariants.py

bench: install
	$(BIN)/pagoda bench tichu

# The browser client (client/, Svelte + Vite, from its lock file); `pagoda serve` serves client/dist.
$(NODE_STAMP): client/package.json client/package-lock.json
	@command -v npm >/dev/null || { apt-get update -q && apt-get install -y -q nodejs npm; }
	cd client && npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# The client's protocol types, generated from the server's message models (never copied by hand).
.PHONY: wire
wire: install
	$(BIN)/python -m pagoda.server.typescript client/src/lib/wire.ts

client: $(NODE_STAMP) wire
	cd client && npm run build

client-test: $(NODE_STAMP) wire
	cd client && npm run check && npm test

# End-to-end: Debian's Chromium (never Playwright's own browsers) drives the built client against
# a `pagoda serve` that the tests start on a free 127.0.0.1 port with a temporary database.
.PHONY: client-e2e
client-e2e: install client
	@test -x /usr/bin/chromium || { apt-get update -q && apt-get install -y -q chromium fonts-noto-cjk; }
	cd client && npx playwright test

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis client/node_modules client/dist native/target
