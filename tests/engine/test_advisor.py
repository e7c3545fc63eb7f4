"""The simulation advisor: exact where it can be checked, view-only, deterministic."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.engine import get_rules
from games.engine.advisor import _INDEX, _best_discard, _scat_values, advise, review_turn
from games.engine.bots import choose_action
from games.engine.cards import DECK

SCAT = get_rules("scat")
SCATTLE = get_rules("scattle")


def played(kind: str, seats: int, seed: str, moves: int):
    """A game after `moves` good-bot actions, with all its events."""
    rules = get_rules(kind)
    rng = random.Random(seed)
    state = rules.new_game(seats, None, seed)
    events = list(state["deal_events"])
    for _ in range(moves):
        seat = rules.to_act(state)
        if seat is None:
            break
        state, new = rules.apply(state, seat, choose_action(kind, state, seat, "good", rng))
        events += new
    return state, events


def seat_inputs(kind: str, state, events):
    rules = get_rules(kind)
    seat = rules.to_act(state)
    return rules.view(state, seat), rules.view_events(events, seat)


# --- the exact check ---------------------------------------------------------------------------------


def exact_knock_loss(view) -> float:
    """Two seats, the viewer knocks on the hand's first turn: the chance the knocker loses, over every
    hand the opponent may hold and every card the stock may show, the opponent's last turn played by
    the good bot's rules (take the discard when it is worth at least the mean best hand after a
    stock card the opponent has not seen, else draw; keep the best)."""
    values = _scat_values(None, None, False)
    mine = [_INDEX[c] for c in view["hand"]]
    top = _INDEX[view["discard_top"]]
    my_value = values[mine[0] * 2704 + mine[1] * 52 + mine[2]]
    unseen = [i for i in range(52) if i not in mine and i != top]
    lost = total = 0.0
    for hand in combinations(unseen, 3):
        value = values[hand[0] * 2704 + hand[1] * 52 + hand[2]]
        take = max(values[top * 2704 + a * 52 + b] for a, b in combinations(hand, 2))
        # The opponent has seen its hand and the up-card only: my cards may come from the stock.
        fresh = [card for card in range(52) if card not in hand and card != top]
        stock = sum(
            max(value, *(values[card * 2704 + a * 52 + b] for a, b in combinations(hand, 2))) for card in fresh
        ) / len(fresh)
        if take >= stock:
            outcomes = [[*hand, top]]
            keep = top
        else:
            outcomes = [[*hand, card] for card in unseen if card not in hand]
            keep = -1
        share = 1.0 / len(outcomes)
        for four in outcomes:
            out = _best_discard(values, four, keep)
            final = [four[i] for i in range(4) if i != out]
            # The knocker loses when the opponent ends higher (a tie leaves the knocker safe), or on a 31.
            if values[final[0] * 2704 + final[1] * 52 + final[2]] > my_value:
                lost += share
        total += 1
    return lost / total


def first_turn_positions():
    found = []
    for n in range(40):
        state = SCAT.new_game(2, None, f"exact-{n}")
        if state["outcome"] is None and state["hand_no"] == 1 and SCAT.to_act(state) is not None:
            found.append(state)
        if len(found) == 4:
            break
    return found


@pytest.mark.parametrize("index", range(4))
def test_knock_loss_chance_matches_the_exact_enumeration(index):
    state = first_turn_positions()[index]
    view, history = seat_inputs("scat", state, list(state["deal_events"]))
    advice = advise("scat", view, history, random.Random(index), samples=5000)
    knock = next(e for e in advice if e["action"] == {"type": "knock"})
    exact = exact_knock_loss(view)
    assert abs(knock["loss_chance"] - exact) <= 0.02, (view["hand"], knock["loss_chance"], exact)


# --- view only, deterministic, complete ------------------------------------------------------------


def redealt(state, events, seat: int, rng: random.Random):
    """The state with every card the seat has not seen (other hands, the stock) dealt again; a card
    an opponent took from the discard pile stays in its hand (the seat saw it go there)."""
    others = [s for s in range(state["num_seats"]) if s != seat]
    seen = {s: [e["card"] for e in events if e["type"] == "draw_discard" and e["seat"] == s] for s in others}
    kept = {s: [c for c in state["hands"][s] if c in seen[s]] for s in others}
    pool = list(state["stock"])
    for s in others:
        rest = list(state["hands"][s])
        for card in kept[s]:
            rest.remove(card)
        pool += rest
    rng.shuffle(pool)
    new = dict(state, hands=[list(h) for h in state["hands"]])
    at = 0
    for s in others:
        size = len(state["hands"][s]) - len(kept[s])
        new["hands"][s] = kept[s] + pool[at : at + size]
        at += size
    new["stock"] = pool[at:]
    return new


@pytest.mark.parametrize("kind", ["scat", "scattle"])
def test_changing_every_unseen_card_leaves_the_advice_unchanged(kind):
    rules = get_rules(kind)
    state, events = played(kind, 3, f"invariance-{kind}", 7)
    seat = rules.to_act(state)
    view, history = seat_inputs(kind, state, events)
    base = advise(kind, view, history, random.Random(9), samples=40)
    for trial in range(3):
        other = redealt(state, events, seat, random.Random(trial))
        assert other["hands"] != state["hands"] or other["stock"] != state["stock"]
        other_view = rules.view(other, seat)
        assert advise(kind, other_view, rules.view_events(events, seat), random.Random(9), samples=40) == base


@pytest.mark.parametrize("kind", ["scat", "scattle"])
def test_the_advice_is_deterministic_and_covers_every_legal_action(kind):
    rules = get_rules(kind)
    for moves in (3, 8, 15):
        state, events = played(kind, 2, f"cover-{kind}-{moves}", moves)
        seat = rules.to_act(state)
        if seat is None:
            continue
        view, history = seat_inputs(kind, state, events)
        first = advise(kind, view, history, random.Random(1), samples=30)
        assert first == advise(kind, view, history, random.Random(1), samples=30)
        assert [e["action"] for e in first] == rules.legal_actions(state, seat)
        for entry in first:
            if kind == "scat":
                assert 0.0 <= entry["loss_chance"] <= 1.0
                assert entry["loss_chance"] <= entry["expected_lives"] <= 2 * entry["loss_chance"]
            else:
                assert 0.0 <= entry["expected_points"] <= 30
                assert entry["opponent_points"] >= 0.0


def test_known_cards_are_kept_in_the_hand_that_took_them():
    # Find a position where an opponent holds a card it took from the discard pile.
    for n in range(60):
        state, events = played("scat", 2, f"known-{n}", 12)
        seat = SCAT.to_act(state)
        if seat is None:
            continue
        other = 1 - seat
        taken = [e["card"] for e in events if e["type"] == "draw_discard" and e["seat"] == other]
        held = [c for c in taken if c in state["hands"][other]]
        if held and state["phase"] == "turn_start":
            break
    else:
        pytest.skip("no such position found")
    from games.engine.advisor import _scat_determinizer

    view, history = seat_inputs("scat", state, events)
    determinize = _scat_determinizer(view, history)
    rng = random.Random(3)
    for _ in range(50):
        deal = determinize(rng)
        assert _INDEX[held[0]] in deal.hands[other]
        seen = set(deal.stock) | set(deal.hands[other]) | set(deal.hands[seat]) | set(deal.discard)
        assert len(deal.stock) == view["stock_count"] and len(seen) == 52 - len(state["out_of_play"])


def test_scattle_expected_points_are_sane():
    # A hand holding a meld: laying it now scores at least its points.
    for n in range(80):
        state, events = played("scattle", 2, f"sane-{n}", 40)
        seat = SCATTLE.to_act(state)
        if seat is not None and any(a["type"] == "meld" for a in SCATTLE.legal_actions(state, seat)):
            break
    else:
        pytest.skip("no meld position found")
    view, history = seat_inputs("scattle", state, events)
    advice = advise("scattle", view, history, random.Random(2), samples=20)
    for entry in advice:
        if entry["action"]["type"] == "meld":
            assert entry["expected_points"] >= len(entry["action"]["cards"])


@pytest.mark.parametrize("kind", ["scat", "scattle"])
def test_review_turn_names_the_best_action_and_the_cost(kind):
    state, events = played(kind, 2, f"review-{kind}", 6)
    rules = get_rules(kind)
    seat = rules.to_act(state)
    view, history = seat_inputs(kind, state, events)
    for taken in rules.legal_actions(state, seat):
        review = review_turn(kind, view, history, taken, random.Random(4), samples=30)
        assert review["cost"] >= 0
        assert review["best"] in rules.legal_actions(state, seat)
        if taken == review["best"]:
            assert review["cost"] == 0


def test_advice_is_empty_when_it_is_not_the_seats_turn():
    state, events = played("scat", 2, "not-mine", 3)
    other = 1 - SCAT.to_act(state)
    assert advise("scat", SCAT.view(state, other), SCAT.view_events(events, other), random.Random(0)) == []


def test_deck_is_the_index_order():
    assert [DECK[_INDEX[c]] for c in DECK] == list(DECK)


# --- the expert's pieces ---------------------------------------------------------------------------


def test_win_chance_shares_the_game_among_the_players():
    from games.engine.advisor import _win_chance

    assert _win_chance(4, (4,)) == pytest.approx(0.5)
    assert _win_chance(3, (3, 3, 3)) == pytest.approx(0.25)
    assert _win_chance(4, (3,)) > 0.5 > _win_chance(3, (4,))
    assert _win_chance(0, (2,)) == 0.0 and _win_chance(2, ()) == 1.0
    lives = (1, 2, 4, 4)
    total = sum(_win_chance(lives[i], tuple(sorted(lives[:i] + lives[i + 1 :]))) for i in range(len(lives)))
    assert total == pytest.approx(1.0)


def test_the_good_bots_own_turns_always_fit_the_scat_inference():
    """The sampler weighs an opponent's hand by how well the good bot's latest turn fits it and deals
    a knocker only hands it would knock with: the hands good bots really hold must never be ruled out."""
    from games.engine.advisor import (
        _knock_threshold,
        _last_turn_weight,
        _latest_turns,
        _scat_last_life,
        _since_last_deal,
        _value3,
    )

    values = _scat_values(None, None, False)
    checked = 0
    for seats in (2, 3, 4):
        for n in range(4):
            state, events = played("scat", seats, f"fit-{seats}-{n}", 0)
            rng = random.Random(n)
            while (seat := SCAT.to_act(state)) is not None:
                view, history = seat_inputs("scat", state, events)
                live = sum(1 for p in view["players"] if p["in_game"])
                last = _scat_last_life(view)
                for other, (took, threw, top, was, late) in _latest_turns(_since_last_deal(history)).items():
                    player = view["players"][other]
                    if other == seat or not player["in_game"]:
                        continue
                    hand = [_INDEX[c] for c in state["hands"][other]]
                    floor = _knock_threshold(live, player["turns_taken"] - 1, last[other])
                    if other == view["knocker"]:
                        assert _value3(values, hand) >= floor
                    else:
                        assert _last_turn_weight(values, hand, took, threw, top, was, None if late else floor) > 0
                    checked += 1
                state, new = SCAT.apply(state, seat, choose_action("scat", state, seat, "good", rng))
                events += new
    assert checked > 200


def test_a_turn_budget_bounds_the_deals():
    from games.engine.advisor import _MIN_DEALS, playout_table

    state, events = played("scat", 2, "budget", 4)
    view, history = seat_inputs("scat", state, events)
    _, few = playout_table("scat", view, history, random.Random(0), 400, max_turns=10)
    assert len(few[0]) == _MIN_DEALS
    _, many = playout_table("scat", view, history, random.Random(0), 400, max_turns=10**6)
    assert len(many[0]) == 400 and all(len(row) == 400 for row in many)


def test_scattle_feed_counts_the_melds_a_discard_completes_for_the_next_player():
    from games.engine.expert_scattle import feed_points

    state, events = played("scattle", 2, "feed", 6)
    seat = SCATTLE.to_act(state)
    nxt = 1 - seat
    view, history = seat_inputs("scattle", state, events)
    # The next player took two sevens from the discard pile (the seat saw it): a third completes a group.
    history = [*history, *({"type": "draw_discard", "seat": nxt, "card": c} for c in ("7H", "7D"))]
    feed = feed_points(view, history, ["7C", "2S"], random.Random(0))
    assert feed["7C"] > 2.5 > 1.0 > feed["2S"]
