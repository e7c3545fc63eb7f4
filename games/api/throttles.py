"""Limits of the API's costly reads, beside the general rate limits (accounts/throttles.py)."""

from __future__ import annotations

from accounts.throttles import ApiRateThrottle


class AdviceRateThrottle(ApiRateThrottle):
    """Advice per player, under the scope "advice" (30 a minute unless API_THROTTLE_ADVICE says
    otherwise): one call can cost an advisor process a second."""

    @staticmethod
    def counted(request) -> list[tuple[str, object]]:
        if request.user and request.user.is_authenticated:
            return [("advice", request.user.pk)]
        return []  # only the player to act gets advice: the general anonymous limit is enough
