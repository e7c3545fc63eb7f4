"""`manage.py check --deploy`: the settings push and webhooks need in production."""

from __future__ import annotations

from django.conf import settings
from django.core import checks

from .vapid import key_problem


@checks.register(checks.Tags.security, deploy=True)
def check_push_settings(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    if not (settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY):
        found.append(
            checks.Warning(
                "VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY are not set: no push notifications are sent.",
                hint="Run `manage.py generate_vapid_keys` and put its two lines in the environment.",
                id="notifications.W001",
            )
        )
    else:
        problem = key_problem(settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY)
        if problem:
            found.append(checks.Error(problem, hint="Generate a new pair.", id="notifications.E001"))
    if not settings.VAPID_SUBJECT.startswith(("mailto:", "https://")) or settings.VAPID_SUBJECT.endswith("@localhost"):
        found.append(
            checks.Warning(
                "VAPID_SUBJECT should be a mailto: address or https: page where push services can reach you.",
                id="notifications.W002",
            )
        )
    for name in ("PUSH_ALLOW_PRIVATE", "WEBHOOK_ALLOW_PRIVATE"):
        if getattr(settings, name):
            found.append(
                checks.Warning(
                    f"{name} is on: players can make the server send requests into your own network.",
                    hint=f"Set {name}=0 in production.",
                    id=f"notifications.W00{3 if name.startswith('PUSH') else 4}",
                )
            )
    return found
