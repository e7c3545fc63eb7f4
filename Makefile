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
# through kombu's filesystem transport (var/celery-queue), so no broker is needed.
run: migrate
	$(BIN)/python manage.py ensure_demo_user
	@echo "Slowhand on http://$(HOST):$(PORT)/  (log in as demo / demo)"
	@$(BIN)/celery -A config worker --beat --pool=solo --loglevel=INFO --schedule=var/celerybeat-schedule & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT); status=$$?; \
	kill $$worker 2>/dev/null; exit $$status

# Production-style worker and beat on REDIS_URL (run beat once per deployment; see README).
worker: install
	$(BIN)/celery -A config worker --beat --loglevel=INFO --schedule=var/celerybeat-schedule

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) var staticfiles db.sqlite3 .pytest_cache .ruff_cache
