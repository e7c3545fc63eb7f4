from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from config import l10n

from . import login_limits, services
from .models import TIME_ZONES, User, lock_account_names
from .validators import (
    DISPLAY_NAME_MAX,
    TOKEN_NAME_MAX,
    validate_display_name,
    validate_display_name_for,
    validate_language,
    validate_new_username,
    validate_time_zone,
    validate_username_characters,
)


class SignupForm(forms.ModelForm):
    """The first step of signing up (accounts.signup): a username and the address the link goes to.
    Whether the address is in use is never said here; its owner is told by mail."""

    email = forms.EmailField(
        label=_("Email"),
        help_text=_("A link to finish signing up goes there; later, password resets and the notifications you choose."),
        error_messages={
            "required": _("Enter your email address: it is how you reset a forgotten password."),
            "invalid": _("Enter a whole email address, such as alice@example.com."),
        },
    )

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        validate_username_characters(username)
        validate_new_username(username)
        return username


class SignupFinishForm(UserCreationForm):
    """The second step, on the link's page: the password, and the username once more (it may have
    been taken since the mail went out). The address is the link's."""

    class Meta:
        model = User
        fields = ("username",)

    def __init__(self, *args: Any, email: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.email = email  # the password checks compare the password with it too

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        validate_username_characters(username)
        validate_new_username(username)
        return username

    def save(self, commit: bool = True) -> User:
        self.instance.refresh_name_keys()
        return super().save(commit=commit)

    def save_checked(self) -> User:
        """Save the new account, checking its name once more under a lock that every signup takes: two
        look-alike names signing up at the same instant would otherwise both pass clean_username.
        Raises ValidationError: for the username when the name was taken meanwhile, with the code
        email_taken when an account uses the address now (the link was used already)."""
        with transaction.atomic():
            lock_account_names()
            validate_new_username(self.cleaned_data["username"])
            if services.email_in_use(self.instance.email):
                raise ValidationError(ADDRESS_IN_USE_NOW, code="email_taken")
            try:
                with transaction.atomic():
                    return self.save()
            except IntegrityError as exc:  # a case variant that slipped past: the unique index caught it
                raise ValidationError(
                    _("That username is taken, or looks too much like one that is."), code="username_taken"
                ) from exc


# Said only on the link's page, to whoever holds the mail: the address's owner.
ADDRESS_IN_USE_NOW = _("An account uses this address now. Log in, or choose a new password if you have forgotten it.")


class ProfileForm(forms.ModelForm):
    """Display name, email, time zone and language: what the settings page and PATCH /api/v1/me/ change."""

    display_name = forms.CharField(
        label=_("Display name"),
        required=False,
        max_length=DISPLAY_NAME_MAX,
        validators=[validate_display_name],
        help_text=_("Shown instead of your username at the table; leave empty to use your username."),
        error_messages={
            "max_length": l10n.lazy_interpolate(
                _("Shorten the display name to %(limit_value)d characters or fewer."), {"limit_value": DISPLAY_NAME_MAX}
            )
        },
    )
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("For password resets and the notifications you choose."),
        error_messages={
            "required": _("Enter your email address: it is how you reset a forgotten password."),
            "invalid": _("Enter a whole email address, such as alice@example.com."),
        },
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=[(name, name) for name in TIME_ZONES],
        validators=[validate_time_zone],
        help_text=_("Deadlines and dates are shown in this time zone."),
        error_messages={
            "required": _("Choose a time zone, such as Europe/Istanbul or UTC."),
            "invalid_choice": _("“%(value)s” is not a time zone we know. Choose one from the list, such as UTC."),
        },
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=settings.LANGUAGES,
        validators=[validate_language],
        error_messages={
            "required": _("Choose a language."),
            "invalid_choice": _("“%(value)s” is not a language of this site. Choose one from the list."),
        },
    )

    current_password = forms.CharField(
        label=_("Current password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Needed only to change your email address."),
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone", "language")

    def __init__(self, *args: Any, client_address: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.client_address = client_address

    def clean_display_name(self) -> str:
        display_name = self.cleaned_data["display_name"].strip()
        validate_display_name_for(self.instance, display_name)
        return display_name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if "email" in cleaned:
            # self.instance still holds the saved address: the form's values reach it after clean().
            try:
                services.confirm_email_change(
                    user=self.instance,
                    new_email=cleaned["email"],
                    password=cleaned.get("current_password", ""),
                    address=self.client_address,
                )
            except services.AccountError as exc:
                self.add_error(exc.field if exc.field in self.fields else "current_password", exc.message)
            except login_limits.LoginLocked as locked:
                wait = login_limits.wait_text(locked.retry_after)
                self.add_error("current_password", login_limits.LOCKED_MESSAGE % {"wait": wait})
        return cleaned


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=TOKEN_NAME_MAX,
        help_text=_("A label to recognise it by, such as the program that will use it."),
        error_messages={
            "required": _("Give the token a name, such as the program that will use it."),
            "max_length": l10n.lazy_interpolate(
                _("Shorten the token's name to %(limit_value)d characters or fewer."), {"limit_value": TOKEN_NAME_MAX}
            ),
        },
    )


class BlockForm(forms.Form):
    username = forms.CharField(
        label=_("Player to block"),
        max_length=150,
        error_messages={"required": _("Type the username of the player to block.")},
    )
