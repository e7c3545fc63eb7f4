# Slowhand: `make run` for a local site, `make test` for the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run worker test lint format migrate bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

# A working site on SQLite with no broker to install: the ASGI application under uvicorn (so that its
# live event streams are streamed, not buffered), a Celery worker and beat, fed through kombu's
# SQLAlchemy transport on a SQLite file under var/ (config/broker.py). supervisord starts again any
# of them that exits, and says so in its log (config/supervisord.conf). Links in emails and calendars
# follow HOST and PORT unless SITE_URL is set.
SITE_URL ?= http://$(HOST):$(PORT)
run: migrate
	$(BIN)/python manage.py ensure_demo_user
	@echo "Slowhand on $(SITE_URL)/  (log in as demo / demo)"
	HOST=$(HOST) PORT=$(PORT) SITE_URL=$(SITE_URL) SLOWHAND_BIN=$(abspath $(BIN)) \
	SLOWHAND_VAR_DIR=$${SLOWHAND_VAR_DIR:-$(CURDIR)/var} exec $(BIN)/supervisord -c config/supervisord.conf

# Production-style worker and beat on REDIS_URL (run beat once per deployment; see README).
worker: install
	$(BIN)/celery -A config worker --beat --loglevel=INFO --schedule=var/celerybeat-schedule

# The whole suite on DATABASE_URL, then the concurrency tests once more on SQLite, the embedded
# database of `make run` (the tests' own database is a file in the temporary folder).
test: install
	$(BIN)/python -m pytest
	DATABASE_URL=sqlite:///$(CURDIR)/var/test-concurrency.sqlite3 $(BIN)/python -m pytest -m concurrency

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) var staticfiles db.sqlite3 .pytest_cache .ruff_cache
