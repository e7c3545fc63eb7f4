"""A simulation advisor over the cards a seat has not seen, pure like the rest of the engine.

``advise(kind, view, history, rng, samples=...)`` reads one seat's view (``RULES.view(state, seat)``)
and that seat's view of the events so far (``RULES.view_events(events, seat)``), never the state.
It deals the unseen cards at random in ways consistent with what the seat has seen (a
"determinization"), applies each legal action to every such deal and plays the rest out with a fast
policy. Every action is tried on the same deals (common random numbers), so the differences between
actions are much less noisy than the figures themselves.

Scat: the estimate is ``loss_chance``, the probability that the seat loses at least one life in this
hand (for ``knock``, that the knocker loses), with the hand played to its end by the policy below.
Scattle: ``expected_points``, the points the seat scores from now to the end of its next
``SCATTLE_HORIZON - 1`` turns (the current one included), with ``opponent_points`` the mean gain of
the other players in the same span.

Sampling assumptions:

- Known cards: a card an opponent took from the discard pile during this hand (Scattle: this game)
  and has not since discarded or melded is in that opponent's hand. The seat's own hand, the discard
  pile and (Scattle) every meld on the table are known too. Nothing else is known.
- Scat: an opponent's unknown cards are the best it could keep, by the good bot's rules, beside its
  known cards from its three dealt cards and one more random card per stock draw this hand (up to
  ``_SCAT_DRAWS_MODELLED``): a player who has drawn five times holds a better hand than three random
  cards. Opponents are taken to play like the good bot, and their latest turn weighs the deal
  (``_last_turn_weight``; a hand that fits it less is dealt again, up to ``_OPPONENT_TRIES`` times):
  the card it threw is the one the good bot would throw from its four, the hand it held before did
  not reach its knock threshold (unless it could not knock), and it chose the draw the good bot
  would. A knocker holds at least the hand the good bot knocks with (up to ``_KNOCKER_TRIES``).
  Against good bots these never rule out the hand really held (tests/engine/test_advisor.py).
  Scattle: every other card is equally likely to be anywhere unseen (the expert's discard adds its
  own weighing: games/engine/expert_scattle.py).
- After a stock rebuild the stock holds only cards of the rebuilt pile that the seat has not seen
  leave it since; the rest of that pile is with the other hands. The stock order is always taken as
  random, also with ``stock_rebuild_order`` ``turn_over`` (a Scat playout draws a random card of the
  stock each time rather than shuffling it).
- Scat's rare replayed hand (a showdown that would put everybody out, non-default tie rules) counts
  as a loss for the seat if the showdown says so.

The playout policies:

- Scat: the good bot's own rules (games/engine/scat_bots.py) for every seat, the viewer's later turns
  included: knock at its thresholds; take the discard when it is worth at least the stock's
  expectation (the mean best hand after a card that seat has not seen: not in its hand nor in the
  pile), else draw from the stock; discard the card whose loss keeps the best hand (ties: throw the
  lowest card); with ``allow_stand_after_knock``, stand unless a draw promises more.
- Scattle (simple, so that a decision can afford many deals): take the discard when it completes a
  meld; lay the meld worth the most; lay off when that gains points; discard the card with the
  fewest partners in the hand (ties: the highest rank).

``review_turn`` turns the same figures into a post-game review: the best action and what the action
taken cost.

The expert bot (games/engine/bots.py) reads ``playout_table``: for Scat its merit is not the lives
lost in the hand but the seat's chance to win the game with the lives every player has left after
it (``_win_chance``: each later hand costs one life to one player still in, all equally likely), so
that an opponent's failed knock, who goes out, and the seat's own last life count as the game says.
A Scat decision deals until its playouts have played ``bots.EXPERT_TURNS`` turns in all (its time
then has a bound, whatever the table).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Any

from .base import Action, Event, State
from .cards import DECK, new_deck
from .errors import IllegalAction

DEFAULT_SAMPLES = {"scat": 200, "scattle": 24}
# How many of an opponent's stock draws this hand the Scat sampler lets it improve with.
_SCAT_DRAWS_MODELLED = 8
# The random cards an opponent is taken to have seen before its stock draws: its three dealt cards.
_SCAT_LOOKS = 3
SCATTLE_HORIZON = 2
# The expert's Scat merit: "game", the win chance the lives left after the hand give; "hand", minus
# the lives the seat loses this hand.
SCAT_MERIT = "game"
# Whether a Scat opponent who knocked is dealt only hands it would knock with, and how many deals
# are tried for that.
KNOCKER_INFERENCE = True
_KNOCKER_TRIES = 40
# Whether an opponent's latest turn weighs the deals (see _last_turn_weight), and the tries per hand.
OPPONENT_INFERENCE = True
# Whether that includes its choice between the discard pile and the stock.
DRAW_INFERENCE = True
_OPPONENT_TRIES = 8
# The fewest deals a Scat decision with a turn budget plays.
_MIN_DEALS = 24
# The good bot's knock thresholds by players still in (games/engine/scat_bots.py).
_KNOCK_BASE = {2: 24, 3: 23, 4: 22, 5: 21}
_KNOCK_BASE_MANY = 21

_INDEX = {card: i for i, card in enumerate(DECK)}  # suit * 13 + rank index
_CARD_VALUE = [11 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0]) for c in DECK]


# --- public API ---------------------------------------------------------------------------------


def advise(
    kind: str, view: dict[str, Any], history: list[Event], rng: random.Random, samples: int | None = None
) -> list[dict[str, Any]]:
    """One entry per legal action of the viewing seat, in the engine's order: ``{"action": ...,
    "loss_chance": p}`` for Scat, ``{"action": ..., "expected_points": x, "opponent_points": y}`` for
    Scattle. ``samples`` deals per action (default ``DEFAULT_SAMPLES[kind]``). Deterministic for a
    given ``rng`` state. Empty when it is not the viewer's turn."""
    if kind not in DEFAULT_SAMPLES:
        raise IllegalAction("bad_kind", f"Unknown game kind {kind!r}.")
    samples = DEFAULT_SAMPLES[kind] if samples is None else max(1, int(samples))
    viewer = view.get("viewer")
    if viewer is None or view.get("to_act") != viewer or view.get("outcome") is not None:
        return []
    if kind == "scat":
        return _advise_scat(view, history, rng, samples)
    return _advise_scattle(view, history, rng, samples)


