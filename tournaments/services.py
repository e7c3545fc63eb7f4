"""Every change to a tournament happens here, in a transaction, under the tournament's row lock.

A round's games are created and started through the game services (so they are rated games like
any other, with the tournament's clock). When a game ends, games publishes `GameFinished` inside its
transaction; `game_ended` then takes the tournament's row lock and, if that was the round's last
game, pairs and starts the next round (or finishes the tournament) in the same transaction. Two
last games ending at once queue on the lock: the first to commit does not yet see the other's end,
the second sees both, so the next round starts exactly once.

Lock order, everywhere: an entry (withdrawing), then games, then the tournament.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Block, User
from config.service_errors import Conflict, Forbidden, GameError, Invalid, NotFound
from config.write_batch import WriteBatch
from games import services as game_services
from games.engine import BadOption, get_rules
from games.models import Game, GameKind, GameStatus, TimeControl, TimeoutPolicy, time_bank_of, time_control_columns
from notifications.models import NotificationKind
from notifications.outbox import notify

from . import pairing, selectors
from .models import (
    Bye,
    CancelReason,
    Entry,
    Round,
    Table,
    Tournament,
    TournamentFormat,
    TournamentStatus,
    VacationPolicy,
)
from .scoring import as_number

MIN_PLAYERS = 2
MAX_PLAYERS = 1000
MAX_ROUND_ROBIN_PLAYERS = 30  # 29 or 30 rounds at most
MAX_ROUNDS = 50
NAME_MAX = 100
BOT_LEVEL = "good"
# A round's expected end, for the players' calendars: this many turns of the table's time, each
# taken as a move's limit (or a tenth of the bank and its increment). An estimate, never a limit.
EXPECTED_TURNS_PER_ROUND = 15
# A start further off is a typo or an attack: dates near the calendar's end break calendars and
# the local times of readers east of UTC.
MAX_STARTS_AHEAD = timedelta(days=365)


@dataclass(frozen=True)
class TimeControlChoice:
    move_time_limit: int
    bank: dict[str, int] | None


# --- creating, joining, leaving --------------------------------------------------------------


@transaction.atomic
def create_tournament(
    *,
    creator: User,
    name: str,
    kind: str,
    format: str,
    table_size: int,
    rounds: int | None = None,
    options: dict[str, Any] | None = None,
    move_time_limit: int = 86400,
    time_bank: dict[str, int] | None = None,
    timeout_policy: str = TimeoutPolicy.AUTOPLAY,
    vacation: str = VacationPolicy.IGNORED,
    max_players: int = 16,
    bots_fill: bool = False,
    starts_at: datetime | None = None,
    now: datetime | None = None,
) -> Tournament:
    """A new open tournament with its creator entered (they may leave before it starts)."""
    now = now or timezone.now()
    name = (name or "").strip()
    if not name or len(name) > NAME_MAX:
        raise Invalid(f"Give the tournament a name of 1 to {NAME_MAX} characters.", "bad_name", {"name": [name]})
    if kind not in GameKind.values:
        raise Invalid(f"Unknown game kind {kind!r}; choose scat or scattle.", "bad_kind", {"kind": [kind]})
    if format not in TournamentFormat.values:
        raise Invalid("The format is swiss or round_robin.", "bad_format", {"format": [format]})
    rules = get_rules(kind)
    low, high = max(2, rules.min_seats), min(9, rules.max_seats)
    if not low <= table_size <= high:
        message = f"{kind.title()} tables seat {low} to {high} players."
        raise Invalid(message, "bad_table_size", {"table_size": [message]})
    if format == TournamentFormat.ROUND_ROBIN:
        if table_size != 2:
            message = "A round robin is played at tables of two (every pair meets once)."
            raise Invalid(message, "bad_table_size", {"table_size": [message]})
        if not MIN_PLAYERS <= max_players <= MAX_ROUND_ROBIN_PLAYERS:
            message = f"A round robin takes {MIN_PLAYERS} to {MAX_ROUND_ROBIN_PLAYERS} players."
            raise Invalid(message, "bad_max_players", {"max_players": [message]})
        rounds = 0  # set at the start, from the number of players
    else:
        if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            message = f"A Swiss tournament has 1 to {MAX_ROUNDS} rounds."
            raise Invalid(message, "bad_rounds", {"rounds": [message]})
        if not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
            message = f"A tournament takes {MIN_PLAYERS} to {MAX_PLAYERS} players."
            raise Invalid(message, "bad_max_players", {"max_players": [message]})
    options = _checked_options(kind, options or {}, table_size, bots_fill)
    time = _checked_time_control(move_time_limit, time_bank)
    if timeout_policy not in TimeoutPolicy.values:
        raise Invalid("timeout_policy is autoplay or forfeit.", "bad_timeout_policy")
    if vacation not in VacationPolicy.values:
        raise Invalid("vacation is pauses or ignored.", "bad_vacation", {"vacation": [vacation]})
    if starts_at is not None and not now < starts_at <= now + MAX_STARTS_AHEAD:
        message = f"starts_at must be in the future, at most {MAX_STARTS_AHEAD.days} days ahead."
        raise Invalid(message, "bad_starts_at", {"starts_at": [message]})
    bank = time.bank
    tournament = Tournament.objects.create(
        name=name,
        kind=kind,
        format=format,
        table_size=table_size,
        rounds=rounds,
        options=options,
        move_time_limit=time.move_time_limit,
        **time_control_columns(bank),
        timeout_policy=timeout_policy,
        vacation=vacation,
        max_players=max_players,
        bots_fill=bots_fill,
        starts_at=starts_at,
        creator=creator,
        created_at=now,
    )
    Entry.objects.create(tournament=tournament, user=creator, joined_at=now)
    return tournament


def _checked_options(kind: str, options: dict[str, Any], table_size: int, bots_fill: bool) -> dict[str, Any]:
    """The rules options, valid at every table size the rounds may use (smaller tables for an uneven
    field, unless bots fill them)."""
    rules = get_rules(kind)
    sizes = [table_size] if bots_fill else range(2, table_size + 1)
    try:
        for seats in sizes:
            rules.validate_options(options, seats)
        return rules.validate_options(options)
    except BadOption as exc:
        raise Invalid(exc.message, "bad_option", {"options": [exc.message]}, option=exc.option) from exc


def _checked_time_control(move_time_limit: int, time_bank: dict[str, int] | None) -> TimeControlChoice:
    return TimeControlChoice(move_time_limit, game_services.checked_time_control(move_time_limit, time_bank))


def _lock(tournament_id: str) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(public_id=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound("There is no such tournament.", "not_found") from None


@transaction.atomic
def join_tournament(*, tournament_id: str, user: User, now: datetime | None = None) -> Tournament:
    tournament = _lock(tournament_id)
    if tournament.status != TournamentStatus.OPEN:
        raise Conflict(f"The tournament is {tournament.status}, not open.", "tournament_not_open")
    entries = Entry.objects.filter(tournament=tournament)
    if entries.filter(user=user).exists():
        raise Conflict("You are already in this tournament.", "already_entered")
    if entries.count() >= tournament.max_players:
        raise Conflict(f"The tournament is full ({tournament.max_players} players).", "tournament_full")
    Entry.objects.create(tournament=tournament, user=user, joined_at=now or timezone.now())
    return tournament


@transaction.atomic
def leave_tournament(*, tournament_id: str, user: User) -> Tournament:
    """Leave before the start; after it, a player withdraws instead."""
    tournament = _lock(tournament_id)
    if tournament.status != TournamentStatus.OPEN:
        raise Conflict("The tournament has started: withdraw instead.", "tournament_not_open")
    deleted, _ = Entry.objects.filter(tournament=tournament, user=user).delete()
    if not deleted:
        raise Forbidden("You are not in this tournament.", "not_entered")
    return tournament


@transaction.atomic
def start_tournament(*, tournament_id: str, user: User, now: datetime | None = None) -> Tournament:
    """Start now, with the players entered (the creator only)."""
    tournament = _lock(tournament_id)
    if tournament.creator_id != user.pk:
        raise Forbidden("Only the tournament's creator can start it.", "not_creator")
    if tournament.status != TournamentStatus.OPEN:
        raise Conflict(f"The tournament is {tournament.status}, not open.", "tournament_not_open")
    players = Entry.objects.filter(tournament=tournament).count()
    if players < MIN_PLAYERS:
        raise Conflict(f"A tournament needs at least {MIN_PLAYERS} players.", "not_enough_players")
    _start(tournament, now or timezone.now())
    return tournament


@transaction.atomic
def cancel_tournament(*, tournament_id: str, user: User, now: datetime | None = None) -> Tournament:
    """Call off a tournament that has not started (the creator only): it finishes unplayed, and the
    players entered hear of it."""
    tournament = _lock(tournament_id)
    if tournament.creator_id != user.pk:
        raise Forbidden("Only the tournament's creator can cancel it.", "not_creator")
    if tournament.status != TournamentStatus.OPEN:
        raise Conflict(
            f"The tournament is {tournament.status}; only an open one can be cancelled.", "tournament_not_open"
        )
    _finish(tournament, now or timezone.now(), cancel_reason=CancelReason.CREATOR)
    return tournament


def start_due_tournaments(now: datetime | None = None) -> list[str]:
    """Start (or, with too few players, cancel) the open tournaments whose starts_at has come; one
    transaction each. The public ids of those handled."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=TournamentStatus.OPEN, starts_at__lte=now).values_list(
        "public_id", flat=True
    )
    handled = []
    for tournament_id in list(due[:100]):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update(skip_locked=True).filter(public_id=tournament_id).first()
            if tournament is None or tournament.status != TournamentStatus.OPEN:
                continue  # another sweep or the creator got there first
            if Entry.objects.filter(tournament=tournament).count() < MIN_PLAYERS:
                _finish(tournament, now, cancel_reason=CancelReason.TOO_FEW_PLAYERS)
            else:
                _start(tournament, now)
            handled.append(tournament_id)
    return handled


