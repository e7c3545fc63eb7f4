"""Standing orders: rules a player leaves for their routine turns, evaluated from their own view.

``standing_order_action(kind, view, orders)`` reads one seat's view (``RULES.view(state, seat)``) and
nothing else: no state, no history, no clock, no global random. So an order can never use a card the
player could not see. ``validate_orders(kind, orders, rated=...)`` checks orders at the boundary and
returns them in canonical form; it raises ``BadOrders`` whose ``errors`` name the rule and the field
(``{"rules[2].when.discard_in": ["..."]}``).

Orders: ``{"rules": [{"when": {<condition>: value, ...}, "do": <action>}, ...]}``. A rule matches when
all its conditions hold (an empty ``when`` always holds); the first matching rule whose action is
legal now is played. Conditions:

- ``discard_is``: card, ``discard_in``: [cards]: the top of the discard pile;
- ``phase``: the engine's phase name (Scat ``turn_start`` / ``must_discard``, Scattle ``draw`` / ``play``);
- ``discard_raises_to`` (Scat): taking the top discard would leave a hand worth at least N;
- ``discard_makes_31`` (Scat): taking it would make 31 (true), or would not (false);
- ``discard_completes_meld`` (Scattle): the top discard completes a meld with the hand (or not);
- ``hand_at_least``: Scat, the hand's value; Scattle, the points of the melds the hand holds;
- ``stock_at_least``: cards in the stock;
- ``someone_knocked`` (Scat): whether anyone has knocked this hand;
- ``lives_at_least`` (Scat): the player's lives left (tokens, plus one while "on the county" is on);
- ``points_at_least`` (Scattle): the player's score.

The conditions about taking the discard hold only when taking it is legal now. Actions: an engine
action (``{"type": "draw_stock"}``, ``{"type": "discard", "card": "KS"}``, ``{"type": "meld", "cards":
[...]}`` ...) or a policy for one decision: ``{"policy": "best_discard"}`` (the discard that keeps the
best hand, by the good bot's measure), ``{"policy": "lay_all_melds"}`` (Scattle: the next meld of the
hand's best set, while there is one), ``{"policy": "good"}`` (what the good bot would do; unrated games
only, as advice is).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from .base import Action, is_int, show_value
from .cards import DECK, parse_card, rank_number
from .errors import IllegalAction

MAX_RULES = 20
POLICIES = ("best_discard", "lay_all_melds", "good")
ACTION_TYPES = {
    "scat": ("draw_stock", "draw_discard", "discard", "knock", "stand", "throw_down"),
    "scattle": ("draw_stock", "draw_discard", "discard", "meld", "lay_off"),
}
PHASES = {"scat": ("turn_start", "must_discard"), "scattle": ("draw", "play")}
# Conditions by game, with the kind of value each takes: ("card",), ("cards",), ("bool",), ("phase",)
# or ("number", least, most).
CONDITIONS: dict[str, dict[str, tuple[Any, ...]]] = {
    "scat": {
        "discard_is": ("card",),
        "discard_in": ("cards",),
        "phase": ("phase",),
        "discard_raises_to": ("number", 0, 31),
        "discard_makes_31": ("bool",),
        "hand_at_least": ("number", 0, 31),
        "stock_at_least": ("number", 0, 52),
        "someone_knocked": ("bool",),
        "lives_at_least": ("number", 0, 100),
    },
    "scattle": {
        "discard_is": ("card",),
        "discard_in": ("cards",),
        "phase": ("phase",),
        "discard_completes_meld": ("bool",),
        "hand_at_least": ("number", 0, 1000),
        "stock_at_least": ("number", 0, 104),
        "points_at_least": ("number", 0, 10000),
    },
}

_ROUTINE_SCAT_DRAW = [
    {"when": {"phase": "must_discard"}, "do": {"policy": "best_discard"}},
    {"when": {"someone_knocked": False, "discard_makes_31": True}, "do": {"type": "draw_discard"}},
    {"when": {"someone_knocked": False, "discard_raises_to": 26}, "do": {"type": "draw_discard"}},
    {"when": {"someone_knocked": False}, "do": {"type": "draw_stock"}},
]
_ROUTINE_SCATTLE = [
    {"when": {"phase": "draw", "discard_completes_meld": True}, "do": {"type": "draw_discard"}},
    {"when": {"phase": "draw"}, "do": {"type": "draw_stock"}},
    {"when": {"phase": "play"}, "do": {"policy": "lay_all_melds"}},
    {"when": {"phase": "play"}, "do": {"policy": "best_discard"}},
]
# Ready-made sets, by game: a player going away picks one in a click. "good" is for unrated games.
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "scat": {
        # Take the discard when it makes 31 or a hand of 26, else draw; throw the card needed least;
        # knocks and the last turn after a knock are left to the player.
        "routine": {"rules": _ROUTINE_SCAT_DRAW},
        # The same, and knock with a hand of 28 or more.
        "routine_knock_28": {
            "rules": [
                {
                    "when": {"phase": "turn_start", "someone_knocked": False, "hand_at_least": 28},
                    "do": {"type": "knock"},
                },
                *_ROUTINE_SCAT_DRAW,
            ]
        },
        "good": {"rules": [{"when": {}, "do": {"policy": "good"}}]},
    },
    "scattle": {
        # Take the discard when it completes a meld, else draw; lay every meld; throw the card needed least.
        "routine": {"rules": _ROUTINE_SCATTLE},
        # Draw and throw only: melds are left to the player.
        "draw_and_discard": {
            "rules": [
                {"when": {"phase": "draw"}, "do": {"type": "draw_stock"}},
                {"when": {"phase": "play"}, "do": {"policy": "best_discard"}},
            ]
        },
        "good": {"rules": [{"when": {}, "do": {"policy": "good"}}]},
    },
}


class BadOrders(ValueError):
    """Orders that do not pass the checks; `errors` maps a field's path to what is wrong with it."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in errors.items()))
        self.errors = errors


