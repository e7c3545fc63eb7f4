"""Signed-in players see dates in their own time zone."""

from django.utils import timezone

from accounts.middleware import UserTimeZoneMiddleware


def seen_time_zone(request) -> str:
    return str(timezone.get_current_timezone())


def test_alices_requests_run_in_her_time_zone(rf, alice):
    alice.time_zone = "Asia/Tehran"
    request = rf.get("/")
    request.user = alice
    assert UserTimeZoneMiddleware(lambda r: seen_time_zone(r))(request) == "Asia/Tehran"
    assert str(timezone.get_current_timezone()) == "UTC"


def test_a_zone_no_longer_known_falls_back_to_utc(rf, alice):
    alice.time_zone = "Atlantis/Capital"
    request = rf.get("/")
    request.user = alice
    assert UserTimeZoneMiddleware(lambda r: seen_time_zone(r))(request) == "UTC"
