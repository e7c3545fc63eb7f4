"""The advisor in the service: advice for the player to act, and the post-game review.

Both read only what the player could see: the engine's view of their seat and their own view of
every event so far, never the state. The numbers are the engine advisor's (games.engine.advisor).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import advice_pool
from games.engine import advisor, get_rules
from games.errors import Conflict, Forbidden
from games.models import Game, GameStatus, Move, Review, Seat
from games.selectors import viewer_seat

from .replay import opening_events

# Deals per action: twice what the expert plays by, as a player asks once and then thinks.
ADVICE_SAMPLES = {kind: 2 * samples for kind, samples in advisor.DEFAULT_SAMPLES.items()}
REVIEW_SAMPLES = advisor.DEFAULT_SAMPLES
ADVICE_CACHED_FOR = 24 * 3600
# Longer than any computation takes: a web process that dies mid-way leaves a mark that expires.
ADVICE_RUNNING_MARK_SECONDS = 60
COSTLIEST = 3  # turns highlighted in a review


def seat_history(game: Game, seat: int) -> list[dict[str, Any]]:
    """Every event of the game so far, as the player of `seat` saw it."""
    rules = get_rules(game.kind)
    events = opening_events(game.kind, game.num_seats, game.options, game.seed, game.rules_edition)
    for move_events in Move.objects.filter(game=game).order_by("seq").values_list("events", flat=True):
        events.extend(move_events)
    return rules.view_events(events, seat)


def position_seed(game: Game, version: int, seat: int) -> int:
    """The same position always gets the same advice (from the public id, not the secret seed)."""
    digest = hashlib.sha256(f"advice:{game.public_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def position_rng(game: Game, version: int, seat: int) -> random.Random:
    return random.Random(position_seed(game, version, seat))


class AdviceRunning(Exception):
    """The player's previous request for advice is still being computed."""


@contextmanager
def one_at_a_time(user: User) -> Iterator[None]:
    """At most one computation of advice per player at a time, across every web process."""
    key = f"advice-running:{user.pk}"
    # add() is False when the mark is there, and also while the cache is away: only the first refuses.
    if not cache.add(key, 1, ADVICE_RUNNING_MARK_SECONDS) and cache.get(key) is not None:
        raise AdviceRunning()
    try:
        yield
    finally:
        cache.delete(key)


def advice_for(game: Game, seats: list[Seat], user: User) -> dict[str, Any]:
    """The advisor's figures for each legal action of the player to act (403 for anyone else).
    Computed in an advisor process (games.advice_pool), one at a time per player: raises
    AdviceRunning, or advice_pool.AdvisorBusy when every advisor stays busy."""
    if not game.advice:
        raise Forbidden("This game offers no advice (only unrated games may).", "advice_off")
    seat = viewer_seat(game, seats, user)
    if game.status != GameStatus.ACTIVE or seat is None or seat != game.to_act_seat:
        raise Forbidden("Advice is for the player to act, on their turn.", "not_your_turn")
    key = f"advice:{game.public_id}:{game.version}:{seat}"
    found = cache.get(key)
    if found is not None:
        return found
    rules = get_rules(game.kind)
    state = rules.from_json(game.state)
    samples = ADVICE_SAMPLES[game.kind]
    view, history = rules.view(state, seat), seat_history(game, seat)
    with one_at_a_time(user):
        seed = position_seed(game, game.version, seat)
        entries = advice_pool.advise(game.kind, view, history, seed, samples)
    best = advisor.best_action(game.kind, entries)
    answer = {
        "game": game.public_id,
        "version": game.version,
        "measure": MEASURE[game.kind],
        "samples": samples,
        "actions": [{name: rounded(value) for name, value in entry.items()} for entry in entries],
        "best": next(i for i, entry in enumerate(entries) if entry["action"] == best),
    }
    cache.set(key, answer, ADVICE_CACHED_FOR)
    return answer


MEASURE = {"scat": "loss_chance", "scattle": "expected_points"}