def preset_orders(kind: str, name: str) -> dict[str, Any]:
    """A ready-made set of orders (a fresh copy)."""
    try:
        preset = PRESETS[kind][name]
    except KeyError:
        raise BadOrders({"preset": [f"There is no ready-made set {show_value(name)} for {kind}."]}) from None
    return {"rules": [{"when": dict(r["when"]), "do": dict(r["do"])} for r in preset["rules"]]}


# --- checking orders -----------------------------------------------------------------------------


def validate_orders(kind: str, orders: object, *, rated: bool) -> dict[str, Any]:
    """The orders in canonical form (card codes upper case), or BadOrders naming every rule and
    field at fault. `rated`: the game is rated, so the good bot's policy is refused."""
    if kind not in CONDITIONS:
        raise BadOrders({"kind": [f"Unknown game kind {show_value(kind)}."]})
    errors: dict[str, list[str]] = {}
    if not isinstance(orders, dict):
        raise BadOrders({"rules": ['Orders are an object {"rules": [...]}.']})
    rules = orders.get("rules")
    if not isinstance(rules, list):
        raise BadOrders({"rules": ["A list of rules is required."]})
    if not rules:
        raise BadOrders({"rules": ["Give at least one rule."]})
    if len(rules) > MAX_RULES:
        raise BadOrders({"rules": [f"At most {MAX_RULES} rules; got {len(rules)}."]})
    clean: list[dict[str, Any]] = []
    for index, rule in enumerate(rules):
        where = f"rules[{index}]"
        if not isinstance(rule, dict):
            errors[where] = ['A rule is an object {"when": {...}, "do": {...}}.']
            continue
        extra = sorted(set(rule) - {"when", "do"})
        if extra:
            errors[where] = [f'Unknown keys: {", ".join(map(show_value, extra))}; a rule has "when" and "do".']
        when = _check_when(kind, rule.get("when", {}), f"{where}.when", errors)
        do = _check_do(kind, rule.get("do"), f"{where}.do", errors, rated=rated)
        clean.append({"when": when, "do": do})
    if errors:
        raise BadOrders(errors)
    return {"rules": clean}


def _check_when(kind: str, when: object, where: str, errors: dict[str, list[str]]) -> dict[str, Any]:
    if not isinstance(when, dict):
        errors[where] = ['The conditions are an object, e.g. {"phase": "draw"} (or {} for always).']
        return {}
    known = CONDITIONS[kind]
    if len(when) > len(known):
        errors[where] = [f"At most {len(known)} conditions, one of each."]
        return {}
    clean: dict[str, Any] = {}
    for name, value in when.items():
        field = f"{where}.{name}"
        spec = known.get(name) if isinstance(name, str) else None
        if spec is None:
            errors[field] = [f"Unknown condition for {kind}; use one of {', '.join(known)}."]
            continue
        try:
            clean[name] = _check_value(kind, spec, value)
        except ValueError as exc:
            errors[field] = [str(exc)]
    return clean


