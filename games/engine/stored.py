"""Checks on a stored state, made where from_json reads it: a state that passes them is one the rules
can play on without tripping later (a KeyError deep in a move is a worse message than "'stock' holds
"QQ", which is no card")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from .base import EDITIONS, is_int, show_value
from .cards import is_card
from .errors import BadOption, BadState


class StateReader:
    """Checks the parts of one stored state, each failure a BadState naming the game, the part and
    what is wrong with it."""

    def __init__(self, data: dict[str, Any], game: str) -> None:
        self.data = data
        self.game = game

    def refuse(self, key: str, what: str) -> BadState:
        return BadState(f"This is not a stored {self.game} game: {what}.", key)

    def seat(self, key: str, *, optional: bool = False) -> None:
        value, seats = self.data[key], self.data["num_seats"]
        if value is None and optional:
            return
        if not (is_int(value) and 0 <= value < seats):
            raise self.refuse(key, f"{key!r} is {show_value(value)}, not a seat of {seats}")

    def num_seats(self, low: int, high: int) -> None:
        if not low <= self.data["num_seats"] <= high:
            raise self.refuse("num_seats", f"'num_seats' is {self.data['num_seats']}, not {low} to {high}")

    def per_seat(self, key: str, check: Callable[[Any], bool], what: str) -> None:
        """`key` is a list of one entry per seat, each passing `check` (`what` says what it must be)."""
        value, seats = self.data[key], self.data["num_seats"]
        if len(value) != seats:
            raise self.refuse(key, f"{key!r} has {len(value)} entries, not {seats}")
        for seat, entry in enumerate(value):
            if not check(entry):
                raise self.refuse(key, f"{key!r} holds {show_value(entry)} for seat {seat}, not {what}")

    def cards(self, key: str, value: object = None) -> list[str]:
        """The cards of a list stored under `key` (`value` when it is a part of that key)."""
        value = self.data[key] if value is None else value
        if not isinstance(value, list):
            raise self.refuse(key, f"{key!r} holds {show_value(value)}, not a list of cards")
        for card in value:
            if not is_card(card):
                raise self.refuse(key, f"{key!r} holds {show_value(card)}, which is no card")
        return value

    def card_or_none(self, key: str) -> None:
        value = self.data[key]
        if value is not None and not is_card(value):
            raise self.refuse(key, f"{key!r} is {show_value(value)}, which is no card")

    def hands(self, key: str = "hands") -> list[str]:
        """Every card of the per-seat hands under `key`, checked."""
        self.per_seat(key, lambda hand: isinstance(hand, list), "a list of cards")
        return [card for hand in self.data[key] for card in self.cards(key, hand)]

    def one_of(self, key: str, choices: tuple[str, ...]) -> None:
        if self.data[key] not in choices:
            raise self.refuse(key, f"{key!r} is {show_value(self.data[key])}, not one of {', '.join(choices)}")

    def edition(self) -> int:
        """The edition the state plays by (no "edition": the first)."""
        edition = self.data.get("edition", 1)
        if not (is_int(edition) and edition in EDITIONS[1:]) and "edition" in self.data:
            raise self.refuse("edition", f"there is no rules edition {show_value(edition)}")
        return edition

    def secret(self) -> None:
        """The seed and the count of shuffles so far: without them no later deal or rebuild can be made."""
        secret = self.data["secret"]
        seed = secret.get("seed")
        if set(secret) != {"seed", "shuffles"}:
            raise self.refuse("secret", "its secret part must hold exactly 'seed' and 'shuffles'")
        if not (is_int(seed) or isinstance(seed, str)):
            raise self.refuse("secret", "its seed is neither a whole number nor a string")
        if not (is_int(secret["shuffles"]) and secret["shuffles"] >= 0):
            raise self.refuse("secret", "its count of shuffles is not a whole number from 0")

    def no_card_too_often(self, cards: list[str], decks: int) -> None:
        """No card is in the game more often than the decks hold it."""
        for card, count in Counter(cards).items():
            if count > decks:
                raise self.refuse("hands", f"{card} is in it {count} times with {decks} deck(s)")

    def events(self, key: str) -> None:
        """A list of events: objects with a "type"; a deal names the cards each seat was dealt."""
        for event in self.data[key]:
            if not (isinstance(event, dict) and isinstance(event.get("type"), str)):
                raise self.refuse(key, f"{key!r} holds {show_value(event)}, which is no event")
            if event["type"] == "deal":
                hands = event.get("hands")
                if not (isinstance(hands, list) and len(hands) == self.data["num_seats"]):
                    raise self.refuse(key, f"a deal in {key!r} has no hand per seat")
                for hand in hands:
                    if hand is not None:
                        self.cards(key, hand)
                if not is_card(event.get("up_card")):
                    raise self.refuse(key, f"a deal in {key!r} turns up {show_value(event.get('up_card'))}")

    def options(self, validate: Callable[[dict[str, Any]], Any]) -> None:
        try:
            validate(self.data["options"])
        except BadOption as bad:
            raise self.refuse("options", f"its options are refused ({bad.message})") from bad


def is_count(value: object) -> bool:
    """A whole number from 0 (a token count, a score may be below 0 with deadwood: not for those)."""
    return is_int(value) and value >= 0