def review_turn(
    kind: str,
    view: dict[str, Any],
    history: list[Event],
    taken: Action,
    rng: random.Random,
    samples: int | None = None,
) -> dict[str, Any]:
    """For a post-game review: ``{"best": action, "taken": action, "cost": c, "advice": [...]}``,
    where ``cost`` is how much worse the action taken was than the best one (Scat: loss chance
    points, 0..1; Scattle: expected points plus the opponents' points saved), 0 when it was the best.
    ``view`` and ``history`` are the seat's as they were before it acted."""
    advice = advise(kind, view, history, rng, samples)
    if not advice:
        raise IllegalAction("not_your_turn", "There is no decision to review: it was not this seat's turn.")
    scores = [_merit(kind, entry) for entry in advice]
    best = max(range(len(advice)), key=scores.__getitem__)
    mine = next((i for i, entry in enumerate(advice) if entry["action"] == taken), None)
    if mine is None:
        raise IllegalAction("illegal_action", f"{taken!r} was not a legal action at that moment.")
    return {
        "best": advice[best]["action"],
        "taken": taken,
        "cost": round(scores[best] - scores[mine], 6),
        "advice": advice,
    }


def best_action(kind: str, advice: list[dict[str, Any]]) -> Action:
    """The action the advice rates best (the first of equals)."""
    return max(advice, key=lambda entry: _merit(kind, entry))["action"]


def _merit(kind: str, entry: dict[str, Any]) -> float:
    if kind == "scat":
        return -entry["loss_chance"]
    return entry["expected_points"] - entry["opponent_points"]


# --- reading the seat's history -------------------------------------------------------------------


def _since_last_deal(history: list[Event]) -> list[Event]:
    """The events of the hand in play (Scat): those after the latest deal."""
    for index in range(len(history) - 1, -1, -1):
        if history[index].get("type") == "deal":
            return history[index:]
    return []


class _Knowledge:
    """What the seat's history says beyond the view: cards opponents hold for sure, and (after a
    stock rebuild) which cards the stock may hold."""

    def __init__(self, num_seats: int) -> None:
        self.known: list[Counter[str]] = [Counter() for _ in range(num_seats)]
        self.stock_draws = [0] * num_seats
        self.rebuilt: Counter[str] | None = None

    def replay(self, events: list[Event], viewer: int) -> None:
        pile: list[str] = []
        for event in events:
            kind = event.get("type")
            seat = event.get("seat")
            if kind == "deal":
                pile = [event["up_card"]]
                self.known = [Counter() for _ in self.known]
                self.stock_draws = [0] * len(self.known)
                self.rebuilt = None
            elif kind == "draw_discard":
                if pile:
                    pile.pop()
                if seat != viewer:
                    self.known[seat][event["card"]] += 1
            elif kind == "draw_stock":
                self.stock_draws[seat] += 1
                if seat == viewer and self.rebuilt is not None and self.rebuilt[event["card"]] > 0:
                    self.rebuilt[event["card"]] -= 1
            elif kind == "refill":
                if seat == viewer and self.rebuilt is not None:
                    self.rebuilt.subtract(c for c in event["cards"] or () if self.rebuilt[c] > 0)
            elif kind == "discard":
                pile.append(event["card"])
                self._forget(seat, [event["card"]])
            elif kind in ("meld", "lay_off"):
                self._forget(seat, event["cards"] if kind == "meld" else [event["card"]])
            elif kind == "stock_rebuilt":
                self.rebuilt = Counter(pile[:-1])
                pile = pile[-1:]
            elif kind == "resigned":
                back = event.get("returned_to_discard")
                if back:
                    pile.append(back)
                self.known[seat] = Counter()

    def _forget(self, seat: int, cards: list[str]) -> None:
        known = self.known[seat]
        for card in cards:
            if known[card] > 0:
                known[card] -= 1


def _unseen_split(
    deck: list[str], visible: Counter[str], knowledge: _Knowledge, stock_count: int
) -> tuple[list[str], list[str]]:
    """(cards the stock must come from, the other unseen cards), each in deck order so that a
    given rng gives a given deal."""
    unseen = Counter(deck)
    unseen.subtract(visible)
    unseen = +unseen
    if knowledge.rebuilt is not None:
        candidates = +(knowledge.rebuilt & unseen)
        if sum(candidates.values()) >= stock_count:
            rest = unseen - candidates
            return list(candidates.elements()), list(rest.elements())
    return [], list(unseen.elements())


def _deal_unseen(
    rng: random.Random,
    stock_pool: list[str],
    other_pool: list[str],
    stock_count: int,
    slots: list[int],
) -> tuple[list[str], list[list[str]]]:
    """A random stock and the cards for each hand's unknown slots (the rest is out of play)."""
    if stock_pool:
        stock_pool = list(stock_pool)
        rng.shuffle(stock_pool)
        stock = stock_pool[:stock_count]
        rest = stock_pool[stock_count:] + other_pool
        rng.shuffle(rest)
    else:
        rest = list(other_pool)
        rng.shuffle(rest)
        stock = rest[:stock_count]
        rest = rest[stock_count:]
    hands = []
    at = 0
    for count in slots:
        hands.append(rest[at : at + count])
        at += count
    return stock, hands


# --- Scat ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _scat_values(trips: float | None, flush: float | None, ace_low: bool) -> tuple[float, ...]:
    """Hand value of every ordered triple of card indexes, flat (a * 2704 + b * 52 + c)."""
    from .scat import _value

    options = {"three_of_a_kind_value": trips, "straight_flush_value": flush, "straight_flush_ace_low": ace_low}
    table = [0.0] * (52 * 52 * 52)
    for a, b, c in combinations(range(52), 3):
        value = _value([DECK[a], DECK[b], DECK[c]], options)
        for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
            table[x * 2704 + y * 52 + z] = value
    return tuple(table)


