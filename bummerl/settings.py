"""Settings of the Bummerl site: one module, every deployment choice from the environment.

Environment variables (all optional on a laptop):
  DJANGO_DEBUG          1/0, default 0: debug pages only when asked for by name
  DJANGO_SECRET_KEY     required (at least 50 random characters) unless DJANGO_DEBUG=1
  DJANGO_ALLOWED_HOSTS  comma-separated, default "*" in debug
  DATABASE_URL          e.g. postgres://user@host:5432/bummerl; SQLite (db.sqlite3) when unset
  DJANGO_SITE_URL       the site's address for links that leave the page (QR codes, mails)
  BUMMERL_LAPTOP        1 on the pub laptop (`make run`): any host allowed, links on it
  DJANGO_TRUSTED_PROXIES  addresses/networks whose X-Forwarded-For is believed
  DJANGO_EMAIL_HOST     a mail server: password reset by mail and the mails to registered
                        players (tournaments.notices) go out only with one
  BUMMERL_IMPORT_MAX_KB, BUMMERL_MAX_DEALS, BUMMERL_MAX_TEXT   limits of an import
  BUMMERL_RATING_MIN_GAMES  rated games a player needs for a place on a rating list (10)
  DJANGO_LOG_LEVEL      of the site's own loggers (errors are always logged to stderr)
  BUMMERL_CACHE_URL     redis://host:port/db: the default cache in Redis (each process's
                        memory when unset)
  BUMMERL_PUSH_URL      redis://host:port/db: the push channel (base.push) for the push
                        server (bummerl.asgi); every page polls when unset
  BUMMERL_PUSH_SECONDS  how long the push server holds a version request (25)
  BUMMERL_PUSH_HOLDS_PER_LINK, …_PER_SESSION, …_PER_ADDRESS   its holds at once (20, 20, 1000)
The README's "Deployment" section describes each; docs/server.md lists every one.
"""

import ipaddress
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from bummerl.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# Production is the default: the site never starts without a secret key of its own. Debug
# pages (which list every URL on a 404) and the known development key only come with
# DJANGO_DEBUG=1, set by name on a developer's machine (the tests set it themselves).
DEVELOPMENT_KEY = "insecure-development-key-only-for-a-developer"
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "")
DEBUG = env_bool("DJANGO_DEBUG", False)
# The key must pass Django's own deployment check (`manage.py check --deploy`): at least
# 50 characters, at least 5 different ones, not Django's "django-insecure-" placeholder.
if not DEBUG and (
    len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH
    or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
    or SECRET_KEY.startswith(SECRET_KEY_INSECURE_PREFIX)
    or SECRET_KEY == DEVELOPMENT_KEY
):
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY must be set to at least {SECRET_KEY_MIN_LENGTH} random characters "
        f"of this server's own (not starting with {SECRET_KEY_INSECURE_PREFIX!r}); make one with "
        """python3 -c "import secrets; print(secrets.token_urlsafe(50))" """
        "(DJANGO_DEBUG=1 starts a developer's site with a known key instead)"
    )
SECRET_KEY = SECRET_KEY or DEVELOPMENT_KEY
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"] if DEBUG else [])
# The site's address (scheme and host, e.g. "https://bummerl.example.org"): links in
# QR codes, handed-over links and mails start with it (base.links). Unset, they start
# with the address a page was opened by, which must then be a checked one.
SITE_URL = env_str("DJANGO_SITE_URL", "").rstrip("/")
if SITE_URL:
    _site = urlsplit(SITE_URL)
    if _site.scheme not in ("http", "https") or not _site.netloc or _site.path:
        raise ImproperlyConfigured(
            f"DJANGO_SITE_URL={SITE_URL!r} is not a site address like https://bummerl.example.org"
        )
