PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lock lock-openspiel test pytest run demo bench arena arena-openspiel openspiel-env versus versus-tysiacha model model-chinois lint typecheck docs docs-serve art snapshots clean

LOCK := requirements.lock

# One virtualenv, made on first use and refreshed when pyproject.toml or the lock changes.
# It holds exactly what requirements.lock pins, each file checked against its hash, then
# this project (editable, built by the locked setuptools); first, one line and a stop if
# the lock was not written from this pyproject.toml (run `make lock`).
$(STAMP): pyproject.toml $(LOCK)
	$(PY) -m tools.lock check
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --require-hashes -r $(LOCK)
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Rewrite requirements.lock from pyproject.toml with uv, for CPython 3.11 on Linux: the
# runtime dependencies and the dev extra, every file's hash. Pins already in the lock are
# kept; `make lock LOCK_FLAGS=--upgrade` (or `--upgrade-package NAME`) moves them on. The
# uv used is the lock's own (installed with its hashes).
LOCK_FLAGS ?=
lock:
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(PY) -m tools.lock select uv > $(VENV)/uv.txt
	$(BIN)/pip install -q --require-hashes -r $(VENV)/uv.txt
	$(BIN)/uv pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 \
		--python-platform linux --custom-compile-command "make lock" --quiet \
		$(LOCK_FLAGS) --output-file $(LOCK)
	$(PY) -m tools.lock stamp

lint: $(STAMP)
	$(BIN)/ruff check engine bot tests tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine bot tools

# Lint, type checks and the docs build run beside the tests (seconds of CPU, no shared
# files); the target fails if any of the four does.
test: $(STAMP)
	$(MAKE) --no-print-directory -j4 lint typecheck pytest docs

# The docs site (mkdocs.yml), strict: a warning, a broken link or an anchor that is not there
# fails the build. Built into site/ (git-ignored); docs-serve serves it on 127.0.0.1:8000.
# The reference pages of settings and commands are generated: python -m tools.docs.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --strict

# Two workers (pytest-xdist); pytest-randomly shuffles the order and seeds `random` per test
# (it prints the seed: rerun an order with `.venv/bin/pytest -p randomly --randomly-seed=N`).
pytest: $(STAMP)
	$(BIN)/pytest -n 2 --dist worksteal

# Without a token the bot explains how to get one and exits 0; the local demo then plays.
run: $(STAMP)
	$(BIN)/python -m bot
	$(BIN)/python -m tools.demo --unless-token

PLAYERS ?= 4
demo: $(STAMP)
	$(BIN)/python -m tools.demo --players $(PLAYERS)

bench: $(STAMP)
	$(BIN)/python -m tools.bench

# Long: hours of CPU on two cores. Tichu hard v normal over 200 duplicate games
# (both cores), hard and normal against easy, then hard v normal and normal v easy
# in Chinois and Tysiacha.
arena: $(STAMP)
	nice -n 10 $(BIN)/python -m tools.arena --games 200 --pairs hard:normal --jobs 2 --quiet --report-every 20
	nice -n 10 $(BIN)/python -m tools.arena --games 40 --pairs hard:easy,normal:easy --jobs 2 --quiet
	nice -n 10 $(BIN)/python -m tools.arena_tricks --games 200 --pairs hard:normal,normal:easy --jobs 2

# The measure of every change to a Tichu computer player (docs/versus.md): this tree's hard
# player against the reference hard player of 159e36d (its search at full strength, not cut
# short by a busy machine) over 400 duplicate pairs of deals, on both cores. Long: about
# 35 minutes of both cores.
versus: $(STAMP)
	nice -n 10 $(BIN)/python -m tools.versus --against 159e36d --level hard --vs search-full --pairs 400 --jobs 2 --quiet --report-every 50

# The measure of a change to the Tysiacha hard player (tools/versus_tricks.py): this tree's
# hard against the hard player of 20683d2 over 600 duplicate deals, each played in the six
# arrangements of the two players on the three seats, on both cores. About 20 minutes
# of both cores on a quiet machine.
versus-tysiacha: $(STAMP)
	nice -n 10 $(BIN)/python -m tools.versus_tricks --game tysiacha --against 20683d2 --level hard --vs hard --deals 600 --jobs 2 --quiet --report-every 100

