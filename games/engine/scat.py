"""Scat (Thirty-One, Blitz) as a pure engine: the rules of ``shared/rules/scat.md``.

The state is a plain JSON-ready dict. ``apply`` and ``resign`` never change the state they are
given: they copy the top-level dict and replace (never mutate) every list they change, so old
states share the untouched parts with new ones. The ``secret`` part holds the seed and the
shuffle counter; ``view`` is the only way out of the state for a client.
"""

from __future__ import annotations

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
from .cards import DECK, parse_card
from .errors import BadOption, IllegalAction
from .stored import StateReader, is_count

KIND = "scat"
MIN_SEATS = 2
MAX_SEATS = 9
HAND_SIZE = 3

TIE_RULES = ("knocker_safe", "knocker_loses_two_others_one", "all_tied_lose_one")

# Option specs in the order of table A2.
_OPTION_SPECS: tuple[dict[str, Any], ...] = (
    {"name": "min_players", "type": "int", "default": 2, "min": 2, "max": 9,
     "help": "Fewest players the game starts with."},
    {"name": "max_players", "type": "int", "default": 9, "min": 2, "max": 9,
     "help": "Most players the game takes."},
    {"name": "initial_tokens", "type": "int", "default": 3, "min": 1, "max": 99,
     "help": "Tokens (lives) each player starts with."},
    {"name": "on_the_county", "type": "bool", "default": True,
     "help": "A player with no tokens left stays in 'on the county' and is out at the next loss."},
    {"name": "knocker_sole_lowest_loss", "type": "choice", "default": 2, "choices": [1, 2],
     "help": "Lives the knocker loses when alone with the lowest hand."},
    {"name": "knocker_tie_rule", "type": "choice", "default": "knocker_safe", "choices": list(TIE_RULES),
     "help": "What happens when the knocker ties for the lowest hand."},
    {"name": "thirty_one_knocker_loss", "type": "choice", "default": 1, "choices": [1, 2],
     "help": "Lives the knocker loses when another player makes 31."},
    {"name": "three_of_a_kind_value", "type": "choice", "default": None, "choices": [None, 30, 30.5],
     "help": "Value of three cards of one rank (off, 30 or 30.5)."},
    {"name": "straight_flush_value", "type": "choice", "default": None, "choices": [None, 30],
     "help": "Value of three suited cards in sequence (off or 30)."},
    {"name": "straight_flush_ace_low", "type": "bool", "default": False,
     "help": "Whether A-2-3 of one suit counts as a straight flush."},
    {"name": "min_knock_score", "type": "int_or_null", "default": None, "min": 1, "max": 30,
     "help": "Least hand value a player needs to knock (empty: any hand)."},
    {"name": "knock_allowed_first_round", "type": "bool", "default": True,
     "help": "Whether a player may knock before everyone has had a turn."},
    {"name": "allow_stand_after_knock", "type": "bool", "default": False,
     "help": "Whether a player may keep his hand (stand) on his last turn after a knock."},
    {"name": "throw_down", "type": "bool", "default": False,
     "help": "Whether a player may throw down: an immediate showdown, as if he had knocked."},
    {"name": "stock_exhausted", "type": "choice", "default": "rebuild", "choices": ["rebuild", "void_hand"],
     "help": "When the stock runs out: rebuild it from the discard pile, or end the hand with no loss."},
    {"name": "stock_rebuild_order", "type": "choice", "default": "shuffle", "choices": ["shuffle", "turn_over"],
     "help": "How the discard pile becomes the new stock: shuffled, or just turned over."},
    {"name": "first_dealer", "type": "seat_or_random", "default": "random", "choices": ["random"], "min": 0, "max": 8,
     "help": "Seat of the first dealer, or 'random'."},
    {"name": "max_rounds_per_hand", "type": "int_or_null", "default": 30, "min": 5, "max": 1000,
     "help": "A hand in which nobody knocks ends in a showdown after this many rounds; empty: no limit."},
    {"name": "max_hands", "type": "int_or_null", "default": 60, "min": 10, "max": 1000,
     "help": "The game ends after this many hands, placed by tokens left (ties share); empty: no limit."},
)  # fmt: skip
# Named sets of options a game may start from: "original" plays the seed's own rules.
PRESETS = {"original": {"max_rounds_per_hand": None, "max_hands": None}}
_SPECS_BY_NAME = {spec["name"]: spec for spec in _OPTION_SPECS}
DEFAULT_OPTIONS: dict[str, Any] = {spec["name"]: spec["default"] for spec in _OPTION_SPECS}

ACTION_TYPES = ("draw_stock", "draw_discard", "discard", "knock", "stand", "throw_down")

