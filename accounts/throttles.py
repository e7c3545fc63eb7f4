from rest_framework.throttling import SimpleRateThrottle

from .models import ApiToken


class TokenRateThrottle(SimpleRateThrottle):
    """A limit per API token, beside the limit per user: one runaway client cannot starve the others."""

    scope = "token"

    def get_cache_key(self, request, view) -> str | None:
        token = request.auth
        if not isinstance(token, ApiToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}