def _start(tournament: Tournament, now: datetime) -> None:
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = now
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        tournament.rounds = pairing.round_robin_rounds(Entry.objects.filter(tournament=tournament).count())
    tournament.save(update_fields=["status", "started_at", "rounds"])
    _play_rounds_from(tournament, 1, now)


# --- rounds ----------------------------------------------------------------------------------


def expected_round_length(tournament: Tournament) -> timedelta:
    if tournament.time_control == TimeControl.BANK and tournament.bank_initial:
        per_turn = tournament.bank_initial / 10 + (tournament.bank_increment or 0)
    else:
        per_turn = tournament.move_time_limit
    return timedelta(seconds=EXPECTED_TURNS_PER_ROUND * per_turn)


def _play_rounds_from(tournament: Tournament, number: int, now: datetime, finished_game: Game | None = None) -> None:
    """Start round `number`; while a round ends as it starts (only byes, or games over at the deal),
    go on to the next; after the last round, finish the tournament."""
    while True:
        active = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).select_related("user"))
        if number > tournament.rounds or len(active) < MIN_PLAYERS:
            _finish(tournament, now, finished_game=finished_game)
            return
        round_ = _start_round(tournament, number, active, now, finished_game)
        if not selectors.round_is_over(round_):
            return
        round_.finished_at = now
        round_.save(update_fields=["finished_at"])
        number += 1


