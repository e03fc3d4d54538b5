# Developer entry points. `make run` and `make test` work on a fresh machine with python3.11+ and make.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MANAGE := $(BIN)/python manage.py

.PHONY: venv run club test lint bench

venv: $(STAMP)

# Reinstall only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

# The exact bear-off tables of pure races (docs/analysis.md "Bear-off tables"): built beside the
# committed weights once, in a few seconds; not committed (5.5 MB). One build writes both files.
TABLES := weights/bearoff-cascade.npz
$(TABLES): | venv
	$(BIN)/python -m games.analysis.bearoff build --variant all --out weights

# uvicorn serves the pages and their WebSockets from one process (the channel layer in memory);
# --reload restarts it when a Python file or a template changes, as runserver did.
run: venv $(TABLES)
	$(MANAGE) migrate --noinput
	$(MANAGE) demo_setup
	SITE_URL=$${SITE_URL:-http://127.0.0.1:8000/} \
	DJANGO_SETTINGS_MODULE=config.settings.local $(BIN)/uvicorn config.asgi:application \
		--host 127.0.0.1 --port 8000 --reload --reload-include '*.html' \
		$(foreach dir,common config players games tournaments templates,--reload-dir $(dir))

# The club laptop: the site on the club's network for the players' phones (config/club.py):
# DEBUG off, the laptop's addresses allowed, a secret key kept in .club/, SQLite, eager tasks.
# It prints the address and its QR code. PORT=8080 make club for another port.
club: venv $(TABLES)
	$(BIN)/python -m config.club $(if $(PORT),--port $(PORT))

test: venv
	$(BIN)/pytest $(PYTEST_ARGS)

# mypy --strict (pyproject.toml [tool.mypy]) over every app, games/engine included.
lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy common players games tournaments config

bench: venv
	@set -e; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; \
		case "$$script" in bench/servers.py) continue;; esac; \
		echo "== $$script"; \
		$(BIN)/python "$$script"; \
	done
