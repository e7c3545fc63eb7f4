"""The project's settings for its tests, and for the servers and workers the tests start (they inherit
DJANGO_SETTINGS_MODULE). One difference: passwords are hashed with a fast hasher, because the default
(PBKDF2, a million rounds, on purpose slow) costs a fifth of a second a user, and the suite makes
thousands of them."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Each request the tests' servers answer runs in a thread of its own: a connection kept for the next
# request would outlive its thread, and a browser test would hold dozens (PostgreSQL allows 100).
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

if DATABASES["default"]["ENGINE"].endswith("postgresql"):  # noqa: F405
    # A test database is thrown away: its commits need not wait for the disk.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405
