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

# A working site on SQLite; background tasks run in a worker beside the web server, fed
# through kombu's filesystem transport (var/celery-queue), so no broker is needed. The site is
# the ASGI application under uvicorn, so that its live event streams are streamed, not buffered.
run: migrate
	$(BIN)/python manage.py ensure_demo_user
	@echo "Slowhand on http://$(HOST):$(PORT)/  (log in as demo / demo)"
	@$(BIN)/celery -A config worker --beat --pool=solo --queues=celery,reviews --loglevel=INFO --schedule=var/celerybeat-schedule & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --log-level info; status=$$?; \
	kill $$worker 2>/dev/null; exit $$status

# Production-style worker and beat on REDIS_URL (run beat once per deployment; see README).
worker: install
	$(BIN)/celery -A config worker --beat --queues=celery,reviews --loglevel=INFO --schedule=var/celerybeat-schedule

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
