"""Scattle!: the rummy-like game of the Persian seed, played as ../shared/rules/scattle.md sets it out.

The state is a plain JSON-ready dict; `apply` copies what it changes and never touches its input.
Section marks (B4, B7 ...) point into the rules file.
"""

from __future__ import annotations

import copy
import json
import random
from itertools import combinations
from typing import Any

from .base import (
    EDITION,
    Action,
    Event,
    State,
    check_edition,
    check_option,
    check_seat_number,
    check_state_shape,
    expect_keys,
    is_int,
    places_from_order,
    show_value,
    shuffled,
)
from .cards import RANKS, SUITS, card_label, new_deck, parse_card, rank_number
from .errors import BadOption, IllegalAction
from .stored import StateReader

KIND = "scattle"
MIN_SEATS = 2
MAX_SEATS_ONE_DECK = 6
MAX_SEATS_TWO_DECKS = 8

_RANK_NUM = {rank: i + 1 for i, rank in enumerate(RANKS)}
_SUIT_NUM = {suit: i for i, suit in enumerate(SUITS)}


def _card_key(card: str) -> tuple[int, int]:
    return _SUIT_NUM[card[1]], _RANK_NUM[card[0]]


def _labels(cards: list[str]) -> str:
    return " ".join(card_label(card) for card in cards)


# --------------------------------------------------------------------------------------------
# Options (table B2, in its order)

_OPTION_SPECS: list[dict[str, Any]] = [
    {"name": "deck_count", "type": "int", "default": "auto", "auto": True, "min": 1, "max": 2,
     "help": "Decks of 52 cards shuffled together; two decks allow 7-8 players, twin cards and same-colour groups. "
             "auto: by the number of players (rules B2b)."},
    {"name": "hand_size", "type": "int", "default": 5, "min": 2, "max": 51,
     "help": "Cards dealt to each player; after every turn the hand is refilled to this size."},
    {"name": "max_group_size", "type": "int", "default": 4, "min": 3, "max": 8,
     "help": "Most cards in a group of one rank (at most 4 with one deck)."},
    {"name": "max_run_length", "type": "int", "default": 4, "min": 4, "max": 13,
     "help": "Most cards in a run of one suit; a meld of n cards scores n points."},
    {"name": "ace_in_runs", "type": "choice", "default": "low", "choices": ["low", "low_or_high", "wrap"],
     "help": "low: A-2-3 only; low_or_high: Q-K-A too; wrap: K-A-2 too."},
    {"name": "color_bonus_scope", "type": "choice", "default": "groups", "choices": ["groups", "all_melds", "off"],
     "help": "Which melds whose cards are all one colour score the bonus (groups: needs two decks)."},
    {"name": "color_bonus_multiplier", "type": "int", "default": 2, "min": 1, "max": 10,
     "help": "A same-colour meld of n cards scores n times this."},
    {"name": "lay_off", "type": "choice", "default": "none", "choices": ["none", "own"],
     "help": "own: you may add a card from your hand to one of your own melds."},
    {"name": "scattle_final_discard", "type": "choice", "default": "optional", "choices": ["optional", "forbidden"],
     "help": "optional: discarding your last card also calls Scattle!; forbidden: only melding out does."},
    {"name": "target_score", "type": "int_or_null", "default": "auto", "auto": True, "min": 1, "max": 1000,
     "help": "The first player to reach this score wins at once; empty for no target. "
             "auto: by the number of players and decks (rules B2b)."},
    {"name": "deadwood_penalty", "type": "bool", "default": False,
     "help": "At the end, cards left in hand cost their rank (A=1 ... K=13)."},
    {"name": "discard_retake_same_turn", "type": "bool", "default": False,
     "help": "Allow discarding a card of the same code you took from the discard pile this turn."},
    {"name": "stock_rebuild_order", "type": "choice", "default": "shuffle", "choices": ["shuffle", "turn_over"],
     "help": "How the discards become a new stock: shuffled, or simply turned over."},
    {"name": "max_stock_rebuilds", "type": "int_or_null", "default": None, "min": 0, "max": 1000,
     "help": "How often the stock may be rebuilt; empty for no limit (needs stalemate_end)."},
    {"name": "stalemate_end", "type": "bool", "default": True,
     "help": "End the game when the stock must be rebuilt but nobody has melded since the last rebuild."},
    {"name": "first_player", "type": "seat_or_random", "default": "random", "choices": ["random"], "min": 0,
     "max": MAX_SEATS_TWO_DECKS - 1, "help": "Who plays first: chosen at random, or a seat number (0 = first seat)."},
    {"name": "tie_rule", "type": "choice", "default": "first_to_reach",
     "choices": ["first_to_reach", "shared", "scattle_caller_wins_ties"],
     "help": "Equal final scores: whoever reached the score first ranks higher; or they share a place; "
             "or the Scattle! caller wins his ties."},
    {"name": "idle_rounds_end", "type": "int_or_null", "default": 20, "min": 3, "max": 1000,
     "help": "So many full rounds without a meld or a lay-off end the game by stalemate; empty: no limit."},
]  # fmt: skip
_SPECS_BY_NAME = {spec["name"]: spec for spec in _OPTION_SPECS}
_DEFAULTS = {spec["name"]: spec["default"] for spec in _OPTION_SPECS}


