"""The tournament pages and the calendar feed. The pages' buttons and lists go through the API
(tournaments/static/tournaments/tournaments.js); the server renders only what shows before any
script runs: the settings a player reads before joining."""

from __future__ import annotations

from datetime import UTC, datetime

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from config import l10n
from games.clock import MOVE_TIME_PRESETS
from games.labels import KIND_LABELS, duration_label
from games.models import TimeControl, TimeoutPolicy

from . import ics
from .models import CalendarFeed, Tournament, TournamentFormat, VacationPolicy


def tournament_list(request: HttpRequest) -> HttpResponse:
    context = {
        "kinds": list(KIND_LABELS.items()),
        "formats": TournamentFormat.choices,
        "move_times": [(seconds, duration_label(seconds)) for seconds in MOVE_TIME_PRESETS.values()],
        "vacations": VacationPolicy.choices,
        "timeout_policies": TimeoutPolicy.choices,
    }
    return render(request, "tournaments/list.html", context)


def time_control_label(tournament: Tournament) -> str:
    if tournament.time_control == TimeControl.BANK and tournament.bank_initial:
        return _("time bank of %(time)s, plus %(increment)s a move, at most %(cap)s") % {
            "time": duration_label(tournament.bank_initial),
            "increment": duration_label(tournament.bank_increment or 0),
            "cap": duration_label(tournament.bank_cap or tournament.bank_initial),
        }
    return _("%(time)s a move") % {"time": duration_label(tournament.move_time_limit)}


def moment_label(moment: datetime) -> str:
    """The moment in the reader's time zone, or in UTC where that zone's calendar ends first (a start
    stored near 9999-12-31 falls in the year 10000 east of UTC)."""
    try:
        return l10n.format_datetime(moment)
    except OverflowError:
        with timezone.override(UTC):
            return l10n.format_datetime(moment) + " UTC"


def tournament_page(request: HttpRequest, tournament_id: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("creator"), public_id=tournament_id)
    context = {
        "tournament": tournament,
        "starts_at_label": moment_label(tournament.starts_at) if tournament.starts_at else None,
        "kind_label": KIND_LABELS.get(tournament.kind, tournament.kind),
        "format_label": tournament.get_format_display(),
        "time_label": time_control_label(tournament),
        "timeout_label": tournament.get_timeout_policy_display(),
        "vacation_label": tournament.get_vacation_display(),
    }
    return render(request, "tournaments/detail.html", context)


def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The player's secret .ics feed; the address is the credential (see CalendarFeed)."""
    feed = CalendarFeed.objects.select_related("user").filter(token=token, user__is_active=True).first()
    if feed is None:
        raise Http404(_("There is no such calendar."))
    response = HttpResponse(ics.player_feed(feed.user), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response
