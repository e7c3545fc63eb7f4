"""Setting, cancelling and playing standing orders. Every change happens under the game's row lock,
as moves do; the orders' moves go through the same recording path as everyone's."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from config.dispatch import enqueue_after_commit
from games.engine import get_rules
from games.engine.orders import BadOrders, preset_orders, standing_order_action, validate_orders
from games.errors import Conflict, Invalid, NotFound
from games.models import Game, GameStatus, Move, Seat
from games.services import lock_game, record_move, seat_of, seat_preference
from notifications.models import NotificationKind
from notifications.outbox import notify
from notifications.payloads import turn_payload

from .models import EndReason, StandingOrders

BY_ORDER = "standing_order"
TASK = "orders.tasks.play_standing_orders"
# Actions the orders may play in one turn (a Scattle turn of many melds is still far below).
MAX_ACTIONS_A_TURN = 60
# Entries of "played" kept per set of orders (the history has them all).
MAX_PLAYED_KEPT = 200
MAX_TURNS = 500
MAX_DAYS_AHEAD = 90


# --- the player's side -------------------------------------------------------------------------


def set_orders(
    *, game_id: str, user: User, limit: dict[str, Any], rules: Any = None, preset: str = ""
) -> StandingOrders:
    """Replace the player's orders for this game with `rules` (or a ready-made set) and `limit`
    (exactly one of turns, until, until_i_move). On their turn, the orders start at once."""
    with transaction.atomic():
        game, seats = lock_game(game_id, user)
        seat = seat_of(seats, user)
        if game.status not in (GameStatus.OPEN, GameStatus.ACTIVE) or seat.resigned:
            raise Conflict(f"The game is {game.status}: there is nothing left to order.", "game_over")
        try:
            if preset:
                rules = preset_orders(game.kind, preset)
            checked = validate_orders(game.kind, rules if preset else {"rules": rules}, rated=game.rated)
        except BadOrders as exc:
            raise Invalid("The orders are not valid: " + str(exc), "bad_orders", exc.errors) from exc
        now = timezone.now()
        turns, until = _check_limit(limit, now)
        my_turn = game.status == GameStatus.ACTIVE and game.to_act_seat == seat.index
        StandingOrders.objects.filter(seat=seat).delete()
        orders = StandingOrders.objects.create(
            seat=seat,
            rules=checked["rules"],
            limit=_limit_body(turns, until),
            turns_limit=turns,
            until=until,
            since_version=game.version,
            # Setting them on their own turn, the player is here: no "your turn" for this one.
            told_turn_at=game.turn_started_at if my_turn else None,
            told_version=game.version,
            created_at=now,
        )
        if my_turn:
            enqueue_after_commit(TASK, game.public_id)
    return orders


def cancel_orders(*, game_id: str, user: User) -> None:
    with transaction.atomic():
        _, seats = lock_game(game_id, user)
        seat = seat_of(seats, user)
        StandingOrders.objects.filter(seat=seat).delete()


def orders_for(*, game: Game, user: User) -> StandingOrders:
    """The player's orders for the game (NotFound when they have none), with `ended` brought up to
    date for reading (orders that a hand move or the game's end stopped say so)."""
    seat = seat_of(list(game.seats.all()), user)
    try:
        orders = StandingOrders.objects.get(seat=seat)
    except StandingOrders.DoesNotExist:
        raise NotFound("You have no standing orders in this game.", "no_orders") from None
    if orders.is_active:
        orders.ended = _end_reason(game, seat, orders, timezone.now()) or ""
    return orders


def orders_body(orders: StandingOrders) -> dict[str, Any]:
    return {
        "rules": orders.rules,
        "limit": orders.limit,
        "played": orders.played,
        "turns_played": orders.turns_played,
        "active": orders.is_active,
        "ended": orders.ended or None,
        "created_at": orders.created_at,
    }


def _check_limit(limit: dict[str, Any], now: datetime) -> tuple[int | None, datetime | None]:
    if "turns" in limit:
        return limit["turns"], None
    if "until" in limit:
        until = limit["until"]
        if until <= now or until > now + timedelta(days=MAX_DAYS_AHEAD):
            raise Invalid(
                f"The time must lie ahead, within {MAX_DAYS_AHEAD} days.",
                "bad_limit",
                {"limit.until": ["Out of range."]},
            )
        return None, until
    return None, None


def _limit_body(turns: int | None, until: datetime | None) -> dict[str, Any]:
    if turns is not None:
        return {"turns": turns}
    if until is not None:
        return {"until": until.isoformat()}
    return {"until_i_move": True}


# --- the server's side ------------------------------------------------------------------------


def play_orders(*, game_id: str) -> int:
    """Play the orders of the player to act, one transaction per action as bots are played, until
    the turn passes or no rule gives a legal action; then tell the player it is their turn, with
    what the orders did. Returns the actions played. Safe to run twice."""
    played = 0
    while played < MAX_ACTIONS_A_TURN:
        with transaction.atomic():
            game, seats = lock_game(game_id, None, check_visibility=False)
            if game.status != GameStatus.ACTIVE or game.to_act_seat is None:
                break
            seat = seats[game.to_act_seat]
            orders = _orders_of(seat)
            if orders is None:
                break
            step = _next_action(game, seat, orders) if orders.is_active else None
            if step is None:
                _tell_your_turn(game, seats, seat, orders)
                break
            passed = _play(game, seats, seat, orders, *step)
        played += 1
        if passed:
            break  # the next turn is queued where it begins
    return played


def play_in_locked_game(game: Game, seats: list[Seat], seat: Seat) -> bool:
    """Play the seat's orders inside the caller's transaction (the game locked): True when they
    passed the turn."""
    orders = _orders_of(seat)
    for _ in range(MAX_ACTIONS_A_TURN):
        if orders is None or not orders.is_active:
            return False
        step = _next_action(game, seat, orders)
        if step is None:
            return False
        if _play(game, seats, seat, orders, *step):
            return True
    return False


def _orders_of(seat: Seat) -> StandingOrders | None:
    if seat.is_bot:
        return None
    try:
        return seat.standing_orders
    except ObjectDoesNotExist:
        return None


def _end_reason(game: Game, seat: Seat, orders: StandingOrders, now: datetime) -> str | None:
    if game.status not in (GameStatus.OPEN, GameStatus.ACTIVE) or seat.resigned:
        return EndReason.GAME_OVER
    if orders.until is not None and now >= orders.until:
        return EndReason.LIMIT
    if orders.turns_limit is not None and orders.turns_played >= orders.turns_limit:
        return EndReason.LIMIT
    if Move.objects.filter(game=game, seat=seat.index, by_server="", seq__gt=orders.since_version).exists():
        return EndReason.HAND_MOVE
    return None


def _end(orders: StandingOrders, reason: str) -> None:
    orders.ended = reason
    orders.ended_at = timezone.now()


def _next_action(game: Game, seat: Seat, orders: StandingOrders) -> tuple[dict[str, Any], Any] | None:
    """The action the orders give now and the state it applies to, or None (ending the orders when
    their limit, a hand move or the game's end has come)."""
    reason = _end_reason(game, seat, orders, timezone.now())
    if reason is not None:
        _end(orders, reason)
        orders.save(update_fields=["ended", "ended_at"])
        return None
    rules = get_rules(game.kind)
    state = rules.from_json(game.state)
    # From the player's own view only; the engine's check below is the same as for any move.
    action = standing_order_action(game.kind, rules.view(state, seat.index), orders.rules)
    if action is None or action not in rules.legal_actions(state, seat.index):
        return None
    return action, state


def _play(game: Game, seats: list[Seat], seat: Seat, orders: StandingOrders, action: dict[str, Any], state) -> bool:
    """Apply one action of the orders, recorded as the server's (`by_server: standing_order`).
    True when the turn passed."""
    rules = get_rules(game.kind)
    turn_started = game.turn_started_at
    new_state, events = rules.apply(state, seat.index, action)
    move = record_move(game, seats, seat.index, action, events, state, new_state, user=None, by_server=BY_ORDER)
    orders.played = [*orders.played, {"version": move.seq, "action": action}][-MAX_PLAYED_KEPT:]
    passed = game.status != GameStatus.ACTIVE or game.turn_started_at != turn_started
    if passed:
        orders.turns_played += 1
    if game.status != GameStatus.ACTIVE:
        _end(orders, EndReason.GAME_OVER)
    elif passed and orders.turns_limit is not None and orders.turns_played >= orders.turns_limit:
        _end(orders, EndReason.LIMIT)
    orders.save(update_fields=["played", "turns_played", "ended", "ended_at"])
    return passed


def _tell_your_turn(game: Game, seats: list[Seat], seat: Seat, orders: StandingOrders) -> None:
    """The "your turn" the turn's start held back while the orders played, with what they did since
    the player was last told. Once per turn."""
    if orders.told_turn_at == game.turn_started_at:
        return
    # How many, not which: a notice carries ids and texts, never a card (GET .../orders/ has the rest).
    did = sum(1 for entry in orders.played if entry["version"] > orders.told_version)
    orders.told_turn_at = game.turn_started_at
    orders.told_version = game.version
    orders.save(update_fields=["told_turn_at", "told_version"])
    payload = {**turn_payload(game, seats, seat.user_id), "orders_played": did, "orders_ended": orders.ended or None}
    notify(NotificationKind.YOUR_TURN, [(seat.user_id, game, payload)], preferences=[seat_preference(seat)])