def rounded(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def review_turns(game: Game, seat: int, *, after: int = 0, decisions: int = 10**9) -> tuple[list[dict], int | None]:
    """The decisions the player of `seat` made after move `after` (turns with more than one legal
    action, played by them, not by the server), at most `decisions` of them, each with the advisor's
    best action and the cost of theirs, from their view at the time. Also the move to go on after,
    or None when the game's moves are all reviewed."""
    rules = get_rules(game.kind)
    state = rules.new_game(game.num_seats, game.options, game.seed, edition=game.rules_edition)
    events = opening_events(game.kind, game.num_seats, game.options, game.seed, game.rules_edition)
    turns: list[dict] = []
    for move in Move.objects.filter(game=game).order_by("seq"):
        if len(turns) == decisions:
            return turns, move.seq - 1
        resigned = move.action.get("type") == "resign"
        decided = move.seat == seat and not move.by_server and not resigned
        if move.seq > after and decided and len(rules.legal_actions(state, seat)) > 1:
            view, history = rules.view(state, seat), rules.view_events(events, seat)
            rng = position_rng(game, move.seq - 1, seat)
            found = advisor.review_turn(game.kind, view, history, move.action, rng, REVIEW_SAMPLES[game.kind])
            cost = rounded(max(0.0, found["cost"]))
            turns.append({"seq": move.seq, "taken": move.action, "best": found["best"], "cost": cost})
        if resigned:
            state, _ = rules.resign(state, move.seat)
        else:
            state, _ = rules.apply(state, move.seat, move.action)
        events.extend(move.events)
    return turns, None


def mark_costliest(turns: list[dict]) -> list[dict]:
    costliest = {t["seq"] for t in sorted((t for t in turns if t["cost"] > 0), key=lambda t: -t["cost"])[:COSTLIEST]}
    return [{**turn, "costly": turn["seq"] in costliest} for turn in turns]


# --- reviews, a few decisions per task --------------------------------------------------------

REVIEW_DECISIONS_PER_TASK = 6


def start_reviews(game: Game, seats: list[Seat]) -> list[Review]:
    """At the end of a game (in its transaction): a pending review for each person at the table."""
    return Review.objects.bulk_create(
        [Review(game=game, seat=seat.index, user_id=seat.user_id) for seat in seats if seat.user_id]
    )


def review_step(review_id: int) -> bool:
    """Review the next few decisions; True while more remain. Safe to run twice at once: only the
    first to save a step's turns keeps them."""
    review = Review.objects.select_related("game").filter(pk=review_id, ready_at__isnull=True).first()
    if review is None:
        return False
    turns, after = review_turns(review.game, review.seat, after=review.reviewed_to, decisions=REVIEW_DECISIONS_PER_TASK)
    with transaction.atomic():
        locked = Review.objects.select_for_update().get(pk=review_id)
        if locked.ready_at is not None or locked.reviewed_to != review.reviewed_to:
            return False  # another task got there first
        locked.turns = locked.turns + turns
        if after is None:
            locked.turns = mark_costliest(locked.turns)
            locked.ready_at = timezone.now()
        else:
            locked.reviewed_to = after
        locked.save(update_fields=["turns", "reviewed_to", "ready_at"])
    return after is not None


def review_for(game: Game, seats: list[Seat], user: User) -> tuple[Review, bool]:
    """The requester's review of a finished game, and whether it was started just now (a game that
    ended before reviews existed gets one when first asked)."""
    if game.status != GameStatus.FINISHED:
        raise Conflict("A review comes after the game.", "game_not_finished")
    seat = viewer_seat(game, seats, user)
    if seat is None:
        raise Forbidden("Only the game's players have a review.", "not_seated")
    return Review.objects.get_or_create(game=game, user=user, defaults={"seat": seat})


def review_body(game: Game, review: Review) -> dict[str, Any]:
    body = {
        "game": game.public_id,
        "seat": review.seat,
        "status": "ready" if review.ready_at else "pending",
        "measure": MEASURE[game.kind],
        "reviewed_to": review.reviewed_to,
    }
    if review.ready_at:
        body["turns"] = review.turns
    return body


STALLED_AFTER = timedelta(minutes=10)


def stalled_reviews(now=None) -> list[int]:
    """Pending reviews older than a task should take; a second task on a review does no harm."""
    now = now or timezone.now()
    pending = Review.objects.filter(ready_at__isnull=True, created_at__lt=now - STALLED_AFTER)
    return list(pending.order_by("created_at").values_list("pk", flat=True)[:100])