class _ScatRules:
    """The options a playout needs, read once per decision."""

    def __init__(self, options: dict[str, Any], last_life: list[bool], live_count: int) -> None:
        self.values = _scat_values(
            options.get("three_of_a_kind_value"),
            options.get("straight_flush_value"),
            bool(options.get("straight_flush_ace_low")),
        )
        self.tie_rule = options["knocker_tie_rule"]
        self.sole_loss = options["knocker_sole_lowest_loss"]
        self.thirty_one_loss = options["thirty_one_knocker_loss"]
        self.min_knock = options["min_knock_score"]
        self.knock_first_round = options["knock_allowed_first_round"]
        self.allow_stand = options["allow_stand_after_knock"]
        self.throw_down = options["throw_down"]
        self.void_when_empty = options["stock_exhausted"] == "void_hand"
        self.max_rounds = options.get("max_rounds_per_hand")
        base = float(_KNOCK_BASE.get(live_count, _KNOCK_BASE_MANY))
        self.knock_at = [base + (1 if last else 0) for last in last_life]
        self.no_loss = (0,) * len(last_life)
        self.simple_knock = self.knock_first_round and self.min_knock is None
        self.steps = 0  # turns played by the playouts so far (the cost of a decision)


def _value3(values: tuple[float, ...], hand: list[int]) -> float:
    return values[hand[0] * 2704 + hand[1] * 52 + hand[2]]


def _best_discard(values: tuple[float, ...], hand: list[int], keep: int) -> int:
    """Index in the 4-card `hand` of the card to throw: the best value kept, then the lowest card thrown."""
    w, x, y, z = hand
    best_score = -1.0
    best = 0
    for out, card, kept in (
        (0, w, x * 2704 + y * 52 + z),
        (1, x, w * 2704 + y * 52 + z),
        (2, y, w * 2704 + x * 52 + z),
        (3, z, w * 2704 + x * 52 + y),
    ):
        if card == keep:
            continue
        score = values[kept] * 16 - _CARD_VALUE[card] / 16
        if score > best_score:
            best_score, best = score, out
    return best


def _take_value(values: tuple[float, ...], hand: list[int], top: int) -> float:
    a, b, c = hand
    t = top * 2704
    return max(values[t + a * 52 + b], values[t + a * 52 + c], values[t + b * 52 + c])


class _ScatDeal:
    """A determinized Scat hand: plain lists of card indexes, changed in place by a playout."""

    __slots__ = ("active", "discard", "hands", "knocker", "live", "stock", "taken", "turns")

    def __init__(self, hands, stock, discard, live, active, knocker, turns, taken) -> None:
        self.hands = hands
        self.stock = stock
        self.discard = discard
        self.live = live
        self.active = active
        self.knocker = knocker
        self.turns = turns
        self.taken = taken

    def copy(self) -> _ScatDeal:
        return _ScatDeal(
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.discard),
            self.live,
            self.active,
            self.knocker,
            list(self.turns),
            self.taken,
        )


def _scat_showdown_loses(deal: _ScatDeal, rules: _ScatRules, no_knock: bool) -> tuple[int, ...]:
    """The lives every seat loses at this showdown (rules A8, A10b)."""
    values = rules.values
    n = len(deal.live)
    live = [s for s in range(n) if deal.live[s]]
    value_of = [_value3(values, deal.hands[s]) if deal.live[s] else 99.0 for s in range(n)]
    lowest = min(value_of)
    losers = [s for s in live if value_of[s] == lowest]
    losses = [0] * n
    knocker = deal.knocker
    if no_knock:
        if len(losers) < len(live):
            for s in losers:
                losses[s] = 1
    elif knocker in losers and len(losers) == 1:
        losses[knocker] = rules.sole_loss
    elif rules.tie_rule == "all_tied_lose_one" and len(losers) == len(live):
        pass
    elif knocker in losers and rules.tie_rule == "knocker_safe":
        for s in losers:
            losses[s] = 0 if s == knocker else 1
    elif knocker in losers and rules.tie_rule == "knocker_loses_two_others_one":
        for s in losers:
            losses[s] = 2 if s == knocker else 1
    else:
        for s in losers:
            losses[s] = 1
    return tuple(losses)


def _scat_may_knock(deal: _ScatDeal, rules: _ScatRules, seat: int, value: float) -> bool:
    if deal.knocker is not None:
        return False
    if not rules.knock_first_round and any(deal.turns[s] == 0 for s in range(len(deal.live)) if deal.live[s]):
        return False
    return rules.min_knock is None or value >= rules.min_knock


class _Stream:
    """Random numbers from `source`, kept so that they can be read again from the start: every action
    of a deal sees the same stock draws (cheaper than seeding a generator for each)."""

    __slots__ = ("at", "source", "values")

    def __init__(self, source: random.Random) -> None:
        self.source = source
        self.values: list[float] = []
        self.at = 0

    def random(self) -> float:
        at = self.at
        self.at = at + 1
        if at == len(self.values):
            self.values.append(self.source.random())
        return self.values[at]


def _scat_draw_stock(deal: _ScatDeal, rng: random.Random | _Stream) -> int:
    stock = deal.stock
    if not stock:
        stock = deal.stock = deal.discard[:-1]
        deal.discard = deal.discard[-1:]
    # The stock is kept in no order: each draw takes a random one of its cards (cheaper than
    # shuffling it for every deal).
    i = int(rng.random() * len(stock))
    stock[i], stock[-1] = stock[-1], stock[i]
    return stock.pop()


def _pick(cards: list[int], start: int, count: int, rng: random.Random) -> None:
    """Put a random choice of the cards from `start` on in the `count` places from `start` (a partial
    shuffle: only the places used need to be random)."""
    size = len(cards)
    for i in range(start, min(size, start + count)):
        j = i + int(rng.random() * (size - i))
        cards[i], cards[j] = cards[j], cards[i]