# B2b: with deck_count and target_score "auto", the decks by seat count, and the target by decks and
# seats. From bench/scattle_balance.py, run 2026-12-01 (2,000 games per candidate, every seat the good
# bot, other options at their defaults; figures in bench/results/scattle_balance.txt): the highest
# target <= 25 at which at least 85% of games end by the target or by Scattle! and first place is
# shared in at most 2%; the deck count is the one with the higher target (ties: one deck).
AUTO_DECKS = {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2}
AUTO_TARGETS = {
    (1, 2): 19, (1, 3): 12, (1, 4): 9, (1, 5): 6, (1, 6): 6,
    (2, 2): 25, (2, 3): 25, (2, 4): 24, (2, 5): 21, (2, 6): 18, (2, 7): 15, (2, 8): 12,
}  # fmt: skip
# Named sets of options a game may start from: "original" plays the seed's own numbers.
PRESETS = {"original": {"deck_count": 1, "target_score": 25, "tie_rule": "shared"}}


def auto_values(num_seats: int, deck_count: int | str = "auto") -> dict[str, int]:
    """What "auto" resolves to at this seat count (and deck count, when that is chosen by hand)."""
    decks = AUTO_DECKS[num_seats] if deck_count == "auto" else deck_count
    return {"deck_count": decks, "target_score": AUTO_TARGETS[(decks, num_seats)]}


