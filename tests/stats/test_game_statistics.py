"""The per-seat statistics of a finished game, from its events and turns (a pure function)."""

from datetime import UTC, datetime, timedelta

from games.engine import get_rules
from stats.results import MoveRecord, TurnRecord, opening_events, seat_results

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def scat_outcome(places):
    return {"reason": "last_player", "places": places, "winners": [places.index(1)]}


def test_a_knock_survives_when_the_showdown_costs_the_knocker_no_life():
    events = [
        {"type": "knock", "seat": 0},
        {"type": "showdown", "knocker": 0, "lives_lost": [0, 1]},
        {"type": "life_lost", "seat": 1, "lives": 1},
        {"type": "knock", "seat": 0},
        {"type": "showdown", "knocker": 0, "lives_lost": [2, 0]},
        {"type": "life_lost", "seat": 0, "lives": 2},
    ]
    alice, bob = seat_results(outcome=scat_outcome([1, 2]), events=events, moves=[], turns=[])
    assert (alice.knocks, alice.knocks_survived, alice.lives_lost) == (2, 1, 2)
    assert (bob.knocks, bob.lives_lost) == (0, 1)


def test_a_31_after_a_knock_counts_for_its_holder_and_against_the_knock():
    events = [
        {"type": "knock", "seat": 0},
        {"type": "thirty_one", "seat": 1, "on_deal": False, "lives_lost": [1, 0]},
        {"type": "life_lost", "seat": 0, "lives": 1},
        {"type": "thirty_one", "seat": 0, "on_deal": True, "lives_lost": [0, 1]},
        {"type": "life_lost", "seat": 1, "lives": 1},
    ]
    alice, bob = seat_results(outcome=scat_outcome([2, 1]), events=events, moves=[], turns=[])
    assert (alice.knocks, alice.knocks_survived, alice.thirty_ones, alice.lives_lost) == (1, 0, 1, 1)
    assert (bob.thirty_ones, bob.lives_lost) == (1, 1)


def test_a_knocker_who_resigns_before_the_showdown_did_not_survive():
    events = [
        {"type": "knock", "seat": 0},
        {"type": "resigned", "seat": 0},
        {"type": "showdown", "knocker": 0, "lives_lost": [0, 0, 1]},
    ]
    alice, _bob, _charlie = seat_results(outcome=scat_outcome([3, 1, 2]), events=events, moves=[], turns=[])
    assert (alice.knocks, alice.knocks_survived, alice.resigned) == (1, 0, True)


def test_scattle_counts_melds_scattles_and_takes_the_final_score():
    events = [
        {"type": "meld", "seat": 0, "points": 6},
        {"type": "lay_off", "seat": 0, "gained": 2},
        {"type": "meld", "seat": 1, "points": 9},
        {"type": "meld", "seat": 0, "points": 12},
        {"type": "scattle", "seat": 0},
    ]
    outcome = {"reason": "scattle", "places": [1, 2], "scores": [20, 4]}
    alice, bob = seat_results(outcome=outcome, events=events, moves=[], turns=[])
    assert (alice.melds, alice.scattles, alice.points, alice.won) == (2, 1, 20, True)
    assert (bob.melds, bob.scattles, bob.points, bob.won) == (1, 0, 4, False)


def test_a_shared_first_place_is_a_win_for_both():
    outcome = {"reason": "scattle", "places": [1, 1, 3], "scores": [10, 10, 2]}
    results = seat_results(outcome=outcome, events=[], moves=[], turns=[])
    assert [r.won for r in results] == [True, True, False]


def test_move_times_count_turns_ended_by_the_players_own_move_in_time():
    moves = [
        MoveRecord(0, [], at(30)),  # alice moves after 30 minutes
        MoveRecord(1, [], at(90)),  # bob after 60
        MoveRecord(0, [], at(100)),  # alice, after a timeout of hers, played by the server
        MoveRecord(0, [], at(110)),  # alice resigns while it is bob's turn: his turn says nothing of his pace
    ]
    turns = [
        TurnRecord(0, at(0), at(30), False),
        TurnRecord(1, at(30), at(90), False),
        TurnRecord(0, at(90), at(100), True),
        TurnRecord(1, at(100), at(110), False),
    ]
    alice, bob = seat_results(outcome=scat_outcome([2, 1]), events=[], moves=moves, turns=turns)
    assert (alice.turns_moved, alice.move_time_ms, alice.timed_out_turns) == (1, 30 * 60_000, 1)
    assert (bob.turns_moved, bob.move_time_ms, bob.timed_out_turns) == (1, 60 * 60_000, 0)


def opening_thirty_one_seed(rules) -> str:
    return next(
        f"opening-{n}" for n in range(20000) if rules.new_game(2, {}, f"opening-{n}")["last_showdown"] is not None
    )


def test_a_31_on_the_opening_deal_is_in_the_opening_events():
    rules = get_rules("scat")
    seed = opening_thirty_one_seed(rules)
    state = rules.new_game(2, {}, seed)
    events = opening_events("scat", 2, {}, seed, 2)
    assert events == state["deal_events"]
    assert [e["type"] for e in events if e["type"] == "deal"] == ["deal", "deal"]
    lost = {e["seat"]: e["lives"] for e in events if e["type"] == "life_lost"}
    assert lost == {seat: 3 - tokens for seat, tokens in enumerate(state["tokens"]) if tokens < 3}


def test_a_31_on_the_opening_deal_of_a_first_edition_game_is_recovered_from_the_opening_state():
    rules = get_rules("scat")
    seed = opening_thirty_one_seed(rules)
    state = rules.new_game(2, {}, seed, edition=1)
    shown = state["last_showdown"]
    events = opening_events("scat", 2, {}, seed, 1)
    holders = [e["seat"] for e in events if e["type"] == "thirty_one"]
    assert holders == [seat for seat, hand in enumerate(shown["hands"]) if hand is not None]
    lost = {e["seat"]: e["lives"] for e in events if e["type"] == "life_lost"}
    assert lost == {seat: 3 - tokens for seat, tokens in enumerate(state["tokens"]) if tokens < 3}


def test_an_ordinary_opening_deal_has_nothing_to_count():
    rules = get_rules("scat")
    seed = next(f"plain-{n}" for n in range(100) if rules.new_game(3, {}, f"plain-{n}")["hand_no"] == 1)
    assert [e["type"] for e in opening_events("scat", 3, {}, seed, 2)] == ["deal"]
    assert opening_events("scat", 3, {}, seed, 1) == []
