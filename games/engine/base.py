"""What every game's rules object offers, and the pieces the games share."""

from __future__ import annotations

import json
import random
from typing import Any, Protocol

from .errors import BadOption, IllegalAction

State = dict[str, Any]

# The edition of the rules a new game is played by. Games stored under the first edition keep
# playing by it: their states carry no "edition" (read as 1), and replaying them from the seed
# needs new_game(..., edition=1). The third edition keeps the latest deal's events in a Scat state
# (the view's "deal_events"); its new option, Scat's max_hands, is an option like any other, which
# games stored before it hold as null.
EDITION = 3
EDITIONS = (1, 2, 3)
Action = dict[str, Any]
Event = dict[str, Any]


class Rules(Protocol):
    kind: str
    min_seats: int
    max_seats: int

    def option_specs(self) -> list[dict[str, Any]]: ...
    def presets(self) -> dict[str, dict[str, Any]]: ...
    def auto_table(self) -> list[dict[str, Any]]: ...
    def validate_options(self, options: dict[str, Any] | None, num_seats: int | None = None) -> dict[str, Any]: ...
    def new_game(
        self, num_seats: int, options: dict[str, Any] | None, seed: int | str, *, edition: int = EDITION
    ) -> State: ...
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


def check_seat_number(seat: object, num_seats: int) -> None:
    """Refuse anything but a seat number of this game: an int in range, never a bool or a float."""
    if not (is_int(seat) and 0 <= seat < num_seats):
        raise IllegalAction(
            "not_seated", f"There is no seat {show_value(seat)} in this game (seats are 0 to {num_seats - 1})."
        )


_SHAPES = {
    "int": lambda v: is_int(v),
    "int?": lambda v: v is None or is_int(v),
    "str": lambda v: isinstance(v, str),
    "str?": lambda v: v is None or isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, list),
    "dict": lambda v: isinstance(v, dict),
    "dict?": lambda v: v is None or isinstance(v, dict),
}


def check_state_shape(data: object, kind: str, shape: dict[str, str], game: str) -> None:
    """Refuse a stored state of another kind, or one that lacks a key of `shape` ({key: "int" | "int?" |
    "str" | ...}) or holds a value of another type, with a message naming the key: from_json must
    never hand the rules a state they would trip over later."""
    if not isinstance(data, dict) or data.get("kind") != kind:
        raise IllegalAction("bad_state", f"This is not a stored {game} game.")
    for key, expected in shape.items():
        if key not in data:
            raise IllegalAction("bad_state", f"This is not a stored {game} game: it has no {key!r}.")
        if not _SHAPES[expected](data[key]):
            raise IllegalAction(
                "bad_state", f"This is not a stored {game} game: {key!r} is {show_value(data[key])}, not {expected}."
            )


def check_edition(edition: object) -> int:
    if not is_int(edition) or edition not in EDITIONS:
        raise IllegalAction(
            "bad_edition", f"There is no rules edition {show_value(edition)}; editions are 1 to {EDITION}."
        )
    return edition


def show_value(value: object) -> str:
    """A value as a player would have typed it in JSON."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def expect_keys(action: dict[str, Any], keys: tuple[str, ...]) -> None:
    """Refuse an action that lacks one of `keys` or carries any other key besides "type" (rules C8):
    whatever an action carries is stored in the history and shown to every player."""
    missing = [key for key in keys if key not in action]
    extra = sorted(show_value(key) for key in action if key != "type" and key not in keys)
    if not (missing or extra):
        return
    takes = " and ".join(f'"{key}"' for key in keys) if keys else "nothing"
    wrong = f"remove {', '.join(extra)}" if extra else f"add {', '.join(repr(key) for key in missing)}"
    raise IllegalAction("bad_action", f"A {action['type']} action takes {takes} besides its type: {wrong}.")


def check_option(spec: dict[str, Any], value: Any) -> Any:
    """`value` if it suits the option described by `spec` (as in a rules object's option_specs()),
    else BadOption naming the option, what it takes and what it got."""
    name, kind = spec["name"], spec["type"]
    if spec.get("auto") and value == "auto":
        return "auto"  # resolved by the rules object once the seat count is known
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise BadOption(f"Option {name!r} must be true or false; got {show_value(value)}.", name)
    if kind in ("int", "int_or_null"):
        if value is None and kind == "int_or_null":
            return None
        if is_int(value) and spec["min"] <= value <= spec["max"]:
            return value
        empty = " or empty (null)" if kind == "int_or_null" else ""
        auto = ', or "auto"' if spec.get("auto") else ""
        raise BadOption(
            f"Option {name!r} must be a whole number from {spec['min']} to {spec['max']}{empty}{auto}; "
            f"got {show_value(value)}.",
            name,
        )
    if kind == "seat_or_random":
        if value == "random" or (is_int(value) and spec.get("min", 0) <= value <= spec.get("max", value)):
            return value
        raise BadOption(
            f"Option {name!r} must be 'random' or a seat number (0, 1, ...); got {show_value(value)}.", name
        )
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
        f"Option {name!r} must be one of {', '.join(show_value(c) for c in spec['choices'])}; got {show_value(value)}.",
        name,
    )
