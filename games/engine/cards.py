"""Card codes: a rank character then a suit character, e.g. ``"QS"``, ``"TH"``, ``"AD"``."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import IllegalAction

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
_CARDS = frozenset(DECK)

RANK_NAMES = {
    "A": "ace", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
    "8": "8", "9": "9", "T": "10", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in _CARDS


def parse_card(code: object) -> str:
    """Return the canonical code, accepting lower case and "10" for ten ("10h" -> "TH")."""
    if isinstance(code, str):
        text = code.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        if text in _CARDS:
            return text
    raise IllegalAction("bad_card", f"{code!r} is not a card code (rank A23456789TJQK, suit SHDC, e.g. 'QS').")


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def rank_number(card: str) -> int:
    """A = 1 ... K = 13."""
    return RANKS.index(card[0]) + 1


def is_red(card: str) -> bool:
    return card[1] in RED_SUITS


def card_name(card: str) -> str:
    """The spoken name, e.g. "queen of spades", "10 of hearts"."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def card_label(card: str) -> str:
    """The short printed face, e.g. "Q♠", "10♥"."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def new_deck(deck_count: int = 1) -> list[str]:
    return list(DECK) * deck_count


def remove_cards(hand: Iterable[str], cards: Iterable[str]) -> list[str] | None:
    """The hand without `cards` (as a multiset), or None when the hand lacks one of them."""
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return rest