# Results of one step of a playout: the hand goes on (None), or it ended with these lives lost by seat.
def _scat_pass(deal: _ScatDeal, rules: _ScatRules, seat: int) -> tuple[int, ...] | None:
    """The turn passes clockwise (A7-end); passing the knocker ends the hand in a showdown."""
    deal.turns[seat] += 1
    n = len(deal.live)
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if nxt == deal.knocker:
            return _scat_showdown_loses(deal, rules, no_knock=False)
        if deal.live[nxt]:
            if (
                rules.max_rounds is not None
                and deal.knocker is None
                and deal.turns[seat] >= rules.max_rounds
                and min(deal.turns[s] for s in range(n) if deal.live[s]) >= rules.max_rounds
            ):
                return _scat_showdown_loses(deal, rules, no_knock=True)
            deal.active = nxt
            if not deal.stock and deal.knocker is None and rules.void_when_empty:
                return rules.no_loss  # the hand is void: nobody loses
            return None
    raise AssertionError("no player left to take the turn")


def _scat_discard(deal: _ScatDeal, rules: _ScatRules, seat: int, card: int) -> tuple[int, ...] | None:
    hand = deal.hands[seat]
    hand.remove(card)
    deal.discard.append(card)
    deal.taken = -1
    if _value3(rules.values, hand) == 31:
        return _scat_thirty_one(deal, rules, seat)
    return _scat_pass(deal, rules, seat)


def _scat_thirty_one(deal: _ScatDeal, rules: _ScatRules, seat: int) -> tuple[int, ...]:
    """A 31 ends the hand: everybody else loses."""
    return tuple(
        0 if s == seat or not deal.live[s] else rules.thirty_one_loss if s == deal.knocker else 1
        for s in range(len(deal.live))
    )


def _scat_policy_discard(deal: _ScatDeal, rules: _ScatRules, seat: int) -> tuple[int, ...] | None:
    hand = deal.hands[seat]
    return _scat_discard(deal, rules, seat, hand[_best_discard(rules.values, hand, deal.taken)])


def _scat_apply(deal: _ScatDeal, rules: _ScatRules, action: Action, rng: _Stream) -> tuple[int, ...] | None:
    """The viewer's own action (the first step of a playout)."""
    seat = deal.active
    kind = action["type"]
    if kind == "discard":
        return _scat_discard(deal, rules, seat, _INDEX[action["card"]])
    if kind == "draw_stock":
        deal.hands[seat].append(_scat_draw_stock(deal, rng))
        return _scat_policy_discard(deal, rules, seat)
    if kind == "draw_discard":
        card = deal.discard.pop()
        deal.hands[seat].append(card)
        deal.taken = card
        return _scat_policy_discard(deal, rules, seat)
    if kind == "knock":
        deal.knocker = seat
        return _scat_pass(deal, rules, seat)
    if kind == "throw_down":
        deal.knocker = seat
        return _scat_showdown_loses(deal, rules, no_knock=False)
    return _scat_pass(deal, rules, seat)  # stand


# By the id of a values table (those live in _scat_values' cache): hand bits -> _keep_row's result.
_KEEP_TABLES: dict[int, dict[int, tuple[list[float], float]]] = {}


def _keep_row(values: tuple[float, ...], hand: list[int]) -> tuple[list[float], float]:
    """For a 3-card hand: the best value kept after drawing each card (by index; the hand's own
    cards count 0), and the sum of those over the 49 cards not in the hand. Cached by hand."""
    table = _KEEP_TABLES.get(id(values))
    if table is None:
        table = _KEEP_TABLES[id(values)] = {}
    a, b, c = hand
    key = (1 << a) | (1 << b) | (1 << c)
    row = table.get(key)
    if row is None:
        now = values[a * 2704 + b * 52 + c]
        ab, ac, bc = a * 52 + b, a * 52 + c, b * 52 + c
        best = [0.0] * 52
        for card in range(52):
            if card != a and card != b and card != c:
                t = card * 2704
                best[card] = max(now, values[t + ab], values[t + ac], values[t + bc])
        row = table[key] = (best, sum(best))
    return row


def _stock_expectation(values: tuple[float, ...], hand: list[int], pile: list[int] | tuple[int, ...]) -> float:
    """The good bot's stock expectation: the mean best hand after drawing a card it has not seen
    (neither in its hand nor in the discard pile)."""
    best, total = _keep_row(values, hand)
    count = 49
    for card in pile:
        total -= best[card]
        count -= 1
    if count <= 0:
        return _value3(values, hand)
    return total / count


def _scat_policy_turn(deal: _ScatDeal, rules: _ScatRules, rng: _Stream) -> tuple[int, ...] | None:
    """One turn by the good bot's rules (games/engine/scat_bots.py), for every seat. Written out flat:
    most of a decision's time is spent here."""
    seat = deal.active
    hand = deal.hands[seat]
    values = rules.values
    a, b, c = hand
    ab, ac, bc = a * 52 + b, a * 52 + c, b * 52 + c
    value = values[a * 2704 + bc]
    turns = deal.turns[seat]
    if (
        deal.knocker is None
        and value >= rules.knock_at[seat] + (turns if turns < 4 else 4) * 0.5
        and (rules.simple_knock or _scat_may_knock(deal, rules, seat, value))
    ):
        deal.knocker = seat
        if rules.throw_down:
            return _scat_showdown_loses(deal, rules, no_knock=False)
        return _scat_pass(deal, rules, seat)
    discard = deal.discard
    can_stock = bool(deal.stock) or (not rules.void_when_empty and len(discard) >= 2)
    take = stock = None
    if discard:
        t = discard[-1] * 2704
        take = max(values[t + ab], values[t + ac], values[t + bc])
    if can_stock:
        # The good bot's stock expectation: the mean best hand after a card it has not seen.
        best, total = _keep_row(values, hand)
        count = 49 - len(discard)
        if count > 0:
            for card in discard:
                total -= best[card]
            stock = total / count
        else:
            stock = value
    if rules.allow_stand and deal.knocker is not None:
        draws = [v for v in (take, stock) if v is not None]
        if not draws or value >= max(draws):
            return _scat_pass(deal, rules, seat)
    if take is not None and (stock is None or take >= stock):
        card = discard.pop()
        hand.append(card)
        deal.taken = card
    elif can_stock:
        hand.append(_scat_draw_stock(deal, rng))
    else:
        # Neither draw is possible (void_hand after a knock with no discard): stand or knock.
        if deal.knocker is None:
            deal.knocker = seat
        return _scat_pass(deal, rules, seat)
    card = hand[_best_discard(values, hand, deal.taken)]
    hand.remove(card)
    discard.append(card)
    deal.taken = -1
    if _value3(values, hand) == 31:
        return _scat_thirty_one(deal, rules, seat)
    return _scat_pass(deal, rules, seat)


