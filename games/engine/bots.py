"""Computer players. A bot sees only what its seat may see: the view and the legal actions (and, for
the expert, the seat's own view of the events so far)."""

from __future__ import annotations

import random

from .base import Action, Event, State
from .errors import IllegalAction

BOT_LEVELS = ("random", "good", "expert")

# The expert's playouts per decision, shared among the legal actions (so a choice between two
# actions gets many more deals each than one among eight). Scat's budget is for two players still
# in; its playouts grow with the table, so it shrinks in proportion with more. Scat uses it only
# when EXPERT_TURNS is None (or `samples` is given, then per action).
EXPERT_PLAYOUTS = {"scat": 960, "scattle": 448}
# Deals per action at least and at most, whatever the share (Scat's most also caps a turn budget).
EXPERT_SAMPLES_RANGE = {"scat": (24, 2000), "scattle": (16, 140)}
# Scat: the turns the playouts of one decision may play in all (all actions together; dealing the
# opponents' hands counts too), so that a decision costs about the same whatever the table and the
# hand: the most that keeps a decision within 100 ms on one core (bench/advisor.py measures the
# CPU time of every decision in a few games; with 14,000 the largest of 363 four-seat ones took
# 110 ms). More deals win more: on the same 200 two-seat games, 66.0% with 960 playouts, 70.0%
# with 1,920 (about what this budget buys at two seats).
EXPERT_TURNS: int | None = 12500
# The expert keeps the good bot's choice unless another action beats it, on the same deals, by more
# than a margin (Scat: win chance; Scattle: points, own minus the opponents' mean) and by more than
# a number of standard errors of the paired differences. Scat's deals are many enough for a low
# bar; Scattle's few deals need a high one.
_MARGIN = {"scat": 0.0, "scattle": 0.25}
_EXPERT_Z = {"scat": 0.5, "scattle": 1.5}
# The Scattle expert's other decisions (draw, meld, lay-off) go by the playouts only with at most so
# many players still in; with more it plays the good bot's choice there. Measured with the discard
# above, on the same games: two seats, 57.8% wins with the playouts, 54.0% without (600 games);
# four seats, 23.7% with, 29.3% without (300 games): over three opponents' turns the short playouts
# by the fast policy mislead more than they tell. At four seats no choice of moves found so far does
# better than the good bot's (bench/scattle_four_seats.py shows how little even this turn's cards known
# in advance would buy there).
SCATTLE_PLAYOUTS_UP_TO = 2


def expert_samples(kind: str, actions: int, live: int = 2) -> int:
    """Deals per action for the expert with `actions` legal actions and `live` players still in."""
    budget = EXPERT_PLAYOUTS[kind]
    if kind == "scat":
        budget = budget * 2 // max(2, live)
    low, high = EXPERT_SAMPLES_RANGE[kind]
    return max(low, min(high, budget // max(1, actions)))


def _rules_and_chooser(kind: str):
    if kind == "scat":
        from .scat import RULES
        from .scat_bots import choose
    elif kind == "scattle":
        from .scattle import RULES
        from .scattle_bots import choose
    else:
        raise IllegalAction("bad_kind", f"Unknown game kind {kind!r}.")
    return RULES, choose


def choose_action(
    kind: str,
    state: State,
    seat: int,
    level: str,
    rng: random.Random,
    history: list[Event] | None = None,
    samples: int | None = None,
) -> Action:
    """The action a bot of `level` plays for `seat` now.

    The expert also reads `history`, the seat's view of the game's events so far
    (``RULES.view_events(events, seat)``), and needs it: the state keeps no log, and without the
    history it would know only what the view shows (not which discards the others took, nor how often
    they drew), a much weaker player. `samples` overrides its deals per action."""
    if level not in BOT_LEVELS:
        raise IllegalAction("bad_bot_level", f"Unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}.")
    rules, choose = _rules_and_chooser(kind)
    if level != "expert":
        return choose(state, seat, level, rng)
    check_history(kind, state, history)
    return _expert(kind, rules, choose, state, seat, rng, history, samples)


def check_history(kind: str, state: State, history: list[Event] | None) -> None:
    """Refuse to play the expert without the seat's history, or (Scat) with one whose latest deal is not
    the hand in play's: a history that stops hands ago reasons from the wrong cards."""
    if not isinstance(history, list):
        raise IllegalAction(
            "history_required",
            "The expert bot needs the seat's history: choose_action(..., history=RULES.view_events(events, seat)) "
            "with every event of the game so far.",
        )
    if kind != "scat":
        return
    deals = [event for event in history if isinstance(event, dict) and event.get("type") == "deal"]
    if deals and deals[-1].get("hand_no", state["hand_no"]) != state["hand_no"]:
        raise IllegalAction(
            "history_required",
            f"The history given to the expert bot ends in hand {deals[-1].get('hand_no')}; "
            f"hand {state['hand_no']} is in play.",
        )


def _expert(kind, rules, choose, state, seat, rng, history, samples) -> Action:
    """Flat Monte Carlo: every legal action is tried on the same random deals of the unseen cards and
    played out by the good bot's rules (Scat) or a fast policy (Scattle); the good bot's choice stands
    unless another action is clearly better on those deals (Scat: a better chance to win the game
    with the lives the hand leaves; Scattle: more points over the next turns, less the opponents').
    Scattle's discards instead weigh the hand kept against what the card gives the next player
    (games/engine/expert_scattle.py). Flat rather than ISMCTS: a Scat playout is one hand, and the
    budget buys more from more deals at the root than from a tree over few."""
    from .advisor import playout_table

    legal = rules.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("not_your_turn", "The bot has no move: it is not this seat's turn.")
    good = choose(state, seat, "good", rng)
    if len(legal) == 1:
        return legal[0]
    view = rules.view(state, seat)
    if kind == "scattle" and good["type"] == "discard":
        # The hand kept, less what the card gives the next player (the playouts' horizon is too short).
        from .expert_scattle import choose_discard

        return choose_discard(view, history, legal, rng) or good
    if kind == "scattle" and sum(1 for p in view["players"] if p["in_game"]) > SCATTLE_PLAYOUTS_UP_TO:
        return good
    max_turns = None
    if samples is None and kind == "scat" and EXPERT_TURNS is not None:
        # Deals until the playouts have played the budget of turns: the same cost whatever the table.
        samples, max_turns = EXPERT_SAMPLES_RANGE["scat"][1], EXPERT_TURNS
    elif samples is None:
        live = sum(1 for p in view["players"] if p["in_game"])
        samples = expert_samples(kind, len(legal), live)
    actions, merits = playout_table(kind, view, history, rng, samples, max_turns)
    keys = [_key(a) for a in actions]
    if _key(good) not in keys:
        return max(zip(actions, merits, strict=True), key=lambda pair: sum(pair[1]))[0]
    base = merits[keys.index(_key(good))]
    margin, z = _MARGIN[kind], _EXPERT_Z[kind]
    n = len(base)
    best, best_gain = good, 0.0
    for action, row in zip(actions, merits, strict=True):
        diffs = [x - y for x, y in zip(row, base, strict=True)]
        gain = sum(diffs) / n
        if gain <= margin or gain <= best_gain:
            continue
        spread = (sum((d - gain) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
        if gain * n**0.5 > z * spread:
            best, best_gain = action, gain
    return best


def _key(action: Action) -> str:
    return repr(sorted(action.items()))
