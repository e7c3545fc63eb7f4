"""Calendars (RFC 5545, written with the icalendar library): a player's secret feed and the
one-event download of a game's deadline.

UIDs are stable, so a calendar program that reads the feed again updates its events instead of
adding copies: a round is `tournament-<id>-round-<n>@<host>`, a tournament's start
`tournament-<id>-start@<host>`, a game's current deadline `game-<id>-deadline@<host>` (the event
moves with each new deadline; SEQUENCE, the game's revision, says which is newer).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event

from accounts.models import User
from games.models import Game, GameStatus

from .models import Entry, Round, Tournament, TournamentStatus
from .selectors import games_waiting_for

PRODID = "-//Slowhand//Tournaments and deadlines//EN"
DEADLINE_LENGTH = timedelta(minutes=15)  # a deadline is a moment; calendars show it as a short event
FEED_FINISHED_DAYS = 60  # finished tournaments stay in the feed this long


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "slowhand"


def _site(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _after(moment: datetime, length: timedelta) -> datetime:
    """`moment + length`, or `moment` where the calendar ends first (a start stored near 9999-12-31
    before starts were bounded)."""
    try:
        return moment + length
    except OverflowError:
        return moment


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    return calendar


def _deadline_event(game: Game, stamp: datetime, *, yours: bool = True) -> Event:
    event = Event()
    event.add("uid", f"game-{game.public_id}-deadline@{_host()}")
    event.add("dtstamp", stamp)
    event.add("dtstart", game.deadline)
    event.add("dtend", _after(game.deadline, DEADLINE_LENGTH))
    event.add("sequence", game.revision)
    if yours:
        event.add("summary", f"Slowhand: your move in {game.kind.title()} is due")
        event.add("description", f"Move before this time, or the timeout policy plays for you.\n{_game_url(game)}")
    else:
        event.add("summary", f"Slowhand: the current turn in {game.kind.title()} ends")
        event.add("description", _game_url(game))
    event.add("url", _game_url(game))
    return event


def _game_url(game: Game) -> str:
    return _site(f"/games/{game.public_id}/")


def _tournament_url(tournament: Tournament) -> str:
    return _site(f"/tournaments/{tournament.public_id}/")


def player_feed(user: User, now: datetime | None = None) -> bytes:
    """The player's calendar: the starts and rounds (start to expected end) of their tournaments,
    and the deadlines of the games waiting for their move."""
    now = now or timezone.now()
    calendar = _calendar("Slowhand")
    recent = now - timedelta(days=FEED_FINISHED_DAYS)
    tournaments = (
        Tournament.objects.filter(pk__in=Entry.objects.filter(user=user).values("tournament_id"))
        .exclude(status=TournamentStatus.FINISHED, finished_at__lt=recent)
        .order_by("pk")
    )
    for tournament in tournaments:
        if tournament.status == TournamentStatus.OPEN and tournament.starts_at:
            event = Event()
            event.add("uid", f"tournament-{tournament.public_id}-start@{_host()}")
            event.add("dtstamp", tournament.created_at)
            event.add("dtstart", tournament.starts_at)
            event.add("dtend", _after(tournament.starts_at, DEADLINE_LENGTH))
            event.add("summary", f"{tournament.name}: the tournament starts")
            event.add("url", _tournament_url(tournament))
            calendar.add_component(event)
        for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
            calendar.add_component(_round_event(tournament, round_))
    for game in games_waiting_for(user):
        calendar.add_component(_deadline_event(game, game.updated_at))
    return calendar.to_ical()


def _round_event(tournament: Tournament, round_: Round) -> Event:
    event = Event()
    event.add("uid", f"tournament-{tournament.public_id}-round-{round_.number}@{_host()}")
    event.add("dtstamp", round_.finished_at or round_.started_at)
    event.add("dtstart", round_.started_at)
    end = round_.finished_at or round_.expected_end
    event.add("dtend", max(end, _after(round_.started_at, DEADLINE_LENGTH)))
    event.add("sequence", 1 if round_.finished_at else 0)
    state = "finished" if round_.finished_at else "expected end"
    event.add("summary", f"{tournament.name}: round {round_.number} of {tournament.rounds}")
    event.add("description", f"Round {round_.number} ({state} shown as the end).\n{_tournament_url(tournament)}")
    event.add("url", _tournament_url(tournament))
    return event


def game_deadline(game: Game, *, yours: bool) -> bytes | None:
    """One event: the game's current deadline (`yours`: the viewer is to move); None when no clock
    runs (the game is over, or the clock is stopped)."""
    if game.status != GameStatus.ACTIVE or game.deadline is None:
        return None
    calendar = _calendar(f"Slowhand {game.kind.title()} {game.public_id}")
    calendar.add("method", "PUBLISH")
    calendar.add_component(_deadline_event(game, game.updated_at, yours=yours))
    return calendar.to_ical()