def _scat_playout(deal: _ScatDeal, rules: _ScatRules, action: Action, rng: _Stream) -> tuple[int, ...]:
    """The lives every seat loses this hand after the viewer's `action`, the rest played by the policy."""
    result = _scat_apply(deal, rules, action, rng)
    steps = 2  # the copy of the deal and the viewer's own action cost about two turns
    while result is None:
        result = _scat_policy_turn(deal, rules, rng)
        steps += 1
        if steps > 5000:
            result = rules.no_loss  # no round limit and nobody knocks: call it a draw
    rules.steps += steps
    return result


def _scat_determinizer(view: dict[str, Any], history: list[Event], work: list[int] | None = None):
    """A function rng -> _ScatDeal: one random deal of the unseen cards consistent with the view.
    `work[0]` counts its cost: the hands it dealt to opponents (deals it rejected included), in
    playout turns."""
    work = [0] if work is None else work
    viewer = view["viewer"]
    players = view["players"]
    n = view["num_seats"]
    knowledge = _Knowledge(n)
    knowledge.replay(_since_last_deal(history), viewer)
    hand = list(view["hand"])
    pile = list(view["discard_pile"])
    visible = Counter(hand) + Counter(pile)
    for seat in range(n):
        if seat == viewer or not players[seat]["in_game"]:
            knowledge.known[seat] = Counter()
        visible += knowledge.known[seat]
    stock_pool, other_pool = _unseen_split(list(DECK), visible, knowledge, view["stock_count"])
    others = [s for s in range(n) if s != viewer and players[s]["in_game"]]
    known = {s: list(knowledge.known[s].elements()) for s in others}
    slots = [max(0, players[s]["cards_held"] - len(known[s])) for s in others]
    live = tuple(p["in_game"] for p in players)
    turns = [p["turns_taken"] for p in players]
    taken = view["taken_from_discard"]
    hand_ix = [_INDEX[c] for c in hand]
    pile_ix = [_INDEX[c] for c in pile]
    known_ix = {s: [_INDEX[c] for c in known[s]] for s in others}
    stock_pool_ix = [_INDEX[c] for c in stock_pool]
    other_pool_ix = [_INDEX[c] for c in other_pool]

    values = _scat_values(
        view["options"].get("three_of_a_kind_value"),
        view["options"].get("straight_flush_value"),
        bool(view["options"].get("straight_flush_ace_low")),
    )
    # An opponent has seen its three dealt cards and one more random card per stock draw this hand:
    # its unknown cards are the best it could keep from that many random cards together with the
    # cards known to be in its hand (capped: later draws add little).
    draws = {s: min(_SCAT_DRAWS_MODELLED, knowledge.stock_draws[s]) for s in others}
    wide = [_SCAT_LOOKS + draws[s] if slots[i] else 0 for i, s in enumerate(others)]

    stock_count = view["stock_count"]
    room = len(other_pool_ix) + (len(stock_pool_ix) - stock_count if stock_pool_ix else 0)
    while sum(wide) > room and any(w > c for w, c in zip(wide, slots, strict=True)):
        i = max(range(len(wide)), key=lambda j: wide[j] - slots[j])
        wide[i] -= 1

    # A knocker keeps its hand to the showdown, and knocked because that hand looked strong: it is
    # taken to hold at least what the good bot knocks with (deals below that are dealt again, up to
    # a limit, then the last one stands).
    knocker = view["knocker"]
    floor = None
    if knocker is not None and knocker != viewer and players[knocker]["in_game"] and KNOCKER_INFERENCE:
        i = others.index(knocker)
        if slots[i]:
            live_count = sum(1 for p in players if p["in_game"])
            floor = (i, _knock_threshold(live_count, turns[knocker] - 1, _scat_last_life(view)[knocker]))

    # An opponent's latest turn (what it took, what it threw) says something about the hand it holds:
    # the good bot would have thrown that card from those four, and would not have knocked with the
    # hand it had before. Deals that contradict it are dealt again (see _last_turn_weight).
    last_life = _scat_last_life(view)
    live_count = sum(1 for p in players if p["in_game"])
    latest = _latest_turns(_since_last_deal(history)) if OPPONENT_INFERENCE else {}
    checks: dict[int, tuple[int, int, int, tuple[int, ...], float | None]] = {}
    for s, (took, threw, top, was, late) in latest.items():
        if s in others and slots[others.index(s)] and s != view["knocker"]:
            could_knock = not late and (view["options"]["knock_allowed_first_round"] or turns[s] > 1)
            thr = _knock_threshold(live_count, turns[s] - 1, last_life[s]) if could_knock else None
            checks[s] = (took, threw, top if DRAW_INFERENCE else -1, was, thr)

    def determinize(rng: random.Random) -> _ScatDeal:
        if stock_pool_ix:
            stock = list(stock_pool_ix)
            _pick(stock, 0, stock_count, rng)
            rest = stock[stock_count:] + other_pool_ix
            del stock[stock_count:]
        else:
            stock, rest = [], list(other_pool_ix)
        hands: list[list[int]] = [[] for _ in range(n)]
        hands[viewer] = list(hand_ix)
        spill: list[int] = []
        at = 0
        for index, (seat, count) in enumerate(zip(others, wide, strict=True)):
            check = checks.get(seat)
            knocked = floor is not None and floor[0] == index
            tries = _KNOCKER_TRIES if knocked else _OPPONENT_TRIES if check else 1
            for _try in range(tries):
                # Deal this opponent (again) random cards from those not yet given out.
                work[0] += 3 if check else 1  # weighing a hand costs about three playout turns
                _pick(rest, at, count, rng)
                trial: list[int] = []
                hands[seat] = _greedy_keep(values, known_ix[seat], rest[at : at + count], trial)
                if knocked:
                    if _value3(values, hands[seat]) >= floor[1]:
                        break
                elif check is None or rng.random() < _last_turn_weight(values, hands[seat], *check):
                    break
            spill += trial
            at += count
        if not stock_pool_ix:
            # The cards the opponents passed over are as likely as any to be in the stock.
            leftover = rest[at:] + spill
            if len(leftover) > stock_count:  # else the stock is all of them, in no order
                _pick(leftover, 0, stock_count, rng)
            stock = leftover[:stock_count]
        return _ScatDeal(
            hands,
            stock,
            list(pile_ix),
            live,
            viewer,
            view["knocker"],
            list(turns),
            -1 if taken is None else _INDEX[taken],
        )

    return determinize


