"""Settings, all from the environment (twelve-factor), with defaults that run on a laptop."""

import os
import sys
import tempfile
from pathlib import Path

import dj_database_url
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent
TESTING = "pytest" in sys.modules
if TESTING:
    # Test processes run side by side (pytest-xdist) and beside `make run`: each keeps its files (the
    # embedded broker, the health records) and its Redis keys to itself, whatever it inherited from
    # the process that started it (xdist's). In the environment, so that the servers and workers a
    # test starts share them.
    os.environ["SLOWHAND_VAR_DIR"] = str(Path(tempfile.gettempdir()) / f"slowhand-test-{os.getpid()}")
    os.environ["REDIS_KEY_PREFIX"] = f"slowhand-test-{os.getpid()}:"
VAR_DIR = Path(os.environ.get("SLOWHAND_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_count(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name) or default)
    except ValueError:
        value = -1
    if value < 0:
        raise ImproperlyConfigured(f"{name} must be a whole number, 0 or more.")
    return value


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if not DEBUG:
    required = {"DJANGO_SECRET_KEY": SECRET_KEY, "DJANGO_ALLOWED_HOSTS": ALLOWED_HOSTS}
    missing = [name for name, value in required.items() if not value]
    if missing:
        raise ImproperlyConfigured(f"With DJANGO_DEBUG=0 these must be set: {', '.join(missing)}.")
else:
    # Only for local development: a fresh key each start would log everyone out, so derive a
    # stable one from the checkout's path. Production refuses to start without a real key.
    SECRET_KEY = SECRET_KEY or f"dev-only-insecure-{BASE_DIR}"
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "[::1]", "testserver"]

CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "accounts",
    "games",
    "notifications",
    "live",
    "stats",
    "tournaments",
    "orders",
    "social",
    "frontend",
    "django.forms",  # last: the widget templates of frontend/templates/django/forms/ come first
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outside the rest, so it sees the pages they and Django answer with; inside SecurityMiddleware,
    # so its JSON gets the security headers.
    "config.middleware.ApiErrorShapeMiddleware",
    # 503 with Retry-After while the database cannot be reached; outside the session's middleware.
    "config.middleware.DatabaseOutageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
# Form widgets render through TEMPLATES, so a number input can take Persian digits on a Persian page.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"
# Error reports (the DEBUG 500 page, the admins' emails) hide the games' hands, stock and seed.
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.error_reports.GameSecretsReporterFilter"
DEFAULT_EXCEPTION_REPORTER = "config.error_reports.GameSecretsExceptionReporter"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# Under ASGI: the connections a process's pool holds, and the requests to synchronous views it runs
# at once (config.concurrency), fewer, so that the streams' reads always find a connection.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "20"))
ASGI_SYNC_REQUESTS = int(os.environ.get("ASGI_SYNC_REQUESTS", str(max(1, DATABASE_POOL_SIZE - 4))))
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # SQLite has one writer at a time and no row locks (select_for_update does nothing here). A
    # default (DEFERRED) transaction reads, then asks for the write lock at its first write; when
    # another connection wrote in between, waiting cannot help (what it read is stale), so SQLite
    # fails it at once with "database is locked", a 500. IMMEDIATE takes the write lock at BEGIN:
    # writers queue on the busy timeout (seconds) and each reads only once it holds the lock.
    # WAL lets reads run beside the writer; synchronous=NORMAL is safe with WAL (a power cut can
    # lose the last commits, never corrupt the file). Django runs each ";"-separated statement of
    # init_command on every new connection.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
    if DATABASES["default"]["NAME"] not in ("", ":memory:"):
        # Tests get a file, not Django's in-memory default, so that threads in the concurrency
        # tests write over connections of their own; one file per test process.
        test_file = Path(tempfile.gettempdir()) / f"slowhand-test-{os.getpid()}.sqlite3"
        DATABASES["default"]["TEST"] = {"NAME": str(test_file)}
elif os.environ.get("SLOWHAND_SERVER") == "asgi":
    # Under ASGI (config/asgi.py sets this) long-lived streams would each keep a persistent
    # connection; psycopg's pool lends one for each read instead, and takes it back at once.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DATABASE_POOL_SIZE),
        "max_size": DATABASE_POOL_SIZE,
        "timeout": 10,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.password_rules.MinimumLengthValidator"},  # its figure in the reader's digits
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("tr", "Türkçe"), ("fa", "فارسی")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# With DEBUG (make run) whitenoise serves the apps' static files as they are, without collectstatic.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Slowhand <noreply@localhost>")
# The public address of the site, for links in emails, invitations and calendars sent from workers
# (`make run` sets it from HOST and PORT).
SITE_URL = os.environ.get("SITE_URL") or "http://127.0.0.1:8000"
# Webhooks to private or loopback addresses: fine on a laptop, refused in production.
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", DEBUG)

# Web Push (notifications/vapid.py): the site's VAPID pair, base64url (`manage.py generate_vapid_keys`),
# and the contact that push services see in every message's token. Without a pair a development
# site makes one of its own in VAPID_DEV_KEYS_FILE; production without one sends no pushes.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@localhost")
VAPID_DEV_KEYS_FILE = str(VAR_DIR / "vapid-dev-keys.json") if DEBUG else ""
# A worker's claim on a delivery it is sending (a dead worker's deliveries go out again after it).
DELIVERY_CLAIM_SECONDS = int(os.environ.get("DELIVERY_CLAIM_SECONDS", "120"))
# Push endpoints over plain http or at private addresses: only for a local test push service.
PUSH_ALLOW_PRIVATE = env_bool("PUSH_ALLOW_PRIVATE", DEBUG)

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Content-Security-Policy and HTTPS ------------------------------------------------------
# Every response says that only the site's own files may run or style it: no inline script or
# style, no other origin. The API docs' start-up script comes from its own address for this
# (SpectacularSwaggerSplitView), and that page alone adds data: images, the icons inside Swagger
# UI's stylesheet (config/urls.py). With DEBUG, django-csp leaves Django's technical 404 and 500
# pages (inline styles) alone.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [csp.SELF],
        "img-src": [csp.SELF],
        "font-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "manifest-src": [csp.SELF],
        "worker-src": [csp.SELF],
        "object-src": [csp.NONE],
        "frame-src": [csp.NONE],
        "base-uri": [csp.NONE],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}
