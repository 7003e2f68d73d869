"""Django settings, read from the environment with safe defaults for a first run.

No ``DATABASE_URL``: SQLite in the project folder. No ``CELERY_BROKER_URL``: Celery runs tasks
eagerly in-process. Set both to switch to PostgreSQL and real workers without touching code.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
# The fallback key only ever serves a local DEBUG run; with DEBUG off a real key is required.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "ludolog-local-development-only-not-secret-3f9a1c7e2b8d4f6a0e5c9b1d7a3f8e2c"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "ludolog.web",
    "accounts",
    "games",
    "records",
    "scoring",
    "plays_exchange",
    "loans",
    "reports",
    "agenda",
    "tournaments",
    "outbox",
]

MIDDLEWARE = [
    "ludolog.middleware.AfterResponseMiddleware",
    "ludolog.db_router.ReplicaReadsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "ludolog.middleware.ContentSecurityPolicyMiddleware",
    "ludolog.middleware.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.current.CurrentOrganisationMiddleware",
    "accounts.language.PersonLanguageMiddleware",
    "ludolog.middleware.LoginThrottleMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "ludolog.urls"

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
                "django.template.context_processors.i18n",
                "accounts.current.context",
                "accounts.context_processors.sign_up",
            ],
        },
    },
]

WSGI_APPLICATION = "ludolog.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        # A persistent connection the database dropped (a restart, a failover) is checked and
        # replaced before a request uses it, instead of failing that request.
        conn_health_checks=True,
    )
}
# Reads on a replica (docs/scaling.md): a PostgreSQL hot standby of the primary, streaming.
# Pages and read-only API calls read it; writes and what must read its own writes stay on the
# primary (ludolog.db_router). The test runner does not build a database of its own for it.
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"], conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        conn_health_checks=True)
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["ludolog.db_router.ReplicaRouter"]
LUDOLOG_REPLICA_STICKY_SECONDS = int(os.environ.get("LUDOLOG_REPLICA_STICKY_SECONDS", "10"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A scorekeeper and a worker write at once in eager mode too; wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# Each in its own name, as a reader looks for it in the language menu.
LANGUAGES = [("en", "English"), ("fr", "Français"), ("nl", "Nederlands"), ("cs", "Čeština")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# Sign-in by username (Django's own backend) or by the verified e-mail address of exactly one account.
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend", "accounts.backends.VerifiedEmailBackend"]
# Who may create an account: "invitation" (the default: an organisation invites them) or "open"
# (anyone, at /signup/). docs/accounts.md.
LUDOLOG_SIGNUP = os.environ.get("LUDOLOG_SIGNUP", "invitation").strip().lower() or "invitation"
if LUDOLOG_SIGNUP not in ("invitation", "open"):
    raise RuntimeError(f"LUDOLOG_SIGNUP is 'invitation' or 'open', not {LUDOLOG_SIGNUP!r}")
# How long the link that verifies an e-mail address is good for (seconds; three days, as Django's
# password reset links).
LUDOLOG_VERIFICATION_LINK_SECONDS = int(os.environ.get("LUDOLOG_VERIFICATION_LINK_SECONDS", str(3 * 24 * 3600)))

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "ludolog.api_answers.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Query parameters of the wrong type answer 400 invalid_query, an unknown id an empty list.
    "DEFAULT_FILTER_BACKENDS": ["ludolog.api_queries.FilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "ludolog.api_queries.Pages",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "ludolog.api_errors.exception_handler",
    # POST /api/auth/token/: a few tries a minute per client (wrong passwords also count toward
    # the login brake, LUDOLOG_LOGIN_FAILURES).
    "DEFAULT_THROTTLE_RATES": {"token": os.environ.get("LUDOLOG_TOKEN_RATE", "10/minute")},
    "DEFAULT_PARSER_CLASSES": [
        "ludolog.api_parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

# Wrong passwords: after this many from one address or for one username within the window
# (seconds), login forms answer 429 until the window has passed.
LUDOLOG_LOGIN_FAILURES = int(os.environ.get("LUDOLOG_LOGIN_FAILURES", "10"))
LUDOLOG_LOGIN_FAILURE_WINDOW = int(os.environ.get("LUDOLOG_LOGIN_FAILURE_WINDOW", "300"))
# Every POST to a path that sends mail (sign-up, a password reset, a verification link sent again,
# a new address) counts as a try too, against the address it comes from and the e-mail it names:
# the same brake stops a flood of accounts or of mail.
LUDOLOG_MAILING_PATHS = ("/signup/", "/password/reset/", "/account/email/", "/account/email/verify/")
LUDOLOG_LOGIN_PATHS = ("/login/", "/admin/login/", "/api-auth/login/", "/api/auth/token/", *LUDOLOG_MAILING_PATHS)
# The cache: per process by default; LUDOLOG_CACHE_URL=redis://… shares it between the web
# processes (the login counts, the replay's score series, the recorder's sentences).
if os.environ.get("LUDOLOG_CACHE_URL"):
    # A Redis that does not answer makes the cache this process's memory for a while (ludolog.cache):
    # a slower day (counts per process, caches cold), not an outage. Short timeouts: a Redis that
    # hangs costs a request a fraction of a second, once every LUDOLOG_CACHE_RETRY_SECONDS.
    CACHES = {"default": {"BACKEND": "ludolog.cache.RedisCacheWithFallback",
                          "LOCATION": os.environ["LUDOLOG_CACHE_URL"],
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
LUDOLOG_CACHE_RETRY_SECONDS = float(os.environ.get("LUDOLOG_CACHE_RETRY_SECONDS", "5"))

SPECTACULAR_SETTINGS = {
    "TITLE": "Ludolog API",
    "DESCRIPTION": "Game records as immutable events, replays, scores and the library catalogue.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema UI's assets ship with the sidecar package: nothing is loaded from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several resources have a "status": each its own enum, named for what it is.
    "ENUM_NAME_OVERRIDES": {
        "RecordStatusEnum": "records.models.GameRecord.Status",
        "RecomputeStatusEnum": "scoring.models.RecomputeRun.Status",
        "CopyStatusEnum": "games.models.Copy.Status",
        "ScoringStatusEnum": ["not_finished", "waiting", "scored", "unscorable"],
        "CopyLoanStatusEnum": ["available", "on_loan", "on_hold_shelf", "in_repair", "withdrawn", "needs_check"],
        "HoldStatusEnum": "loans.models.Hold.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "ludolog.api_answers.document_errors",
    ],
}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# Position rebuilding caches a snapshot every this many events (records/ issue).
# The library's name, printed at the top of its member cards and in the mail it sends.
LUDOLOG_LIBRARY_NAME = os.environ.get("LUDOLOG_LIBRARY_NAME", "Ludothèque")
# Mail (a household told that a game it reserved is waiting): written to the console by
# `make run`; in production through the SMTP server EMAIL_HOST (Django's EMAIL_* settings).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend" if DEBUG
                               else "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "ludotheque@localhost")
if os.environ.get("EMAIL_FILE_PATH"):  # the file backend's folder (the tests' workers write there)
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
# The outbox (outbox/): every mail is a row delivered by a worker; the beat's sweep delivers what a
# broker that was down left, this often (seconds), once it is this old (seconds: its own task may
# still be on its way), this many at a time, and gives up after this many attempts (the outbox
# page's retry button starts them over).
LUDOLOG_OUTBOX_SWEEP_SECONDS = float(os.environ.get("LUDOLOG_OUTBOX_SWEEP_SECONDS", "60"))
LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS = float(os.environ.get("LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS", "30"))
LUDOLOG_OUTBOX_SWEEP_BATCH = int(os.environ.get("LUDOLOG_OUTBOX_SWEEP_BATCH", "200"))
LUDOLOG_OUTBOX_MAX_ATTEMPTS = int(os.environ.get("LUDOLOG_OUTBOX_MAX_ATTEMPTS", "5"))
LUDOLOG_SNAPSHOT_EVERY = int(os.environ.get("LUDOLOG_SNAPSHOT_EVERY", "16"))
# Each web process keeps the latest engine state of this many records it appended to (about
# 130 KB each at the end of a game), so that an append need not rebuild the position; 0: off.
LUDOLOG_STATE_CACHE_SIZE = int(os.environ.get("LUDOLOG_STATE_CACHE_SIZE", "64"))

# Scoring (scoring/ issue). Redis redelivers a task a dead worker never acknowledged once it has
# been unacknowledged for the visibility timeout; it must exceed the longest task.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    "unacked_restore_interval": int(os.environ.get("CELERY_UNACKED_RESTORE_INTERVAL", "10")),
    "unacked_restore_throttle": int(os.environ.get("CELERY_UNACKED_RESTORE_THROTTLE", "10")),
}
LUDOLOG_SCORING_QUEUE = os.environ.get("LUDOLOG_SCORING_QUEUE", "")
LUDOLOG_SWEEP_SECONDS = float(os.environ.get("LUDOLOG_SWEEP_SECONDS", "60"))
LUDOLOG_SWEEP_GRACE_SECONDS = float(os.environ.get("LUDOLOG_SWEEP_GRACE_SECONDS", "30"))
LUDOLOG_SWEEP_BATCH = int(os.environ.get("LUDOLOG_SWEEP_BATCH", "1000"))
# A scoring task that keeps failing is retried this many times, waiting longer each time (at most
# the cap, in seconds) before it gives up; a recomputation whose chunk gives up is marked failed.
LUDOLOG_TASK_MAX_RETRIES = int(os.environ.get("LUDOLOG_TASK_MAX_RETRIES", "8"))
LUDOLOG_TASK_RETRY_BACKOFF_MAX = int(os.environ.get("LUDOLOG_TASK_RETRY_BACKOFF_MAX", "300"))
LUDOLOG_RECOMPUTE_CHUNK_SIZE = int(os.environ.get("LUDOLOG_RECOMPUTE_CHUNK_SIZE", "100"))
# Test-only: the scoring task waits this long between results and projections, so that a test
# can kill the worker in the middle of a task. Always 0 outside that test.
LUDOLOG_SCORING_TEST_PAUSE_SECONDS = float(os.environ.get("LUDOLOG_SCORING_TEST_PAUSE_SECONDS", "0"))
CELERY_BEAT_SCHEDULE = {
    "scoring-sweep": {
        "task": "scoring.sweep",
        "schedule": LUDOLOG_SWEEP_SECONDS,
        "options": {"queue": LUDOLOG_SCORING_QUEUE} if LUDOLOG_SCORING_QUEUE else {},
    },
}

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Event store integrity (records/ issue 11). One record takes at most this many events: the
# append past it answers 409 record_full and stores nothing. A beat task recomputes every
# event's hash chain this often (seconds; records.integrity) and keeps the result for /health/.
LUDOLOG_MAX_EVENTS_PER_RECORD = int(os.environ.get("LUDOLOG_MAX_EVENTS_PER_RECORD", "5000"))
LUDOLOG_VERIFY_EVENTS_SECONDS = float(os.environ.get("LUDOLOG_VERIFY_EVENTS_SECONDS", "86400"))
# The key of the HMAC that signs checkpoint files (verify_events --export / --against;
# records.checkpoint_file). Empty: one derived from SECRET_KEY. Set it before ever rotating
# SECRET_KEY, or the files kept so far can no longer be checked.
LUDOLOG_CHECKPOINT_KEY = os.environ.get("LUDOLOG_CHECKPOINT_KEY", "")
# Where the beat's verification (records.verify_events) keeps the checkpoint file: it checks the
# store against it, then writes it anew when everything is intact. Copy it off the machine too.
# Empty: no file is kept.
LUDOLOG_CHECKPOINT_EXPORT = os.environ.get("LUDOLOG_CHECKPOINT_EXPORT", str(BASE_DIR / "var" / "checkpoints.json"))
# The loans desk's day (loans.tasks.daily): lapsed holds, overdue reminders; at LUDOLOG_LOANS_DAILY_HOUR.
CELERY_BEAT_SCHEDULE["outbox-sweep"] = {"task": "outbox.sweep", "schedule": LUDOLOG_OUTBOX_SWEEP_SECONDS}
# Import jobs whose task a broker that was down never took are asked for again after this long
# (seconds; games.jobs.queue_waiting_jobs), checked every minute.
LUDOLOG_IMPORT_REQUEUE_SECONDS = float(os.environ.get("LUDOLOG_IMPORT_REQUEUE_SECONDS", "600"))
CELERY_BEAT_SCHEDULE["import-jobs-waiting"] = {"task": "games.queue_waiting_jobs", "schedule": 60.0}
CELERY_BEAT_SCHEDULE["loans-daily"] = {
    "task": "loans.daily",
    "schedule": crontab(hour=int(os.environ.get("LUDOLOG_LOANS_DAILY_HOUR", "7")), minute=0),
}
# The opening sessions of the coming weeks, made from each organisation's opening hours.
CELERY_BEAT_SCHEDULE["agenda-daily"] = {
    "task": "agenda.daily",
    "schedule": crontab(hour=int(os.environ.get("LUDOLOG_AGENDA_DAILY_HOUR", "5")), minute=0),
}
# Households whose membership ends within their library's membership_reminder_days are mailed once
# to renew it (loans.memberships.remind_membership_renewals), a few minutes after the desk's day.
CELERY_BEAT_SCHEDULE["loans-membership-renewals"] = {
    "task": "loans.remind_membership_renewals",
    "schedule": crontab(hour=int(os.environ.get("LUDOLOG_LOANS_DAILY_HOUR", "7")), minute=10),
}
CELERY_BEAT_SCHEDULE["records-verify-events"] = {
    "task": "records.verify_events",
    "schedule": LUDOLOG_VERIFY_EVENTS_SECONDS,
}

# Scoring that survives (scoring/ issue 11, findings 1, 2 and 6). A Redis broker goes through
# ludolog.celery's transport, whose worker outlives a broker that drops while it holds tasks.
# A record whose scoring fails this many times is left alone by the sweep (marked unscorable,
# with its reason); a recomputation with no chunk started or done for this long is "stalled"
# and may be resumed. Test-only: each recomputation chunk waits this long before its work.
if CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "ludolog.celery:RedisTransport"
LUDOLOG_SCORING_MAX_ATTEMPTS = int(os.environ.get("LUDOLOG_SCORING_MAX_ATTEMPTS", "5"))
LUDOLOG_RECOMPUTE_STALL_SECONDS = float(os.environ.get("LUDOLOG_RECOMPUTE_STALL_SECONDS", "600"))
LUDOLOG_RECOMPUTE_TEST_PAUSE_SECONDS = float(os.environ.get("LUDOLOG_RECOMPUTE_TEST_PAUSE_SECONDS", "0"))

# Uploaded files (issue 12): the catalogue records' covers and their thumbnails
# (games/covers.py). Django serves them itself only with DEBUG on; in production nginx serves
# MEDIA_ROOT at MEDIA_URL (ludolog/deploy/nginx/ludolog.conf, docs/operations.md "Uploaded files").
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "/media/"

# Long admin imports (games.jobs): the uploaded file is kept beside its job for the Celery task
# that imports it, under LUDOLOG_IMPORTS_ROOT, a folder no web server serves (a record file may
# hold private games); the web processes and the workers must share it. Their tasks go to
# LUDOLOG_IMPORT_QUEUE (empty: Celery's default queue).
LUDOLOG_IMPORTS_ROOT = Path(os.environ.get("LUDOLOG_IMPORTS_ROOT", BASE_DIR / "imports"))
STORAGES["imports"] = {"BACKEND": "django.core.files.storage.FileSystemStorage",
                       "OPTIONS": {"location": LUDOLOG_IMPORTS_ROOT, "base_url": None}}
LUDOLOG_IMPORT_QUEUE = os.environ.get("LUDOLOG_IMPORT_QUEUE", "")
LUDOLOG_IMPORT_CHUNK = int(os.environ.get("LUDOLOG_IMPORT_CHUNK", "100"))

# The OAI-PMH endpoint, /oai/ (games.oai, docs/oai-pmh.md): records a response, how long a
# resumption token is honoured, and what Identify says of the repository (its name, and at
# least one address: the protocol requires it).
LUDOLOG_OAI_PAGE_SIZE = int(os.environ.get("LUDOLOG_OAI_PAGE_SIZE", "100"))
LUDOLOG_OAI_TOKEN_SECONDS = int(os.environ.get("LUDOLOG_OAI_TOKEN_SECONDS", "86400"))
LUDOLOG_OAI_REPOSITORY_NAME = os.environ.get("LUDOLOG_OAI_REPOSITORY_NAME", "Ludolog")
LUDOLOG_OAI_ADMIN_EMAILS = env_list("LUDOLOG_OAI_ADMIN_EMAILS", "admin@localhost")