# What from_json insists on (first-edition states have the same keys, without "edition").
STATE_SHAPE = {
    "num_seats": "int", "options": "dict", "secret": "dict", "hand_no": "int", "dealer": "int",
    "active": "int?", "phase": "str", "knocker": "int?", "turns_taken": "list", "taken_from_discard": "str?",
    "hands": "list", "stock": "list", "discard": "list", "out_of_play": "list", "rebuilds": "int",
    "tokens": "list", "kitty": "int", "eliminated": "list", "resigned": "list", "eliminations": "list",
    "deal_events": "list", "last_showdown": "dict?", "outcome": "dict?",
}  # fmt: skip

# --- hand evaluation (A3) -------------------------------------------------------------------

CARD_VALUE: dict[str, int] = {c: 11 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0]) for c in DECK}
_HIGH_RANK = {r: i + 2 for i, r in enumerate("23456789TJQKA")}  # ace high: 2..14


def _best_suit(cards: list[str]) -> int:
    """Best single-suit total (step 1 of A3)."""
    totals: dict[str, int] = {}
    for card in cards:
        suit = card[1]
        totals[suit] = totals.get(suit, 0) + CARD_VALUE[card]
    return max(totals.values()) if totals else 0


def _is_straight_flush(cards: list[str], ace_low: bool) -> bool:
    if len(cards) != 3 or not cards[0][1] == cards[1][1] == cards[2][1]:
        return False
    ranks = sorted(_HIGH_RANK[c[0]] for c in cards)
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
        return True
    return ace_low and ranks == [2, 3, 14]


def _value(cards: list[str], options: dict[str, Any]) -> float:
    value: float = _best_suit(cards)
    if len(cards) == 3:
        trips = options.get("three_of_a_kind_value")
        if trips is not None and cards[0][0] == cards[1][0] == cards[2][0]:
            value = max(value, trips)
        flush = options.get("straight_flush_value")
        if flush is not None and _is_straight_flush(cards, bool(options.get("straight_flush_ace_low"))):
            value = max(value, flush)
    return value


def hand_value(cards: list[str], options: dict[str, Any] | None = None) -> float:
    """The value of a Scat hand of three distinct cards: the best single-suit total, raised to the
    three-of-a-kind or straight-flush value when `options` turn those variants on.
    ``["KS", "TS", "4H"]`` -> 20. Anything but three distinct cards is refused (rules A10c)."""
    if not isinstance(cards, (list, tuple)):
        raise IllegalAction("bad_hand", f"A Scat hand is a list of three cards, not {show_value(cards)}.")
    parsed = [parse_card(c) for c in cards]
    if len(parsed) != HAND_SIZE or len(set(parsed)) != HAND_SIZE:
        raise IllegalAction("bad_hand", f"A Scat hand is three different cards; got {show_value(list(cards))}.")
    return _value(parsed, options or {})


def _keepable_value(hand: list[str], taken: str | None, options: dict[str, Any]) -> float:
    """The view's hand_value: of three cards their value; of four (drawn, not yet discarded) the best
    value the player can keep by a discard the rules allow (rules A10c)."""
    if len(hand) <= HAND_SIZE:
        return _value(hand, options)
    return max(_value([c for c in hand if c != out], options) for out in hand if out != taken)


def is_thirty_one(cards: list[str]) -> bool:
    """Whether three cards are a 31 (ace and two ten-value cards of one suit); variant values never are."""
    return len(cards) == 3 and _best_suit([parse_card(c) for c in cards]) == 31


# --- small helpers ---------------------------------------------------------------------------


