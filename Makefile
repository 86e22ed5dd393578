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

# The pub laptop serves without Django's debug pages: a secret key is made once and
# kept in .secret_key, static files are collected for WhiteNoise, cookies work over http.
RUN_ENV = DJANGO_DEBUG=0 DJANGO_SECRET_KEY="$$(cat .secret_key)" DJANGO_ALLOWED_HOSTS='*' DJANGO_SECURE_COOKIES=0

.secret_key:
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

run: seed .secret_key
	$(RUN_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	@echo ""
	@echo "  Bummerl runs on http://$(HOST):$(PORT)/"
	@echo "  Demo sign-in: user 'demo', password 'schnapsen-demo'"
	@echo ""
	$(RUN_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

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
