"""Limits on guessing passwords, on sending password-reset mail and on signing up, kept in Django's cache.

Failed logins are counted per pair (username as typed, normalised and case-folded; client address),
whether or not the username exists, so the limit tells nobody which names are taken, and guesses
from one address never lock the same player out at another. After LOGIN_FAILURES_BEFORE_LOCK
failures the pair is locked for LOGIN_LOCK_SECONDS, doubling with each further failure up to
LOGIN_LOCK_MAX_SECONDS; while it is locked even the right password is refused. A success clears
the pair. The count is remembered for a day after the pair's latest attempt.

The cache is Redis in production and degrades during an outage (config.cache): the limits are then
simply not enforced. Lock expiry is decided by the stored time, not by the cache's own expiry, so
that every backend (and a test that moves the clock) agrees on when a lock ends.
"""

from __future__ import annotations

import hashlib
import math
import time
import unicodedata
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from config import l10n
from config.cache import OUTAGE

T = TypeVar("T")

MEMORY_SECONDS = 24 * 3600
HOUR = 3600
LOCKED_MESSAGE = _(
    "Too many failed logins for this username from your address. Try again in %(wait)s, "
    "or reset your password by email."
)


class LoginLocked(Exception):
    """The pair may not try again for `retry_after` whole seconds (always at least 1)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def wait_text(seconds: int) -> str:
    """“45 seconds”, or whole minutes rounded up from a minute on: never earlier than the lock ends."""
    if seconds < 60:
        return l10n.interpolate(ngettext("%(count)d second", "%(count)d seconds", seconds), {"count": seconds})
    minutes = -(-seconds // 60)
    return l10n.interpolate(ngettext("%(count)d minute", "%(count)d minutes", minutes), {"count": minutes})


def normalised_username(username: str) -> str:
    return unicodedata.normalize("NFKC", username).strip().casefold()


def lock_seconds(failures: int) -> int:
    """How long the pair is locked after its `failures`-th failure in a row (0: not locked)."""
    threshold = settings.LOGIN_FAILURES_BEFORE_LOCK
    if threshold <= 0 or failures < threshold:
        return 0
    doublings = min(failures - threshold, 32)
    return min(settings.LOGIN_LOCK_SECONDS * 2**doublings, settings.LOGIN_LOCK_MAX_SECONDS)


class LoginAttempt:
    """One password check allowed for the pair; report how it went with failed() or succeeded()."""

    def __init__(self, key: str, number: int | None) -> None:
        self._key = key
        self.number = number  # the pair's attempts since its last success, this one included

    def failed(self) -> None:
        if self.number is None:
            return
        seconds = lock_seconds(self.number)
        if seconds:
            lock_key = f"{self._key}:locked-until"
            # Never shorten a lock that a later attempt of the same burst has already set.
            locked_until = max(time.time() + seconds, cache.get(lock_key) or 0)
            cache.set(lock_key, locked_until, MEMORY_SECONDS)

    def succeeded(self) -> None:
        cache.delete_many([f"{self._key}:attempts", f"{self._key}:locked-until"])


def start_login_attempt(username: str, address: str) -> LoginAttempt:
    """Allow one password check for (username, address), or raise LoginLocked.

    Every attempt is counted before its password is checked, and once the threshold is reached only
    one attempt per lock wins the right to check: a burst of parallel requests gets no more guesses
    than the same requests one after another.
    """
    key = _pair_key(username, address)
    threshold = settings.LOGIN_FAILURES_BEFORE_LOCK
    if threshold <= 0:
        return LoginAttempt(key, None)
    now = time.time()
    locked_until = cache.get(f"{key}:locked-until")
    if locked_until is not None and locked_until > now:
        raise LoginLocked(_whole_seconds(locked_until - now))
    number = _count_attempt(f"{key}:attempts")
    if number is not None and number > threshold:
        if locked_until is None:
            # The attempts that reached the threshold are still being checked (or the lock was
            # evicted): wait a moment, after which the next attempt may claim this short lock.
            cache.add(f"{key}:locked-until", now + 1, MEMORY_SECONDS)
            raise LoginLocked(1)
        if not cache.add(f"{key}:claim:{locked_until!r}", True, MEMORY_SECONDS):
            raise LoginLocked(1)  # another request took the one attempt this expired lock allows
    return LoginAttempt(key, number)


def checked_in_a_form(username: str, address: str, check: Callable[[], T]) -> T:
    """Run a form's password `check` under the login limits: a locked pair is the form's error
    (too_many_failed_logins), and the check's own ValidationError counts as a failure."""
    try:
        attempt = start_login_attempt(username, address)
    except LoginLocked as locked:
        raise ValidationError(
            LOCKED_MESSAGE, code="too_many_failed_logins", params={"wait": wait_text(locked.retry_after)}
        ) from None
    try:
        result = check()
    except ValidationError:
        attempt.failed()
        raise
    attempt.succeeded()
    return result


