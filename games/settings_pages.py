"""The notifications, vacation and webhook sections of /settings/.

They live beside the clock and the outbox they configure; accounts renders the page and takes
their context through `accounts.views.SETTINGS_CONTEXT`.
"""

from __future__ import annotations

import secrets
from datetime import datetime, time, timedelta
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.views import render_settings, settings_saved

from . import vacations
from .errors import GameError
from .models import Channel, NotificationKind, PlayerPreference
from .webhooks import webhook_url_problem

OUTSIDE_CHANNELS = [(Channel.EMAIL, _("Email")), (Channel.WEBHOOK, _("Webhook"))]


def channel_field(kind: str) -> str:
    return f"channels_{kind}"


class NotificationsForm(forms.Form):
    reminder_percent = forms.IntegerField(
        label=_("Remind me when this share of my time is used (%)"), min_value=10, max_value=95
    )
    digest_enabled = forms.BooleanField(label=_("Send me a daily digest of the games waiting for me"), required=False)
    digest_hour = forms.IntegerField(label=_("Digest hour (my local time, 0-23)"), min_value=0, max_value=23)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind, label in NotificationKind.choices:
            self.fields[channel_field(kind)] = forms.MultipleChoiceField(
                label=label.capitalize(),
                choices=[(Channel.IN_APP, _("On the site")), *OUTSIDE_CHANNELS],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )

    @classmethod
    def for_preference(cls, preference: PlayerPreference, data=None) -> NotificationsForm:
        initial = {
            "reminder_percent": round(preference.reminder_share * 100),
            "digest_enabled": preference.digest_enabled,
            "digest_hour": preference.digest_hour,
            **{channel_field(kind): preference.channels_for(kind) for kind in NotificationKind.values},
        }
        return cls(data, initial=initial)

    def channel_fields(self) -> list[forms.BoundField]:
        return [self[channel_field(kind)] for kind in NotificationKind.values]


class VacationForm(forms.Form):
    until = forms.DateField(label=_("Away until (end of that day)"), widget=forms.DateInput(attrs={"type": "date"}))

    def until_moment(self) -> datetime:
        day = self.cleaned_data["until"]
        return timezone.make_aware(datetime.combine(day, time.max.replace(microsecond=0)))


class WebhookForm(forms.Form):
    webhook_url = forms.URLField(
        label=_("Webhook address"),
        assume_scheme="https",
        required=False,
        max_length=500,
        help_text=_("We POST a signed JSON message here for each event you route to the webhook. Empty: off."),
    )
    new_secret = forms.BooleanField(label=_("Make a new signing secret"), required=False)

    def clean_webhook_url(self) -> str:
        url = self.cleaned_data["webhook_url"]
        problem = url and webhook_url_problem(url)
        if problem:
            raise forms.ValidationError(problem)
        return url


def settings_context(request: HttpRequest) -> dict[str, Any]:
    preference = PlayerPreference.objects.get_or_create(user=request.user)[0]
    vacation = vacations.current_vacation(request.user)
    return {
        "preference": preference,
        "notifications_form": NotificationsForm.for_preference(preference),
        "vacation": vacation,
        "vacation_days_left": max(0.0, vacations.allowance_left(request.user)),
        "vacation_form": VacationForm(initial={"until": (timezone.localdate() + timedelta(days=7))}),
        "webhook_form": WebhookForm(initial={"webhook_url": preference.webhook_url}),
    }


@login_required
@require_POST
def save_notifications(request: HttpRequest) -> HttpResponse:
    preference = PlayerPreference.objects.get_or_create(user=request.user)[0]
    form = NotificationsForm.for_preference(preference, request.POST)
    if not form.is_valid():
        return render_settings(request, notifications_form=form)
    preference.reminder_share = form.cleaned_data["reminder_percent"] / 100
    preference.digest_enabled = form.cleaned_data["digest_enabled"]
    preference.digest_hour = form.cleaned_data["digest_hour"]
    # A crafted form can repeat a box; each channel counts once.
    preference.channels = {
        kind: list(dict.fromkeys(form.cleaned_data[channel_field(kind)])) for kind in NotificationKind.values
    }
    preference.save(update_fields=["reminder_share", "digest_enabled", "digest_hour", "channels"])
    return settings_saved("notifications", "notifications")


@login_required
@require_POST
def start_vacation(request: HttpRequest) -> HttpResponse:
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            vacations.start_vacation(user=request.user, until=form.until_moment())
        except GameError as exc:
            form.add_error("until", exc.message)
        else:
            return settings_saved("vacation", "vacation")
    return render_settings(request, vacation_form=form)


@login_required
@require_POST
def end_vacation(request: HttpRequest) -> HttpResponse:
    vacations.end_vacation(user=request.user)
    return settings_saved("vacation_over", "vacation")


@login_required
@require_POST
def save_webhook(request: HttpRequest) -> HttpResponse:
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return render_settings(request, webhook_form=form)
    preference = PlayerPreference.objects.get_or_create(user=request.user)[0]
    preference.webhook_url = form.cleaned_data["webhook_url"]
    if preference.webhook_url and (form.cleaned_data["new_secret"] or not preference.webhook_secret):
        preference.webhook_secret = secrets.token_hex(24)
    preference.save(update_fields=["webhook_url", "webhook_secret"])
    return settings_saved("webhook", "webhooks")


SAVED_MESSAGES = {
    "notifications": _("Your notification settings are saved."),
    "vacation": _("Enjoy your vacation: your clocks are stopped."),
    "vacation_over": _("Welcome back: your clocks run again."),
    "webhook": _("Your webhook is saved."),
}
