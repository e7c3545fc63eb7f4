"""Read paths: what each viewer may see of games, moves and lists."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.names import shown_name

from .engine import get_rules
from .models import BotLevel, Game, GameStatus, Move, Seat, Turn, time_bank_of


def visible_games(user: User | AnonymousUser | None) -> QuerySet[Game]:
    """The games `user` may see, each with what its detail needs."""
    return with_seats(Game.objects.visible_to(user) if user is not None else Game.objects.filter(is_private=False))


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games`, each with what its detail needs: the creator, and the seats with their players,
    preferences and invitees."""
    seats = Seat.objects.with_players().select_related("invited_user")
    return games.select_related("creator").prefetch_related(Prefetch("seats", seats))


def viewer_seat(game: Game, seats: list[Seat], user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s.index for s in seats if s.user_id == user.pk), None)


def may_see(game: Game, seats: list[Seat], user: User | None) -> bool:
    """Game.objects.visible_to for a game already loaded with its seats."""
    if not game.is_private:
        return True
    if user is None or not user.is_authenticated:
        return False
    return any(user.pk in (s.user_id, s.invited_user_id) for s in seats)


def game_detail(
    game: Game, user: User | None, *, seats: list[Seat] | None = None, now: datetime | None = None
) -> dict[str, Any]:
    """The game as `user` may see it: the engine's view for their seat, never more.

    `seats` (with their users) may come from the caller that already holds them.
    """
    seats = list(game.seats.all()) if seats is None else seats
    return detail_for_seat(game, seats, viewer_seat(game, seats, user), now=now)


def detail_for_seat(game: Game, seats: list[Seat], your_seat: int | None, *, now: datetime | None = None) -> dict:
    """The game as the player of `your_seat` sees it (None: a spectator). Nothing else about the viewer
    changes what they see, so the streams render it once for all the viewers of a seat."""
    view = None
    hand = None
    legal: list[dict[str, Any]] = []
    players: list[dict[str, Any]] = []
    if game.state is not None:
        rules = get_rules(game.kind)
        state = game.engine_state(rules)
        view = rules.view(state, your_seat)
        hand = view.get("hand")
        players = view.get("players", [])
        if your_seat is not None and game.status == GameStatus.ACTIVE:
            legal = rules.legal_actions(state, your_seat)
    active = game.status == GameStatus.ACTIVE
    is_your_turn = active and your_seat is not None and game.to_act_seat == your_seat
    return {
        **_summary(game, seats, your_seat, now=now),
        "your_seat": your_seat,
        "hand": hand,
        "legal_actions": legal,
        "is_your_turn": is_your_turn,
        "seats": [
            seat_facts(seat, players[seat.index] if seat.index < len(players) else {}, active=active) for seat in seats
        ],
        "state": view,
        "outcome": game.outcome,
        "fairness": fairness(game),
    }


def game_summary(game: Game, seats: list[Seat], user: User | None, *, now: datetime | None = None) -> dict[str, Any]:
    """The public facts of a game, for lists."""
    return _summary(game, seats, viewer_seat(game, seats, user), now=now)