# The pub laptop (`make run`): any host name is allowed, since phones reach the laptop by
# whatever address it has on the local Wi-Fi, and links carry that address. A server
# must name its hosts, or its address in DJANGO_SITE_URL.
LAPTOP = env_bool("BUMMERL_LAPTOP", False)
if not DEBUG and "*" in ALLOWED_HOSTS and not SITE_URL and not LAPTOP:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS='*' lets any Host header through: name the site's hosts, "
        "or set DJANGO_SITE_URL (or BUMMERL_LAPTOP=1 on a laptop on a local network)"
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "django_tables2",
    "template_partials",
    "base",
    "clubs",
    "scoring",
    "tournaments",
    "seasons",
    "cups",
    "ratings",
    "bummerl",
    "django_q",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Every answer, static files and early refusals too, carries the site's CSP and
    # Permissions-Policy.
    "base.csp.ContentSecurityPolicyMiddleware",
    "base.csp.PermissionsPolicyMiddleware",
    # /healthz answers here, before anything reads the Host header (bummerl.health).
    "bummerl.health.HealthMiddleware",
    "bummerl.middleware.RequestChecksMiddleware",
    "bummerl.middleware.RefuseNulMiddleware",
    "bummerl.middleware.RefuseBrokenTextMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "bummerl.middleware.NoStoreMiddleware",
    # A private link's answers are not indexed (X-Robots-Tag: noindex).
    "bummerl.middleware.NoIndexMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "bummerl.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "bummerl.middleware.SignInMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: counts failed sign-ins and locks out guessing (django-axes).
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
# django-axes' words where its lock page is not shown (its German says "Sie").
AXES_COOLOFF_MESSAGE = _("Too many wrong passwords: sign-in is locked for a while.")
AXES_PERMALOCK_MESSAGE = _(
    "Too many wrong passwords: sign-in is locked. Your club's owner unlocks it on the page "
    "“Members”."
)
AXES_RESET_ON_SUCCESS = True
# The lock counts a name together with the address it is guessed from. Behind a TLS proxy
# that address is the proxy's; the visitor's is read from X-Forwarded-For, but only on a
# connection from one of these proxies (addresses or networks, e.g. "127.0.0.1,::1").
# Empty: the header is ignored, so a client cannot claim another address.
TRUSTED_PROXIES = env_list("DJANGO_TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"DJANGO_TRUSTED_PROXIES: {_proxy!r} is not an address or network"
        ) from None
# An IPv6 visitor is counted by his /64 network, an IPv4 one by his address.
AXES_CLIENT_IP_CALLABLE = "base.clientip.limit_address"
CSRF_FAILURE_VIEW = "clubs.accounts.csrf_failure"

# Mail: only with a mail server (DJANGO_EMAIL_HOST) is a password reset offered by mail;
# without one, the reset page sends the visitor to the club's owner (a reset link).
# Registered players get their mails (tournaments.notices, sent by the task worker) when
# a mail server is named or EMAIL_BACKEND is another than Django's SMTP one (the test
# run's in-memory backend), and the links in them have an address: DJANGO_SITE_URL, else
# the first host DJANGO_ALLOWED_HOSTS names (base.links.site_base); never while any
# host is allowed without a site address. Without mail, the registration's private link
# shows all a mail would say.
EMAIL_HOST = env_str("DJANGO_EMAIL_HOST", "")
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("DJANGO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = env_str("DJANGO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_TLS", True)
# The sender of every mail; unset, "Bummerl <bummerl@HOST>" on the site's host (base.mail).
DEFAULT_FROM_EMAIL = env_str("DJANGO_EMAIL_FROM", "")

# A table's private link stops working this many days after the table was opened.
LINK_DAYS = env_int("BUMMERL_LINK_DAYS", 3)
# A tournament's match links stop working this many hours after the night's last draw or
# result (tournaments.links), whatever date the tournament was announced for.
MATCH_LINK_HOURS = env_int("BUMMERL_MATCH_LINK_HOURS", 12)
# A club's rating list ranks the players with at least this many rated games (ratings).
RATING_MIN_GAMES = env_int("BUMMERL_RATING_MIN_GAMES", 10)
# An invitation to join a club can be accepted for this many days.
INVITE_DAYS = env_int("BUMMERL_INVITE_DAYS", 7)
# A password reset link (made by a club's owner, no mail is sent) works for 3 days,
# as its page says.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600

# Limits, so that one request cannot starve the server. An imported sheet (pasted or a
# file) has at most BUMMERL_IMPORT_MAX_KB kilobytes, BUMMERL_MAX_DEALS deals and
# BUMMERL_MAX_TEXT characters in any one string; an export takes about 600 bytes a deal.
BUMMERL_IMPORT_MAX_BYTES = env_int("BUMMERL_IMPORT_MAX_KB", 1024) * 1024
BUMMERL_MAX_DEALS = env_int("BUMMERL_MAX_DEALS", 1000)
BUMMERL_MAX_TEXT = env_int("BUMMERL_MAX_TEXT", 1000)
# A request (form fields and files together) has at most the import's size and a little
# more for the other fields: a larger one is refused at the door, by its Content-Length,
# with that limit named (bummerl.middleware.RequestChecksMiddleware). Django's own limits
# are the same, for a request sent without a length.
BUMMERL_REQUEST_MAX_BYTES = BUMMERL_IMPORT_MAX_BYTES + 64 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = BUMMERL_REQUEST_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = BUMMERL_REQUEST_MAX_BYTES
DATA_UPLOAD_MAX_NUMBER_FILES = 2

ROOT_URLCONF = "bummerl.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # phones_unreachable: links of the page that no phone reaches
                "base.links.phone_reach",
            ],
            "libraries": {"durations": "base.durations"},
        },
    },
]

