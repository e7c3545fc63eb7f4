"""The password rules in the site's own words: Django's length rule with its figure in the reader's
digits, and the texts Django's account forms show on our pages, translated again in our catalogues
(which Django reads before its own) so that they follow docs/glossary.md: Persian says گذرواژه and
writes the ezafe ه‌ی, as the rest of the site does."""

# ruff: noqa: RUF001, RUF002 - Django's apostrophes and the Persian words are meant

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import gettext_noop, ngettext

from config import l10n


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return l10n.interpolate(
            ngettext(
                "This password is too short. It must contain at least %(min_length)d character.",
                "This password is too short. It must contain at least %(min_length)d characters.",
                self.min_length,
            ),
            {"min_length": self.min_length},
        )

    def get_help_text(self) -> str:
        return l10n.interpolate(
            ngettext(
                "Your password must contain at least %(min_length)d character.",
                "Your password must contain at least %(min_length)d characters.",
                self.min_length,
            ),
            {"min_length": self.min_length},
        )


# Django's texts around the password and username fields of signup, settings and password reset.
DJANGO_TEXTS = (
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("This password is entirely numeric."),
)