def _check_value(kind: str, spec: tuple[Any, ...], value: object) -> Any:
    what = spec[0]
    if what == "card":
        return _card(value)
    if what == "cards":
        if not isinstance(value, list) or not 1 <= len(value) <= len(DECK):
            raise ValueError(f'A list of 1 to {len(DECK)} cards, e.g. ["QS", "KS"].')
        return sorted({_card(card) for card in value}, key=DECK.index)
    if what == "bool":
        if not isinstance(value, bool):
            raise ValueError("true or false.")
        return value
    if what == "phase":
        if value not in PHASES[kind]:
            raise ValueError(f"One of {', '.join(PHASES[kind])}.")
        return value
    least, most = spec[1], spec[2]
    if not (is_int(value) or isinstance(value, float)) or not least <= value <= most:  # type: ignore[operator]
        raise ValueError(f"A number from {least} to {most}.")
    return value


def _card(value: object) -> str:
    try:
        return parse_card(value)
    except IllegalAction as exc:
        raise ValueError(exc.message) from None


def _check_do(kind: str, do: object, where: str, errors: dict[str, list[str]], *, rated: bool) -> dict[str, Any]:
    if not isinstance(do, dict):
        errors[where] = ['An action: {"type": "draw_stock"}, {"type": "discard", "card": "KS"} or {"policy": ...}.']
        return {}
    if "policy" in do:
        policy = do["policy"]
        if set(do) != {"policy"}:
            errors[where] = ['A policy is {"policy": name} and nothing else.']
        elif policy not in POLICIES or (policy == "lay_all_melds" and kind != "scattle"):
            names = [p for p in POLICIES if kind == "scattle" or p != "lay_all_melds"]
            errors[f"{where}.policy"] = [f"Unknown policy for {kind}; use one of {', '.join(names)}."]
        elif policy == "good" and rated:
            errors[f"{where}.policy"] = ['"good" plays as the good bot would: only in unrated games, like advice.']
        return {"policy": policy}
    kind_of = do.get("type")
    if kind_of not in ACTION_TYPES[kind]:
        errors[f"{where}.type"] = [f"Unknown action for {kind}; use one of {', '.join(ACTION_TYPES[kind])}."]
        return {}
    wanted = {"discard": {"type", "card"}, "meld": {"type", "cards"}, "lay_off": {"type", "card", "meld"}}
    keys = wanted.get(kind_of, {"type"})
    if set(do) != keys:
        errors[where] = [f"{show_value(kind_of)} takes exactly {', '.join(sorted(keys))}."]
        return {}
    clean: dict[str, Any] = {"type": kind_of}
    try:
        if "card" in keys:
            clean["card"] = _card(do["card"])
        if kind_of == "meld":
            cards = do["cards"]
            if not isinstance(cards, list) or not 3 <= len(cards) <= 13:
                raise ValueError("A meld is a list of 3 to 13 cards.")
            clean["cards"] = [_card(card) for card in cards]
        if kind_of == "lay_off":
            if not is_int(do["meld"]) or not 0 <= do["meld"] < 100:
                raise ValueError("The meld is the index of one of your melds (0, 1, ...).")
            clean["meld"] = do["meld"]
    except ValueError as exc:
        errors[where] = [str(exc)]
    return clean


# --- evaluating orders ----------------------------------------------------------------------------


def legal_actions_from_view(kind: str, view: dict[str, Any]) -> list[Action]:
    """The viewer's legal actions, from the view alone, in the engine's order ([] when it is not the
    viewer's turn)."""
    viewer = view.get("viewer")
    if viewer is None or view.get("to_act") != viewer or view.get("outcome") is not None:
        return []
    if kind == "scat":
        from .advisor import scat_legal_actions

        return scat_legal_actions(view)
    from .scattle import RULES

    # Scattle's legal actions read only the actor's hand and melds, the pile, the phase and the
    # options: a state holding just those gives them (the other hands and the stock stay empty).
    n = view["num_seats"]
    shadow = {
        "num_seats": n,
        "phase": view["phase"],
        "turn": viewer,
        "options": view["options"],
        "discard": view["discard_pile"],
        "hands": [list(view["hand"]) if s == viewer else [] for s in range(n)],
        "melds": [[dict(m, cards=list(m["cards"])) for m in p["melds"]] for p in view["players"]],
        "taken_from_discard": view["taken_from_discard"],
    }
    return RULES.legal_actions(shadow, viewer)


def standing_order_action(kind: str, view: dict[str, Any], orders: dict[str, Any] | list) -> Action | None:
    """The action the orders give for the viewer now, or None (no rule matches with a legal action,
    or it is not the viewer's turn). `orders` are validated orders (or their list of rules)."""
    rules = orders["rules"] if isinstance(orders, dict) else orders
    legal = legal_actions_from_view(kind, view)
    if not legal:
        return None
    facts = _Facts(kind, view, legal)
    for rule in rules:
        if all(facts.holds(name, value) for name, value in rule["when"].items()):
            action = facts.action(rule["do"])
            if action is not None:
                return action
    return None


