# Quick start: `make run` plays, `make test` checks everything. Both set up .venv first.
# `make test-fast` is the edit-test loop: no services, no browser, no slow tests (by their
# measured time in tests/durations.json), and no torch needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RL_STAMP := $(VENV)/.installed-rl
# The tests keep their bytecode (pytest's rewritten test modules are cached in __pycache__; without
# the cache each pytest process compiles 450 test modules again, about 6 s), even where the
# environment turns writing it off.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run play serve test test-fast services docs lint typecheck pytest bench setup clean catalogs
.PHONY: durations coverage-fast bench-fast

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,test,docs]'
	touch $(STAMP)

# torch and Stable-Baselines3 (about 0.8 GB) for the rl tests: `make test` installs them,
# `make test-fast` skips those tests without them.
$(RL_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[rl]'
	touch $(RL_STAMP)

setup: $(RL_STAMP)

run: $(STAMP)
	$(BIN)/yacht play

serve: $(STAMP)
	$(BIN)/yacht serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks conftest.py docs/*.py
	$(BIN)/ruff format --check src tests benchmarks conftest.py docs/*.py
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# Chromium, tmux, PostgreSQL and Redis (installed as root when missing, started on loopback);
# their addresses go to build/services.env, which the test session reads.
services:
	bash .ci/services build/services.env

# Both cores (pytest-xdist): every test is independent (its own databases, ports and folders);
# the tests that start services run one at a time on one of them (conftest: xdist_group).
pytest: $(RL_STAMP)
	$(BIN)/pytest -n 2 --dist loadgroup

# The docs are built by the suite's test_the_site_builds_strictly (`mkdocs build --strict`, as
# `make docs`), on a worker beside the other tests, so `make test` does not build them twice.
# mypy (about 1.5 min from a cold cache, one core) runs beside pytest rather than before it;
# either failing fails `make test`, each one's output kept together.
test: services lint
	$(MAKE) --no-print-directory -j2 --output-sync=target typecheck pytest

FAST := -m "not slow and not services and not browser and not rl"
test-fast: $(STAMP)
	$(BIN)/pytest -n 2 $(FAST)

# Every test's seconds, one process (so a test's time is its own) and the strategy tables built
# afresh (as on a new machine), into tests/durations.json, which marks those over
# conftest.SLOW_SECONDS `slow`. Needs the services; 20+ minutes.
durations: services $(RL_STAMP)
	YACHT_TEST_FRESH_TABLES=1 $(BIN)/pytest -p no:xdist --write-durations=tests/durations.json

# make test-fast's wall time, median and worst of 3 runs, with the machine (docs/development.md).
bench-fast: $(STAMP)
	$(BIN)/python -m benchmarks.testtiers wall 3

# The fast tier's line coverage of src/yacht as a share of the full run's (coverage.py, through
# pytest-cov; subprocesses measured too). Needs the services; runs the suite twice.
coverage-fast: services $(RL_STAMP)
	rm -rf build/coverage && mkdir -p build/coverage
	COVERAGE_FILE=build/coverage/full $(BIN)/pytest -n 2 --dist loadgroup --cov=yacht --cov-report= -q
	COVERAGE_FILE=build/coverage/fast $(BIN)/pytest -n 2 $(FAST) --cov=yacht --cov-report= -q
	$(BIN)/python -m benchmarks.testtiers coverage build/coverage/fast build/coverage/full

# The documentation site (MkDocs Material, API pages from the docstrings) into build/site.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir build/site

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# The load grid (needs PostgreSQL and Redis, started here; about 1 min a run at 1,000 tables):
# runs benchmarks.loadrun per think time, then writes the docs' load table and plot from the
# JSON files. A quick look: make bench-load LOAD_TABLES=100 LOAD_RUNS=1 LOAD_DURATION=10 LOAD_OUT=/tmp/load
LOAD_TABLES ?= 1000
LOAD_THINK ?= 1,2,3,5
LOAD_RUNS ?= 3
LOAD_DURATION ?= 30
LOAD_OUT ?= benchmarks/results/load
.PHONY: bench-load
bench-load: $(STAMP)
	eval "$$(bash .ci/services)" && nice $(BIN)/python -m benchmarks.loadgrid --tables $(LOAD_TABLES) \
		--think $(LOAD_THINK) --runs $(LOAD_RUNS) --duration $(LOAD_DURATION) --out $(LOAD_OUT)

# The three gettext domains, extracted with Babel (babel.cfg says how each kind of file is read),
# then every language's .po updated and compiled. `yacht`: the core, the library's errors and
# the command line (cli/tui.py prints the terminal game's texts); `count` marks a plural like
# ngettext (yacht.cli.text.count). `yacht_tui`: the terminal game. `yacht_web`: the page's
# scripts and markup, pgettext(context, text) for a word with two roles.
YACHT_SOURCES := src/yacht/errors.py src/yacht/rules.py src/yacht/scorers.py src/yacht/i18n.py \
	src/yacht/fields.py src/yacht/dice.py src/yacht/actions.py src/yacht/start.py \
	src/yacht/game_json.py src/yacht/game.py src/yacht/review.py src/yacht/skill.py src/yacht/strategy/errors.py \
	src/yacht/coach.py src/yacht/training/__init__.py \
	src/yacht/bots/base.py src/yacht/web/service/fairness.py src/yacht/web/service/accounts.py \
	src/yacht/web/service/push.py \
	$(filter-out src/yacht/cli/tui.py,$(wildcard src/yacht/cli/*.py))
TUI_SOURCES := src/yacht/tui src/yacht/cli/tui.py
WEB_SOURCES := src/yacht/web/static
EXTRACT := PYTHONPATH=src $(BIN)/pybabel extract -F babel.cfg --no-location --omit-header
catalogs: $(STAMP)
	$(EXTRACT) -k count:1,2 -o src/yacht/locale/yacht.pot $(YACHT_SOURCES)
	$(EXTRACT) -o src/yacht/locale/yacht_tui.pot $(TUI_SOURCES)
	$(EXTRACT) -k t -k tHtml -k tn:1,2 -k tnHtml:1,2 -k pgettext:1c,2 \
		-o src/yacht/locale/yacht_web.pot $(WEB_SOURCES)
	for domain in yacht yacht_tui yacht_web; do \
		$(BIN)/pybabel update -i src/yacht/locale/$$domain.pot -d src/yacht/locale -D $$domain \
			--no-fuzzy-matching --ignore-obsolete || exit 1; \
		$(BIN)/pybabel compile -d src/yacht/locale -D $$domain --statistics || exit 1; \
	done

clean:
	rm -rf $(VENV) build dist .mypy_cache .pytest_cache .ruff_cache