# HTTPS only, once the site is served over it (0 and off by default: a browser keeps HSTS for
# the whole period, and preloading reaches every browser; see the README before turning them on).
SECURE_HSTS_SECONDS = env_count("DJANGO_SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
# The load balancer's health check may come over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --- Client addresses and limits ------------------------------------------------------------
# How many proxies of our own stand in front of the web processes, each appending to
# X-Forwarded-For. 0: the header is ignored (anyone can write it) and REMOTE_ADDR is the client.
# config/client_address.py reads it for every per-address limit; DRF's NUM_PROXIES agrees.
TRUSTED_PROXY_COUNT = env_count("TRUSTED_PROXY_COUNT", 0)
# Failed logins per (username, client address) before the pair is locked; the lock starts at
# LOGIN_LOCK_SECONDS and doubles with each further failure up to LOGIN_LOCK_MAX_SECONDS.
LOGIN_FAILURES_BEFORE_LOCK = env_count("LOGIN_FAILURES_BEFORE_LOCK", 5)
LOGIN_LOCK_SECONDS = env_count("LOGIN_LOCK_SECONDS", 60)
LOGIN_LOCK_MAX_SECONDS = env_count("LOGIN_LOCK_MAX_SECONDS", 3600)
# Password-reset requests per hour: per client address, and per email address asked for.
PASSWORD_RESETS_PER_ADDRESS_PER_HOUR = env_count("PASSWORD_RESETS_PER_ADDRESS_PER_HOUR", 5)
PASSWORD_RESETS_PER_EMAIL_PER_HOUR = env_count("PASSWORD_RESETS_PER_EMAIL_PER_HOUR", 3)
# Signups per hour: per client address, and signup mails per email address.
SIGNUPS_PER_ADDRESS_PER_HOUR = env_count("SIGNUPS_PER_ADDRESS_PER_HOUR", 10)
SIGNUPS_PER_EMAIL_PER_HOUR = env_count("SIGNUPS_PER_EMAIL_PER_HOUR", 3)

# --- REST API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # Per client address (config.client_address) for anonymous requests, per user and per token for
    # the rest, counted in one round trip (accounts/throttles.py). NUM_PROXIES makes any other DRF
    # throttle read X-Forwarded-For the same way (None would trust it from anyone).
    "DEFAULT_THROTTLE_CLASSES": ["accounts.throttles.ApiRateThrottle"],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "60/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "600/minute"),
        "token": os.environ.get("API_THROTTLE_TOKEN", os.environ.get("API_THROTTLE_USER", "600/minute")),
        # Per player: a call can cost an advisor process a second (games/advice_pool.py).
        "advice": os.environ.get("API_THROTTLE_ADVICE", "30/minute"),
    },
    # The API speaks JSON only (the pages' forms are not part of it); drf-spectacular documents
    # request bodies in the parsers' content types. DRF's JSONParser, bounded in body size and
    # in nesting depth (config.parsers).
    "DEFAULT_PARSER_CLASSES": ["config.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.api_exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
# Advice is computed in at most this many advisor processes at once per machine; a request waits
# this long for one (games/advice_pool.py), then is answered 503 with Retry-After.
ADVICE_PROCESSES = max(1, int(os.environ.get("ADVICE_PROCESSES", "1")))
ADVICE_WAIT_SECONDS = float(os.environ.get("ADVICE_WAIT_SECONDS", "1"))
SPECTACULAR_SETTINGS = {
    "TITLE": "Slowhand API",
    "DESCRIPTION": "Correspondence Scat and Scattle: lobby, games, moves, history and profiles.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from our own static files: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "GameKindEnum": "games.engine.KINDS",
        # The game's status keeps its name beside the review's own status.
        "StatusEnum": "games.models.GameStatus",
        "NotificationKindEnum": "notifications.models.NotificationKind",
        # A seat's bot_level and a new game's bots: one enum, not two names for the same levels.
        "BotLevelEnum": "games.engine.bots.BOT_LEVELS",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
        # An action's card and the cards of a meld: one enum of the contract's card codes.
        "CardEnum": "games.engine.cards.DECK",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.add_error_responses",
        "live.schema.add_streams",
    ],
}