def password_reset_allowed(address: str, email: str) -> bool:
    """Count one password-reset request; False when the address or the email has had its hourly share."""
    by_address = f"password-reset:address:{_digest(address)}"
    by_email = f"password-reset:email:{_digest(email.strip().casefold())}"
    return _take(by_address, settings.PASSWORD_RESETS_PER_ADDRESS_PER_HOUR, HOUR) and _take(
        by_email, settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR, HOUR
    )


def signup_allowed(address: str) -> bool:
    """Count one signup from a client address; False when it has had its hourly share."""
    return _take(f"signup:address:{_digest(address)}", settings.SIGNUPS_PER_ADDRESS_PER_HOUR, HOUR)


def signup_mail_allowed(email: str) -> bool:
    """Count one signup mail to an address, whoever asked; False when it has had its hourly share."""
    return _take(f"signup:email:{_digest(email.strip().casefold())}", settings.SIGNUPS_PER_EMAIL_PER_HOUR, HOUR)


def _pair_key(username: str, address: str) -> str:
    return f"login-limit:{_digest(normalised_username(username), address)}"


def _digest(*parts: str) -> str:
    # Usernames and emails as typed may be long or hold characters a cache key must not.
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _whole_seconds(seconds: float) -> int:
    return max(1, math.ceil(seconds))


def _count_attempt(key: str) -> int | None:
    """The pair's attempt counter, incremented atomically; None while the cache is away."""
    try:
        cache.add(key, 0, MEMORY_SECONDS)
        number = cache.incr(key)
    except ValueError:  # the counter expired between add and incr
        cache.set(key, 1, MEMORY_SECONDS)
        number = 1
    except OUTAGE:  # config.cache degrades get/set/add, but not incr
        return None
    cache.touch(key, MEMORY_SECONDS)
    return number


def _take(key: str, limit: int, window: int) -> bool:
    """Claim one of `limit` slots, each held for `window` seconds from its claim (a sliding window of
    request times): say yes, or no when every slot is held.

    Each claim is a cache.add, which only one request can win, so requests at once cannot share a
    slot (a read of the times followed by a write let a burst all read the same list and all pass).
    A slot is free again when its stored time is a window old (as for the locks: the stored time
    decides, not the cache's expiry); one request wins the right to take it over. A full window
    costs two cache calls per slot: meant for small limits, such as these hourly ones."""
    now = time.time()
    for slot in range(limit):
        slot_key = f"{key}:{slot}"
        if cache.add(slot_key, now, window):
            return True
        claimed_at = cache.get(slot_key)
        if claimed_at is None:
            return True  # gone since the add: it expired that instant, or the cache is away (no limits)
        if claimed_at <= now - window and cache.add(f"{slot_key}:after:{claimed_at!r}", True, window):
            cache.set(slot_key, now, window)
            return True
    return False
