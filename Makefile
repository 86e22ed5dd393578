# Bummerl: make run · make test · make bench
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test bench install migrate seed messages lint

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet ".[test]"
	touch $@

install: $(BIN)/.installed

migrate: install
	$(BIN)/python manage.py migrate --noinput

seed: migrate
	$(BIN)/python manage.py seed

run: seed
	@echo ""
	@echo "  Bummerl runs on http://$(HOST):$(PORT)/"
	@echo "  Demo sign-in: user 'demo', password 'schnapsen-demo'"
	@echo ""
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: install
	$(BIN)/ruff check .
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest $(PYTEST_ARGS)

bench: install
	$(BIN)/python -m tests.bench

messages: install
	$(BIN)/python manage.py makemessages -l de --ignore '.venv/*' --ignore 'tests/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

lint: install
	$(BIN)/ruff check . && $(BIN)/ruff format --check .
