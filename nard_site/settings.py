"""Settings for nard_site, read from the environment.

Every knob has a safe development default, so ``manage.py runserver`` works with
nothing set.  Production sets at least ``DEBUG=0``, ``SECRET_KEY``,
``ALLOWED_HOSTS`` and ``DATABASE_URL`` (see docs/configuration.md).
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# Off unless asked for: a 500 must never show the debug page by accident. Command 1
# (scripts/run.sh) and the test suite (tests/settings.py) turn it on explicitly.
DEBUG = env_bool("DEBUG", False)

_DEV_SECRET_KEY = "dev-only-secret-key-never-use-in-production-0123456789abcdefghij"
SECRET_KEY = os.environ.get("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

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
    "nard_site.api",
    "accounts",
    "games",
    "reviews",
    "ratings",
    "tournaments",
    "chat",
    "social",
    "fairplay",
    "live",
    "web",
    "django_tasks",
    "django_tasks_db",
    "oauth2_provider",  # third-party apps: OAuth 2 (accounts/oauth.py, docs/api.md)
    "corsheaders",
]

MIDDLEWARE = [
    "nard_site.metrics.RequestMetricsMiddleware",  # request id, latency by route (/metrics)
    "nard_site.api.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "nard_site.api.csp.ContentSecurityPolicyMiddleware",  # /play/ and the API docs
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",  # CORS_ALLOWED_ORIGINS; before CommonMiddleware
    "django.contrib.sessions.middleware.SessionMiddleware",
    # LocaleMiddleware for /play/ only (Accept-Language, the cookie, ?lang=); the API and
    # the admin keep LANGUAGE_CODE (web/middleware.py, docs/web.md "Languages").
    "web.middleware.PlayLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "nard_site.db_router.ReplicaRoutingMiddleware",  # no-op without DATABASE_REPLICA_URL
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "nard_site.urls"
WSGI_APPLICATION = "nard_site.wsgi.application"
ASGI_APPLICATION = "nard_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------
# DATABASE_URL selects the database (postgres://user@host:5432/name); unset, an
# SQLite file next to manage.py is used (the embedded default).  PostgreSQL runs
# through psycopg 3 with persistent connections (CONN_MAX_AGE seconds).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=os.environ.get("DB_HEALTH_CHECKS", "1") == "1",
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Server-side parameters let psycopg prepare the statements a connection runs
    # again and again (from the 5th run on), so PostgreSQL plans them once instead
    # of on every request. DB_PREPARE_THRESHOLD=0 turns this off (e.g. behind
    # PgBouncer in transaction mode before 1.21).
    _prepare = int(os.environ.get("DB_PREPARE_THRESHOLD", "5"))
    if _prepare > 0:
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=_prepare)
# Behind PgBouncer in transaction mode (deploy/cluster.sh, docs/scaling.md): a server-side
# cursor (a named cursor, used by .iterator()) lives across statements of a connection
# that PgBouncer may hand to another client between transactions:
# DB_DISABLE_SERVER_SIDE_CURSORS=1 turns them off; DB_PREPARE_THRESHOLD=0 too (PgBouncer
# before 1.21 cannot keep prepared statements either).
if os.environ.get("DB_DISABLE_SERVER_SIDE_CURSORS", "0") == "1":
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
# DOORBELL_DATABASE_URL: where the doorbell's LISTEN connections go (nard_site/doorbell.py;
# PostgreSQL), when DATABASE_URL goes through PgBouncer in transaction mode, where a LISTEN
# does not stay on one server connection: the primary itself, past the pooler (its NOTIFYs
# still go through DATABASE_URL). Unset, DATABASE_URL's connection parameters.
DOORBELL_DATABASE_URL = os.environ.get("DOORBELL_DATABASE_URL", "")
# DATABASE_REPLICA_URL: a streaming replica (hot standby) for the reads that can take lag
# (nard_site/db_router.py); unset, every read goes to DATABASE_URL as before.
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"],
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True)
    DATABASES["replica"]["OPTIONS"] = {**DATABASES["replica"].get("OPTIONS", {}),
                                       "connect_timeout": 2}
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["nard_site.db_router.ReplicaRouter"]
# A player reads the primary for this long after any write of theirs; a replica that did
# not answer is tried again after REPLICA_RETRY_SECONDS.
REPLICA_STICKY_SECONDS = int(os.environ.get("REPLICA_STICKY_SECONDS", "10"))
REPLICA_RETRY_SECONDS = float(os.environ.get("REPLICA_RETRY_SECONDS", "5"))
REPLICA_VIEWS = frozenset({"match-list", "match-games", "match-game-moves", "match-export",
                           "user-profile", "computer-levels"})
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite cannot keep a connection across threads the way PostgreSQL can.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Writers take the write lock when their transaction begins (IMMEDIATE), so a second
    # writer waits for it (up to `timeout` seconds) instead of failing with "database is
    # locked" when a read lock cannot be upgraded.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=int(os.environ.get("SQLITE_BUSY_TIMEOUT", "20")), transaction_mode="IMMEDIATE")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a check: a changed or reset password revokes the user's API tokens.
    {"NAME": "accounts.passwords.RevokeTokensOnPasswordChange"},
]
# Limits on password checks (accounts.login_limit), on every log-in path (API, play page,
# admin): a username locked *from one address* after LOGIN_FAILURE_LIMIT wrong passwords
# from it within LOGIN_FAILURE_WINDOW seconds; an address after LOGIN_ADDRESS_FAILURE_LIMIT
# wrong passwords for any names; at most LOGIN_CONCURRENT_CHECKS hashes at once per process.
AUTHENTICATION_BACKENDS = ["accounts.backends.LoginLimitBackend"]
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
LOGIN_FAILURE_WINDOW = int(os.environ.get("LOGIN_FAILURE_WINDOW", "900"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "50"))
LOGIN_CONCURRENT_CHECKS = int(os.environ.get("LOGIN_CONCURRENT_CHECKS", "1"))
# API tokens an account may hold (one per log-in); beyond it the oldest is revoked. Its
# personal tokens (POST accounts/tokens/) are capped apart, at as many: beyond, 409.
API_TOKENS_PER_ACCOUNT = int(os.environ.get("API_TOKENS_PER_ACCOUNT", "50"))
# Guests (POST accounts/guest/): at most GUESTS_PER_ADDRESS made from one client address
# within GUESTS_WINDOW seconds; `manage.py prune_guests` deletes those without a match
# made more than GUEST_TTL_HOURS ago and not seen since.
GUESTS_PER_ADDRESS = int(os.environ.get("GUESTS_PER_ADDRESS", "5"))
GUESTS_WINDOW = int(os.environ.get("GUESTS_WINDOW", "3600"))
GUEST_TTL_HOURS = float(os.environ.get("GUEST_TTL_HOURS", "24"))

# --- Third-party apps: OAuth 2 (django-oauth-toolkit; accounts/oauth.py, accounts/scopes.py)
# The authorization code grant with PKCE and its refresh tokens only; the scopes are
# accounts.scopes.SCOPES. An access token lasts OAUTH_ACCESS_TOKEN_SECONDS, its refresh
# token OAUTH_REFRESH_TOKEN_SECONDS (each refresh answers a new one).
OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "accounts.scopes.Scopes",
    "OAUTH2_VALIDATOR_CLASS": "accounts.oauth.Validator",
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OAUTH_ACCESS_TOKEN_SECONDS", "3600")),
    "REFRESH_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OAUTH_REFRESH_TOKEN_SECONDS",
                                                       str(30 * 24 * 3600))),
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,  # a refresh token used twice revokes the family
    # RFC 9700's best current practice: no implicit or password grant, no plain PKCE, the
    # access token in the Authorization header only, and tokens stored as SHA-256 only
    # (as the API's keys are: nobody reading the database can use one).
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,  # the redirect back names the server
    # Redirect URIs over https only, but in development (an app on http://127.0.0.1).
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"] if DEBUG else ["https"],
}
# /oauth/authorize/ without a session sends the browser here to log in (accounts/oauth.py).
LOGIN_URL = "/oauth/login/"
# Browser apps on other origins (scheme://host[:port], comma-separated) may call the API
# and /oauth/; none by default. With credentials (cookies) never: they send tokens.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
CORS_URLS_REGEX = r"^/(api|oauth)/"
CORS_ALLOW_HEADERS = ("accept", "authorization", "content-type", "accept-language",
                      "idempotency-key", "last-event-id")
CORS_EXPOSE_HEADERS = ("idempotent-replayed", "retry-after", "link", "etag")

LANGUAGE_CODE = "en-us"
# The play page's languages (web/locale/*/LC_MESSAGES: django.po, djangojs.po).
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "web" / "locale", BASE_DIR / "nard_site" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
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
# Serve the admin's static files straight from the apps when collectstatic has not run.
WHITENOISE_USE_FINDERS = True

# Request bodies larger than this are refused with 413 (the API's bodies are small).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("MAX_BODY_BYTES", str(256 * 1024)))

# --- Cache (throttling and log-in counters) ---------------------------------------
# Shared by every worker process, and never evicted while live (a client sending under
# many identities must not flush another's counter): Redis with REDIS_URL (configure it
# with `maxmemory-policy noeviction` or `volatile-ttl`), else a table of the database
# (`manage.py createcachetable` creates it) that drops expired entries only.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHES: dict[str, dict[str, object]]
if REDIS_URL:
    # While Redis is away the counters go to the database table (nard_site.cache).
    CACHES = {"default": {"BACKEND": "nard_site.cache.RedisWithFallback",
                          "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1}},
              "fallback": {"BACKEND": "nard_site.cache.CountersCache",
                           "LOCATION": "nard_cache", "OPTIONS": {"MAX_ENTRIES": 10000}}}
else:
    CACHES = {"default": {"BACKEND": "nard_site.cache.CountersCache",
                          "LOCATION": "nard_cache", "OPTIONS": {"MAX_ENTRIES": 10000}}}
# With Redis: after a failed call, the counters go to the database for at least this many
# seconds while one thread per process probes Redis (nard_site.cache.Breaker).
CACHE_REDIS_COOLDOWN = float(os.environ.get("CACHE_REDIS_COOLDOWN") or 5)
# Cache keys kept in the database as well as in Redis: the log-in limit's counts and
# lockouts, which must survive an outage or a Redis that comes back empty.
CACHE_DURABLE_PREFIXES = ("login-",)
# How many proxies in front of the server append to X-Forwarded-For and set
# X-Forwarded-Proto. 0: none, the headers are the client's own words and are ignored
# (the throttles count by the connection's address).
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))

# --- REST framework ---------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "accounts.authentication.OAuth2Authentication",  # Authorization: Bearer
        "accounts.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bodies only: no form or multipart parsing (nothing in the API takes a file).
    "DEFAULT_PARSER_CLASSES": ["nard_site.api.parsers.JSONParser"],
    # The browsable API (HTML pages of every answer) only in development.
    "DEFAULT_RENDERER_CLASSES": [
        "nard_site.api.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    # Serializer fields pass datetimes on; the renderer writes them (UTC, ms, Z).
    "DATETIME_FORMAT": None,
    "NUM_PROXIES": NUM_PROXIES,
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
        "rest_framework.throttling.ScopedRateThrottle",
    ],
    # Generous defaults (a whole match is hundreds of requests); tighten per deployment.
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "2000/min"),
        "user": os.environ.get("THROTTLE_USER", "20000/min"),
        "auth": os.environ.get("THROTTLE_AUTH", "600/min"),
        "analysis": os.environ.get("THROTTLE_ANALYSIS", "120/min"),
    },
    "DEFAULT_PAGINATION_CLASS": "nard_site.api.pagination.Pagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "nard_site.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "nard_site.api.schema.AutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "nard_site — the nardy family's API",
    "DESCRIPTION": (
        "Play the nardy family — Long Nardy, short nardy, backgammon and the Persian Nard — "
        "over REST, against people and the computer. Every 4xx answer has the shape "
        '`{"error": {"code", "message", "details"}}`. Authenticate with '
        "`Authorization: Token <key>` (a log-in or personal token), or a third-party app's "
        "OAuth 2 access token: `Authorization: Bearer <token>`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Swagger UI served from the sidecar package: no CDN needed.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"ColorEnum": "nardy.SIDE_NAMES",
                            "ColorChoiceEnum": "games.serializers.COLOR_CHOICES",
                            "ErrorCodeEnum": "nard_site.api.errors.ERROR_CODES",
                            "EndReasonEnum": "games.models.EndReason.values",
                            "AnswerEnum": "games.shapes.OFFER_ANSWERS",
                            "AnalysisStateEnum": "games.shapes.ANALYSIS_STATES",
                            # Two "status" choice sets now: each keeps a name of its own
                            # (the matches' the one it was published with).
                            "StatusEnum": "games.models.MatchStatus.values",
                            "TournamentStatusEnum": "tournaments.shapes.STATUSES"},
}

# --- Security (production: DEBUG off) ---------------------------------------------
# X-Forwarded-Proto is believed only from a proxy (NUM_PROXIES > 0): otherwise a
# plain-HTTP client could claim https and skip the redirect.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if NUM_PROXIES > 0 else None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# A refused CSRF check answers 403 `csrf_failed` in the error shape (the admin keeps
# Django's HTML page): nard_site/api/csrf.py.
CSRF_FAILURE_VIEW = "nard_site.api.csrf.csrf_failure"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "nard_site.metrics.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
# LOG_FORMAT=json: one JSON object a line, with the request id (nard_site/metrics.py).
if os.environ.get("LOG_FORMAT") == "json":
    LOGGING["handlers"]["console"]["formatter"] = "json"  # type: ignore[index]

# --- Metrics (nard_site/metrics.py): GET /metrics for these networks or this token ------
METRICS_ALLOWED = [ipaddress.ip_network(net.strip(), strict=False) for net in
                   os.environ.get("METRICS_ALLOWED", "127.0.0.1/32,::1/128").split(",")
                   if net.strip()]
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_THINK_WINDOW = int(os.environ.get("METRICS_THINK_WINDOW", "300"))
# health/?ready answers 503 when the oldest waiting job of the computer's queue is older.
READY_QUEUE_LAG_SECONDS = float(os.environ.get("READY_QUEUE_LAG_SECONDS", "30"))
PLAYER_STATS_SELECTOR = "games.selectors.player_stats"
# How long an Idempotency-Key is remembered, and how many an account keeps (its newest):
# a client retries within minutes; the answers kept are bounded (nard_site/api/idempotency.py).
IDEMPOTENCY_KEY_TTL = int(os.environ.get("IDEMPOTENCY_KEY_TTL", "3600"))
IDEMPOTENCY_KEYS_PER_ACCOUNT = int(os.environ.get("IDEMPOTENCY_KEYS_PER_ACCOUNT", "100"))

# --- Live streams (live/, docs/architecture.md "Live streams") ------------------------
def env_float(name: str, default: float) -> float:
    return float(os.environ.get(name) or default)


STREAM_HEARTBEAT_SECONDS = env_float("STREAM_HEARTBEAT_SECONDS", 15)  # a comment at least so often
STREAM_POLL_SECONDS = env_float("STREAM_POLL_SECONDS", 2)  # database polling while Redis is away
STREAM_MAX_SECONDS = env_float("STREAM_MAX_SECONDS", 3600)  # then the client reconnects
STREAM_RETRY_MS = int(os.environ.get("STREAM_RETRY_MS", "2000"))  # the SSE retry hint
STREAM_QUEUE_MAX = int(os.environ.get("STREAM_QUEUE_MAX", "256"))  # a slower client is cut
# Bytes a stream may hold for its client: its inbox of changes (beyond: cut, to resume with
# Last-Event-ID) and the chunks the backlog is sent in; the backlog is read
# STREAM_BACKLOG_PAGE events at a time, the next page once the last is sent.
STREAM_BUFFER_BYTES = int(os.environ.get("STREAM_BUFFER_BYTES", str(256 * 1024)))
STREAM_BACKLOG_PAGE = int(os.environ.get("STREAM_BACKLOG_PAGE", "200"))
STREAM_READY_TIMEOUT = env_float("STREAM_READY_TIMEOUT", 2)  # wait for Redis before polling
STREAM_REDIS_LINGER = env_float("STREAM_REDIS_LINGER", 60)  # keep the subscription when idle
# Without Redis, other processes' changes (the worker's moves) arrive on the doorbell
# (nard_site/doorbell.py); its listener is kept this long after the process's last stream.
STREAM_BELL_LINGER = env_float("STREAM_BELL_LINGER", 60)
DOORBELL_DIR = os.environ.get("DOORBELL_DIR", "")  # SQLite's doorbell sockets (default: tmp)
STREAM_REDIS_BACKOFF = (0.1, 5.0)  # reconnect delays, doubling up to the second
STREAM_REDIS_CHANNEL = os.environ.get("STREAM_REDIS_CHANNEL", "nard_site:live")
STREAMS_PER_ACCOUNT = int(os.environ.get("STREAMS_PER_ACCOUNT", "20"))
STREAMS_PER_IP = int(os.environ.get("STREAMS_PER_IP", "200"))
EVENTS_PAGE_SIZE = int(os.environ.get("EVENTS_PAGE_SIZE", "5000"))  # and events/?limit= max
LONG_POLL_MAX_SECONDS = 30

# --- The computer's turns: the task queue (docs/architecture.md) --------------------------
# django-tasks (the backport of Django 6's tasks framework) with its database backend: a
# job is a row of the same database, run by `manage.py db_worker` (command 1 starts one).
# TASKS_BACKEND=immediate runs each job at once, in the process that enqueues it.
_TASK_BACKENDS = {"database": "django_tasks_db.DatabaseBackend",
                  "immediate": "django_tasks.backends.immediate.ImmediateBackend"}
_task_backend = os.environ.get("TASKS_BACKEND") or "database"
if _task_backend not in _TASK_BACKENDS:
    raise ImproperlyConfigured(f"TASKS_BACKEND must be one of {', '.join(_TASK_BACKENDS)}.")
# Game reviews (reviews/) have a queue of their own ("analysis"), served by their own
# worker (`db_worker --queue-name analysis`, niced by ANALYSIS_WORKER_NICE), so a review
# never waits in front of the computer's turns; its job may run ANALYSIS_TASK_SECONDS
# before its worker stops renewing its lease.
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[_task_backend],
                     "QUEUES": ["default", "analysis"]}}
ANALYSIS_TASK_SECONDS = env_float("ANALYSIS_TASK_SECONDS", 3600)
# Reviews queued or running at once from one client address and in all, and the turns one
# account may ask reviews of in 24 hours (reviews/services.py; 3 per account at once).
ANALYSES_QUEUED_PER_ADDRESS = int(os.environ.get("ANALYSES_QUEUED_PER_ADDRESS", "6"))
ANALYSES_QUEUED_MAX = int(os.environ.get("ANALYSES_QUEUED_MAX", "200"))
ANALYSIS_TURNS_PER_DAY = int(os.environ.get("ANALYSIS_TURNS_PER_DAY", "5000"))
ANALYSIS_WORKER_NICE = int(os.environ.get("ANALYSIS_WORKER_NICE", "10"))
# The worker's lease (games/management/commands/db_worker.py): renewed
# every WORKER_HEARTBEAT_SECONDS; a computer job left RUNNING by a worker whose lease is
# older than WORKER_LEASE_SECONDS is reclaimed; a job running longer than
# WORKER_TASK_SECONDS stops the renewals (a stuck worker's turns are taken over).
WORKER_HEARTBEAT_SECONDS = env_float("WORKER_HEARTBEAT_SECONDS", 5)
WORKER_LEASE_SECONDS = env_float("WORKER_LEASE_SECONDS", 30)
WORKER_TASK_SECONDS = env_float("WORKER_TASK_SECONDS", 120)
# Ratings against pumping (ratings/services.py): a rated match ending before this many
# turns were played rates nothing; two accounts' rated matches together in 24 hours.
RATED_MIN_TURNS = int(os.environ.get("RATED_MIN_TURNS", "6"))
RATED_PER_PAIR_PER_DAY = int(os.environ.get("RATED_PER_PAIR_PER_DAY", "3"))
# Quick pairing: an entry not asked or looked at for this long is gone; a paired match
# asked without a clock gets this one (seconds per action).
PAIRING_POLL_SECONDS = env_float("PAIRING_POLL_SECONDS", 30)
PAIRING_TURN_SECONDS = int(os.environ.get("PAIRING_TURN_SECONDS", "300"))
# Matches against the built-in computer one account may have unfinished.
COMPUTER_MATCHES_PER_ACCOUNT = int(os.environ.get("COMPUTER_MATCHES_PER_ACCOUNT", "5"))
# Tournaments (docs/tournaments.md): how many not yet finished one account may have created;
# the clock of a tournament created without one (a tournament match never waits forever);
# how often an open tournament stream looks for news.
TOURNAMENTS_PER_ACCOUNT = int(os.environ.get("TOURNAMENTS_PER_ACCOUNT", "3"))
TOURNAMENT_DEFAULT_TURN_SECONDS = int(os.environ.get("TOURNAMENT_DEFAULT_TURN_SECONDS", "120"))
TOURNAMENT_STREAM_POLL_SECONDS = env_float("TOURNAMENT_STREAM_POLL_SECONDS", 1)
# An account's open invitations, to one player, and made in an hour.
INVITATIONS_OPEN_PER_ACCOUNT = int(os.environ.get("INVITATIONS_OPEN_PER_ACCOUNT", "20"))
INVITATIONS_OPEN_PER_PLAYER = int(os.environ.get("INVITATIONS_OPEN_PER_PLAYER", "3"))
INVITATIONS_PER_HOUR = int(os.environ.get("INVITATIONS_PER_HOUR", "60"))

# --- fair play (docs/fairplay.md) ---------------------------------------------------
# Reviews of rated matches queued by fair play (depth 0, the analysis worker's lowest
# priority) in 24 hours at most (0: none); the score (0-100) from which an account with
# at least FAIRPLAY_MIN_GAMES reviewed games goes to the staff's queue, over its newest
# FAIRPLAY_LAST_GAMES; after a decision, the reviewed games needed before it is looked at
# again.
FAIRPLAY_REVIEWS_PER_DAY = int(os.environ.get("FAIRPLAY_REVIEWS_PER_DAY", "500"))
FAIRPLAY_THRESHOLD = env_float("FAIRPLAY_THRESHOLD", 60)
FAIRPLAY_MIN_GAMES = int(os.environ.get("FAIRPLAY_MIN_GAMES", "5"))
FAIRPLAY_LAST_GAMES = int(os.environ.get("FAIRPLAY_LAST_GAMES", "30"))
FAIRPLAY_RECHECK_GAMES = int(os.environ.get("FAIRPLAY_RECHECK_GAMES", "10"))

# --- chat and moderation (docs/chat.md) ---------------------------------------------
# A line's length, an account's lines a minute and reports an hour, and how long a
# match's rooms stay open for "gg" after it ends.
CHAT_MAX_CHARS = int(os.environ.get("CHAT_MAX_CHARS", "300"))
CHAT_LINES_PER_MINUTE = int(os.environ.get("CHAT_LINES_PER_MINUTE", "10"))
CHAT_REPORTS_PER_HOUR = int(os.environ.get("CHAT_REPORTS_PER_HOUR", "20"))
CHAT_AFTER_MATCH_MINUTES = env_float("CHAT_AFTER_MATCH_MINUTES", 10)
# A new account's links are shown as text: fewer finished matches, or younger (hours).
CHAT_LINKS_MIN_GAMES = int(os.environ.get("CHAT_LINKS_MIN_GAMES", "5"))
CHAT_LINKS_MIN_HOURS = env_float("CHAT_LINKS_MIN_HOURS", 72)
# Panic mode: on for good with CHAT_PANIC=1 (staff turn it on for a while in the admin);
# then only accounts with more finished matches and older than these may chat.
CHAT_PANIC = env_bool("CHAT_PANIC", False)
CHAT_PANIC_MIN_GAMES = int(os.environ.get("CHAT_PANIC_MIN_GAMES", "10"))
CHAT_PANIC_MIN_HOURS = env_float("CHAT_PANIC_MIN_HOURS", 24)
