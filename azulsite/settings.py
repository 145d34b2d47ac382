"""Settings for azulsite, read from the environment with safe defaults for local use.

Fail safe: ``DEBUG`` is off unless the environment turns it on, so a production
that forgets it never runs with the development key (it refuses to start without
``SECRET_KEY``). Local use sets ``DEBUG=true`` (the README's run command does;
the tests' settings, ``tests/settings.py``, do too) and needs nothing else:
SQLite in ``db.sqlite3``, the in-memory channel layer, e-mail printed on the
console. Production sets ``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``ADMIN_URL`` (and
usually ``DATABASE_URL``, ``REDIS_URL``, ``EMAIL_HOST``); the security settings
below are on and ``manage.py check --deploy`` passes
(``tests/accounts/test_settings.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from games.engine import review

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

_DEV_SECRET_KEY = "django-insecure-local-development-only-never-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set SECRET_KEY when DEBUG is off (for a local run, set DEBUG=true)."
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # before staticfiles: its runserver serves ASGI
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "django_htmx",
    "template_partials",
    "axes",
    "django_ratelimit",
    "django_tasks",
    "django_tasks_db",
    "ninja",  # its schema export command and its API docs page's assets
    "accounts",
    "games",
    "chat",
    "leagues",
    "api",
    "notify",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A view's database error of the moment (a connection cut) answers 503 with
    # Retry-After, not 500; a middleware's, handler500 (azulsite/unavailable.py).
    "azulsite.unavailable.DatabaseUnavailableMiddleware",
    "azulsite.site_url.SiteUrlMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After auth: a signed-in player's saved language beats cookie/Accept-Language.
    "accounts.middleware.UserLanguageMiddleware",
    # After auth: pages are drawn in the signed-in player's time zone.
    "accounts.timezones.UserTimeZoneMiddleware",
    # After auth: a signed-in player's request is "last seen" (once a minute).
    "accounts.presence.LastSeenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After django-htmx: an HTMX action sent to log in goes there as a page.
    "accounts.middleware.HtmxLoginRedirectMiddleware",
    # Turns django-ratelimit's refusals into RATELIMIT_VIEW's 429 page.
    "django_ratelimit.middleware.RatelimitMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "azulsite.urls"


def _socket_sources(hosts: list[str]) -> list[str]:
    """The site's own WebSocket origins (``connect-src``): ``'self'`` covers them
    in CSP 3, these spell them out for browsers that do not."""
    schemes = ["wss"] if not DEBUG else ["ws", "wss"]
    sources = []
    for host in hosts:
        if host in ("*", "") or host.startswith("["):
            continue
        host = "*" + host if host.startswith(".") else host
        sources += [f"{scheme}://{host}" for scheme in schemes]
    return sources


# Content-Security-Policy (django-csp): the site's own scripts, styles, fonts and
# images only, and nothing inline — no <script> or style="" in any template;
# htmx is told not to inject its indicator styles nor to eval (templates/
# base.html). The pages open WebSockets to their own host (static/js/live.js).
# The web app manifest and the service worker (/sw.js, notify/) are the site's
# own; the push service's endpoint is posted to by the server, never the page.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF, *_socket_sources(ALLOWED_HOSTS)],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Permissions-Policy (django-permissions-policy): a board game needs no device.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "screen-wake-lock",
        "usb",
        "xr-spatial-tracking",
    )
}

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
                "games.context_processors.turn_badge",
            ],
        },
    },
]

ASGI_APPLICATION = "azulsite.asgi.application"
WSGI_APPLICATION = "azulsite.wsgi.application"

# Database: DATABASE_URL, else SQLite next to manage.py. SQLite gets WAL, a busy
# timeout and BEGIN IMMEDIATE transactions so concurrent moves queue instead of
# failing with "database is locked".
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_health_checks=True,
    )
}
# Django's default: a connection per request (under ASGI each request runs in a
# thread of its own, where persistent connections are not reused safely).
DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE") or 0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        # WAL: readers never wait for the writer; NORMAL: a commit waits for
        # the WAL write, not an fsync (durable across a crash of the process,
        # not of the machine); a 32 MB page cache and 256 MB memory map per
        # connection; temporary tables in memory.
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
            "PRAGMA cache_size=-32000; PRAGMA mmap_size=268435456; "
            "PRAGMA temp_store=MEMORY;"
        ),
    }
    # A file (not :memory:) so a live Daphne test server shares it
    # (docs/stack.md pitfall 4).
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_DB_NAME") or str(BASE_DIR / "test_db.sqlite3")
    }
else:
    DATABASES["default"]["TEST"] = {"NAME": "test_" + str(DATABASES["default"]["NAME"])}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses locked-out attempts
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"

# The admin's address (azulsite/urls.py). Production sets its own, so the
# admin's log-in is not where every scanner looks (``check --deploy`` warns while
# it is the default); its log-in is throttled like the site's (django-axes
# counts every ``authenticate()``, tests/accounts/test_admin.py).
ADMIN_URL = (os.environ.get("ADMIN_URL") or "admin").strip("/") + "/"

# Login throttling: 5 failures for one username from one address lock it for 1 h.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The client's address is REMOTE_ADDR: behind the proxy, Daphne's
# --proxy-headers puts the forwarded client there (deploy/). Reading
# X-Forwarded-For here would let anyone pick the address they are locked by.
AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]

# Rate limits (django-ratelimit; the rates are on the views): sign-ups and
# password-reset e-mails per address, reset e-mails per recipient, imports per
# account. Refused requests get 429 (accounts.views.rate_limited).
RATELIMIT_VIEW = "accounts.views.rate_limited"
# Chat messages one account may write (issue #26), all games together:
# django-ratelimit's "count/period" (s, m, h or d).
CHAT_MESSAGES_RATE = os.environ.get("CHAT_MESSAGES_RATE", "10/m")

# Internationalisation: every user-facing string is translatable; catalogs for vi,
# pt_BR and ko live in locale/ (compiled .mo committed; glossary in
# locale/GLOSSARY.md). Language: the account's saved one, else the switcher's
# cookie, else Accept-Language, else English.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("vi", _("Vietnamese")),
    ("pt-br", _("Brazilian Portuguese")),
    ("ko", _("Korean")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language switcher's cookie (Django's set_language): never sent to another
# site, and over HTTPS only in production (below), like the session's.
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
# Date and time orders each language's readers expect where Django's own differ
# (Vietnamese day/month/year with a 24-hour clock, Korean 오전/오후 before the
# time): azulsite/formats/<language>/formats.py, see locale/GLOSSARY.md.
FORMAT_MODULE_PATH = "azulsite.formats"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names need collectstatic; tests and local use run with plain
        # storage (docs/stack.md pitfall 8).
        "BACKEND": os.environ.get("STATICFILES_BACKEND")
        or (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", DEBUG)

# Request bodies. The largest legitimate one is a game record upload
# (games.services.RECORD_MAX_BYTES, 1,000,000 bytes, plus the multipart wrapping):
# azulsite/bodies.py refuses any body over 1 MiB (413) before Django reads it,
# and one that has not all arrived within REQUEST_BODY_TIMEOUT seconds (408);
# deploy/nginx.conf sets the same limit (client_max_body_size 1m). Forms without
# a file are a few kB; a body within the limit is kept in memory, never spooled
# to a temporary file; an import has one file.
REQUEST_BODY_MAX_BYTES = 1024 * 1024
REQUEST_BODY_TIMEOUT = float(os.environ.get("REQUEST_BODY_TIMEOUT") or 30)
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_MAX_BYTES
DATA_UPLOAD_MAX_NUMBER_FILES = 1

# Sessions live in the database (Django's default engine): every server process
# sees them, and nothing here needs a shared cache.

# Channels: Redis when REDIS_URL is set (several processes, or the deadline job in
# a process of its own), else Channels' in-memory layer (one server process).
#
# Timeouts, chosen together:
# - Daphne closes every WebSocket after ``--websocket_timeout`` seconds (24 h by
#   default; 3600 in deploy/, so sockets spread again over the processes after a
#   restart). A correspondence page may stay open for days; it reconnects at once
#   (static/js/live.js) and the game socket's first message, the current ply,
#   makes it refetch whatever it missed.
# - A group membership expires after CHANNEL_GROUP_EXPIRY seconds. It must outlive
#   the socket, or an open page would stop hearing its doorbell: 25 h, longer
#   than Daphne's default, so no command line can get this wrong. It also bounds
#   how long the members that a killed server process never discarded linger.
# - With Redis, the layer waits up to 5 s for a message (channels_redis blocks on
#   BZPOPMIN for 5 s); redis-py 8 also times reads out after 5 s by default, which
#   killed every idle socket (django/channels_redis#422). A 15 s read timeout
#   never fires while Redis answers, and still notices a dead Redis.
#
# The Redis layer's connection pool, one per server process: CHANNEL_LAYER_
# MAX_CONNECTIONS connections at most. A connection is held while a command is
# under way: every socket's join (connect) and leave (disconnect), each ring,
# and the process's one blocking read. redis-py's default of 100 refused a
# quarter of the sockets opened in a burst through the proxy, and left a third
# of those closed at once in their groups for a day (issue #23). Each socket has
# at most one command under way, so a pool as large as the sockets a process
# holds is never refused: 1,000 by default, the most one process is measured
# holding (bench/README.md, ws.py); raise it with the process's sockets (and
# its open-files limit, deploy/README.md). What still fails (Redis away) closes
# the socket with 4013 and the page tries again later (games/consumers.py).
CHANNEL_GROUP_EXPIRY = int(os.environ.get("CHANNEL_GROUP_EXPIRY") or 25 * 3600)
CHANNEL_LAYER_MAX_CONNECTIONS = int(
    os.environ.get("CHANNEL_LAYER_MAX_CONNECTIONS") or 1000
)
REDIS_URL = os.environ.get("REDIS_URL", "")

# The cache holds the rate-limit counters, so every server process must see the
# same one: Redis when REDIS_URL is set, else this one process's memory.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CHANNEL_LAYER_PREFIX", "asgi") + "-cache",
        }
    }
    # django-ratelimit's list of backends predates Django's own RedisCache, whose
    # incr is Redis's atomic INCR: what the counters need.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # One process (the README's run command): its memory is shared by all its
    # requests, which is all django-ratelimit's "not shared" error (and its
    # "not officially supported" warning, printed at every start) is about.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "max_connections": CHANNEL_LAYER_MAX_CONNECTIONS,
                    }
                ],
                "group_expiry": CHANNEL_GROUP_EXPIRY,
                # Several sites (or test runs) can share one Redis server.
                "prefix": os.environ.get("CHANNEL_LAYER_PREFIX", "asgi"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"group_expiry": CHANNEL_GROUP_EXPIRY},
        }
    }

# E-mail: printed on the console unless an SMTP host is configured.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "azul@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Absolute links in e-mails: this base when set, else the address the site is
# served on, taken from its requests (azulsite/site_url.py).
SITE_URL = os.environ.get("SITE_URL", "")

# The deadline job (timeouts, reminders, turn e-mails) runs in the Daphne process
# every this many seconds when set (games/jobs.py; the README's run command sets
# it). 0 = off: run `manage.py process_deadlines --loop 60` as a worker process
# (deploy/; needs REDIS_URL for its doorbells to reach the pages) or from cron.
DEADLINE_LOOP_SECONDS = float(os.environ.get("DEADLINE_LOOP_SECONDS", "0") or 0)

# Web push (issue #18, notify/): the VAPID key pair that signs each push
# (base64url: the raw private key, and the public key browsers subscribe with;
# `manage.py vapid_keys` prints a new pair) and a contact for push services.
# Without the keys, one pair is generated once and kept in VAPID_KEY_FILE, beside
# the SQLite database (gitignored): right for a local run; production sets them.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT") or f"mailto:{DEFAULT_FROM_EMAIL}"
VAPID_KEY_FILE = Path(
    os.environ.get("VAPID_KEY_FILE")
    or (
        Path(str(DATABASES["default"]["NAME"])).parent
        if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
        else BASE_DIR
    )
    / "vapid-private-key.txt"
)
# Web push safety (issue #23, notify/endpoints.py). A browser names the push
# service its messages go through and the worker posts there, so only the
# browsers' own services are accepted: https, port 443, one of these hosts
# ("*." = any name under it). Chrome, Opera and Samsung Internet use
# fcm.googleapis.com (android.googleapis.com for old subscriptions), Firefox
# updates.push.services.mozilla.com, Safari web.push.apple.com, Edge
# *.notify.windows.com. At send time the name must resolve to public addresses
# only, and the worker connects to the address it checked.
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS",
    [
        "fcm.googleapis.com",
        "android.googleapis.com",
        "*.push.services.mozilla.com",
        "*.push.apple.com",
        "*.notify.windows.com",
    ],
)
# Test-only: exact origins (scheme://host:port) whose push endpoints are taken
# over http and on private addresses, for a stand-in push service (the tests'
# runs on loopback). Production leaves it empty; `check --deploy` warns if not.
PUSH_INSECURE_SERVICES = env_list("PUSH_INSECURE_SERVICES", [])
# Seconds to wait for a push service: to connect (one lost SYN is retried after
# 1 s), and for each read of its answer (they answer 201 within a second: they
# queue the message, they do not deliver it first). 5 subscriptions at most per
# account bound one notification's worst case to 5 x (3 + 5) s.
PUSH_CONNECT_TIMEOUT = float(os.environ.get("PUSH_CONNECT_TIMEOUT") or 3)
PUSH_READ_TIMEOUT = float(os.environ.get("PUSH_READ_TIMEOUT") or 5)
# Browsers with push on per account: subscribing one more removes the oldest.
PUSH_MAX_SUBSCRIPTIONS = int(os.environ.get("PUSH_MAX_SUBSCRIPTIONS") or 5)

# Background tasks (django-tasks, the backport of Django 6's django.tasks), on
# three queues so that none waits for another (issue #23): "default", the
# computer players' moves (games/tasks.py), "notify", the notifications
# (notify/tasks.py: e-mail and push, whose services may be slow), and
# "review", the reviews of finished games (games/tasks.py, issue #27: minutes
# of CPU each). The embedded default keeps the queues in the site's own
# database (django-tasks-db): no extra service. Its workers are
# `manage.py db_worker --queue-name default`, `--queue-name notify` and
# `--queue-name review` (deploy/: processes of their own, with REDIS_URL so
# their doorbells reach the pages), or, with TASK_WORKER_IN_SERVER, loops
# inside the Daphne process, one thread per queue (the README's run command:
# the in-memory channel layer only reaches this process's sockets, so its
# worker must live here too). For several machines, TASKS_BACKEND=rq queues on
# Redis (django-tasks-rq, RQ): workers are `manage.py rqworker default
# --job-class django_tasks_rq.Job` and the same with `notify` and `review`. RQ
# has no priorities, so there one account's backlog of computer turns is
# served first come, first served (games/tasks.py explains the database
# backend's fair order).
TASK_QUEUES = ["default", "notify", "review"]
# Seconds of the development machine each decision of a finished game's review
# gets (issue #27; games.engine.review: counted as search nodes and playouts, not
# by the clock); unset, the engine's default (review.DEFAULT_SECONDS, 1 s).
REVIEW_SECONDS = float(os.environ.get("REVIEW_SECONDS") or review.DEFAULT_SECONDS)

# The API's cap a token (django-ninja's AuthRateThrottle), beside its one
# request at a time (docs/api.md, "Limits").
API_RATE = os.environ.get("API_RATE") or "120/m"

# Sections other apps add to a player's profile (the profile is drawn by games,
# which knows no app above it): templates included in order, with "player".
PROFILE_SECTIONS = ["leagues/_profile_seasons.html"]

# The strong computer's budget a decision when it plays out a league game left
# unfinished on its season's last day, 16 times (leagues.services.verdict;
# docs/leagues.md, "The last day"): its node floor (200) at the default.
SEASON_DECIDE_SECONDS = float(os.environ.get("SEASON_DECIDE_SECONDS") or 0.0)
# The review queue (issue #33: four accounts' 80 imports made a played game's
# review wait 22 minutes; games/history/review_queue.py). Reviews of games played here
# are served before imports', each account's in turn with everyone else's; an
# account may ask for the reviews of this many imported records in any 24 hours.
REVIEW_IMPORTS_PER_DAY = int(os.environ.get("REVIEW_IMPORTS_PER_DAY") or 3)
# The reviews the site starts in any hour, all workers together (issue #40 item
# 4; 0: no cap). Beyond it the reviews wait in the queue, in its order, and
# start as the hour's window allows; bench/review.py prints a review's CPU and
# the workers a site of N games a day needs.
REVIEW_PER_HOUR = int(os.environ.get("REVIEW_PER_HOUR") or 0)
# A review still waiting this long after it was queued is handed to the queue
# once more by the deadline job (its task lost before it was stored); a review
# takes a minute or two, so only a lost task waits this long.
REVIEW_RETRY_SECONDS = int(os.environ.get("REVIEW_RETRY_SECONDS") or 3600)
# A review being made writes a heartbeat at least this often (at each event
# weighed once this many seconds have passed; an event takes about
# REVIEW_SECONDS of CPU), and the deadline job queues again a review whose
# worker fell silent for REVIEW_STALE_SECONDS (a worker killed mid-way).
REVIEW_HEARTBEAT_SECONDS = float(os.environ.get("REVIEW_HEARTBEAT_SECONDS") or 10)
REVIEW_STALE_SECONDS = int(os.environ.get("REVIEW_STALE_SECONDS") or 180)
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "database")
if TASKS_BACKEND == "rq":
    INSTALLED_APPS += ["django_rq"]
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": TASK_QUEUES}}
    RQ_QUEUES = {
        name: {"URL": REDIS_URL or "redis://127.0.0.1:6379/0"} for name in TASK_QUEUES
    }
else:
    TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": TASK_QUEUES}
    }
TASK_WORKER_IN_SERVER = env_bool("TASK_WORKER_IN_SERVER", False)
# A computer's turn lost with its worker (killed mid-decision: the database
# backend never runs a task left RUNNING again) or with its task (never stored)
# is found within seconds (issue #33, games/tasks.py process_computer_turns):
# the task claims the turn when it starts (Game.computer_turn_since), and every
# COMPUTER_CHECK_SECONDS the deadline loop hands the turn to the queue again
# once COMPUTER_LEASE_SECONDS have passed since it was queued or claimed with no
# task of it waiting in the queue. A decision takes about a second of CPU (the
# strong level's budget, COMPUTER_STRONG_SECONDS): keep the lease well above it.
COMPUTER_LEASE_SECONDS = float(os.environ.get("COMPUTER_LEASE_SECONDS") or 15)
COMPUTER_CHECK_SECONDS = float(os.environ.get("COMPUTER_CHECK_SECONDS") or 5)
# Where the queue cannot be read (TASKS_BACKEND=rq), the deadline job's minute
# pass hands a computer's turn to the queue again when it has waited this long.
COMPUTER_RETRY_SECONDS = float(os.environ.get("COMPUTER_RETRY_SECONDS", "60") or 60)
# The strong level's budget per decision in seconds of CPU (games.engine.bots: a
# node count, so the decision does not depend on the machine's speed); unset, the
# engine's default (bots.DEFAULT_SECONDS, 0.25 s: docs/computer.md).
_strong_seconds = os.environ.get("COMPUTER_STRONG_SECONDS")
COMPUTER_STRONG_SECONDS = float(_strong_seconds) if _strong_seconds else None

# What one account may ask of the computer players (issue #23: one account
# started 254 games a minute against the strong level and every other player
# waited minutes for a reply). Games it created with a computer seat that are not
# over (open or in progress), and such games it may create in any hour. A strong
# decision costs a worker about COMPUTER_STRONG_SECONDS; a 2-player game ~25 of
# them. 10 games at once is more than anyone plays by hand; 30 an hour leaves
# room to resign and start again. games/tasks.py also serves each account's
# queued turns in turn, so even an account at its limits delays no one else.
COMPUTER_GAMES_IN_PROGRESS = int(os.environ.get("COMPUTER_GAMES_IN_PROGRESS") or 10)
COMPUTER_GAMES_PER_HOUR = int(os.environ.get("COMPUTER_GAMES_PER_HOUR") or 30)

# E-mail floods (issue #23: 40 invitations to one player in 15 s sent 40
# e-mails; a move in a fast game e-mailed the player whose page showed it).
# One account may send this many invitations an hour (10: two or three games'
# worth of friends; beyond it, games with open seats need none), and never a
# second one to a player still to answer its first (games/services/lobby.py). One
# player hears of this many invitations an hour, from everyone together (5);
# beyond it an invitation still waits in their list, unannounced: a cap that
# refused invitations would let one account keep a player from being invited.
# No "your move" e-mail while the player has the game's page open or made a
# move in it less than TURN_EMAIL_QUIET_MINUTES ago (10): the deadline job sends
# it once they have left and stayed away that long (notify/services.py).
INVITATIONS_PER_HOUR = int(os.environ.get("INVITATIONS_PER_HOUR") or 10)
INVITATION_NOTICES_PER_HOUR = int(os.environ.get("INVITATION_NOTICES_PER_HOUR") or 5)
TURN_EMAIL_QUIET_MINUTES = float(os.environ.get("TURN_EMAIL_QUIET_MINUTES") or 10)
# Who is around (docs/together.md): a player is "online now" while a game page
# of theirs is open (its socket) or for this many seconds after a request.
PRESENCE_ONLINE_SECONDS = float(os.environ.get("PRESENCE_ONLINE_SECONDS") or 300)
# A chat message is e-mailed to a reader away from the game's page at most once
# in this many minutes per game (issue #26); pushes come for each message.
CHAT_EMAIL_QUIET_MINUTES = float(os.environ.get("CHAT_EMAIL_QUIET_MINUTES") or 30)

# Production hardening, on whenever DEBUG is off (manage.py check --deploy).
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    LANGUAGE_COOKIE_SECURE = env_bool("LANGUAGE_COOKIE_SECURE", True)
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "ready": {"class": "azulsite.ready.ReadyAnnouncer"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Daphne's "Listening on TCP address 127.0.0.1:8000", and after it the address
    # to open (azulsite/ready.py): the run command says when the site is ready.
    "loggers": {"daphne.server": {"level": "INFO", "handlers": ["ready"]}},
}