def validate_options(options: dict[str, Any] | None = None, num_seats: int | None = None) -> dict[str, Any]:
    """The complete options (defaults filled in); raises BadOption naming the option and the value.
    With `num_seats`, "auto" values are resolved (rules B2b); without, they stay "auto"."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOption(f"Options must be an object of option names and values, not {options!r}.")
    unknown = sorted(str(key) for key in options if key not in _SPECS_BY_NAME)
    if unknown:
        message = f"Unknown Scattle option {unknown[0]!r}; the options are {', '.join(_SPECS_BY_NAME)}."
        raise BadOption(message, unknown[0])
    opts = dict(_DEFAULTS)
    opts.update(options)
    for spec in _OPTION_SPECS:
        check_option(spec, opts[spec["name"]])
    if num_seats is not None:
        top = MAX_SEATS_ONE_DECK if opts["deck_count"] == 1 else MAX_SEATS_TWO_DECKS
        if not is_int(num_seats) or not MIN_SEATS <= num_seats <= top:
            decks = "auto decks" if opts["deck_count"] == "auto" else f"{opts['deck_count']} deck(s)"
            raise BadOption(
                f"Scattle with {decks} takes {MIN_SEATS} to {top} players, not {num_seats!r}.", "deck_count"
            )
        resolved = auto_values(num_seats, opts["deck_count"])
        opts = {**opts, **{name: resolved[name] for name in resolved if opts[name] == "auto"}}
    most_decks = 2 if opts["deck_count"] == "auto" else opts["deck_count"]
    if opts["max_group_size"] > 4 * most_decks:
        raise BadOption(
            f"Option max_group_size must be at most {4 * most_decks} with {most_decks} deck(s), "
            f"not {opts['max_group_size']}.",
            "max_group_size",
        )
    if not opts["stalemate_end"] and opts["max_stock_rebuilds"] is None:
        raise BadOption(
            "Option max_stock_rebuilds must be set (not null) when stalemate_end is false, "
            "or the game could never end.",
            "max_stock_rebuilds",
        )
    if num_seats is not None:
        deck_size = 52 * opts["deck_count"]
        if opts["hand_size"] * num_seats + 1 >= deck_size:
            raise BadOption(
                f"Option hand_size {opts['hand_size']} is too large: {num_seats} hands of {opts['hand_size']} "
                f"and the up-card would leave no stock of the {deck_size} cards.",
                "hand_size",
            )
        if is_int(opts["first_player"]) and opts["first_player"] >= num_seats:
            raise BadOption(
                f"Option first_player must be a seat from 0 to {num_seats - 1}, not {opts['first_player']}.",
                "first_player",
            )
    return opts


# --------------------------------------------------------------------------------------------
# Melds (B5) and their points (B6)


def _group_order(cards: list[str], opts: dict[str, Any]) -> list[str] | None:
    rank = cards[0][0]
    if any(card[0] != rank for card in cards):
        return None
    ordered = sorted(cards, key=_card_key)
    if opts["deck_count"] == 1:
        if len(set(ordered)) != len(ordered):
            return None
    elif any(ordered[i] == ordered[i + 2] for i in range(len(ordered) - 2)):
        return None  # three copies of one card cannot exist with two decks
    return ordered


def _run_order(cards: list[str], opts: dict[str, Any]) -> list[str] | None:
    suit = cards[0][1]
    if any(card[1] != suit for card in cards):
        return None
    n = len(cards)
    ranks = sorted(_RANK_NUM[card[0]] for card in cards)
    if len(set(ranks)) != n:
        return None
    ace = opts["ace_in_runs"]
    if ranks[-1] - ranks[0] == n - 1:
        seq = ranks
    elif ace == "low_or_high" and ranks[0] == 1 and ranks[-1] == 13 and 14 - ranks[1] == n - 1:
        seq = [*ranks[1:], 1]  # ace high: Q-K-A
    elif ace == "wrap":
        gaps = [i for i in range(n) if (ranks[(i + 1) % n] - ranks[i]) % 13 != 1]
        if len(gaps) != 1:
            return None
        start = gaps[0] + 1
        seq = ranks[start:] + ranks[:start]
    else:
        return None
    return [RANKS[rank - 1] + suit for rank in seq]


def _classify(cards: list[str], opts: dict[str, Any]) -> tuple[str, list[str]] | None:
    """("group" | "run", the cards in table order), or None for no valid meld."""
    n = len(cards)
    if n < 3:
        return None
    if n <= opts["max_group_size"]:
        ordered = _group_order(cards, opts)
        if ordered is not None:
            return "group", ordered
    if n <= opts["max_run_length"]:
        ordered = _run_order(cards, opts)
        if ordered is not None:
            return "run", ordered
    return None


def _points(kind: str, cards: list[str], opts: dict[str, Any]) -> int:
    n = len(cards)
    scope = opts["color_bonus_scope"]
    if scope == "all_melds" or (scope == "groups" and kind == "group"):
        reds = sum(card[1] in "HD" for card in cards)
        if reds == 0 or reds == n:
            return n * opts["color_bonus_multiplier"]
    return n


def _why_not_meld(cards: list[str], opts: dict[str, Any]) -> str:
    text = _labels(cards)
    if len(cards) < 3:
        return f"{text or 'No cards'} is no meld: a meld has at least 3 cards."
    if len({card[0] for card in cards}) == 1:
        if len(cards) > opts["max_group_size"]:
            return f"{text} is no meld: a group has at most {opts['max_group_size']} cards (option max_group_size)."
        return f"{text} is no meld: these cards cannot all be in play at once with {opts['deck_count']} deck(s)."
    if len({card[1] for card in cards}) == 1:
        if len(cards) > opts["max_run_length"]:
            return f"{text} is no meld: a run has at most {opts['max_run_length']} cards (option max_run_length)."
        ace = {"low": "the ace is low only", "low_or_high": "the ace is low or high but no run turns the corner",
               "wrap": "runs may turn the corner"}[opts["ace_in_runs"]]  # fmt: skip
        return f"{text} is no meld: a run needs consecutive ranks without repeats ({ace}: option ace_in_runs)."
    return f"{text} is no meld: a group is one rank, a run is one suit with consecutive ranks."


def _options_for_helpers(options: dict[str, Any] | None) -> dict[str, Any]:
    opts = validate_options(options) if options else dict(_DEFAULTS)
    if opts["deck_count"] == "auto":
        opts["deck_count"] = 1  # melds judged without a table: the seed's single deck
    return opts


def meld_kind(cards: list[str], options: dict[str, Any] | None = None) -> str | None:
    """ "group", "run", or None when the cards form no valid meld under the options."""
    found = _classify([parse_card(card) for card in cards], _options_for_helpers(options))
    return found[0] if found else None


def meld_points(cards: list[str], options: dict[str, Any] | None = None) -> int:
    """The points the cards score as one meld (colour bonus included); 0 when they form no valid meld."""
    opts = _options_for_helpers(options)
    found = _classify([parse_card(card) for card in cards], opts)
    return _points(found[0], found[1], opts) if found else 0


def _find_melds(hand: list[str], opts: dict[str, Any]) -> list[list[str]]:
    """Every distinct meld the hand holds (as multisets), groups first, each in table order."""
    by_rank: dict[str, list[str]] = {}
    by_suit: dict[str, set[int]] = {}
    for card in hand:
        by_rank.setdefault(card[0], []).append(card)
        by_suit.setdefault(card[1], set()).add(_RANK_NUM[card[0]])
    group_ranks = sorted((rank for rank, same in by_rank.items() if len(same) >= 3), key=_RANK_NUM.__getitem__)
    run_suits = [suit for suit in SUITS if len(by_suit.get(suit, ())) >= 3]
    melds: list[list[str]] = []
    if not group_ranks and not run_suits:
        return melds  # the usual case: nothing to look at
    max_group = opts["max_group_size"]
    for rank in group_ranks:
        same = sorted(by_rank[rank], key=_card_key)
        seen: set[tuple[str, ...]] = set()
        for size in range(3, min(len(same), max_group) + 1):
            for combo in combinations(same, size):
                if combo not in seen and (opts["deck_count"] == 1 or _group_order(list(combo), opts)):
                    seen.add(combo)
                    melds.append(list(combo))
    max_run = min(opts["max_run_length"], 13)
    ace = opts["ace_in_runs"]
    # Positions along the suit: 1..13 (ace low), 1..14 (14 = ace high), or cyclic for wrap.
    last_position = 14 if ace == "low_or_high" else 13
    for suit in run_suits:
        present = by_suit[suit]
        full_run_seen = False  # a 13-card run is one multiset, whatever its start
        for start in sorted(present):
            if ace != "wrap" and start > last_position - 2:
                break
            run: list[str] = []
            position = start
            while len(run) < max_run:
                if ace != "wrap" and position > last_position:
                    break
                rank = (position - 1) % 13 + 1
                if rank not in present:
                    break
                run.append(RANKS[rank - 1] + suit)
                position += 1
                if len(run) >= 3:
                    if len(run) == 13:
                        if full_run_seen:
                            break
                        full_run_seen = True
                    melds.append(list(run))
    return melds


def find_melds(cards: list[str], options: dict[str, Any] | None = None) -> list[list[str]]:
    """Every distinct valid meld that can be taken from `cards` (a hand), each in table order."""
    return _find_melds([parse_card(card) for card in cards], _options_for_helpers(options))


def _layoff_result(meld: dict[str, Any], card: str, opts: dict[str, Any]) -> tuple[str, list[str], int] | None:
    """The meld with `card` added, if that is a valid meld worth at least as much as before (B4 step 2)."""
    cards = meld["cards"]
    if meld["kind"] == "group" and card[0] != cards[0][0]:
        return None
    if meld["kind"] == "run" and card[1] != cards[0][1]:
        return None
    found = _classify([*cards, card], opts)
    if found is None:
        return None
    points = _points(found[0], found[1], opts)
    if points < meld["points"]:
        return None
    return found[0], found[1], points


def _deadwood(hand: list[str]) -> int:
    return sum(rank_number(card) for card in hand)


# --------------------------------------------------------------------------------------------
# The rules object


def _clone(state: State) -> State:
    """A copy safe to change: every list that apply() changes is new; options, deal events and
    meld entries are shared because the engine replaces them instead of changing them."""
    new = dict(state)
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["stock"] = list(state["stock"])
    new["discard"] = list(state["discard"])
    new["melds"] = [list(melds) for melds in state["melds"]]
    new["scores"] = list(state["scores"])
    new["in_game"] = list(state["in_game"])
    new["resigned"] = list(state["resigned"])
    new["secret"] = dict(state["secret"])
    if "reached" in state:
        new["reached"] = list(state["reached"])
    return new


class ScattleRules:
    """The Scattle! engine (the contract is in games/engine/README.md)."""

    kind = KIND
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS_TWO_DECKS

    # --- options

    def presets(self) -> dict[str, dict[str, Any]]:
        return copy.deepcopy(PRESETS)

    def auto_table(self) -> list[dict[str, Any]]:
        """What "auto" means at each seat count (B2b): the decks, the target, and the target were the
        decks chosen by hand."""
        return [
            {
                "seats": seats,
                **auto_values(seats),
                "target_by_decks": {str(d): t for (d, n), t in sorted(AUTO_TARGETS.items()) if n == seats},
            }
            for seats in sorted(AUTO_DECKS)
        ]

    def option_specs(self) -> list[dict[str, Any]]:
        return copy.deepcopy(_OPTION_SPECS)

    def validate_options(self, options: dict[str, Any] | None, num_seats: int | None = None) -> dict[str, Any]:
        return validate_options(options, num_seats)

    # --- setup (B3)

    def new_game(
        self, num_seats: int, options: dict[str, Any] | None, seed: int | str, *, edition: int = EDITION
    ) -> State:
        edition = check_edition(edition)
        opts = validate_options(options, num_seats)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise IllegalAction("bad_seed", f"A game seed is a string or a whole number, not {seed!r}.")
        if opts["first_player"] == "random":
            # Its own generator, drawn before the shuffle, so a replay finds the same first player.
            first = random.Random(f"{seed}/first").randrange(num_seats)
        else:
            first = opts["first_player"]
        deck = shuffled(new_deck(opts["deck_count"]), seed, 0)
        hands: list[list[str]] = [[] for _ in range(num_seats)]
        for _ in range(opts["hand_size"]):
            for offset in range(num_seats):
                hands[(first + offset) % num_seats].append(deck.pop())
        up_card = deck.pop()
        state: State = {
            "kind": KIND,
            "num_seats": num_seats,
            "options": opts,
            "phase": "draw",
            "turn": first,
            "first_player": first,
            "hands": hands,
            "stock": deck,
            "discard": [up_card],
            "melds": [[] for _ in range(num_seats)],
            "scores": [0] * num_seats,
            "in_game": [True] * num_seats,
            "resigned": [],
            "rebuilds": 0,
            "melded_since_rebuild": False,
            "taken_from_discard": None,
            "deal_events": [],
            "last_showdown": None,
            "outcome": None,
            "secret": {"seed": seed, "shuffles": 1},
        }
        if edition >= 2:
            state.update(
                edition=edition,
                # Per seat, the number of melds and lay-offs made so far when its score last rose:
                # tie_rule first_to_reach ranks equal scores by it.
                reached=[None] * num_seats,
                plays=0,
                # Turns in a row without a meld or a lay-off (idle_rounds_end).
                idle_turns=0,
            )
        events: list[Event] = [
            {
                "type": "deal",
                "first_player": first,
                "hands": [list(hand) for hand in hands],
                "hand_sizes": [len(hand) for hand in hands],
                "up_card": up_card,
                "stock_count": len(deck),
            }
        ]
        self._start_turn(state, events)
        state["deal_events"] = events
        return state

    # --- reading the state

    def to_act(self, state: State) -> int | None:
        return None if state["phase"] == "over" else state["turn"]

    def outcome(self, state: State) -> dict[str, Any] | None:
        return copy.deepcopy(state["outcome"])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        check_seat_number(seat, state["num_seats"])
        if state["phase"] == "over" or seat != state["turn"]:
            return []
        if state["phase"] == "draw":
            # Step 0 ran when this turn began: an empty stock here can always be rebuilt.
            actions: list[Action] = [{"type": "draw_stock"}]
            if state["discard"]:
                actions.append({"type": "draw_discard"})
            return actions
        opts = state["options"]
        hand = state["hands"][seat]
        own_melds = state["melds"][seat]
        taken = None if opts["discard_retake_same_turn"] else state["taken_from_discard"]
        actions = []
        for cards in _find_melds(hand, opts):
            rest = _without(hand, cards)
            if taken is None or not self._stuck(rest, own_melds, taken, opts):
                actions.append({"type": "meld", "cards": cards})
        distinct = list(dict.fromkeys(hand))
        if opts["lay_off"] == "own":
            for index, meld in enumerate(own_melds):
                for card in distinct:
                    result = _layoff_result(meld, card, opts)
                    if result is None:
                        continue
                    if taken is not None:
                        grown = [*own_melds[:index], _meld_entry(*result), *own_melds[index + 1 :]]
                        if self._stuck(_without(hand, [card]), grown, taken, opts):
                            continue
                    actions.append({"type": "lay_off", "card": card, "meld": index})
        actions.extend({"type": "discard", "card": card} for card in distinct if card != taken)
        return actions

    # --- acting

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        self._check_seat(state, seat)
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn", f"It is seat {state['turn']}'s turn, not seat {seat}'s.")
        kind = _action_type(action)
        st = _clone(state)
        events: list[Event] = []
        if kind in ("draw_stock", "draw_discard"):
            if st["phase"] != "draw":
                raise IllegalAction("wrong_phase", "You have drawn already this turn: meld, lay off or discard.")
            expect_keys(action, ())
            (self._draw_stock if kind == "draw_stock" else self._draw_discard)(st, seat, events)
        else:
            if st["phase"] != "play":
                raise IllegalAction("wrong_phase", f"Draw first (draw_stock or draw_discard), then {kind}.")
            if kind == "meld":
                self._meld(st, seat, action, events)
            elif kind == "lay_off":
                self._lay_off(st, seat, action, events)
            else:
                self._discard(st, seat, action, events)
        return st, events

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """C7: out of turn order at once; the hand goes under the stock unseen."""
        self._check_seat(state, seat)
        st = _clone(state)
        hand = st["hands"][seat]
        events: list[Event] = [{"type": "resigned", "seat": seat}]
        taken = st["taken_from_discard"]
        if st.get("edition", 1) >= 2 and st["turn"] == seat and taken in hand:
            # The card just taken from the discard pile was seen by all: it goes back on the pile (C7).
            hand.remove(taken)
            st["discard"].append(taken)
            st["taken_from_discard"] = None
            events[0]["returned_to_discard"] = taken
        st["stock"] = hand + st["stock"]  # the stock's bottom is the list's start
        st["hands"][seat] = []
        st["in_game"][seat] = False
        st["resigned"].append(seat)
        events[0]["cards_to_stock"] = len(hand)
        if sum(st["in_game"]) == 1:
            self._end(st, "resignation", events)
        elif st["turn"] == seat:
            self._pass_turn(st, seat, events)
        return st, events

    # --- what a seat may see (C4, C10)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is not None and not (is_int(seat) and 0 <= seat < state["num_seats"]):
            raise IllegalAction("not_seated", f"There is no seat {seat!r} in this game.")
        players = [
            {
                "seat": index,
                "cards_held": len(state["hands"][index]),
                "in_game": state["in_game"][index],
                "resigned": not state["in_game"][index],
                "score": state["scores"][index],
                "melds": [
                    {"kind": meld["kind"], "cards": list(meld["cards"]), "points": meld["points"]}
                    for meld in state["melds"][index]
                ],
            }
            for index in range(state["num_seats"])
        ]
        discard = state["discard"]
        return {
            "kind": KIND,
            "num_seats": state["num_seats"],
            "options": dict(state["options"]),
            "viewer": seat,
            "to_act": self.to_act(state),
            "phase": state["phase"],
            "hand": None if seat is None else list(state["hands"][seat]),
            "players": players,
            "first_player": state["first_player"],
            "stock_count": len(state["stock"]),
            "discard_top": discard[-1] if discard else None,
            "discard_pile": list(discard),
            "rebuilds": state["rebuilds"],
            "melded_since_rebuild": state["melded_since_rebuild"],
            "taken_from_discard": state["taken_from_discard"],
            # One deal a game: the latest deal's events are the opening events (the history's version 0).
            "deal_events": self.view_events(state["deal_events"], seat),
            "opening_events": self.view_events(state["deal_events"], seat),
            "last_showdown": copy.deepcopy(state["last_showdown"]),
            "outcome": copy.deepcopy(state["outcome"]),
        }

    def view_events(self, events: list[Event], seat: int | None) -> list[Event]:
        shown = []
        for event in events:
            event = copy.deepcopy(event)
            kind = event["type"]
            if kind == "deal":
                event["hands"] = [hand if index == seat else None for index, hand in enumerate(event["hands"])]
            elif kind == "draw_stock" and event["seat"] != seat:
                event["card"] = None
            elif kind == "refill" and event["seat"] != seat:
                event["cards"] = None
            shown.append(event)
        return shown

    # --- storage

    def to_json(self, state: State) -> dict[str, Any]:
        return json.loads(json.dumps(state))

    def from_json(self, data: dict[str, Any]) -> State:
        """The state stored as `data`, after checking every part the rules read (BadState names the
        part at fault): its shape, its cards, its secret, its options."""
        check_state_shape(data, KIND, STATE_SHAPE, "Scattle")
        read = StateReader(data, "Scattle")
        read.num_seats(MIN_SEATS, MAX_SEATS_TWO_DECKS)
        read.edition()
        read.secret()
        read.options(validate_options)
        read.per_seat("melds", lambda melds: isinstance(melds, list) and all(map(_is_meld, melds)), "a list of melds")
        melded = [card for melds in data["melds"] for meld in melds for card in read.cards("melds", meld["cards"])]
        cards = read.hands() + read.cards("stock") + read.cards("discard") + melded
        decks = data["options"].get("deck_count")
        read.no_card_too_often(cards, decks if decks in (1, 2) else 2)
        read.card_or_none("taken_from_discard")
        read.seat("turn", optional=True)
        read.seat("first_player")
        read.one_of("phase", ("draw", "play", "over"))
        read.per_seat("scores", is_int, "a score")
        read.per_seat("in_game", lambda v: isinstance(v, bool), "true or false")
        if not all(is_int(s) and 0 <= s < data["num_seats"] for s in data["resigned"]):
            raise read.refuse("resigned", f"'resigned' is {show_value(data['resigned'])}, not a list of seats")
        read.events("deal_events")
        return json.loads(json.dumps(data))

    # --- the turn (B4)

    def _check_seat(self, state: State, seat: int) -> None:
        check_seat_number(seat, state["num_seats"])
        if state["phase"] == "over":
            raise IllegalAction("game_over", "The game is over.")
        if not state["in_game"][seat]:
            raise IllegalAction("not_seated", f"Seat {seat} has resigned and takes no further part.")

    def _draw_stock(self, st: State, seat: int, events: list[Event]) -> None:
        if not st["stock"]:
            if self._rebuild_refusal(st) is not None:  # step 0 makes this unreachable; kept as a guard
                raise IllegalAction("illegal_action", "The stock is empty and cannot be rebuilt.")
            self._rebuild(st, events)
        card = st["stock"].pop()
        st["hands"][seat].append(card)
        st["phase"] = "play"
        st["taken_from_discard"] = None
        events.append({"type": "draw_stock", "seat": seat, "card": card})

    def _draw_discard(self, st: State, seat: int, events: list[Event]) -> None:
        if not st["discard"]:
            raise IllegalAction("illegal_action", "The discard pile is empty: draw from the stock.")
        card = st["discard"].pop()
        st["hands"][seat].append(card)
        st["phase"] = "play"
        st["taken_from_discard"] = card
        events.append({"type": "draw_discard", "seat": seat, "card": card})

    def _meld(self, st: State, seat: int, action: Action, events: list[Event]) -> None:
        expect_keys(action, ("cards",))
        raw = action["cards"]
        if not isinstance(raw, list):
            raise IllegalAction("bad_action", "A meld's cards are a list of card codes, e.g. ['3H', '4H', '5H'].")
        cards = [parse_card(card) for card in raw]
        opts = st["options"]
        hand = st["hands"][seat]
        rest = _take_from_hand(hand, cards)
        found = _classify(cards, opts)
        if found is None:
            raise IllegalAction("illegal_action", _why_not_meld(cards, opts))
        entry = _meld_entry(found[0], found[1], _points(found[0], found[1], opts))
        melds = st["melds"][seat]
        self._refuse_if_stuck(st, rest, [*melds, entry])
        st["hands"][seat] = rest
        melds.append(entry)
        st["scores"][seat] += entry["points"]
        st["melded_since_rebuild"] = True
        _note_play(st, seat, entry["points"])
        events.append(
            {
                "type": "meld",
                "seat": seat,
                "meld": len(melds) - 1,
                "kind": entry["kind"],
                "cards": list(entry["cards"]),
                "points": entry["points"],
                "score": st["scores"][seat],
            }
        )
        self._after_meld(st, seat, events)

    def _lay_off(self, st: State, seat: int, action: Action, events: list[Event]) -> None:
        expect_keys(action, ("card", "meld"))
        opts = st["options"]
        if opts["lay_off"] != "own":
            raise IllegalAction("illegal_action", "Laying off is not played in this game (option lay_off is none).")
        card = parse_card(action["card"])
        index = action["meld"]
        if not is_int(index):
            raise IllegalAction("bad_action", f"'meld' is the number of one of your melds (0 = first), not {index!r}.")
        melds = st["melds"][seat]
        if not 0 <= index < len(melds):
            raise IllegalAction("illegal_action", f"You have no meld number {index} (you have {len(melds)}).")
        hand = st["hands"][seat]
        rest = _take_from_hand(hand, [card])
        old = melds[index]
        result = _layoff_result(old, card, opts)
        if result is None:
            raise IllegalAction(
                "illegal_action",
                f"{card_label(card)} does not fit meld {index} ({_labels(old['cards'])}): the result must be a valid "
                f"meld worth at least its {old['points']} points.",
            )
        entry = _meld_entry(*result)
        grown = [*melds[:index], entry, *melds[index + 1 :]]
        self._refuse_if_stuck(st, rest, grown)
        st["hands"][seat] = rest
        st["melds"][seat] = grown
        gained = entry["points"] - old["points"]
        st["scores"][seat] += gained
        st["melded_since_rebuild"] = True
        _note_play(st, seat, gained)
        events.append(
            {
                "type": "lay_off",
                "seat": seat,
                "card": card,
                "meld": index,
                "cards": list(entry["cards"]),
                "points": entry["points"],
                "gained": gained,
                "score": st["scores"][seat],
            }
        )
        self._after_meld(st, seat, events)

    def _discard(self, st: State, seat: int, action: Action, events: list[Event]) -> None:
        expect_keys(action, ("card",))
        opts = st["options"]
        card = parse_card(action["card"])
        hand = st["hands"][seat]
        if card not in hand:
            raise IllegalAction("card_not_in_hand", f"You do not hold {card_label(card)}.")
        if card == st["taken_from_discard"] and not opts["discard_retake_same_turn"]:
            raise IllegalAction(
                "illegal_action",
                f"You took {card_label(card)} from the discard pile this turn and may not discard it (or its twin) "
                "until your next turn.",
            )
        hand.remove(card)
        st["discard"].append(card)
        events.append({"type": "discard", "seat": seat, "card": card})
        if not hand and opts["scattle_final_discard"] == "optional":
            events.append({"type": "scattle", "seat": seat})
            self._end(st, "scattle", events, caller=seat)
            return
        self._refill(st, seat, events)
        if st["phase"] != "over" and not self._idle_rounds_over(st, events):
            self._pass_turn(st, seat, events)

    def _after_meld(self, st: State, seat: int, events: list[Event]) -> None:
        target = st["options"]["target_score"]
        if target is not None and st["scores"][seat] >= target:
            self._end(st, "target", events, winner=seat)
        elif not st["hands"][seat]:
            events.append({"type": "scattle", "seat": seat})
            self._end(st, "scattle", events, caller=seat)

    def _idle_rounds_over(self, st: State, events: list[Event]) -> bool:
        """B7 idle_rounds_end: at a turn's end, so many full rounds without a meld or lay-off end the game."""
        if "idle_turns" not in st:
            return False  # a first-edition game
        st["idle_turns"] += 1
        limit = st["options"].get("idle_rounds_end")
        if limit is None or st["idle_turns"] < limit * sum(st["in_game"]):
            return False
        events.append({"type": "idle_rounds", "rounds": limit})
        self._end(st, "stalemate", events)
        return True

    def _stuck(self, rest: list[str], melds: list[dict[str, Any]], taken: str, opts: dict[str, Any]) -> bool:
        """True when `rest` would hold only copies of the card taken from the discard pile, so the
        player could neither discard nor empty the hand: such a meld or lay-off is refused."""
        if not rest or any(card != taken for card in rest):
            return False
        if opts["lay_off"] != "own":
            return True
        for index, meld in enumerate(melds):
            result = _layoff_result(meld, taken, opts)
            if result is not None:
                grown = [*melds[:index], _meld_entry(*result), *melds[index + 1 :]]
                if not self._stuck(rest[1:], grown, taken, opts):
                    return False
        return True

    def _refuse_if_stuck(self, st: State, rest: list[str], melds: list[dict[str, Any]]) -> None:
        taken = st["taken_from_discard"]
        if (
            taken is not None
            and not st["options"]["discard_retake_same_turn"]
            and self._stuck(rest, melds, taken, st["options"])
        ):
            raise IllegalAction(
                "illegal_action",
                f"That would leave you only {card_label(taken)}, which you took from the discard pile this turn "
                "and may not discard.",
            )

    def _refill(self, st: State, seat: int, events: list[Event]) -> None:
        """B4 step 4: draw back up to hand_size, rebuilding the stock as needed."""
        hand = st["hands"][seat]
        drawn: list[str] = []
        while len(hand) < st["options"]["hand_size"]:
            if not st["stock"]:
                if drawn:
                    events.append({"type": "refill", "seat": seat, "cards": drawn, "count": len(drawn)})
                    drawn = []
                reason = self._rebuild_refusal(st)
                if reason is not None:
                    self._end(st, reason, events)
                    return
                self._rebuild(st, events)
            card = st["stock"].pop()
            hand.append(card)
            drawn.append(card)
        if drawn:
            events.append({"type": "refill", "seat": seat, "cards": drawn, "count": len(drawn)})

    def _pass_turn(self, st: State, seat: int, events: list[Event]) -> None:
        n = st["num_seats"]
        nxt = (seat + 1) % n
        while not st["in_game"][nxt]:
            nxt = (nxt + 1) % n
        st["turn"] = nxt
        st["phase"] = "draw"
        st["taken_from_discard"] = None
        self._start_turn(st, events)

    def _start_turn(self, st: State, events: list[Event]) -> None:
        """B4 step 0: a turn that could not draw ends the game before the player acts."""
        if not st["stock"]:
            reason = self._rebuild_refusal(st)
            if reason is not None:
                self._end(st, reason, events)

    # --- stock (B7)

    def _rebuild_refusal(self, st: State) -> str | None:
        """Why the empty stock cannot be rebuilt now ("exhaustion" / "stalemate"), or None."""
        limit = st["options"]["max_stock_rebuilds"]
        if len(st["discard"]) <= 1 or (limit is not None and st["rebuilds"] >= limit):
            return "exhaustion"
        if st["options"]["stalemate_end"] and not st["melded_since_rebuild"]:
            return "stalemate"
        return None

    def _rebuild(self, st: State, events: list[Event]) -> None:
        top = st["discard"][-1]
        rest = st["discard"][:-1]
        order = st["options"]["stock_rebuild_order"]
        if order == "shuffle":
            st["stock"] = shuffled(rest, st["secret"]["seed"], st["secret"]["shuffles"])
            st["secret"]["shuffles"] += 1
        else:
            st["stock"] = rest[::-1]  # face down, the pile's bottom card is now on top
        st["discard"] = [top]
        st["rebuilds"] += 1
        st["melded_since_rebuild"] = False
        events.append({"type": "stock_rebuilt", "count": len(rest), "rebuilds": st["rebuilds"], "order": order})

    # --- the end (B8, C9)

    def _end(
        self, st: State, reason: str, events: list[Event], *, caller: int | None = None, winner: int | None = None
    ) -> None:
        n = st["num_seats"]
        opts = st["options"]
        deadwood = [_deadwood(st["hands"][s]) if opts["deadwood_penalty"] and st["in_game"][s] else 0 for s in range(n)]
        final = [st["scores"][s] - deadwood[s] for s in range(n)]
        favour_caller = reason == "scattle" and opts["tie_rule"] == "scattle_caller_wins_ties"
        by_reach = opts["tie_rule"] == "first_to_reach" and "reached" in st
        never = float("inf")

        def key(s: int) -> tuple[int, bool, float]:
            # Larger is better: the score, the favoured caller, then (first_to_reach) the earlier reach.
            reached = st["reached"][s] if by_reach else None
            return final[s], favour_caller and s == caller, -(never if reached is None else reached)

        groups: list[list[int]] = []
        for s in sorted((s for s in range(n) if st["in_game"][s] and s != winner), key=key, reverse=True):
            if groups and key(groups[-1][0]) == key(s):
                groups[-1].append(s)
            else:
                groups.append([s])
        if winner is not None:
            groups.insert(0, [winner])  # B8a: reaching the target wins outright
        groups.extend([s] for s in reversed(st["resigned"]))  # the earlier resigner ranks lower
        places = places_from_order(groups, n)
        hands = [list(st["hands"][s]) if st["in_game"][s] else None for s in range(n)]
        st["outcome"] = {
            "reason": reason,
            "places": places,
            "winners": sorted(s for s in range(n) if places[s] == 1),
            "scores": final,
            "meld_scores": list(st["scores"]),
            "deadwood": deadwood,
            "caller": caller,
            "resigned": list(st["resigned"]),
        }
        # Hands are revealed at the end: they are the evidence for deadwood and the final count.
        st["last_showdown"] = {"hands": hands, "deadwood": deadwood}
        st["phase"] = "over"
        st["turn"] = None
        st["taken_from_discard"] = None
        events.append(
            {
                "type": "game_over",
                "reason": reason,
                "scores": list(final),
                "meld_scores": list(st["scores"]),
                "deadwood": list(deadwood),
                "hands": copy.deepcopy(hands),
                "places": list(places),
                "winners": list(st["outcome"]["winners"]),
                "caller": caller,
            }
        )