def _summary(game: Game, seats: list[Seat], your_seat: int | None, *, now: datetime | None) -> dict[str, Any]:
    now = now or timezone.now()
    seconds_left = None
    if game.deadline is not None and game.status == GameStatus.ACTIVE:
        seconds_left = max(0, int((game.deadline - now).total_seconds()))
    to_act = game.to_act_seat if game.status == GameStatus.ACTIVE else None
    return {
        "id": game.public_id,
        "kind": game.kind,
        "status": game.status,
        "version": game.version,
        "options": game.options,
        "num_seats": game.num_seats,
        "is_private": game.is_private,
        "rated": game.rated,
        "advice": game.advice,
        "creator": creator_name(game, seats),
        "players": [seat_name(s) for s in seats],
        "open_seats": sum(1 for s in seats if not s.is_taken and not s.is_reserved(now)),
        "to_act": to_act,
        "is_your_turn": to_act is not None and to_act == your_seat,
        "move_time_limit": game.move_time_limit,
        "timeout_policy": game.timeout_policy,
        "time_bank": time_bank_of(game),
        "deadline": game.deadline,
        "seconds_left": seconds_left,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def creator_name(game: Game, seats: list[Seat]) -> str:
    """From the seats when the creator still sits at the table (always, until a game is cancelled)."""
    seat = next((s for s in seats if s.user_id == game.creator_id), None)
    return seat.user.username if seat else game.creator.username


def seat_name(seat: Seat) -> str | None:
    if seat.user_id:
        return seat.user.username
    if seat.bot_level:
        return f"bot ({seat.bot_level})"
    return None


def seat_label(seat: Seat) -> str:
    """How the pages name a seat to their reader (seat_name is the API's): "Name (@username)", a
    computer player in the reader's language, an invitee, or an open seat."""
    if seat.user_id:
        return shown_name(seat.user.display_name, seat.user.username)
    if seat.bot_level:
        return str(BotLevel(seat.bot_level).label)
    if seat.invited_user_id:
        invited = seat.invited_user
        return _("%(name)s (invited)") % {"name": shown_name(invited.display_name, invited.username)}
    return _("open seat")


def seat_facts(seat: Seat, public: dict[str, Any], *, active: bool = False) -> dict[str, Any]:
    user = seat.user
    facts = {key: value for key, value in public.items() if key != "seat"}
    return {
        "index": seat.index,
        "username": user.username if user else None,
        "display_name": (user.public_name if user else None) or (f"Bot ({seat.bot_level})" if seat.bot_level else None),
        "is_bot": seat.is_bot,
        "bot_level": seat.bot_level or None,
        "invited": seat.invited_user.username if seat.invited_user_id and not seat.is_taken else None,
        "reserved": seat.is_reserved(),
        "place": seat.final_place,
        "resigned": seat.resigned,
        "bank_remaining": seat.bank_remaining,
        "on_vacation_until": seat.away_until if active else None,
        "public": facts,
    }


def fairness(game: Game) -> dict[str, Any]:
    return {
        "seed_sha256": game.seed_sha256 or None,
        "seed": game.seed if game.is_over and game.seed else None,
    }


def move_history(
    game: Game, user: User | None, moves: list[Move], *, seats: list[Seat] | None = None
) -> list[dict[str, Any]]:
    """Moves as `user` may see them: another player's stock draw carries no card."""
    seats = list(game.seats.all()) if seats is None else seats
    return moves_for_seat(game, seats, viewer_seat(game, seats, user), moves)


def moves_for_seat(game: Game, seats: list[Seat], seat: int | None, moves: list[Move]) -> list[dict[str, Any]]:
    """Moves as the player of `seat` sees them (None: a spectator)."""
    rules = get_rules(game.kind)
    seat = seat if game.state is not None else None
    names = {s.index: seat_name(s) for s in seats}
    return [move_entry(rules, move, seat, names) for move in moves]


def move_entry(rules, move: Move, viewer: int | None, names: dict[int, str | None]) -> dict[str, Any]:
    return {
        "seq": move.seq,
        "seat": move.seat,
        "player": names.get(move.seat),
        "action": move.action,
        "events": rules.view_events(move.events, viewer),
        "by_server": move.by_server or None,
        "created_at": move.created_at,
    }


def games_for(
    user: User | None,
    *,
    status: str | None = None,
    kind: str | None = None,
    player: User | None = None,
) -> QuerySet[Game]:
    """Visible games, filtered. With `player` being the viewer: games awaiting them first, by deadline."""
    games = Game.objects.visible_to(user) if user is not None else Game.objects.filter(is_private=False)
    if status:
        games = games.filter(status=status)
    if kind:
        games = games.filter(kind=kind)
    if player is not None:
        games = games.filter(Q(seats__user=player) | Q(seats__invited_user=player)).distinct()
    if user is not None and user.is_authenticated:
        awaiting = Seat.objects.filter(game=OuterRef("pk"), user=user, index=OuterRef("to_act_seat"))
        # Only active games have a seat to act, so this is "awaiting the viewer".
        games = games.annotate(awaiting_viewer=Exists(awaiting)).order_by(
            F("awaiting_viewer").desc(), F("deadline").asc(nulls_last=True), "-created_at"
        )
    else:
        games = games.order_by("-created_at")
    return games.select_related("creator").prefetch_related("seats__user", "seats__invited_user")


def player_games(user: User, *, to_act_only: bool = False) -> QuerySet[Game]:
    """The player's active games (those they sit at and have not resigned from): the ones awaiting their
    move first, the earliest deadline first and games without one (a clock stopped for a vacation)
    last, then the others in the same order. With `to_act_only`, only the games awaiting their move:
    where to play next."""
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user, resigned=False)
    games = Game.objects.filter(Exists(seated), status=GameStatus.ACTIVE).annotate(
        awaiting_viewer=Exists(seated.filter(index=OuterRef("to_act_seat")))
    )
    if to_act_only:
        games = games.filter(awaiting_viewer=True)
    games = games.order_by(F("awaiting_viewer").desc(), F("deadline").asc(nulls_last=True), "turn_started_at", "pk")
    # A list shows no cards: the snapshot, the largest column, stays in the database.
    games = games.defer("state")
    return games.select_related("creator").prefetch_related("seats__user", "seats__invited_user")