def _copy(value: Any) -> Any:
    """A copy of a JSON-like value, so a client cannot edit the state through a view or an event."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _next_live(eliminated: list[bool], seat: int) -> int:
    """The next seat clockwise that is still in the game (C2)."""
    n = len(eliminated)
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if not eliminated[nxt]:
            return nxt
    raise AssertionError("no player left in the game")


def _live_seats(state: State) -> list[int]:
    return [s for s, out in enumerate(state["eliminated"]) if not out]


def _knock_restriction(state: State, seat: int) -> str | None:
    """Why `seat` may not knock (or throw down) now, or None when it may (A7)."""
    if state["knocker"] is not None:
        return f"Seat {state['knocker']} has already knocked; there is only one knock per hand."
    options = state["options"]
    if not options["knock_allowed_first_round"]:
        turns, eliminated = state["turns_taken"], state["eliminated"]
        if any(turns[s] == 0 for s in range(len(turns)) if not eliminated[s]):
            return "Nobody may knock before every player has had a turn this hand."
    minimum = options["min_knock_score"]
    if minimum is not None:
        value = _value(state["hands"][seat], options)
        if value < minimum:
            return f"Your hand is worth {value:g}; you need at least {minimum} to knock."
    return None


def _can_draw_stock(state: State) -> bool:
    if state["stock"]:
        return True
    return state["options"]["stock_exhausted"] == "rebuild" and len(state["discard"]) >= 2


# --- the rules object ------------------------------------------------------------------------


class ScatRules:
    """Scat for 2 to 9 seats. See ``games/engine/README.md`` for the contract."""

    kind = KIND
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS

    # options

    def presets(self) -> dict[str, dict[str, Any]]:
        return _copy(PRESETS)

    def auto_table(self) -> list[dict[str, Any]]:
        return []  # no Scat option is "auto"

    def option_specs(self) -> list[dict[str, Any]]:
        return [
            {**spec, "choices": list(spec["choices"])} if "choices" in spec else dict(spec) for spec in _OPTION_SPECS
        ]

    def validate_options(self, options: dict[str, Any] | None, num_seats: int | None = None) -> dict[str, Any]:
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise BadOption(f"Options must be an object of name: value pairs; got {show_value(options)}.")
        unknown = [name for name in options if name not in _SPECS_BY_NAME]
        if unknown:
            raise BadOption(
                f"Unknown option {show_value(unknown[0])} for Scat; the options are {', '.join(_SPECS_BY_NAME)}.",
                str(unknown[0]),
            )
        result = dict(DEFAULT_OPTIONS)
        for name, value in options.items():
            result[name] = check_option(_SPECS_BY_NAME[name], value)
        if result["min_players"] > result["max_players"]:
            raise BadOption(
                f"Option 'min_players' ({result['min_players']}) is larger than 'max_players' "
                f"({result['max_players']}).",
                "min_players",
            )
        seat_limit = result["max_players"]
        if num_seats is not None:
            if not is_int(num_seats) or not MIN_SEATS <= num_seats <= MAX_SEATS:
                raise BadOption(f"Scat takes {MIN_SEATS} to {MAX_SEATS} players; got {show_value(num_seats)}.")
            if not result["min_players"] <= num_seats <= result["max_players"]:
                raise BadOption(
                    f"This game takes {result['min_players']} to {result['max_players']} players "
                    f"(options 'min_players', 'max_players'); got {num_seats}."
                )
            seat_limit = num_seats
        dealer = result["first_dealer"]
        if dealer != "random" and dealer >= seat_limit:
            raise BadOption(
                f"Option 'first_dealer' must be 'random' or a seat number below {seat_limit}; "
                f"got {show_value(dealer)}.",
                "first_dealer",
            )
        return result

    # a new game

    def new_game(
        self, num_seats: int, options: dict[str, Any] | None, seed: int | str, *, edition: int = EDITION
    ) -> State:
        edition = check_edition(edition)
        if not is_int(num_seats):
            raise BadOption(f"Scat takes {MIN_SEATS} to {MAX_SEATS} players; got {show_value(num_seats)}.")
        options = self.validate_options(options, num_seats)
        if not (is_int(seed) or isinstance(seed, str)):
            raise IllegalAction("bad_seed", f"The seed must be a whole number or a string; got {show_value(seed)}.")
        if options["first_dealer"] == "random":
            # Shuffle number 0 is reserved for drawing the first dealer; deals count from 1.
            dealer = int(shuffled([str(s) for s in range(num_seats)], seed, 0)[0])
        else:
            dealer = options["first_dealer"]
        state: State = {
            "kind": KIND,
            "num_seats": num_seats,
            "options": options,
            "secret": {"seed": seed, "shuffles": 0},
            "hand_no": 0,
            "dealer": dealer,
            "active": None,
            "phase": "turn_start",
            "knocker": None,
            "turns_taken": [0] * num_seats,
            "taken_from_discard": None,
            "hands": [[] for _ in range(num_seats)],
            "stock": [],
            "discard": [],
            "out_of_play": [],
            "rebuilds": 0,
            "tokens": [options["initial_tokens"]] * num_seats,
            "kitty": 0,
            "eliminated": [False] * num_seats,
            "resigned": [False] * num_seats,
            "eliminations": [],
            "deal_events": [],
            "last_showdown": None,
            "outcome": None,
        }
        if edition >= 2:
            state["edition"] = edition
        if edition >= 3:
            state["latest_deal_events"] = []
        events: list[Event] = []
        _deal(state, events)
        if edition >= 2:
            # Everything before the first turn (a hand may end on the deal, and the next be dealt): the
            # history's version 0. A first-edition state kept only the latest deal here; the third
            # keeps that in "latest_deal_events" as well.
            state["deal_events"] = events
        return state

    # whose move, what is legal

    def to_act(self, state: State) -> int | None:
        return None if state["outcome"] is not None else state["active"]

    def outcome(self, state: State) -> dict[str, Any] | None:
        return _copy(state["outcome"])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        check_seat_number(seat, state["num_seats"])
        if state["outcome"] is not None or seat != state["active"]:
            return []
        if state["phase"] == "must_discard":
            taken = state["taken_from_discard"]
            return [{"type": "discard", "card": c} for c in state["hands"][seat] if c != taken]
        options = state["options"]
        actions: list[Action] = []
        if _can_draw_stock(state):
            actions.append({"type": "draw_stock"})
        if state["discard"]:
            actions.append({"type": "draw_discard"})
        if state["knocker"] is None:
            if _knock_restriction(state, seat) is None:
                actions.append({"type": "knock"})
                if options["throw_down"]:
                    actions.append({"type": "throw_down"})
        elif options["allow_stand_after_knock"]:
            actions.append({"type": "stand"})
        return actions

    # moves

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        _check_seat(state, seat)
        if seat != state["active"]:
            if state["eliminated"][seat]:
                raise IllegalAction("not_your_turn", "You are out of this game.")
            raise IllegalAction("not_your_turn", f"It is seat {state['active']}'s turn, not yours.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action", 'An action is an object with a "type", e.g. {"type": "draw_stock"}.')
        kind = action["type"]
        if kind not in ACTION_TYPES:
            raise IllegalAction(
                "bad_action", f"Scat has no action {show_value(kind)}; the actions are {', '.join(ACTION_TYPES)}."
            )
        expect_keys(action, ("card",) if kind == "discard" else ())
        phase = state["phase"]
        hand = state["hands"][seat]
        if kind == "discard":
            if phase != "must_discard":
                raise IllegalAction("wrong_phase", "Draw a card first (from the stock or the discard pile), or knock.")
            card = parse_card(action["card"])
            if card not in hand:
                raise IllegalAction("card_not_in_hand", f"{card} is not in your hand.")
            if card == state["taken_from_discard"]:
                raise IllegalAction(
                    "illegal_action", f"You took {card} from the discard pile this turn; discard another card."
                )
            return _do_discard(state, seat, card)
        if phase != "turn_start":
            drawn = hand[-1]
            raise IllegalAction("wrong_phase", f"You have drawn {drawn} this turn; now discard a card.")
        options = state["options"]
        if kind == "draw_stock":
            if not _can_draw_stock(state):
                if options["stock_exhausted"] == "rebuild":
                    reason = "the stock is empty and the discard pile has only its top card to rebuild it from"
                else:
                    reason = "the stock is empty (after a knock the last turns take from the discard pile)"
                raise IllegalAction("illegal_action", f"You cannot draw from the stock: {reason}.")
            return _do_draw_stock(state, seat)
        if kind == "draw_discard":
            if not state["discard"]:
                raise IllegalAction("illegal_action", "The discard pile is empty.")
            return _do_draw_discard(state, seat)
        if kind == "stand":
            if not options["allow_stand_after_knock"]:
                raise IllegalAction("illegal_action", "Standing is not allowed in this game (allow_stand_after_knock).")
            if state["knocker"] is None:
                raise IllegalAction("illegal_action", "You may stand only after someone has knocked.")
            return _do_stand(state, seat)
        if kind == "throw_down" and not options["throw_down"]:
            raise IllegalAction("illegal_action", "Throwing down is not allowed in this game (option throw_down).")
        why_not = _knock_restriction(state, seat)
        if why_not is not None:
            raise IllegalAction("illegal_action", why_not)
        if kind == "knock":
            return _do_knock(state, seat)
        return _do_throw_down(state, seat)

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        _check_seat(state, seat)
        if state["eliminated"][seat]:
            raise IllegalAction("not_seated", "You are already out of this game.")
        new = dict(state)
        events: list[Event] = [{"type": "resigned", "seat": seat}]
        hands = list(state["hands"])
        hand = hands[seat]
        was_active = state["active"] == seat
        if was_active and state["taken_from_discard"] is not None:
            # The card just taken is public: it goes back on the pile, so the next player finds the
            # pile as it was (and a pile emptied by the draw cannot leave him without a move).
            taken = state["taken_from_discard"]
            rest = list(hand)
            rest.remove(taken)
            hand = rest
            new["discard"] = state["discard"] + [taken]
        new["out_of_play"] = state["out_of_play"] + hand  # unseen (C7)
        hands[seat] = []
        new["hands"] = hands
        tokens = list(state["tokens"])
        new["kitty"] = state["kitty"] + tokens[seat]
        tokens[seat] = 0
        new["tokens"] = tokens
        eliminated = list(state["eliminated"])
        eliminated[seat] = True
        new["eliminated"] = eliminated
        resigned = list(state["resigned"])
        resigned[seat] = True
        new["resigned"] = resigned
        new["eliminations"] = state["eliminations"] + [{"seats": [seat], "reason": "resignation"}]
        events.append({"type": "eliminated", "seat": seat, "reason": "resignation"})
        if eliminated.count(False) <= 1:
            _game_over(new, events)
        elif was_active:
            new["taken_from_discard"] = None
            _pass_turn(new, events, seat)
        return new, events

    # what a seat may see

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is not None and not (is_int(seat) and 0 <= seat < state["num_seats"]):
            raise IllegalAction("not_seated", f"There is no seat {show_value(seat)} in this game.")
        options = state["options"]
        hands, tokens, eliminated = state["hands"], state["tokens"], state["eliminated"]
        county = options["on_the_county"]
        players = [
            {
                "seat": s,
                "cards_held": len(hands[s]),
                "in_game": not eliminated[s],
                "eliminated": eliminated[s],
                "resigned": state["resigned"][s],
                "tokens": tokens[s],
                "on_the_county": county and not eliminated[s] and tokens[s] == 0,
                "is_dealer": s == state["dealer"],
                "is_knocker": s == state["knocker"],
                "turns_taken": state["turns_taken"][s],
            }
            for s in range(state["num_seats"])
        ]
        hand = None if seat is None else list(hands[seat])
        discard = state["discard"]
        return {
            "kind": KIND,
            "num_seats": state["num_seats"],
            "options": dict(options),
            "viewer": seat,
            "to_act": self.to_act(state),
            "phase": state["phase"],
            "hand_no": state["hand_no"],
            "hand": hand,
            "hand_value": None if hand is None else _keepable_value(hand, state["taken_from_discard"], options),
            "players": players,
            "dealer": state["dealer"],
            "knocker": state["knocker"],
            "kitty": state["kitty"],
            "stock_count": len(state["stock"]),
            "discard_top": discard[-1] if discard else None,
            "discard_pile": list(discard),
            "taken_from_discard": state["taken_from_discard"],
            "rebuilds": state["rebuilds"],
            "deal_events": self.view_events(_latest_deal_events(state), seat),
            "opening_events": self.view_events(_opening_events(state), seat),
            "last_showdown": _copy(state["last_showdown"]),
            "outcome": _copy(state["outcome"]),
        }

    def view_events(self, events: list[Event], seat: int | None) -> list[Event]:
        shown: list[Event] = []
        for event in events:
            kind = event["type"]
            if kind == "deal":
                shown.append(
                    {
                        **event,
                        "hands": [
                            list(h) if s == seat and h is not None else None for s, h in enumerate(event["hands"])
                        ],
                        "cards_held": list(event["cards_held"]),
                    }
                )
            elif kind == "draw_stock" and event["seat"] != seat:
                shown.append({**event, "card": None})
            else:
                shown.append(_copy(event))  # public
        return shown

    # storage

    def to_json(self, state: State) -> dict[str, Any]:
        return _copy(state)

    def from_json(self, data: dict[str, Any]) -> State:
        """The state stored as `data`, after checking every part the rules read (BadState names the
        part at fault): its shape, its cards, its secret, its options."""
        check_state_shape(data, KIND, STATE_SHAPE, "Scat")
        read = StateReader(data, "Scat")
        read.num_seats(MIN_SEATS, MAX_SEATS)
        read.secret()
        read.options(self.validate_options)
        cards = read.hands() + read.cards("stock") + read.cards("discard") + read.cards("out_of_play")
        read.no_card_too_often(cards, 1)
        if any(len(hand) > HAND_SIZE + 1 for hand in data["hands"]):
            raise read.refuse("hands", "a hand holds more than four cards")
        read.card_or_none("taken_from_discard")
        for key in ("dealer", "active", "knocker"):
            read.seat(key, optional=key != "dealer")
        read.one_of("phase", ("turn_start", "must_discard", "over"))
        read.per_seat("turns_taken", is_count, "a count of turns")
        read.per_seat("tokens", is_count, "a count of tokens")
        read.per_seat("eliminated", lambda v: isinstance(v, bool), "true or false")
        read.per_seat("resigned", lambda v: isinstance(v, bool), "true or false")
        for key in ("hand_no", "kitty", "rebuilds"):
            if data[key] < 0:
                raise read.refuse(key, f"{key!r} is {data[key]}, below 0")
        read.events("deal_events")
        if read.edition() >= 3:
            if not isinstance(data.get("latest_deal_events"), list):
                raise read.refuse("latest_deal_events", "a third-edition state keeps its latest deal's events")
            read.events("latest_deal_events")
        return _copy(data)


def _latest_deal_events(state: State) -> list[Event]:
    """The events of the hand in play's deal (with the 31s it showed, when the game ended on it). A
    second-edition state kept only the opening events (version 0), a first-edition one the latest
    deal alone."""
    return state.get("latest_deal_events", state["deal_events"])


def _opening_events(state: State) -> list[Event]:
    """The events before the first turn (the history's version 0); a first-edition state knows them
    only while its first hand lasts."""
    if "edition" in state:
        return state["deal_events"]
    return state["deal_events"] if state["hand_no"] == 1 else []


def _check_seat(state: State, seat: object) -> None:
    check_seat_number(seat, state["num_seats"])
    if state["outcome"] is not None:
        raise IllegalAction("game_over", "This game is over.")


# --- moves: each takes the old state and returns a new one -----------------------------------


def _with_hand(state: State, new: State, seat: int, hand: list[str]) -> None:
    hands = list(state["hands"])
    hands[seat] = hand
    new["hands"] = hands


def _do_draw_stock(state: State, seat: int) -> tuple[State, list[Event]]:
    new = dict(state)
    events: list[Event] = []
    stock = state["stock"]
    if not stock:
        stock = _rebuild_stock(new, events)
    stock = list(stock)
    card = stock.pop()
    new["stock"] = stock
    _with_hand(state, new, seat, state["hands"][seat] + [card])
    new["phase"] = "must_discard"
    events.append({"type": "draw_stock", "seat": seat, "card": card})
    return new, events


def _rebuild_stock(new: State, events: list[Event]) -> list[str]:
    """A10 `rebuild`: every discard but the top becomes the stock."""
    discard = new["discard"]
    rest = discard[:-1]
    order = new["options"]["stock_rebuild_order"]
    if order == "shuffle":
        secret = new["secret"]
        counter = secret["shuffles"] + 1
        new["secret"] = {"seed": secret["seed"], "shuffles": counter}
        stock = shuffled(rest, secret["seed"], counter)
    else:
        stock = rest[::-1]  # turned over: the bottom discard is now the top of the stock
    new["discard"] = discard[-1:]
    new["rebuilds"] = new["rebuilds"] + 1
    events.append({"type": "stock_rebuilt", "cards": len(stock), "order": order, "rebuilds": new["rebuilds"]})
    return stock


def _do_draw_discard(state: State, seat: int) -> tuple[State, list[Event]]:
    new = dict(state)
    card = state["discard"][-1]
    new["discard"] = state["discard"][:-1]
    _with_hand(state, new, seat, state["hands"][seat] + [card])
    new["phase"] = "must_discard"
    new["taken_from_discard"] = card
    return new, [{"type": "draw_discard", "seat": seat, "card": card}]


def _do_discard(state: State, seat: int, card: str) -> tuple[State, list[Event]]:
    new = dict(state)
    hand = list(state["hands"][seat])
    hand.remove(card)
    _with_hand(state, new, seat, hand)
    new["discard"] = state["discard"] + [card]
    new["taken_from_discard"] = None
    events: list[Event] = [{"type": "discard", "seat": seat, "card": card}]
    if _best_suit(hand) == 31:
        _thirty_one(new, events, seat)
        return new, events
    _count_turn(state, new, seat)
    _pass_turn(new, events, seat)
    return new, events


def _do_knock(state: State, seat: int) -> tuple[State, list[Event]]:
    new = dict(state)
    new["knocker"] = seat
    events: list[Event] = [{"type": "knock", "seat": seat}]
    _count_turn(state, new, seat)
    _pass_turn(new, events, seat)
    return new, events


def _do_stand(state: State, seat: int) -> tuple[State, list[Event]]:
    new = dict(state)
    events: list[Event] = [{"type": "stand", "seat": seat}]
    _count_turn(state, new, seat)
    _pass_turn(new, events, seat)
    return new, events


def _do_throw_down(state: State, seat: int) -> tuple[State, list[Event]]:
    new = dict(state)
    new["knocker"] = seat
    events: list[Event] = [{"type": "throw_down", "seat": seat}]
    _count_turn(state, new, seat)
    _showdown(new, events, thrown_down=True)
    return new, events


def _count_turn(state: State, new: State, seat: int) -> None:
    turns = list(state["turns_taken"])
    turns[seat] += 1
    new["turns_taken"] = turns


def _pass_turn(new: State, events: list[Event], seat: int) -> None:
    """A7-end: the turn passes clockwise; passing the knocker's seat means the final turns are done."""
    eliminated, knocker = new["eliminated"], new["knocker"]
    n = len(eliminated)
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        # A knocker who resigned still marks where the hand ends (C7), hence the seat test first.
        if nxt == knocker:
            _showdown(new, events, thrown_down=False)
            return
        if not eliminated[nxt]:
            limit = new["options"].get("max_rounds_per_hand")
            if limit is not None and knocker is None and min(new["turns_taken"][s] for s in _live_seats(new)) >= limit:
                _showdown(new, events, thrown_down=False, reason="round_limit")  # A10b: nobody knocked
                return
            new["active"] = nxt
            new["phase"] = "turn_start"
            if not new["stock"] and knocker is None and new["options"]["stock_exhausted"] == "void_hand":
                events.append({"type": "hand_void", "reason": "stock_exhausted"})
                _next_hand(new, events, same_dealer=False)
            return
    raise AssertionError("no player left to take the turn")


# --- the end of a hand ---------------------------------------------------------------------


def _thirty_one(new: State, events: list[Event], seat: int) -> None:
    """A7 step 1: a 31 after a discard ends the hand; everybody else loses a life."""
    knocker = new["knocker"]
    knocker_loss = new["options"]["thirty_one_knocker_loss"]
    losses = [0] * new["num_seats"]
    for s in _live_seats(new):
        if s != seat:
            losses[s] = knocker_loss if s == knocker else 1
    hand = list(new["hands"][seat])
    events.append({"type": "thirty_one", "seat": seat, "cards": hand, "on_deal": False, "lives_lost": list(losses)})
    _record_reveal(new, "thirty_one", {seat: hand}, losses)
    _end_hand(new, events, losses)


def _showdown(new: State, events: list[Event], thrown_down: bool, reason: str = "") -> None:
    """A8: every hand is shown; the lowest hand loses as the tie rule says. With `reason` "round_limit"
    nobody knocked (A10b): the lowest hands lose a life each, unless every hand ties."""
    options = new["options"]
    knocker = new["knocker"]
    live = _live_seats(new)
    value_of = {s: _value(new["hands"][s], options) for s in live}
    values = [value_of.get(s) for s in range(new["num_seats"])]
    lowest = min(value_of.values())
    losers = [s for s in live if value_of[s] == lowest]
    losses = [0] * new["num_seats"]
    rule = options["knocker_tie_rule"]
    knocker_in = knocker in losers  # False when the knocker has resigned
    if reason == "round_limit" and len(losers) == len(live):
        pass  # everybody tied: nobody loses, and the deal passes
    elif knocker_in and len(losers) == 1:
        losses[knocker] = options["knocker_sole_lowest_loss"]
    elif rule == "all_tied_lose_one" and len(losers) == len(live):
        pass  # everybody tied: nobody loses
    elif knocker_in and rule == "knocker_safe":
        for s in losers:
            losses[s] = 0 if s == knocker else 1
    elif knocker_in and rule == "knocker_loses_two_others_one":
        for s in losers:
            losses[s] = 2 if s == knocker else 1
    else:
        for s in losers:
            losses[s] = 1
    hands = {s: list(new["hands"][s]) for s in live}
    event: Event = {
        "type": "showdown",
        "knocker": knocker,
        "thrown_down": thrown_down,
        "hands": [hands.get(s) for s in range(new["num_seats"])],
        "values": values,
        "lowest": lowest,
        "lives_lost": losses,
    }
    if reason:
        event["reason"] = reason
    events.append(event)
    kind = reason or ("throw_down" if thrown_down else "showdown")
    _record_reveal(new, kind, hands, losses, values)
    _end_hand(new, events, losses)


def _record_reveal(
    new: State,
    kind: str,
    hands: dict[int, list[str]],
    losses: list[int],
    values: list[float | None] | None = None,
) -> None:
    n = new["num_seats"]
    if values is None:
        values = [31 if s in hands else None for s in range(n)]
    new["last_showdown"] = {
        "hand_no": new["hand_no"],
        "kind": kind,
        "knocker": new["knocker"],
        "hands": [list(hands[s]) if s in hands else None for s in range(n)],
        "values": list(values),
        "lives_lost": list(losses),
    }


def _end_hand(new: State, events: list[Event], losses: list[int]) -> None:
    """A9: apply the hand's life losses together, then deal the next hand or end the game."""
    options = new["options"]
    county = options["on_the_county"]
    tokens = list(new["tokens"])
    eliminated = new["eliminated"]
    kitty = new["kitty"]
    out: list[int] = []
    changes: list[Event] = []
    for seat, lives in enumerate(losses):
        if not lives or eliminated[seat]:
            continue
        lost = 0
        for _ in range(lives):
            lost += 1
            if county and tokens[seat] == 0:
                out.append(seat)
                break
            tokens[seat] -= 1
            kitty += 1
            if not county and tokens[seat] == 0:
                out.append(seat)
                break
        changes.append(
            {
                "type": "life_lost",
                "seat": seat,
                "lives": lost,
                "tokens": tokens[seat],
                "on_the_county": county and seat not in out and tokens[seat] == 0,
            }
        )
    live = [s for s in range(len(eliminated)) if not eliminated[s] and s not in out]
    if not live:
        # Only possible with the non-default tie rules: nobody goes out and the hand is replayed (A9).
        # The reveal events of this hand were made in this very call, so they can still be corrected.
        for event in events:
            if "lives_lost" in event and event.get("type") in ("showdown", "thirty_one"):
                event["lives_lost"] = [0] * len(losses)
        new["last_showdown"] = {**new["last_showdown"], "lives_lost": [0] * len(losses), "void": True}
        events.append({"type": "hand_void", "reason": "everyone_would_be_out"})
        _next_hand(new, events, same_dealer=True)
        return
    new["tokens"] = tokens
    new["kitty"] = kitty
    events.extend(changes)
    if out:
        eliminated = list(eliminated)
        for seat in out:
            eliminated[seat] = True
            events.append({"type": "eliminated", "seat": seat, "reason": "lives"})
        new["eliminated"] = eliminated
        new["eliminations"] = new["eliminations"] + [{"seats": out, "reason": "lives"}]
    if len(live) <= 1:
        _game_over(new, events)
        return
    _next_hand(new, events, same_dealer=False)


def _next_hand(new: State, events: list[Event], same_dealer: bool) -> None:
    limit = new["options"].get("max_hands")  # stored before the third edition: absent, no limit
    if limit is not None and new["hand_no"] >= limit:
        _game_over(new, events, reason="hand_limit")  # A10d: that many hands have been played
        return
    # A replayed hand keeps its dealer, unless he resigned during it.
    if not same_dealer or new["eliminated"][new["dealer"]]:
        new["dealer"] = _next_live(new["eliminated"], new["dealer"])
    _deal(new, events)


def _deal(new: State, events: list[Event]) -> None:
    """A5: shuffle, deal three cards one at a time from left of the dealer, turn up one card."""
    secret = new["secret"]
    counter = secret["shuffles"] + 1
    new["secret"] = {"seed": secret["seed"], "shuffles": counter}
    deck = shuffled(list(DECK), secret["seed"], counter)
    n = new["num_seats"]
    eliminated = new["eliminated"]
    dealer = new["dealer"]
    order = [(dealer + step) % n for step in range(1, n + 1) if not eliminated[(dealer + step) % n]]
    hands: list[list[str]] = [[] for _ in range(n)]
    for _ in range(HAND_SIZE):
        for seat in order:
            hands[seat].append(deck.pop())  # the end of the shuffled list is the top of the deck
    up_card = deck.pop()
    new.update(
        hand_no=new["hand_no"] + 1,
        hands=hands,
        stock=deck,
        discard=[up_card],
        out_of_play=[],
        knocker=None,
        turns_taken=[0] * n,
        taken_from_discard=None,
        rebuilds=0,
        active=order[0],
        phase="turn_start",
    )
    deal_event: Event = {
        "type": "deal",
        "hand_no": new["hand_no"],
        "dealer": dealer,
        "hands": [None if eliminated[s] else list(hands[s]) for s in range(n)],
        "cards_held": [len(h) for h in hands],
        "up_card": up_card,
        "stock_count": len(deck),
    }
    first = len(events)
    events.append(deal_event)
    # The latest deal's events (a copy: callers may edit events). The first edition kept them in
    # "deal_events", the third in a key of their own beside the opening events.
    latest = "latest_deal_events" if "latest_deal_events" in new else "deal_events" if "edition" not in new else None
    if latest:
        new[latest] = [_copy(deal_event)]
    holders = [s for s in order if _best_suit(hands[s]) == 31]
    if holders:
        # A5 step 4: every 31 is shown, everybody without one loses a life, no play takes place.
        losses = [0 if eliminated[s] or s in holders else 1 for s in range(n)]
        for s in holders:
            events.append(
                {"type": "thirty_one", "seat": s, "cards": list(hands[s]), "on_deal": True, "lives_lost": list(losses)}
            )
        _record_reveal(new, "thirty_one_on_deal", {s: hands[s] for s in holders}, losses)
        _end_hand(new, events, losses)
        if latest == "latest_deal_events" and new["outcome"] is not None and new["hand_no"] == deal_event["hand_no"]:
            new[latest] = _copy(events[first:])  # the game ended on this deal: its 31s and the end


def _game_over(new: State, events: list[Event], reason: str = "") -> None:
    """A4 and C9: the last player left wins and takes the kitty. With `reason` "hand_limit" (A10d)
    several are left: they are placed by tokens left, more first, equal tokens sharing a place, and
    the kitty stays where it is (nobody is the last player), with the players out below them all."""
    n = new["num_seats"]
    live = _live_seats(new)
    tokens = list(new["tokens"])
    kitty = 0
    if reason == "hand_limit":
        counts = sorted({tokens[s] for s in live}, reverse=True)
        groups = [[s for s in live if tokens[s] == count] for count in counts]
    else:
        kitty = new["kitty"]
        for seat in live:
            tokens[seat] += kitty
        new["tokens"] = tokens
        new["kitty"] = 0
        groups = [live]
        last = new["eliminations"][-1]["reason"] if new["eliminations"] else "lives"
        reason = "resignation" if last == "resignation" else "last_player"
    groups += [e["seats"] for e in reversed(new["eliminations"])]
    outcome = {
        "reason": reason,
        "places": places_from_order(groups, n),
        "winners": groups[0],
        "tokens": tokens,
        "kitty_won": kitty,
        "hands_played": new["hand_no"],
    }
    new.update(outcome=outcome, active=None, phase="over", taken_from_discard=None)
    events.append({"type": "game_over", **_copy(outcome)})


RULES = ScatRules()
