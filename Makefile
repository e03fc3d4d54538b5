# Developer entry points. `make run` and `make test` work on a fresh machine with python3.11+ and make.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MANAGE := $(BIN)/python manage.py

.PHONY: venv run test lint bench

venv: $(STAMP)

# Reinstall only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

run: venv
	$(MANAGE) migrate --noinput
	$(MANAGE) demo_setup
	$(MANAGE) runserver 0.0.0.0:8000

test: venv
	$(BIN)/pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy --strict games/engine

bench: venv
	@set -e; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		$(BIN)/python "$$script"; \
	done