# --- Cache and Celery -----------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# What this site keeps in Redis (the cache, the live channels, and the broker's queues when this is
# set in the environment) is under this prefix, so that several sites, or test processes, can share
# one Redis database.
REDIS_KEY_PREFIX = os.environ.get("REDIS_KEY_PREFIX") or "slowhand:"
if REDIS_URL:
    redis_cache = {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": REDIS_URL,
        # Fail fast while Redis is away: the cache is an optimisation, never a reason to wait.
        "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
    }
    CACHES = {
        "default": {**redis_cache, "KEY_PREFIX": f"{REDIS_KEY_PREFIX}cache"},
        # When the worker and beat last showed signs of life (config/health.py), for every web process.
        "health": {**redis_cache, "KEY_PREFIX": f"{REDIS_KEY_PREFIX}health"},
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"visibility_timeout": 3600}
    if os.environ.get("REDIS_KEY_PREFIX"):
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = REDIS_KEY_PREFIX
else:
    # No broker to run: kombu's SQLAlchemy transport on a SQLite file under var/ (config/broker.py),
    # which the web process, beat and the worker all write to; `make run` starts the worker and beat.
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "health": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": VAR_DIR / "health"},
    }
    CELERY_BROKER_URL = f"sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A move waits for at most this long to queue its follow-up work when the broker is away.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    # Every 2 s, so a turn is played out within seconds of its deadline: the claim is one scan of a
    # partial index (about a millisecond at 100,000 games when nothing is due).
    "sweep-timeouts": {"task": "games.tasks.sweep_timeouts", "schedule": 2.0},
    "sweep-reminders": {"task": "games.tasks.sweep_reminders", "schedule": 30.0},
    # Emails go out with this sweep (and retries, and whatever a lost message left behind).
    "sweep-deliveries": {"task": "notifications.tasks.sweep_deliveries", "schedule": 10.0},
    "sweep-vacations": {"task": "games.tasks.sweep_vacations", "schedule": 300.0},
    "send-digests": {"task": "notifications.tasks.send_digests", "schedule": 900.0},
    "prune-presence": {"task": "notifications.tasks.prune_presence", "schedule": 3600.0},
    "prune-stream-logs": {"task": "live.tasks.prune_stream_logs", "schedule": 3600.0},
    "sweep-reviews": {"task": "games.tasks.sweep_reviews", "schedule": 600.0},
    # Tournaments due to start; clocks a vacation stopped where the rounds do not wait for it.
    "sweep-tournament-starts": {"task": "tournaments.tasks.sweep_tournament_starts", "schedule": 60.0},
    "sweep-tournament-clocks": {"task": "tournaments.tasks.sweep_tournament_clocks", "schedule": 60.0},
}
# The queues a worker reads when not told otherwise (`make run`'s and `make worker`'s read them all): a
# new queue is one more name here, and a route. Post-game reviews are long simulations: a queue of
# their own, so that a deployment can give them their own workers (`celery -A config worker -Q reviews`).
# The sweeps that hand out work have a queue of their own: a worker takes from its queues in turn, so
# a burst of long tasks (bots playing a game out) delays the next timeout sweep by one task, not all.
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name) for name in ("celery", "sweeps", "reviews")]
CELERY_TASK_ROUTES = {
    "games.tasks.review_game": {"queue": "reviews"},
    "games.tasks.sweep_timeouts": {"queue": "sweeps"},
    "games.tasks.sweep_reminders": {"queue": "sweeps"},
    "notifications.tasks.sweep_deliveries": {"queue": "sweeps"},
}

# Live event streams (live/): a keep-alive after this many seconds without an event.
LIVE_KEEPALIVE_SECONDS = float(os.environ.get("LIVE_KEEPALIVE_SECONDS", "10"))
# With Redis, the database is asked this often too, in case a message was lost.
LIVE_DATABASE_CHECK_SECONDS = float(os.environ.get("LIVE_DATABASE_CHECK_SECONDS", "5"))

REQUIRE_SERVICES = env_bool("REQUIRE_SERVICES", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    # Database errors quote the failing row (a game's seed and snapshot among its columns): redacted.
    "filters": {"game_secrets": {"()": "config.error_reports.RedactGameSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["game_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
