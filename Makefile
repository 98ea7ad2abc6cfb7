# The two commands: `make play` and `make test`. Both set up .venv from the pinned constraints first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,compare,bots,tui,rl,server
STAMP := $(VENV)/.installed-$(EXTRAS)
JOBS ?= 2

.PHONY: install play test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[$(EXTRAS)]"
	touch $(STAMP)

install: $(STAMP)

play: install
	$(BIN)/pagoda demo tichu

lint: install
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: install
	$(BIN)/mypy --strict

pytest: install
	$(BIN)/pytest -n $(JOBS)

test: lint typecheck pytest

bench: install
	$(BIN)/pagoda bench tichu

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

# The browser client (client/, Svelte + Vite); `pagoda serve` serves client/dist.
.PHONY: client
client:
	cd client && npm ci && npm run build
