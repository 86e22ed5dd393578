# Bummerl: make run · make test · make bench
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run serve test bench load install migrate seed messages lint backup restore upgrade \
	setup-code
# gunicorn's workers and their timeout are set in bummerl/gunicorn.conf.py (3, 120 s);
# WORKERS=… or TIMEOUT=… given to make serve win over them.
WORKERS ?=
TIMEOUT ?=

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet ".[test]"
	touch $@

install: $(BIN)/.installed

# The site never starts without a secret key (bummerl/settings.py). The laptop's is made
# once and kept in .secret_key; a server's own DJANGO_SECRET_KEY, when set, wins.
KEY_ENV = DJANGO_SECRET_KEY="$${DJANGO_SECRET_KEY:-$$(cat .secret_key)}"

migrate: install .secret_key
	$(KEY_ENV) $(BIN)/python manage.py migrate --noinput

seed: migrate
	$(KEY_ENV) $(BIN)/python manage.py seed

# The pub laptop serves without Django's debug pages: a secret key is made once and
# kept in .secret_key, static files are collected for WhiteNoise, cookies work over http.
RUN_ENV = DJANGO_DEBUG=0 $(KEY_ENV) DJANGO_ALLOWED_HOSTS='*' BUMMERL_LAPTOP=1 \
	DJANGO_SECURE_COOKIES=0 DJANGO_SSL_REDIRECT=0 DJANGO_HSTS_SECONDS=0

.secret_key:
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

run: seed .secret_key
	$(RUN_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	@echo ""
	@echo "  Bummerl runs on http://$(HOST):$(PORT)/"
	@echo "  Demo sign-in: user 'demo', password 'schnapsen-demo'"
	@echo ""
	@# The task worker (large printouts, base.tasks) runs beside the site and stops with it.
	$(RUN_ENV) $(BIN)/python manage.py qcluster & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(RUN_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# A club's server: settings from the environment (DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS,
# DATABASE_URL, …; see README "Deployment"), gunicorn workers behind a TLS proxy.
# With BUMMERL_PUSH_URL (a Redis) the push server (bummerl.asgi) runs beside it on
# PUSH_PORT and stops with it; the proxy sends it the sheets' version paths (deploy/Caddyfile).
PUSH_PORT ?= 8001
serve: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed --no-demo
	$(BIN)/python manage.py collectstatic --noinput -v0
	@if [ -n "$$BUMMERL_PUSH_URL" ]; then \
		$(BIN)/uvicorn bummerl.asgi:application --host $(HOST) --port $(PUSH_PORT) --no-access-log \
			--limit-concurrency 6000 --backlog 4096 --timeout-graceful-shutdown 5 & \
		push=$$!; trap 'kill $$push 2>/dev/null' EXIT INT TERM; fi; \
	$(BIN)/gunicorn bummerl.wsgi -c bummerl/gunicorn.conf.py -b $(HOST):$(PORT) \
		$(if $(WORKERS),-w $(WORKERS)) $(if $(TIMEOUT),--timeout $(TIMEOUT))

# One consistent snapshot of the database in one owner-only file (default
# backups/bummerl-<time>.json.gz); `make restore FILE=…` checks the file in a scratch
# database, keeps the data before in a file of its own and replaces all in one step.
BACKUP ?=
backup: install .secret_key
	$(KEY_ENV) $(BIN)/python manage.py backup $(if $(CLUB),--club "$(CLUB)") $(BACKUP)

# A club's server after `git pull` of a new release (CHANGELOG.md), from any earlier
# release, in one command (bummerl/upgrade.py, README "Upgrading"): a backup made by the
# release that wrote the data, the packages, the migrations and the steps the release
# needs, the presets and the worker's schedule, the static files and the restart of the
# site's units. Settings from the environment and ENV_FILE (default /etc/bummerl.env).
upgrade:
	$(PYTHON) -m bummerl.upgrade --venv "$(VENV)" --python "$(PYTHON)"

# The one-time code of a new server's first-run page (/setup/); NEW=1 makes a new one.
setup-code: install .secret_key
	@$(KEY_ENV) $(BIN)/python manage.py setup_code $(if $(NEW),--new)

restore: install .secret_key
	@test -n "$(FILE)" || (echo "usage: make restore FILE=backups/….json.gz" && exit 2)
	$(KEY_ENV) $(BIN)/python manage.py migrate --noinput
	$(KEY_ENV) $(BIN)/python manage.py restore "$(FILE)"

# The HTML templates as djlint formats them ([tool.djlint] in pyproject.toml; the mail's
# text and the service worker are not HTML and keep their spacing); no template line is
# over 120 characters (tests/test_template_lines.py). `djlint --reformat templates` fixes.
TEMPLATE_DIRS := templates $(wildcard */templates)

test: install
	$(BIN)/ruff check .
	@# The type check: its packages and strictness in pyproject.toml ([tool.mypy]), its
	@# cache in .mypy_cache (a second run takes seconds). Django's side comes from
	@# tests.settings, which asks for debug itself: no secret key needed.
	$(BIN)/mypy
	$(BIN)/djlint --check $(TEMPLATE_DIRS)
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest $(PYTEST_ARGS)

bench: install
	$(BIN)/python -m tests.bench

# The load run of `make bench` alone, on SQLite (or DATABASE_URL): LOAD_SECONDS=3600
# plays an hour of the night instead of the short default.
load: install
	$(BIN)/python -m tests.load_bench

messages: install
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l de --ignore '.venv/*' --ignore 'tests/*'
	DJANGO_DEBUG=1 $(BIN)/python manage.py compilemessages --ignore '.venv/*'

lint: install
	$(BIN)/ruff check . && $(BIN)/ruff format --check .