def _note_play(st: State, seat: int, gained: int) -> None:
    """A meld or lay-off: this turn is not idle, and a higher score is reached now (first_to_reach)."""
    if "reached" not in st:
        return  # a first-edition game
    st["plays"] += 1
    if gained > 0:
        st["reached"][seat] = st["plays"]
    st["idle_turns"] = -1  # the turn's end brings it back to 0


def _meld_entry(kind: str, cards: list[str], points: int) -> dict[str, Any]:
    return {"kind": kind, "cards": cards, "points": points}


def _without(hand: list[str], cards: list[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _take_from_hand(hand: list[str], cards: list[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        if card not in rest:
            raise IllegalAction("card_not_in_hand", f"You do not hold {card_label(card)} (for this play).")
        rest.remove(card)
    return rest


_ACTION_TYPES = ("draw_stock", "draw_discard", "meld", "lay_off", "discard")

# What from_json insists on (a first-edition state has the same keys, without the second edition's).
STATE_SHAPE = {
    "num_seats": "int", "options": "dict", "phase": "str", "turn": "int?", "first_player": "int", "hands": "list",
    "stock": "list", "discard": "list", "melds": "list", "scores": "list", "in_game": "list", "resigned": "list",
    "rebuilds": "int", "melded_since_rebuild": "bool", "taken_from_discard": "str?", "deal_events": "list",
    "last_showdown": "dict?", "outcome": "dict?", "secret": "dict",
}  # fmt: skip


def _is_meld(meld: object) -> bool:
    return isinstance(meld, dict) and isinstance(meld.get("cards"), list) and is_int(meld.get("points"))


def _action_type(action: object) -> str:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", 'An action is an object with a "type", e.g. {"type": "draw_stock"}.')
    kind = action["type"]
    if kind not in _ACTION_TYPES:
        raise IllegalAction(
            "bad_action", f"Unknown Scattle action {kind!r}; the actions are {', '.join(_ACTION_TYPES)}."
        )
    return kind


RULES = ScattleRules()

__all__ = ["RULES", "ScattleRules", "find_melds", "meld_kind", "meld_points", "validate_options"]