def _start_round(
    tournament: Tournament, number: int, active: list[Entry], now: datetime, finished_game: Game | None
) -> Round:
    past = selectors.results(tournament, finished_game=finished_game)
    order = selectors.standings_order(tournament, past)
    by_user = {entry.user_id: entry for entry in active}
    byes_had = past.bye_counts()
    contenders = [
        pairing.Contender(user_id, past.points.get(user_id, 0), byes_had.get(user_id, 0))
        for user_id in order
        if user_id in by_user
    ]
    roster = [entry.user_id for entry in Entry.objects.filter(tournament=tournament).order_by("joined_at", "pk")]
    plan = pairing.pair_round(
        contenders,
        history=pairing.meetings(past.tables),
        blocks=_blocks_among(list(by_user)),
        table_size=tournament.table_size,
        format=tournament.format,
        round_number=number,
        bots_fill=tournament.bots_fill,
        roster=roster,
    )
    round_ = Round.objects.create(
        tournament=tournament, number=number, started_at=now, expected_end=now + expected_round_length(tournament)
    )
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    payload = {"tournament": tournament.public_id, "name": tournament.name, "round": number}
    for table_number, table in enumerate(plan.tables, start=1):
        users = [by_user[user_id].user for user_id in table.players]
        game = _table_game(tournament, users, table.bots)
        Table.objects.create(round=round_, number=table_number, game=game)
        notify(
            NotificationKind.ROUND_STARTED,
            [(user_id, game, {**payload, "game": game.public_id}) for user_id in table.players],
        )
    Bye.objects.bulk_create(Bye(round=round_, user_id=user_id) for user_id in plan.byes)
    notify(
        NotificationKind.ROUND_STARTED,
        [(user_id, None, {**payload, "game": None, "bye": True}) for user_id in plan.byes],
    )
    return round_


