PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test run demo bench lint typecheck art docs clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check engine bot tests tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine

test: $(STAMP) lint typecheck
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m tools.bench

run: $(STAMP)
	$(BIN)/python -m bot

demo: $(STAMP)
	$(BIN)/python -m tools.demo

art: $(STAMP)
	$(BIN)/python -m tools.make_art

clean:
	rm -rf $(VENV)
