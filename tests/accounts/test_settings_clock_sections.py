"""The notifications, vacation and webhook sections of the settings page."""

import re

from games.models import Vacation
from notifications.models import PlayerPreference


def test_the_settings_page_shows_the_three_sections(client, alice):
    client.force_login(alice)
    html = client.get("/settings/").content.decode()
    for anchor in ('id="notifications"', 'id="vacation"', 'id="webhooks"'):
        assert anchor in html


def test_alice_routes_her_turn_notices_to_the_webhook_only(client, alice):
    client.force_login(alice)
    PlayerPreference.objects.update_or_create(user=alice, defaults={"webhook_url": "https://hooks.example.com/a"})
    response = client.post(
        "/settings/notifications/",
        {"channels_your_turn": ["webhook"], "reminder_percent": "50", "digest_hour": "7", "digest_enabled": "on"},
    )
    assert response.status_code == 302
    preference = PlayerPreference.objects.get(user=alice)
    assert preference.channels_for("your_turn") == ["webhook"]
    assert preference.channels_for("invitation") == []
    assert (preference.reminder_share, preference.digest_enabled, preference.digest_hour) == (0.5, True, 7)


def test_a_reminder_share_out_of_range_says_what_to_fix(client, alice):
    client.force_login(alice)
    response = client.post("/settings/notifications/", {"reminder_percent": "100", "digest_hour": "7"})
    assert response.status_code == 200
    assert "less than or equal to 95" in response.content.decode()


def test_vacation_starts_and_ends_from_the_page(client, alice):
    client.force_login(alice)
    from django.utils import timezone

    until = timezone.localdate() + timezone.timedelta(days=3)
    assert client.post("/settings/vacation/", {"until": until.isoformat()}).status_code == 302
    assert Vacation.objects.filter(user=alice, ended_at__isnull=True).exists()
    assert "You are on vacation until" in client.get("/settings/").content.decode()
    client.post("/settings/vacation/end/")
    assert not Vacation.objects.filter(user=alice, ended_at__isnull=True).exists()


def test_a_vacation_past_the_allowance_is_refused_with_the_days_left(client, alice):
    client.force_login(alice)
    from django.utils import timezone

    until = timezone.localdate() + timezone.timedelta(days=30)
    html = client.post("/settings/vacation/", {"until": until.isoformat()}).content.decode()
    assert "vacation days left this year" in html


def test_a_webhook_gets_a_secret_and_shows_its_last_error(client, alice):
    client.force_login(alice)
    client.post("/settings/webhook/", {"webhook_url": "http://127.0.0.1:9/hook"})
    preference = PlayerPreference.objects.get(user=alice)
    assert len(preference.webhook_secret) == 48
    PlayerPreference.objects.filter(user=alice).update(webhook_last_error="HTTP 500")
    assert "HTTP 500" in client.get("/settings/").content.decode()


def test_a_webhook_must_be_an_http_address(client, alice):
    client.force_login(alice)
    html = client.post("/settings/webhook/", {"webhook_url": "ftp://example.com/hook"}).content.decode()
    assert "Enter a valid URL" in html or "starts with https://" in html


def test_a_refused_vacation_is_explained_in_the_readers_language(client, alice):
    client.force_login(alice)
    client.cookies["django_language"] = "tr"
    from django.utils import timezone

    until = timezone.localdate() + timezone.timedelta(days=30)
    html = client.post("/settings/vacation/", {"until": until.isoformat()}).content.decode()
    assert "Bu, bu y\u0131l kalan tatil günlerinizden fazla." in html  # \u0131: the dotless i
    assert "vacation days left this year" not in html


def test_the_vacation_date_is_an_iso_date_in_every_language(client, alice):
    from django.utils import timezone

    client.force_login(alice)
    in_a_week = (timezone.localdate() + timezone.timedelta(days=7)).isoformat()
    for language in ("en", "tr", "fa"):
        client.cookies["django_language"] = language
        assert f'type="date" name="until" value="{in_a_week}"' in client.get("/settings/").content.decode(), language


def ticked(html: str, channel: str) -> list[str]:
    """The events whose box for `channel` is ticked on the settings page."""
    return re.findall(rf'name="channels_(\w+)" value="{channel}" id="[^"]+" checked', html)


def test_without_a_webhook_address_no_webhook_box_is_ticked_or_stored(client, alice):
    client.force_login(alice)
    html = client.get("/settings/").content.decode()
    # The defaults route several events to the webhook; with no address none of those boxes is ticked.
    assert ticked(html, "webhook") == [] and "your_turn" in ticked(html, "email")
    assert "once a webhook address is saved" in html
    response = client.post(
        "/settings/notifications/",
        {"channels_your_turn": ["webhook", "email"], "reminder_percent": "50", "digest_hour": "7"},
    )
    assert response.status_code == 302
    assert PlayerPreference.objects.get(user=alice).channels_for("your_turn") == ["email"]

    client.post("/settings/webhook/", {"webhook_url": "http://127.0.0.1:9/hook"})
    client.post(
        "/settings/notifications/",
        {"channels_your_turn": ["webhook", "email"], "reminder_percent": "50", "digest_hour": "7"},
    )
    assert PlayerPreference.objects.get(user=alice).channels_for("your_turn") == ["webhook", "email"]
    html = client.get("/settings/").content.decode()
    assert ticked(html, "webhook") == ["your_turn"] and "once a webhook address is saved" not in html


def test_the_digest_is_set_in_one_place_and_saving_the_form_keeps_its_channels(client, alice):
    client.force_login(alice)
    html = client.get("/settings/").content.decode()
    assert "channels_digest" not in html and "Daily digest</legend>" not in html
    assert html.count('name="digest_enabled"') == 1
    PlayerPreference.objects.update_or_create(user=alice, defaults={"channels": {"digest": ["email", "push"]}})
    client.post("/settings/notifications/", {"reminder_percent": "50", "digest_hour": "7", "digest_enabled": "on"})
    preference = PlayerPreference.objects.get(user=alice)
    assert preference.digest_enabled and preference.channels_for("digest") == ["email", "push"]
