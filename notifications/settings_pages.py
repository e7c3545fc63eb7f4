"""The notifications, push devices and webhook sections of /settings/.

accounts renders the page and takes their context through `accounts.views.SETTINGS_CONTEXT`; the
sections call the same functions as the API (notifications.devices, the address policy).
"""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.preferences import DEFAULT_FOLLOW_UP_AFTER
from accounts.views import render_settings, settings_saved
from config import l10n
from config.service_errors import GameError

from . import devices
from .addresses import webhook_url_problem
from .models import Channel, NotificationKind, PlayerPreference, PushSubscription

CHANNEL_CHOICES = [
    (Channel.IN_APP, _("On the site")),
    (Channel.EMAIL, _("Email")),
    (Channel.PUSH, _("Push to my devices")),
    (Channel.WEBHOOK, _("Webhook")),
]
NEVER = "never"
HOUR = 3600
FOLLOW_UP_CHOICES = [
    (str(HOUR), _("after 1 hour")),
    (str(3 * HOUR), _("after 3 hours")),
    (str(6 * HOUR), _("after 6 hours")),
    (str(DEFAULT_FOLLOW_UP_AFTER), _("after 12 hours")),
    (str(24 * HOUR), _("after 24 hours")),
    (NEVER, _("never")),
]


def channel_field(kind: str) -> str:
    return f"channels_{kind}"


# The daily digest is set by its own box and hour (it is always an email): it gets no row of channels, so
# the page sets it in one place.
CHOSEN_KINDS = [kind for kind in NotificationKind.values if kind != NotificationKind.DIGEST]


def without_webhook(channels: list[str], preference: PlayerPreference) -> list[str]:
    """No event goes to a webhook that has no address: such a box is neither shown ticked nor stored on."""
    return channels if preference.webhook_url else [c for c in channels if c != Channel.WEBHOOK]


class NotificationsForm(forms.Form):
    reminder_percent = forms.IntegerField(
        label=_("Remind me when this share of my time is used (%)"), min_value=10, max_value=95
    )
    digest_enabled = forms.BooleanField(label=_("Send me a daily digest of the games waiting for me"), required=False)
    digest_hour = forms.IntegerField(label=_("Digest hour (my local time, 0-23)"), min_value=0, max_value=23)
    quiet_hours_start = forms.TimeField(
        label=_("Quiet hours from (my local time)"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("Pushes and emails wait until the quiet hours end, unless a deadline falls inside them."),
    )
    quiet_hours_end = forms.TimeField(
        label=_("Quiet hours until"), required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    follow_up_after = forms.ChoiceField(
        label=_("When a push about my turn goes unanswered, email me"),
        choices=FOLLOW_UP_CHOICES,
        required=False,  # left out: the delay stays as it is
        help_text=_("Only if I have not opened the game by then."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind, label in NotificationKind.choices:
            if kind not in CHOSEN_KINDS:
                continue
            self.fields[channel_field(kind)] = forms.MultipleChoiceField(
                label=label.capitalize(), choices=CHANNEL_CHOICES, widget=forms.CheckboxSelectMultiple, required=False
            )

    @classmethod
    def for_preference(cls, preference: PlayerPreference, data=None) -> NotificationsForm:
        initial = {
            "reminder_percent": round(preference.reminder_share * 100),
            "digest_enabled": preference.digest_enabled,
            "digest_hour": preference.digest_hour,
            "quiet_hours_start": preference.quiet_hours_start,
            "quiet_hours_end": preference.quiet_hours_end,
            "follow_up_after": NEVER if preference.follow_up_after is None else str(preference.follow_up_after),
            **{
                channel_field(kind): without_webhook(preference.channels_for(kind), preference) for kind in CHOSEN_KINDS
            },
        }
        form = cls(data, initial=initial)
        chosen = initial["follow_up_after"]
        if chosen not in dict(FOLLOW_UP_CHOICES):  # a delay set through the API: keep it choosable
            minutes = int(chosen) // 60
            label = l10n.lazy_interpolate(_("after %(minutes)s minutes"), {"minutes": minutes})
            form.fields["follow_up_after"].choices = [(chosen, label), *FOLLOW_UP_CHOICES]
        return form

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("quiet_hours_start"), data.get("quiet_hours_end")
        if (start is None) != (end is None):
            self.add_error("quiet_hours_end", _("Give both ends of the quiet hours, or neither."))
        elif start is not None and start == end:
            self.add_error("quiet_hours_end", _("Quiet hours end at another time than they begin."))
        return data

    def channel_fields(self) -> list[forms.BoundField]:
        return [self[channel_field(kind)] for kind in CHOSEN_KINDS]


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
    return {
        "preference": preference,
        "notifications_form": NotificationsForm.for_preference(preference),
        "webhook_form": WebhookForm(initial={"webhook_url": preference.webhook_url}),
        "push_devices": list(PushSubscription.objects.filter(user=request.user)),
    }


@login_required
@require_POST
def save_notifications(request: HttpRequest) -> HttpResponse:
    preference = PlayerPreference.objects.get_or_create(user=request.user)[0]
    form = NotificationsForm.for_preference(preference, request.POST)
    if not form.is_valid():
        return render_settings(request, notifications_form=form)
    data = form.cleaned_data
    preference.reminder_share = data["reminder_percent"] / 100
    preference.digest_enabled = data["digest_enabled"]
    preference.digest_hour = data["digest_hour"]
    preference.quiet_hours_start = data["quiet_hours_start"]
    preference.quiet_hours_end = data["quiet_hours_end"]
    if data["follow_up_after"]:
        preference.follow_up_after = None if data["follow_up_after"] == NEVER else int(data["follow_up_after"])
    # A crafted form can repeat a box; each channel counts once.
    chosen = {
        kind: without_webhook(list(dict.fromkeys(data[channel_field(kind)])), preference) for kind in CHOSEN_KINDS
    }
    # The digest's channels are not on this form: they stay as they were.
    preference.channels = {**(preference.channels if isinstance(preference.channels, dict) else {}), **chosen}
    preference.save(
        update_fields=[
            "reminder_share", "digest_enabled", "digest_hour", "quiet_hours_start", "quiet_hours_end",
            "follow_up_after", "channels",
        ]
    )  # fmt: skip
    return settings_saved("notifications", "notifications")


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


@login_required
@require_POST
def remove_device(request: HttpRequest, device_id: str) -> HttpResponse:
    try:
        devices.remove(user=request.user, device_id=device_id)
    except GameError as exc:
        raise Http404(exc.message) from exc
    return settings_saved("device_removed", "devices")


SAVED_MESSAGES = {
    "notifications": _("Your notification settings are saved."),
    "webhook": _("Your webhook is saved."),
    "device_removed": _("That device no longer receives pushes."),
}
