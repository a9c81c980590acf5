# Quick start: `make run` plays, `make test` checks everything. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play serve test lint typecheck pytest bench setup clean catalogs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,test]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/yacht play

serve: $(STAMP)
	$(BIN)/yacht serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks

catalogs: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -o src/yacht/locale/yacht.pot --no-location --omit-header \
		src/yacht/rules.py src/yacht/scorers.py src/yacht/i18n.py src/yacht/actions.py src/yacht/game.py src/yacht/dice.py src/yacht/cli/__init__.py src/yacht/cli/core.py src/yacht/cli/plain.py
	$(BIN)/pybabel update -i src/yacht/locale/yacht.pot -d src/yacht/locale -D yacht --no-fuzzy-matching
	$(BIN)/pybabel compile -d src/yacht/locale -D yacht --statistics

clean:
	rm -rf $(VENV) build dist .mypy_cache .pytest_cache .ruff_cache