def watchable(games: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """Of `games` (all by default), the public ones in progress, the most recently moved first (the
    lobby's "games to watch")."""
    games = Game.objects.all() if games is None else games
    games = games.filter(status=GameStatus.ACTIVE, is_private=False).order_by("-updated_at", "-pk")
    return games.select_related("creator").prefetch_related("seats__user", "seats__invited_user")


def joinable(games: QuerySet[Game], user: User | None, now: datetime | None = None) -> QuerySet[Game]:
    """Of open `games`, those `user` can join: not seated in them, with a seat free (not taken, not
    kept for an invitee until later) or a seat kept for them."""
    now = now or timezone.now()
    seats = Seat.objects.filter(game=OuterRef("pk"))
    free_seat = Exists(seats.free(now))
    if user is None or not user.is_authenticated:
        return games.filter(free_seat)
    return games.filter(free_seat | Exists(seats.held_for(user.pk, now))).exclude(Exists(seats.filter(user=user)))


def verification(game: Game) -> dict[str, Any]:
    """What anyone can check once the seed is revealed: the hash, the replay, the opening deal."""
    from .replay import replay_matches

    result = {**fairness(game), "seed_matches_hash": None, "replay_matches": None, "opening_deal": None}
    if result["seed"] is None:
        return result
    rules = get_rules(game.kind)
    result["seed_matches_hash"] = hashlib.sha256(game.seed.encode()).hexdigest() == game.seed_sha256
    result["replay_matches"] = replay_matches(game)
    opening = rules.new_game(game.num_seats, game.options, game.seed, edition=game.rules_edition)
    # The game is over, so every hand of the first deal may be shown.
    result["opening_deal"] = {"hands": opening_hands(rules, opening, game.num_seats)}
    return result


def opening_hands(rules, state, num_seats: int) -> list[list[str]]:
    return [rules.view(state, seat)["hand"] for seat in range(num_seats)]


def turn_times(game: Game, turns: list[Turn]) -> list[dict[str, Any]]:
    """Each finished turn's player and how long it took."""
    names = {s.index: seat_name(s) for s in game.seats.all()}
    return [turn_facts(names.get(turn.seat), turn, ended_at=turn.ended_at, timed_out=turn.timed_out) for turn in turns]


def current_turn(game: Game) -> dict[str, Any] | None:
    """The turn in progress, from the game itself (a Turn row is written when a turn ends)."""
    if game.status != GameStatus.ACTIVE or game.to_act_seat is None or game.turn_started_at is None:
        return None
    seat = next(s for s in game.seats.all() if s.index == game.to_act_seat)
    running = Turn(
        seat=seat.index, started_at=game.turn_started_at, deadline=game.deadline, reminded_at=game.turn_reminded_at
    )
    return turn_facts(seat_name(seat), running, ended_at=None, timed_out=False)


def turn_facts(player: str | None, turn: Turn, *, ended_at: datetime | None, timed_out: bool) -> dict[str, Any]:
    return {
        "seat": turn.seat,
        "player": player,
        "started_at": turn.started_at,
        "deadline": turn.deadline,
        "reminded_at": turn.reminded_at,
        "ended_at": ended_at,
        "seconds": int(((ended_at or timezone.now()) - turn.started_at).total_seconds()),
        "timed_out": timed_out,
    }
