"""Profile field checks shared by the settings page and the API, each saying what to fix."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

TIME_ZONE_NAMES = frozenset(zoneinfo.available_timezones())
DISPLAY_NAME_MAX = 60
TOKEN_NAME_MAX = 60


def language_codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def validate_time_zone(value: str) -> None:
    if value not in TIME_ZONE_NAMES:
        raise ValidationError(
            _("“%(value)s” is not a time zone we know. Use a name from the IANA list, such as Europe/Istanbul or UTC."),
            code="bad_time_zone",
            params={"value": value},
        )


def validate_language(value: str) -> None:
    if value not in language_codes():
        raise ValidationError(
            _("“%(value)s” is not a language of this site. Choose one of: %(choices)s."),
            code="bad_language",
            params={"value": value, "choices": ", ".join(language_codes())},
        )


def validate_display_name(value: str) -> None:
    if any(not ch.isprintable() for ch in value):
        raise ValidationError(_("Remove the control characters (such as tabs or line breaks) from the display name."))