# Chinois against OpenSpiel's IS-MCTS (tools/arena_openspiel.py): hard (at its full 32
# samples, so a busy machine does not weaken it) and normal against IS-MCTS of 1,000
# simulations on oh_hell, rounds of 1 to 12 cards, 400 duplicate pairs each, on both cores.
# OpenSpiel lives in its own virtualenv, .venv-openspiel, installed from
# requirements-openspiel.lock (every file's hash), never in .venv: the bot does not need it
# and `make test` does not install it (its test runs there when .venv-openspiel exists).
# About ten minutes of one core's time (hard-full 1.1 s a pair, normal 0.4 s), on both.
OS_VENV := .venv-openspiel
OS_LOCK := requirements-openspiel.lock
OS_STAMP := $(OS_VENV)/.installed

$(OS_STAMP): $(OS_LOCK)
	test -d $(OS_VENV) || $(PY) -m venv $(OS_VENV)
	$(OS_VENV)/bin/pip install -q --require-hashes -r $(OS_LOCK)
	touch $(OS_STAMP)

openspiel-env: $(OS_STAMP)

arena-openspiel: $(OS_STAMP)
	nice -n 10 $(OS_VENV)/bin/python -m tools.arena_openspiel --level hard-full --pairs 400 --sims 1000 --jobs 2 --quiet --report-every 100
	nice -n 10 $(OS_VENV)/bin/python -m tools.arena_openspiel --level normal --pairs 400 --sims 1000 --jobs 2 --quiet --report-every 100

# Rewrite requirements-openspiel.lock from requirements-openspiel.in with the lock's uv.
lock-openspiel: $(STAMP)
	$(BIN)/uv pip compile requirements-openspiel.in --generate-hashes --python-version 3.11 \
		--python-platform linux --custom-compile-command "make lock-openspiel" --quiet \
		--output-file $(OS_LOCK)

# The shipped models from nothing (docs/learned.md). First Chinois's values (model-chinois,
# below); then Tysiacha's: 200,000 seeded deals played out by normal's play, one small
# network, then 1,000 deals of hard players to recalibrate it (about six minutes of both
# cores); then the four-seat Tichu evaluator: normal's self-play, three networks on it, the first one's own games and a fourth network, averaged as one. Long:
# about two and a half hours of both cores; each step is a file in data/model, and a
# stopped run goes on from the files it finds.
model: $(STAMP) model-chinois
	nice -n 10 $(BIN)/python -m tools.train_tysiacha --seed 1 --deals 200000 --hidden 96 --epochs 30 --hard-deals 1000 --jobs 2 --out engine/tysiacha/models/tysiacha.npz
	nice -n 10 $(BIN)/python -m tools.train_tysiacha --gifts --seed 1 --deals 200000 --hidden 96 --epochs 30 --jobs 2 --out engine/tysiacha/models/tysiacha-gifts.npz
	nice -n 10 $(BIN)/python -m tools.train_tysiacha --play --seed 1 --deals 24000 --hidden 128 --epochs 40 --jobs 2 --out engine/tysiacha/models/tysiacha-play.npz
	nice -n 10 $(BIN)/python -m tools.train ensemble --seed 1 --games 6000 --parts 2 --members 3 --base-games 2500 --jobs 2 --work data/model --out engine/tichu/ai/models/tichu4.npz

# Chinois's learned bid and play values (engine/chinois/models, docs/learned.md): 300,000
# self-play deals of normal with exploration, then two small networks; about 20 minutes of
# one core's time in all (the deals on both cores, then the two fits). `make model` runs it.
model-chinois: $(STAMP)
	nice -n 10 $(BIN)/python -m tools.train_chinois --seed 1 --deals 300000 --jobs 2 --hidden 128 --out engine/chinois/models

art: $(STAMP)
	$(BIN)/python -m tools.make_art --snapshots

snapshots: $(STAMP)
	$(BIN)/python -m tools.make_art --snapshots-only

clean:
	rm -rf $(VENV) $(OS_VENV)
