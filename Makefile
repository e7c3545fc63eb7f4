# Slowhand: `make run` for a local site, `make test` for the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run worker test test-sqlite lint format migrate bench clean

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

# The whole suite on DATABASE_URL (SQLite when unset), in parallel: pytest-xdist, one test process
# per core unless PYTEST_WORKERS says otherwise, each with its own database, Redis keys and broker
# file. On PostgreSQL, the concurrency tests then run once more on SQLite, the database of make run.
PYTEST_WORKERS ?= auto
test: install
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal
	@if [ -n "$$DATABASE_URL" ] && [ "$${DATABASE_URL#sqlite}" = "$$DATABASE_URL" ]; then \
	  echo "DATABASE_URL= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m concurrency"; \
	  DATABASE_URL= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m concurrency; \
	fi

# Every test that needs no service, on the embedded default (SQLite, no Redis), as on a machine with
# nothing but python3. CI runs it after `make test` on PostgreSQL and Redis.
test-sqlite: install
	DATABASE_URL= REDIS_URL= REQUIRE_SERVICES=0 $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal -m "not services"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) var staticfiles db.sqlite3 .pytest_cache .ruff_cache
