from __future__ import annotations

from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from config.compiled import CompiledQuery

from .models import ApiToken

# Recording every use would turn each read into a write; a minute's precision is enough.
LAST_USED_PRECISION = timedelta(minutes=1)


def active_with_user() -> QuerySet[ApiToken]:
    """The tokens that still hold, each with its user: what authentication looks a key up in."""
    return ApiToken.objects.active().select_related("user")


# Every API request reads its token: the SQL is built once (config.compiled).
ACTIVE_TOKEN = CompiledQuery(lambda key_hash: active_with_user().filter(key_hash=key_hash).order_by("pk")[:1], str)


class HashedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, checked against the stored hash of the key."""

    keyword = "Token"

    def authenticate_credentials(self, key: str):
        tokens = ACTIVE_TOKEN.rows(ApiToken.hash_key(key))
        token = tokens[0] if tokens else None
        if token is None or not token.user.is_active:
            raise AuthenticationFailed(REFUSED)
        record_use([token])
        return token.user, token


REFUSED = "Invalid or revoked token."


def record_use(tokens: list[ApiToken]) -> None:
    """Note when these tokens were last used (to the minute: one UPDATE for all that need it)."""
    now = timezone.now()
    stale = [t.pk for t in tokens if t.last_used_at is None or now - t.last_used_at > LAST_USED_PRECISION]
    if stale:
        ApiToken.objects.filter(pk__in=stale).update(last_used_at=now)


class _KeyOfHeader(HashedTokenAuthentication):
    """DRF's reading of the `Authorization: Token <key>` header, stopping at the key."""

    def authenticate_credentials(self, key: str):
        return None, key


def token_key(request) -> str | None:
    """The key of a well-formed `Authorization: Token <key>` header, as HashedTokenAuthentication reads
    it; None for anything else, which HashedTokenAuthentication judges with its own messages (a header
    of another scheme, or broken)."""
    try:
        found = _KeyOfHeader().authenticate(request)
    except AuthenticationFailed:
        return None
    return None if found is None else found[1]


def tokens_of_keys(keys: list[str]) -> dict[str, ApiToken]:
    """What HashedTokenAuthentication finds for each of these keys, in one query for all (the streams
    that open together): the active token with its active user, by key; a key without is missing."""
    by_hash = {ApiToken.hash_key(key): key for key in keys}
    tokens = active_with_user().filter(key_hash__in=list(by_hash))
    found = {by_hash[token.key_hash]: token for token in tokens if token.user.is_active}
    record_use(list(found.values()))
    return found