def _latest_turns(events: list[Event]) -> dict[int, tuple[int, int, int, tuple[int, ...], bool]]:
    """Per seat, its latest draw-and-discard turn of the hand: (the card taken from the discard pile,
    or -1 for a stock draw, the card thrown, the discard pile as that turn began (its top last), and
    whether somebody had knocked by then), as card indexes."""
    pile: list[int] = []
    knocked = False
    before: dict[int, tuple[int, tuple[int, ...], bool]] = {}
    latest: dict[int, tuple[int, int, int, tuple[int, ...], bool]] = {}
    for event in events:
        kind = event.get("type")
        seat = event.get("seat")
        if kind == "deal":
            pile = [_INDEX[event["up_card"]]]
            knocked = False
        elif kind in ("knock", "throw_down"):
            knocked = True
        elif kind == "draw_discard":
            before[seat] = (pile[-1] if pile else _INDEX[event["card"]], tuple(pile), knocked)
            if pile:
                pile.pop()
        elif kind == "draw_stock":
            before[seat] = (-1, tuple(pile), knocked)
        elif kind == "stock_rebuilt":
            pile = pile[-1:]
        elif kind == "discard":
            if seat in before:
                took, was, late = before.pop(seat)
                latest[seat] = (took, _INDEX[event["card"]], was[-1] if was else -1, was, late)
            pile.append(_INDEX[event["card"]])
    return latest


def _last_turn_weight(
    values: tuple[float, ...],
    hand: list[int],
    took: int,
    threw: int,
    top: int,
    pile: tuple[int, ...],
    thr: float | None,
) -> float:
    """How likely (0..1, relative) the good bot's latest turn is with `hand` now: it threw `threw`
    from `hand` plus `threw` (it keeps the best); before drawing it did not hold a hand to knock with
    (`thr`; None when it could not knock), and it chose the draw it made (the discard pile's `top`
    when it was worth at least the stock's expectation over the unseen cards, else the stock). A
    stock draw may have been any of the four cards."""
    four = [*hand, threw]
    scores = []
    for out in range(4):
        kept = [four[j] for j in range(4) if j != out]
        scores.append(-1.0 if four[out] == took else _value3(values, kept) * 16 - _CARD_VALUE[four[out]] / 16)
    if scores[3] < max(scores) - 1e-9:
        return 0.0
    if took >= 0:
        befores = [[c for c in four if c != took]]
    else:
        befores = [[four[j] for j in range(4) if j != out] for out in range(4)]
    fits = 0
    for before in befores:
        if thr is not None and _value3(values, before) >= thr:
            continue
        if top >= 0 and top not in before:
            stock = _stock_expectation(values, before, pile)
            if (_take_value(values, before, top) >= stock) != (took >= 0):
                continue
        fits += 1
    return fits / len(befores)


def _knock_threshold(live_count: int, turns: int, last_life: bool) -> float:
    """The hand value the good bot knocks with (games/engine/scat_bots.py)."""
    base = float(_KNOCK_BASE.get(live_count, _KNOCK_BASE_MANY))
    return base + min(max(0, turns), 4) * 0.5 + (1 if last_life else 0)


def _greedy_keep(values: tuple[float, ...], known: list[int], cards: list[int], spill: list[int]) -> list[int]:
    """The `known` cards and the others kept from `cards` as the good bot would, drawing them one by
    one (the known cards stay); the cards passed over go to `spill`."""
    free = 3 - len(known)
    if len(cards) <= free:
        return known + cards
    hand = known + cards[:free]
    if free == 0:
        spill.extend(cards)
        return hand
    fixed = len(known)
    value = _CARD_VALUE
    for card in cards[free:]:
        w, x, y = hand
        # Throw the card whose loss keeps the best hand (ties: the lowest card, then the first);
        # the known cards stay.
        scores = (
            values[x * 2704 + y * 52 + card] * 16 - value[w] / 16,
            values[w * 2704 + y * 52 + card] * 16 - value[x] / 16,
            values[w * 2704 + x * 52 + card] * 16 - value[y] / 16,
            values[w * 2704 + x * 52 + y] * 16 - value[card] / 16,
        )
        out = fixed
        for i in range(fixed + 1, 4):
            if scores[i] > scores[out]:
                out = i
        if out == 3:
            spill.append(card)
        else:
            spill.append(hand.pop(out))
            hand.append(card)
    return hand


def _scat_last_life(view: dict[str, Any]) -> list[bool]:
    county = view["options"]["on_the_county"]
    return [p["on_the_county"] or (not county and p["tokens"] == 1) for p in view["players"]]


def scat_legal_actions(view: dict[str, Any]) -> list[Action]:
    """The viewer's legal Scat actions, from the view alone (the engine's order)."""
    options = view["options"]
    if view["phase"] == "must_discard":
        taken = view["taken_from_discard"]
        return [{"type": "discard", "card": c} for c in view["hand"] if c != taken]
    actions: list[Action] = []
    discard = view["discard_pile"]
    if view["stock_count"] or (options["stock_exhausted"] == "rebuild" and len(discard) >= 2):
        actions.append({"type": "draw_stock"})
    if discard:
        actions.append({"type": "draw_discard"})
    if view["knocker"] is None:
        players = view["players"]
        first_round_ok = options["knock_allowed_first_round"] or all(
            p["turns_taken"] > 0 for p in players if p["in_game"]
        )
        minimum = options["min_knock_score"]
        from .scat import _value

        if first_round_ok and (minimum is None or _value(view["hand"], options) >= minimum):
            actions.append({"type": "knock"})
            if options["throw_down"]:
                actions.append({"type": "throw_down"})
    elif options["allow_stand_after_knock"]:
        actions.append({"type": "stand"})
    return actions