WSGI_APPLICATION = "bummerl.wsgi.application"

DATABASE_URL = env_str("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    # Many phones write to one laptop: WAL lets readers go on while a deal is written,
    # IMMEDIATE takes the write lock at BEGIN (no upgrade deadlock between two writers),
    # and the busy timeout makes a second writer wait instead of failing.
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": env_int("SQLITE_TIMEOUT", 20),
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
                ),
            },
            # Tests use a file too: an in-memory database has table locks, not the
            # busy timeout that lets concurrent phones wait their turn.
            "TEST": {"NAME": env_str("SQLITE_TEST_PATH", str(BASE_DIR / "test-db.sqlite3"))},
        }
    }

# Each server process keeps the sheet pages' rendered bodies in its own memory
# (``scoring.fragments``): derived from the database, keyed by the sheet's state, so a
# process that restarts, or another worker, only renders them once more.
# The default cache is each process's memory unless BUMMERL_CACHE_URL=redis://host:port/db
# names a Redis that every server process shares.
CACHE_URL = env_str("BUMMERL_CACHE_URL", "")
if CACHE_URL and not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"BUMMERL_CACHE_URL={CACHE_URL!r} is not a redis:// address")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    "fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fragments",
        "TIMEOUT": 3600,
        "OPTIONS": {"MAX_ENTRIES": 1000},
    },
    # Printouts made once per content (base.printing.pdf_response), in files that every
    # server process reads, for a day.
    "printouts": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": env_str("BUMMERL_PRINT_CACHE", str(BASE_DIR / "cache" / "printouts")),
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 500},
    },
}
# The push channel (base.push): writers announce a change over Redis, and the push server
# (bummerl.asgi, `make serve` starts it beside gunicorn) holds a sheet's version request
# until the sheet changes or PUSH_SECONDS pass. Off (every page polls) when unset.
PUSH_URL = env_str("BUMMERL_PUSH_URL", "")
if PUSH_URL and not PUSH_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"BUMMERL_PUSH_URL={PUSH_URL!r} is not a redis:// address")
PUSH_SECONDS = env_int("BUMMERL_PUSH_SECONDS", 25)
# Holds in progress at once per link (a table's or an account's), per session and per
# client address (an IPv6 /64 as one; a club's phones may share one address on its
# Wi-Fi); a request over a cap is answered at once, as a plain poll.
PUSH_HOLDS_PER_LINK = env_int("BUMMERL_PUSH_HOLDS_PER_LINK", 20)
PUSH_HOLDS_PER_SESSION = env_int("BUMMERL_PUSH_HOLDS_PER_SESSION", 20)
PUSH_HOLDS_PER_ADDRESS = env_int("BUMMERL_PUSH_HOLDS_PER_ADDRESS", 1000)
# The task queue (base.tasks, django-q2): printouts that take more than a second are
# made by its worker (`manage.py qcluster`, started beside the site by `make run`). Its
# broker is the database by default; BUMMERL_TASK_BROKER=redis://host:port/db picks Redis.
TASK_BROKER = env_str("BUMMERL_TASK_BROKER", "database")
Q_CLUSTER = {
    "name": "bummerl",
    "workers": env_int("BUMMERL_TASK_WORKERS", 1),
    "timeout": 600,  # the largest printout takes some 15 s; a stuck one is ended
    "retry": 660,
    "max_attempts": 1,  # a printout that failed is asked for again by its page
    "ack_failures": True,
    "save_limit": 50,
    "label": "Tasks",
    "catch_up": False,
    "poll": 0.5,
    **({"redis": TASK_BROKER} if TASK_BROKER.startswith("redis") else {"orm": "default"}),
}
# The first run's one-time code (clubs.first_run): its hash and the wrong tries.
SETUP_CODE_FILE = Path(
    env_str("BUMMERL_SETUP_CODE_FILE", str(BASE_DIR / "cache" / "setup-code.json"))
)
# Tasks run at once in the process that enqueues them (the test run sets it).
TASKS_SYNC = env_bool("BUMMERL_TASKS_SYNC", False)

