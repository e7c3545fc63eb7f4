"""Advice costs up to a second of CPU a call: it runs in advisor processes, bounded per machine, at
most one call at a time per player and 30 a minute; beyond, 429 or 503 with Retry-After."""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest
from django.db import connection

from games import advice, advice_pool
from games.engine import advisor, get_rules
from games.models import Game
from tests.conftest import client_for, make_user

from .helpers import started_two_player_game

pytestmark = pytest.mark.usefixtures("own_advisor_slots")


def advised_game(first, second) -> tuple[str, object]:
    """An unrated Scat game with advice on, and the client of the player to act."""
    clients = {0: client_for(first), 1: client_for(second)}
    game = started_two_player_game(clients[0], clients[1], rated=False, advice=True)
    return game["id"], clients[game["to_act"]]


def at_once(requests) -> list:
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def run(i: int) -> None:
        try:
            barrier.wait()
            answers[i] = requests[i]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def assert_refused(answer, status: int, code: str) -> None:
    assert answer.status_code == status, answer.content
    assert answer.json()["code"] == code
    assert set(answer.json()) == {"code", "message", "details"}
    assert int(answer["Retry-After"]) >= 1


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
def test_a_player_asking_again_while_the_first_advice_is_computed_gets_429(concurrent_database):
    alice, bob = make_user("alice"), make_user("bob")
    game_id, mover = advised_game(alice, bob)
    mover.raise_request_exception = False
    answers = at_once([lambda: mover.get(f"/api/v1/games/{game_id}/advice/") for _ in range(4)])
    assert sorted(answer.status_code for answer in answers) == [200, 429, 429, 429]
    for answer in answers:
        if answer.status_code == 429:
            assert_refused(answer, 429, "advice_in_progress")
    # Once it is computed, the same position is answered from what was computed.
    again = mover.get(f"/api/v1/games/{game_id}/advice/")
    assert again.status_code == 200
    assert again.json() == next(a.json() for a in answers if a.status_code == 200)


def test_more_than_thirty_requests_a_minute_is_429_with_retry_after(alice, bob):
    game_id, mover = advised_game(alice, bob)
    for _ in range(30):
        assert mover.get(f"/api/v1/games/{game_id}/advice/").status_code == 200
    assert_refused(mover.get(f"/api/v1/games/{game_id}/advice/"), 429, "throttled")
    # Everything else this player asks is not held back by it.
    assert mover.get(f"/api/v1/games/{game_id}/").status_code == 200


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
def test_beyond_the_advisor_processes_a_request_waits_briefly_then_gets_503(concurrent_database, settings, monkeypatch):
    """One advisor process on this machine (ADVICE_PROCESSES=1): of three players asking at once, one
    is computed; one waits the short wait for the advisor and is turned away; the third finds the
    web process's two places for advice taken and is turned away at once."""
    settings.ADVICE_WAIT_SECONDS = 0.05
    # Advice that takes far longer than the wait, however fast the machine: nobody is served late.
    for kind, samples in list(advice.ADVICE_SAMPLES.items()):
        monkeypatch.setitem(advice.ADVICE_SAMPLES, kind, samples * 20)
    players = [make_user(name) for name in ("alice", "bob", "charlie", "dave", "erin", "frank")]
    games = [advised_game(players[i], players[i + 1]) for i in (0, 2, 4)]
    for _game_id, mover in games:
        mover.raise_request_exception = False
    answers = at_once([lambda g=game_id, m=mover: m.get(f"/api/v1/games/{g}/advice/") for game_id, mover in games])
    assert sorted(answer.status_code for answer in answers) == [200, 503, 503]
    for answer in answers:
        if answer.status_code == 503:
            assert_refused(answer, 503, "advisor_busy")
    # A moment later the advisor is free again.
    turned_away = [(g, m) for (g, m), answer in zip(games, answers, strict=True) if answer.status_code == 503]
    for game_id, mover in turned_away:
        assert mover.get(f"/api/v1/games/{game_id}/advice/").status_code == 200


def test_the_advisor_runs_in_a_process_of_its_own_and_gives_the_engines_figures(alice, bob):
    game_id, mover = advised_game(alice, bob)
    answer = mover.get(f"/api/v1/games/{game_id}/advice/").json()
    children = {process.pid for process in multiprocessing.active_children()}
    assert children and os.getpid() not in children

    game = Game.objects.get(public_id=game_id)
    rules = get_rules(game.kind)
    seat = game.to_act_seat
    view, history = rules.view(rules.from_json(game.state), seat), advice.seat_history(game, seat)
    here = advisor.advise(
        game.kind, view, history, advice.position_rng(game, game.version, seat), advice.ADVICE_SAMPLES[game.kind]
    )
    assert [entry["action"] for entry in answer["actions"]] == [entry["action"] for entry in here]
    assert [entry["loss_chance"] for entry in answer["actions"]] == [
        advice.rounded(entry["loss_chance"]) for entry in here
    ]


def test_a_busy_advisor_refuses_at_once_when_no_slot_frees_within_the_wait(settings):
    settings.ADVICE_WAIT_SECONDS = 0.05
    with advice_pool.machine_slot(0), pytest.raises(advice_pool.AdvisorBusy), advice_pool.machine_slot(0.05):
        pass
    with advice_pool.machine_slot(0):  # released on leaving
        pass