def _scat_table(
    view: dict[str, Any], history: list[Event], rng: random.Random, samples: int, max_turns: int | None = None
) -> tuple[list[Action], list[list[tuple[int, ...]]]]:
    """(the legal actions, for each the lives every seat loses on each of `samples` deals). With
    `max_turns`, fewer deals once the playouts have played that many turns in all (at least
    `_MIN_DEALS`): a decision's time then has a bound, whatever the length of its playouts."""
    actions = scat_legal_actions(view)
    live_count = sum(1 for p in view["players"] if p["in_game"])
    rules = _ScatRules(view["options"], _scat_last_life(view), live_count)
    work = [0]
    determinize = _scat_determinizer(view, history, work)
    lives: list[list[tuple[int, ...]]] = [[] for _ in actions]
    for sample in range(samples):
        deal = determinize(rng)
        stream = _Stream(rng)
        for index, action in enumerate(actions):
            stream.at = 0  # the same later draws for every action
            lives[index].append(_scat_playout(deal.copy(), rules, action, stream))
        if max_turns is not None and rules.steps + work[0] >= max_turns and sample + 1 >= _MIN_DEALS:
            break
    return actions, lives


def _advise_scat(view: dict[str, Any], history: list[Event], rng: random.Random, samples: int) -> list[dict[str, Any]]:
    actions, lives = _scat_table(view, history, rng, samples)
    viewer = view["viewer"]
    return [
        {
            "action": a,
            "loss_chance": sum(1 for lost in lives[i] if lost[viewer]) / samples,
            "expected_lives": sum(lost[viewer] for lost in lives[i]) / samples,
        }
        for i, a in enumerate(actions)
    ]


# Lives above this count as this many in the win-chance model (its table stays small).
_LIVES_CAP = 6


def _scat_lives_left(view: dict[str, Any]) -> list[int]:
    """Lives each seat may still lose before it is out (0 when out)."""
    county = view["options"]["on_the_county"]
    return [p["tokens"] + (1 if county else 0) if p["in_game"] else 0 for p in view["players"]]


@lru_cache(maxsize=65536)
def _win_chance(mine: int, others: tuple[int, ...]) -> float:
    """The chance to be the last one in, with `mine` lives left against the others' (sorted, all
    above 0), if each hand costs one life to one of the players still in, each equally likely: the
    value of the lives a hand leaves, so that a playout is scored by the game, not by the hand."""
    if mine <= 0:
        return 0.0
    if not others:
        return 1.0
    total = _win_chance(mine - 1, others)
    term = 0.0
    for i, lives in enumerate(others):
        if not i or others[i - 1] != lives:  # equal lives give the same term
            rest = others[:i] + ((lives - 1,) if lives > 1 else ()) + others[i + 1 :]
            term = _win_chance(mine, tuple(sorted(rest)))
        total += term
    return total / (1 + len(others))


def _scat_game_merit(lives: list[int], viewer: int, lost: tuple[int, ...]) -> float:
    """The viewer's win chance after a hand that cost `lost` lives, plus a hair for its own lives so
    that a capped table still prefers losing fewer."""
    after = [min(_LIVES_CAP, max(0, have - lose)) for have, lose in zip(lives, lost, strict=True)]
    others = tuple(sorted(a for s, a in enumerate(after) if s != viewer and a > 0))
    return _win_chance(after[viewer], others) - 0.001 * lost[viewer]


def playout_table(
    kind: str,
    view: dict[str, Any],
    history: list[Event],
    rng: random.Random,
    samples: int,
    max_turns: int | None = None,
) -> tuple[list[Action], list[list[float]]]:
    """For the expert bot: (the viewer's legal actions, for each its merit on each of `samples` deals,
    the same deals for every action). Merit: Scat, the viewer's chance to win the game with the lives
    the hand leaves (``SCAT_MERIT``); Scattle, the points gained less the opponents' mean gain over
    the horizon. Scat's `max_turns` stops dealing once the playouts have played that many turns.
    Empty when it is not the viewer's turn."""
    viewer = view.get("viewer")
    if viewer is None or view.get("to_act") != viewer or view.get("outcome") is not None:
        return [], []
    if kind == "scat":
        actions, lives = _scat_table(view, history, rng, samples, max_turns)
        if SCAT_MERIT == "hand":
            return actions, [[-lost[viewer] for lost in row] for row in lives]
        have = _scat_lives_left(view)
        memo: dict[tuple[int, ...], float] = {}
        rows = []
        for row in lives:
            out = []
            for lost in row:
                if lost not in memo:
                    memo[lost] = _scat_game_merit(have, viewer, lost)
                out.append(memo[lost])
            rows.append(out)
        return actions, rows
    actions, mine, theirs = _scattle_table(view, history, rng, samples)
    return actions, [[m - t for m, t in zip(mr, tr, strict=True)] for mr, tr in zip(mine, theirs, strict=True)]


# --- Scattle ------------------------------------------------------------------------------------------


def _scattle_derived(history: list[Event], num_seats: int) -> tuple[list[int | None], int, int, list[int]]:
    """(reached, plays, idle_turns, resigned order): the state's tie and idle counters, read from the
    public events (the view does not show them)."""
    reached: list[int | None] = [None] * num_seats
    plays = 0
    idle = 0
    resigned: list[int] = []
    for event in history:
        kind = event.get("type")
        if kind in ("meld", "lay_off"):
            plays += 1
            if event.get("points", 0) and (kind == "meld" or event.get("gained", 0) > 0):
                reached[event["seat"]] = plays
            idle = -1
        elif kind == "discard":
            idle += 1
        elif kind == "resigned":
            resigned.append(event["seat"])
    return reached, plays, idle, resigned


