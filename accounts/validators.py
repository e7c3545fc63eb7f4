"""Profile field checks shared by the settings page and the API, each saying what to fix."""

from __future__ import annotations

import unicodedata
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import names
from .models import User

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


def _hidden_characters_error(value: str, field: str) -> ValidationError | None:
    hidden = names.hidden_characters(value)
    if not hidden:
        return None
    return ValidationError(
        ngettext(
            "Remove the invisible character %(chars)s from the %(field)s: it could hide what the name really says.",
            "Remove the invisible characters %(chars)s from the %(field)s: they could hide what the name really says.",
            len(hidden),
        ),
        code="invisible_characters",
        params={"chars": ", ".join(names.describe(char) for char in hidden), "field": field},
    )


def validate_username_characters(value: str) -> None:
    """No invisible, format or blank characters (the username's other rules are Django's validator)."""
    error = _hidden_characters_error(value, _("username"))
    if error is not None:
        raise error


def validate_display_name(value: str) -> None:
    """Visible characters only, and words parted by single ordinary spaces."""
    odd = names.odd_spaces(value)
    if odd:
        raise ValidationError(
            _("Use only ordinary spaces in the display name: remove %(chars)s."),
            code="odd_spaces",
            params={"chars": ", ".join(names.describe(char) for char in odd)},
        )
    error = _hidden_characters_error(value, _("display name"))
    if error is not None:
        raise error
    if value != value.strip(" "):
        raise ValidationError(_("Remove the spaces at the start and end of the display name."), code="outer_spaces")
    if "  " in value:
        raise ValidationError(_("Put a single space between the words of the display name."), code="space_runs")
    if "@" in unicodedata.normalize("NFKC", value):
        # Pages show a display name as "Name (@username)": an @ of its own could fake that.
        raise ValidationError(_("Leave the @ sign out of the display name: it marks usernames."), code="at_sign")


# --- look-alikes (accounts.names): a name may not pass for another account's username -----------


def username_look_alikes(name: str) -> QuerySet[User]:
    """Accounts whose username shares a key with `name`: the same name in another case, or one that looks like it."""
    digests = names.key_digests(name)
    return User.objects.filter(Q(name_key__in=digests) | Q(look_key__in=digests) | Q(caps_key__in=digests))


def validate_new_username(value: str) -> None:
    # The plain look-up also covers accounts made without keys (the admin's form, fixtures).
    if username_look_alikes(value).exists() or User.objects.filter(username__iexact=value).exists():
        raise ValidationError(_("That username is taken, or looks too much like one that is."), code="username_taken")


def validate_display_name_for(user: User, value: str) -> None:
    """A display name may be your own username in any case or look, but no other account's."""
    if value and username_look_alikes(value).exclude(pk=user.pk).exists():
        raise ValidationError(
            _("That display name looks too much like another player's username; choose one of your own."),
            code="display_name_taken",
        )
