"""What every game's rules object offers, and the pieces the games share."""

from __future__ import annotations

import json
import random
from typing import Any, Protocol

from .errors import BadOption

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class Rules(Protocol):
    kind: str
    min_seats: int
    max_seats: int

    def option_specs(self) -> list[dict[str, Any]]: ...
    def validate_options(self, options: dict[str, Any] | None, num_seats: int | None = None) -> dict[str, Any]: ...
    def new_game(self, num_seats: int, options: dict[str, Any] | None, seed: int | str) -> State: ...
    def legal_actions(self, state: State, seat: int) -> list[Action]: ...
    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...
    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]: ...
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...
    def view_events(self, events: list[Event], seat: int | None) -> list[Event]: ...
    def to_act(self, state: State) -> int | None: ...
    def outcome(self, state: State) -> dict[str, Any] | None: ...
    def to_json(self, state: State) -> dict[str, Any]: ...
    def from_json(self, data: dict[str, Any]) -> State: ...


def shuffled(cards: list[str], seed: int | str, counter: int) -> list[str]:
    """The cards shuffled by the game's `counter`-th shuffle.

    Each shuffle draws from its own generator, seeded by the game seed and the counter, so
    the state only has to carry the seed and a count, and a replay reproduces every deal.
    """
    deck = list(cards)
    random.Random(f"{seed}/{counter}").shuffle(deck)
    return deck


def places_from_order(groups: list[list[int]], num_seats: int) -> list[int]:
    """Places per seat from groups listed best first; a group shares one place (1, 1, 3 ...)."""
    places = [0] * num_seats
    place = 1
    for group in groups:
        for seat in group:
            places[seat] = place
        place += len(group)
    return places


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def show_value(value: object) -> str:
    """A value as a player would have typed it in JSON."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def check_option(spec: dict[str, Any], value: Any) -> Any:
    """`value` if it suits the option described by `spec` (as in a rules object's option_specs()),
    else BadOption naming the option, what it takes and what it got."""
    name, kind = spec["name"], spec["type"]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise BadOption(f"Option {name!r} must be true or false; got {show_value(value)}.")
    if kind in ("int", "int_or_null"):
        if value is None and kind == "int_or_null":
            return None
        if is_int(value) and spec["min"] <= value <= spec["max"]:
            return value
        empty = " or empty (null)" if kind == "int_or_null" else ""
        raise BadOption(
            f"Option {name!r} must be a whole number from {spec['min']} to {spec['max']}{empty}; "
            f"got {show_value(value)}."
        )
    if kind == "seat_or_random":
        if value == "random" or (is_int(value) and spec.get("min", 0) <= value <= spec.get("max", value)):
            return value
        raise BadOption(f"Option {name!r} must be 'random' or a seat number (0, 1, ...); got {show_value(value)}.")
    for choice in spec["choices"]:
        if choice is None:
            if value is None:
                return None
        elif isinstance(choice, str):
            if value == choice:
                return choice
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and value == choice:
            return choice
    raise BadOption(
        f"Option {name!r} must be one of {', '.join(show_value(c) for c in spec['choices'])}; got {show_value(value)}."
    )