def _scattle_determinizer(view: dict[str, Any], history: list[Event]):
    """A function rng -> engine state: one random deal of the unseen cards consistent with the view."""
    viewer = view["viewer"]
    players = view["players"]
    n = view["num_seats"]
    options = view["options"]
    knowledge = _Knowledge(n)
    knowledge.replay(history, viewer)
    hand = list(view["hand"])
    visible = Counter(hand) + Counter(view["discard_pile"])
    for player in players:
        for meld in player["melds"]:
            visible.update(meld["cards"])
    for seat in range(n):
        if seat == viewer or not players[seat]["in_game"]:
            knowledge.known[seat] = Counter()
        visible += knowledge.known[seat]
    deck = sorted(new_deck(options["deck_count"]), key=_INDEX.__getitem__)
    stock_pool, other_pool = _unseen_split(deck, visible, knowledge, view["stock_count"])
    others = [s for s in range(n) if s != viewer and players[s]["in_game"]]
    known = {s: list(knowledge.known[s].elements()) for s in others}
    slots = [max(0, players[s]["cards_held"] - len(known[s])) for s in others]
    reached, plays, idle, resigned = _scattle_derived(history, n)
    melds = [[dict(m, cards=list(m["cards"])) for m in p["melds"]] for p in players]

    def determinize(rng: random.Random) -> State:
        stock, extra = _deal_unseen(rng, stock_pool, other_pool, view["stock_count"], slots)
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[viewer] = list(hand)
        for seat, cards in zip(others, extra, strict=True):
            hands[seat] = known[seat] + cards
        return {
            "kind": "scattle",
            "edition": 2,
            "num_seats": n,
            "options": options,
            "phase": view["phase"],
            "turn": view["to_act"],
            "first_player": view["first_player"],
            "hands": hands,
            "stock": stock,
            "discard": list(view["discard_pile"]),
            "melds": [list(m) for m in melds],
            "scores": [p["score"] for p in players],
            "in_game": [p["in_game"] for p in players],
            "resigned": list(resigned),
            "rebuilds": view["rebuilds"],
            "melded_since_rebuild": view["melded_since_rebuild"],
            "taken_from_discard": view["taken_from_discard"],
            "deal_events": [],
            "last_showdown": None,
            "outcome": None,
            "secret": {"seed": f"advisor/{rng.random()}", "shuffles": 1},
            "reached": list(reached),
            "plays": plays,
            "idle_turns": idle,
        }

    return determinize


def _scattle_partners(card: str, hand: list[str]) -> int:
    rank = _INDEX[card] % 13
    count = 0
    for other in hand:
        if other is card:
            continue
        if other[0] == card[0] or (other[1] == card[1] and abs(_INDEX[other] % 13 - rank) <= 2):
            count += 1
    return count


def _scattle_policy(rules: Any, state: State, seat: int) -> Action:
    from .scattle import _find_melds, _layoff_result

    legal = rules.legal_actions(state, seat)
    opts = state["options"]
    if state["phase"] == "draw":
        top = state["discard"][-1] if state["discard"] else None
        hand = state["hands"][seat]
        if (
            top is not None
            and {"type": "draw_discard"} in legal
            and any(top in m for m in _find_melds([*hand, top], opts))
        ):
            return {"type": "draw_discard"}
        return {"type": "draw_stock"}
    melds = [a for a in legal if a["type"] == "meld"]
    if melds:
        from .scattle import _classify, _points

        def points(action: Action) -> int:
            found = _classify(action["cards"], opts)
            return _points(found[0], found[1], opts) if found else 0

        return max(melds, key=points)
    own = state["melds"][seat]
    for action in legal:
        if action["type"] == "lay_off":
            result = _layoff_result(own[action["meld"]], action["card"], opts)
            if result is not None and result[2] > own[action["meld"]]["points"]:
                return action
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return legal[0]
    hand = state["hands"][seat]
    return min(discards, key=lambda a: (_scattle_partners(a["card"], hand), -(_INDEX[a["card"]] % 13)))


def _scattle_playout(rules: Any, state: State, viewer: int, action: Action) -> tuple[int, float]:
    """(the viewer's points gained, the others' mean gain) by the end of the horizon."""
    start = list(state["scores"])
    state, _ = rules.apply(state, viewer, action)
    turns_left = SCATTLE_HORIZON
    while state["outcome"] is None:
        seat = state["turn"]
        if seat == viewer and state["phase"] == "draw":
            turns_left -= 1
            if turns_left <= 0:
                break
        state, _ = rules.apply(state, seat, _scattle_policy(rules, state, seat))
    final = state["outcome"]["scores"] if state["outcome"] is not None else state["scores"]
    others = [s for s in range(len(start)) if s != viewer and state["in_game"][s]]
    mine = final[viewer] - start[viewer]
    theirs = sum(final[s] - start[s] for s in others) / len(others) if others else 0.0
    return mine, theirs


def _scattle_table(
    view: dict[str, Any], history: list[Event], rng: random.Random, samples: int
) -> tuple[list[Action], list[list[float]], list[list[float]]]:
    """(the legal actions, for each the viewer's gain and the others' mean gain on each deal)."""
    from .scattle import RULES

    viewer = view["viewer"]
    determinize = _scattle_determinizer(view, history)
    actions: list[Action] = []
    mine: list[list[float]] = []
    theirs: list[list[float]] = []
    for sample in range(samples):
        state = determinize(rng)
        if sample == 0:
            # The legal actions depend on the viewer's hand and melds only, so any deal shows them.
            actions = RULES.legal_actions(state, viewer)
            mine = [[] for _ in actions]
            theirs = [[] for _ in actions]
        for index, action in enumerate(actions):
            gained, others = _scattle_playout(RULES, state, viewer, action)
            mine[index].append(gained)
            theirs[index].append(others)
    return actions, mine, theirs


def _advise_scattle(
    view: dict[str, Any], history: list[Event], rng: random.Random, samples: int
) -> list[dict[str, Any]]:
    actions, mine, theirs = _scattle_table(view, history, rng, samples)
    return [
        {"action": a, "expected_points": sum(mine[i]) / samples, "opponent_points": sum(theirs[i]) / samples}
        for i, a in enumerate(actions)
    ]
