from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import TIME_ZONES, User
from .validators import (
    DISPLAY_NAME_MAX,
    TOKEN_NAME_MAX,
    validate_display_name,
    validate_language,
    validate_time_zone,
)


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), help_text=_("For password resets and the notifications you choose."))

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That username is taken (names are compared without regard to case)."))
        return username


class ProfileForm(forms.ModelForm):
    """Display name, email, time zone and language: what the settings page and PATCH /api/v1/me/ change."""

    display_name = forms.CharField(
        label=_("Display name"),
        required=False,
        max_length=DISPLAY_NAME_MAX,
        validators=[validate_display_name],
        help_text=_("Shown instead of your username at the table; leave empty to use your username."),
        error_messages={"max_length": _("Shorten the display name to %(limit_value)d characters or fewer.")},
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

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone", "language")

    def clean_display_name(self) -> str:
        return self.cleaned_data["display_name"].strip()


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=TOKEN_NAME_MAX,
        help_text=_("A label to recognise it by, such as the program that will use it."),
        error_messages={
            "required": _("Give the token a name, such as the program that will use it."),
            "max_length": _("Shorten the token's name to %(limit_value)d characters or fewer."),
        },
    )