class _Facts:
    """What the conditions read, each computed once and only when a rule asks."""

    def __init__(self, kind: str, view: dict[str, Any], legal: list[Action]) -> None:
        self.kind = kind
        self.view = view
        self.legal = legal
        self.types = {a["type"] for a in legal}
        self._cache: dict[str, Any] = {}

    def _once(self, key: str, compute) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    # conditions

    def holds(self, name: str, value: Any) -> bool:
        view = self.view
        if name == "discard_is":
            return view["discard_top"] == value
        if name == "discard_in":
            return view["discard_top"] in value
        if name == "phase":
            return view["phase"] == value
        if name == "stock_at_least":
            return view["stock_count"] >= value
        if name == "hand_at_least":
            return self._once("hand", self._hand_worth) >= value
        if name == "discard_raises_to":
            taken = self._once("take", self._scat_take_value)
            return taken is not None and taken >= value
        if name == "discard_makes_31":
            return self._once("31", self._makes_31) == value
        if name == "discard_completes_meld":
            return self._once("meld", self._completes_meld) == value
        if name == "someone_knocked":
            return (view["knocker"] is not None) == value
        if name == "lives_at_least":
            me = view["players"][view["viewer"]]
            return me["tokens"] + (1 if view["options"]["on_the_county"] and me["in_game"] else 0) >= value
        if name == "points_at_least":
            return view["players"][view["viewer"]]["score"] >= value
        return False  # validated orders hold no other names

    def _hand_worth(self) -> float:
        if self.kind == "scat":
            return self.view["hand_value"]
        from .scattle_bots import _best_plan

        return _best_plan(self.view["hand"], self.view["options"], {})[0]

    def _scat_take_value(self) -> float | None:
        """The best hand kept after taking the top discard (it must stay), or None when not allowed."""
        if "draw_discard" not in self.types:
            return None
        from .scat import _value

        top, options = self.view["discard_top"], self.view["options"]
        return max(_value([top, *pair], options) for pair in combinations(self.view["hand"], 2))

    def _makes_31(self) -> bool:
        if "draw_discard" not in self.types:
            return False
        from .scat import _best_suit

        top = self.view["discard_top"]
        return any(_best_suit([top, *pair]) == 31 for pair in combinations(self.view["hand"], 2))

    def _completes_meld(self) -> bool:
        if "draw_discard" not in self.types:
            return False
        from .scattle import _find_melds

        top = self.view["discard_top"]
        return any(top in meld for meld in _find_melds([*self.view["hand"], top], self.view["options"]))

    # actions

    def action(self, do: dict[str, Any]) -> Action | None:
        if "policy" in do:
            return getattr(self, f"_policy_{do['policy']}")()
        if do["type"] == "meld":
            wanted = sorted(do["cards"])
            return next((a for a in self.legal if a["type"] == "meld" and sorted(a["cards"]) == wanted), None)
        return next((a for a in self.legal if a == do), None)

    def _policy_best_discard(self) -> Action | None:
        if "discard" not in self.types:
            return None
        view = self.view
        if self.kind == "scat":
            from .scat_bots import _best_keep

            _, card = _best_keep(view["hand"], view["options"], must_keep=view["taken_from_discard"])
            return {"type": "discard", "card": card}
        from .scattle_bots import _keep_worth, _live_counts

        live = _live_counts(view)
        memo: dict[str, float] = {}
        discards = [a for a in self.legal if a["type"] == "discard"]
        return max(
            discards,
            key=lambda a: (_keep_worth(view["hand"], a["card"], live, view["options"], memo), rank_number(a["card"])),
        )

    def _policy_lay_all_melds(self) -> Action | None:
        melds = [a for a in self.legal if a["type"] == "meld"]
        if not melds:
            return None
        from .scattle_bots import _best_plan, _meld_points, _without

        hand, options = self.view["hand"], self.view["options"]
        memo: dict[tuple[str, ...], tuple[int, int]] = {}

        def plan(action: Action) -> tuple[int, int]:
            points, used = _best_plan(_without(hand, action["cards"]), options, memo)
            return points + _meld_points(action["cards"], options), used + len(action["cards"])

        return max(melds, key=plan)

    def _policy_good(self) -> Action | None:
        view = self.view
        # The good bot breaks ties at random: seeded by the view's own cards, the choice is a
        # function of the view.
        rng = random.Random("orders/" + ",".join(view["hand"]) + "/" + ",".join(view["discard_pile"]))
        if self.kind == "scat":
            from .scat_bots import _good

            return _good(view, self.legal, rng)
        from .scattle_bots import _choose_draw, _choose_play

        if view["phase"] == "draw":
            return _choose_draw(view, self.legal)
        return _choose_play(view, self.legal, rng)
