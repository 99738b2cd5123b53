PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test run demo bench arena lint typecheck art snapshots clean

# One virtualenv, made on first use and refreshed when pyproject.toml changes.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check engine bot tests tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine bot/render bot/store

test: $(STAMP) lint typecheck
	$(BIN)/pytest

run: $(STAMP)
	$(BIN)/python -m bot

PLAYERS ?= 4
demo: $(STAMP)
	$(BIN)/python -m tools.demo --players $(PLAYERS)

bench: $(STAMP)
	$(BIN)/python -m tools.bench

arena: $(STAMP)
	$(BIN)/python -m tools.arena

art: $(STAMP)
	$(BIN)/python -m tools.make_art --snapshots

snapshots: $(STAMP)
	$(BIN)/python -m tools.make_art --snapshots-only

clean:
	rm -rf $(VENV)
