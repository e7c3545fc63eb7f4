from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from config.compiled import CompiledQuery

from .models import ApiToken

# Recording every use would turn each read into a write; a minute's precision is enough.
LAST_USED_PRECISION = timedelta(minutes=1)


# Every API request reads its token: the SQL is built once (config.compiled).
ACTIVE_TOKEN = CompiledQuery(
    lambda key_hash: ApiToken.objects.active().select_related("user").filter(key_hash=key_hash).order_by("pk")[:1], str
)


class HashedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, checked against the stored hash of the key."""

    keyword = "Token"

    def authenticate_credentials(self, key: str):
        tokens = ACTIVE_TOKEN.rows(ApiToken.hash_key(key))
        token = tokens[0] if tokens else None
        if token is None or not token.user.is_active:
            raise AuthenticationFailed("Invalid or revoked token.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_PRECISION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token
