"""The vacation section of /settings/.

It lives beside the clock it stops; accounts renders the page and takes its context through
`accounts.views.SETTINGS_CONTEXT`.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.preferences import preference_for
from accounts.views import render_settings, settings_saved

from . import vacations
from .error_texts import error_message
from .errors import GameError


class VacationForm(forms.Form):
    # A date input shows and sends the ISO date whatever the page's language ("09/12/2026" in a
    # Turkish page was no date to the browser, and the field came up empty).
    until = forms.DateField(
        label=_("Away until (end of that day)"),
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def until_moment(self) -> datetime:
        day = self.cleaned_data["until"]
        return timezone.make_aware(datetime.combine(day, time.max.replace(microsecond=0)))


def settings_context(request: HttpRequest) -> dict[str, Any]:
    return {
        "vacation": vacations.current_vacation(request.user),
        "vacation_days_per_year": preference_for(request.user.pk).vacation_days_per_year,
        "vacation_days_left": max(0.0, vacations.allowance_left(request.user)),
        "vacation_form": VacationForm(initial={"until": (timezone.localdate() + timedelta(days=7))}),
    }


@login_required
@require_POST
def start_vacation(request: HttpRequest) -> HttpResponse:
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            vacations.start_vacation(user=request.user, until=form.until_moment())
        except GameError as exc:
            form.add_error("until", error_message(exc))
        else:
            return settings_saved("vacation", "vacation")
    return render_settings(request, vacation_form=form)


@login_required
@require_POST
def end_vacation(request: HttpRequest) -> HttpResponse:
    vacations.end_vacation(user=request.user)
    return settings_saved("vacation_over", "vacation")


SAVED_MESSAGES = {
    "vacation": _("Enjoy your vacation: your clocks are stopped."),
    "vacation_over": _("Welcome back: your clocks run again."),
}
