"""A finished game's statistics per seat, from its events and its turns' records.

Pure functions: no database, no clock. `accounts.services` feeds them the game's Move and Turn
rows, once when the game ends and again when `manage.py recompute_stats` replays history, so
both paths compute the same numbers by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.replay import opening_events

Event = dict[str, Any]


@dataclass(frozen=True)
class MoveRecord:
    seat: int
    events: list[Event]
    created_at: datetime


@dataclass(frozen=True)
class TurnRecord:
    seat: int
    started_at: datetime
    ended_at: datetime | None
    timed_out: bool


@dataclass
class SeatResult:
    """What one seat did in one finished game."""

    seat: int
    place: int
    resigned: bool = False
    knocks: int = 0
    knocks_survived: int = 0
    thirty_ones: int = 0
    lives_lost: int = 0
    melds: int = 0
    points: int = 0
    scattles: int = 0
    turns_moved: int = 0
    move_time_ms: int = 0
    timed_out_turns: int = 0

    @property
    def won(self) -> bool:
        # A shared first place is a win for each who shares it.
        return self.place == 1


def seat_results(
    *,
    outcome: dict[str, Any],
    events: Iterable[Event],
    moves: Sequence[MoveRecord],
    turns: Iterable[TurnRecord],
) -> list[SeatResult]:
    """Per-seat statistics of a finished game.

    `events` is every event of the game in order (the opening deal's, then each move's);
    `moves` gives who moved when, to tell a turn ended by its player's move from one ended by
    the game ending under them; `outcome` is the engine's outcome (places, scores).
    """
    places = outcome["places"]
    results = [SeatResult(seat=seat, place=place) for seat, place in enumerate(places)]
    _count_events(results, events)
    if "scores" in outcome:  # Scattle: final scores, deadwood penalties included
        for result, score in zip(results, outcome["scores"], strict=True):
            result.points = int(score)
    _count_turns(results, moves, turns)
    return results


def _count_events(results: list[SeatResult], events: Iterable[Event]) -> None:
    knocker: int | None = None  # the seat whose knock the current hand will judge
    for event in events:
        kind = event.get("type")
        seat = event.get("seat")
        if kind in ("knock", "throw_down"):
            # Throwing down is a knock that shows at once; both stake the knocker's lives.
            results[seat].knocks += 1
            knocker = seat
        elif kind in ("showdown", "thirty_one"):
            if kind == "thirty_one":
                results[seat].thirty_ones += 1
            if knocker is not None and not event.get("on_deal"):
                # The knock survived when the hand cost the knocker no life (a 31 after a knock costs one).
                if not event["lives_lost"][knocker]:
                    results[knocker].knocks_survived += 1
                knocker = None
        elif kind == "life_lost":
            results[seat].lives_lost += event["lives"]
        elif kind == "resigned":
            results[seat].resigned = True
            if seat == knocker:
                knocker = None  # a knocker who walks away has not survived his knock
        elif kind == "meld":
            results[seat].melds += 1
        elif kind == "scattle":
            results[seat].scattles += 1


def _count_turns(results: list[SeatResult], moves: Sequence[MoveRecord], turns: Iterable[TurnRecord]) -> None:
    # A turn's player moved in it when one of their moves is stamped with the turn's end: the
    # service writes both with the same clock reading. Turns cut short by the game ending (a
    # resignation elsewhere) carry no such move and say nothing about the player's pace.
    moved_at = {(move.seat, move.created_at) for move in moves}
    for turn in turns:
        if turn.seat >= len(results):
            continue
        result = results[turn.seat]
        if turn.timed_out:
            result.timed_out_turns += 1
        elif turn.ended_at is not None and (turn.seat, turn.ended_at) in moved_at:
            result.turns_moved += 1
            result.move_time_ms += max(0, round((turn.ended_at - turn.started_at).total_seconds() * 1000))


__all__ = ["MoveRecord", "SeatResult", "TurnRecord", "opening_events", "seat_results"]