# A private link or an anonymous visitor's address makes at most PRINT_RENDERS new
# printouts in PRINT_WINDOW seconds, a signed-in account PRINT_RENDERS_ACCOUNT; one
# already made for the same content is free (base.printing, counted by base.limits).
PRINT_RENDERS = env_int("BUMMERL_PRINT_RENDERS", 10)
PRINT_RENDERS_ACCOUNT = env_int("BUMMERL_PRINT_RENDERS_ACCOUNT", 40)
PRINT_WINDOW = env_int("BUMMERL_PRINT_WINDOW", 600)
# The public registration form of an announced night (tournaments.views.registrations):
# at most this many registrations sent from one address (an IPv6 /64) in the window's
# seconds, counted in the database (base.limits) that every server process shares.
REGISTRATION_POSTS = env_int("BUMMERL_REGISTRATION_POSTS", 10)
REGISTRATION_WINDOW = env_int("BUMMERL_REGISTRATION_WINDOW", 3600)
# Cards freed on a full night are offered to the first on the waiting list for this many
# hours (never past the close of registration); unanswered, they go to the next in line.
REGISTRATION_OFFER_HOURS = env_int("BUMMERL_OFFER_HOURS", 24)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "de-at"
LANGUAGES = [("de-at", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Vienna"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Errors go to stderr with their traceback (gunicorn and runserver put stderr in the
# server's log): a server error (django.request at ERROR, with the traceback of an
# exception), refused hosts and other suspicious requests (django.security), and the
# site's own loggers (bummerl, clubs, scoring, tournaments) from DJANGO_LOG_LEVEL on.
LOG_LEVEL = env_str("DJANGO_LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"()": "bummerl.logs.Formatter"},
    },
    # bummerl.logs: no private link's token is written; a wrong Host is one warning line.
    "filters": {
        "private_links": {"()": "bummerl.logs.RedactPrivateLinks"},
        "one_line": {"()": "bummerl.logs.OneLine"},
        "quiet_polls": {"()": "bummerl.logs.QuietPolls"},
        "not_job_lines": {"()": "base.tasks.NotJobLines"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["private_links"],
        },
    },
    # One handler, at the root: every logger below reaches it by propagation.
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": [], "level": "WARNING"},
        "django.request": {"handlers": [], "level": "ERROR"},
        "django.security": {"handlers": [], "level": "WARNING"},
        "django-q": {"handlers": [], "level": "WARNING", "filters": ["not_job_lines"]},
        # runserver's request lines (the laptop): the same handler, without the polls.
        "django.server": {
            "handlers": ["stderr"],
            "level": "INFO",
            "propagate": False,
            "filters": ["quiet_polls"],
        },
        "django.security.DisallowedHost": {
            "handlers": [],
            "level": "WARNING",
            "filters": ["one_line"],
        },
        **{
            name: {"handlers": [], "level": LOG_LEVEL}
            for name in ("base", "bummerl", "clubs", "scoring", "seasons", "tournaments")
        },
    },
}

SECURE_CONTENT_TYPE_NOSNIFF = True
# A load balancer's or monitor's health check may ask over plain http: /healthz answers
# there too (SecurityMiddleware matches these against the path without its first "/").
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy of every answer (base.csp): the site's own scripts and styles
# only, no inline script or style, no eval, images of its own or data:, no plugins, never
# in a frame, forms and <base> to itself. The admin and PDFs work under it as well.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# Permissions-Policy of every answer (base.csp): the browser features the site uses are
# allowed to its own pages only (copying a link, the phone's share sheet); every other
# powerful feature is refused, for the site and for anything it might show in a frame.
PERMISSIONS_POLICY = ", ".join(
    [
        *(
            f"{feature}=()"
            for feature in (
                "accelerometer",
                "autoplay",
                "camera",
                "clipboard-read",
                "display-capture",
                "encrypted-media",
                "fullscreen",
                "geolocation",
                "gyroscope",
                "hid",
                "idle-detection",
                "magnetometer",
                "microphone",
                "midi",
                "payment",
                "picture-in-picture",
                "publickey-credentials-get",
                "screen-wake-lock",
                "serial",
                "usb",
                "xr-spatial-tracking",
            )
        ),
        "clipboard-write=(self)",
        "web-share=(self)",
    ]
)
if not DEBUG:
    # Behind HTTPS (a club's server): secure cookies, HTTPS only, HSTS. The pub laptop
    # serves plain http on the local Wi-Fi: `make run` turns these off by environment.
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