def _blocks_among(user_ids: list[int]) -> set[frozenset]:
    pairs = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list(
        "blocker_id", "blocked_id"
    )
    return {pairing.pair_key(a, b) for a, b in pairs}


def _table_game(tournament: Tournament, users: list[User], bots: int) -> Game:
    """A started, rated game for one table: the first player creates it, the others take their seats
    (the last one seated starts it), then any bots."""
    game = game_services.create_game(
        creator=users[0],
        kind=tournament.kind,
        num_seats=len(users) + bots,
        options=tournament.options,
        move_time_limit=tournament.move_time_limit,
        time_bank=time_bank_of(tournament),
        timeout_policy=tournament.timeout_policy,
        bots=[BOT_LEVEL] * bots,
        rated=True,
    )
    for user in users[1:]:
        game_services.join_game(game_id=game.public_id, user=user)
    game.refresh_from_db()
    return game


def game_ended(*, game: Game, now: datetime | None = None) -> bool:
    """A game has just finished (inside its transaction, its row not yet saved). When it was the
    last of its tournament round, start the next round or finish the tournament. True when the
    round ended."""
    table = Table.objects.filter(game_id=game.pk).select_related("round").first()
    if table is None:
        return False  # not a tournament game (or one being set up: its round checks itself)
    now = now or timezone.now()
    tournament = Tournament.objects.select_for_update().get(pk=table.round.tournament_id)
    round_ = Round.objects.get(pk=table.round_id)
    if (
        tournament.status != TournamentStatus.RUNNING
        or round_.finished_at is not None
        or tournament.current_round != round_.number
        or not selectors.round_is_over(round_, finished_game=game)
    ):
        return False
    round_.finished_at = now
    round_.save(update_fields=["finished_at"])
    _play_rounds_from(tournament, round_.number + 1, now, finished_game=game)
    return True


