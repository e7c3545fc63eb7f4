from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from .models import ApiToken

# Recording every use would turn each read into a write; a minute's precision is enough.
LAST_USED_PRECISION = timedelta(minutes=1)


class HashedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, checked against the stored hash of the key."""

    keyword = "Token"

    def authenticate_credentials(self, key: str):
        token = ApiToken.objects.active().select_related("user").filter(key_hash=ApiToken.hash_key(key)).first()
        if token is None or not token.user.is_active:
            raise AuthenticationFailed("Invalid or revoked token.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_PRECISION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token
