"""`manage.py check --deploy` for push: clean with a real key pair and a contact, loud without."""

from __future__ import annotations

from django.core.management import call_command

from notifications.checks import check_push_settings
from notifications.vapid import generate_keys


def deployed(settings, **overrides) -> list[str]:
    keys = generate_keys()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = keys["private_key"], keys["public_key"]
    settings.VAPID_SUBJECT = "mailto:ops@slowhand.example"
    settings.PUSH_ALLOW_PRIVATE = settings.WEBHOOK_ALLOW_PRIVATE = False
    for name, value in overrides.items():
        setattr(settings, name, value)
    return [message.id for message in check_push_settings()]


def test_a_configured_deployment_is_clean(settings):
    assert deployed(settings) == []
    call_command("check", deploy=True, tags=["security"], fail_level="ERROR")  # raises on an error


def test_missing_mismatched_and_private_settings_are_reported(settings):
    assert deployed(settings, VAPID_PRIVATE_KEY="") == ["notifications.W001"]
    assert deployed(settings, VAPID_PUBLIC_KEY=generate_keys()["public_key"]) == ["notifications.E001"]
    assert deployed(settings, VAPID_PRIVATE_KEY="bm90IGEga2V5") == ["notifications.E001"]
    assert deployed(settings, VAPID_SUBJECT="admin") == ["notifications.W002"]
    assert deployed(settings, PUSH_ALLOW_PRIVATE=True) == ["notifications.W003"]