def _finish(
    tournament: Tournament, now: datetime, *, cancel_reason: str = "", finished_game: Game | None = None
) -> None:
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = now
    tournament.cancel_reason = cancel_reason
    tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
    payload = {"tournament": tournament.public_id, "name": tournament.name, "round": tournament.current_round}
    if cancel_reason:
        entered = Entry.objects.filter(tournament=tournament).values_list("user_id", flat=True)
        told = [
            user_id
            for user_id in entered
            if not (cancel_reason == CancelReason.CREATOR and user_id == tournament.creator_id)
        ]
        cancelled = {**payload, "game": None, "cancelled": True, "reason": cancel_reason}
        notify(NotificationKind.TOURNAMENT_OVER, [(user_id, None, cancelled) for user_id in told])
        return
    rows = selectors.standings(tournament, finished_game=finished_game)
    notify(
        NotificationKind.TOURNAMENT_OVER,
        [
            (row.player, None, {**payload, "game": None, "place": row.place, "points": as_number(row.points)})
            for row in rows
        ],
    )


# --- withdrawing -----------------------------------------------------------------------------


@transaction.atomic
def withdraw(*, tournament_id: str, user: User, now: datetime | None = None) -> Tournament:
    """Leave a running tournament: the player resigns their running games and is paired no more.
    Their standings row stays, with the points they had."""
    now = now or timezone.now()
    tournament = Tournament.objects.filter(public_id=tournament_id).first()
    if tournament is None:
        raise NotFound("There is no such tournament.", "not_found")
    if tournament.status != TournamentStatus.RUNNING:
        raise Conflict(
            f"The tournament is {tournament.status}; only a running one can be withdrawn from.", "not_running"
        )
    # The entry's lock first (then the games', then the tournament's, as a game's end takes them).
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None:
        raise Forbidden("You are not in this tournament.", "not_entered")
    if entry.withdrawn_at is not None:
        raise Conflict("You have already withdrawn.", "already_withdrawn")
    entry.withdrawn_at = now
    entry.save(update_fields=["withdrawn_at"])
    running = Game.objects.filter(
        tournament_table__round__tournament=tournament, status=GameStatus.ACTIVE, seats__user=user
    ).values_list("public_id", flat=True)
    for game_id in list(running):
        with suppress(GameError):  # already out of that game (eliminated): nothing to resign
            game_services.resign(game_id=game_id, user=user)
    tournament.refresh_from_db()
    return tournament


# --- the calendar address --------------------------------------------------------------------


def rotate_calendar(*, user: User) -> str:
    """A new secret calendar address for `user`; the old one stops working. Returns the token."""
    from .models import CalendarFeed, new_feed_token

    token = new_feed_token()
    CalendarFeed.objects.update_or_create(user=user, defaults={"token": token, "rotated_at": timezone.now()})
    return token


def calendar_token(*, user: User) -> str:
    """The player's calendar token, made on first use."""
    from .models import CalendarFeed

    feed, _created = CalendarFeed.objects.get_or_create(user=user)
    return feed.token


# --- vacation that does not stop a round ------------------------------------------------------


def resume_paused_clocks(now: datetime | None = None, limit: int = 500) -> int:
    """In running tournaments whose vacation policy is `ignored`, restart the clocks that a player's
    vacation stopped (games pause them for everyone on vacation): the round goes on, and the timeout
    policy plays for the absent player. Returns how many clocks were restarted."""
    now = now or timezone.now()
    paused = Q(status=GameStatus.ACTIVE, deadline__isnull=True, paused_remaining__isnull=False)
    in_scope = Q(
        tournament_table__round__tournament__status=TournamentStatus.RUNNING,
        tournament_table__round__tournament__vacation=VacationPolicy.IGNORED,
    )
    restarted = 0
    for game_pk in list(Game.objects.filter(paused, in_scope).values_list("pk", flat=True)[:limit]):
        with transaction.atomic():
            game = Game.objects.select_for_update(skip_locked=True).filter(paused, pk=game_pk).first()
            if game is None:
                continue
            game.deadline = now + timedelta(seconds=game.paused_remaining)
            game.paused_remaining = None
            writes = WriteBatch()
            game_services.tell_viewers(game, list(game.seats.all()), writes)
            writes.update(game, ["deadline", "paused_remaining", "revision", "updated_at"])
            writes.flush()
            restarted += 1
    return restarted
