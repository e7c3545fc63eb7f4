"""Card codes are the contract's (rank A23456789TJQK, then suit SHDC, in capitals) at the API's
door: any other spelling is a malformed body, refused before anything is read or stored."""

from __future__ import annotations

import random

import pytest

from games.models import Move

from .helpers import game, move, started_two_player_game

NOT_CANONICAL = ["kh", "Kh", "kH", "10H", " KH", "KH ", "KH\x00", "\uff2b\uff28", "K♥", "1H", "KX", "", "KHS"]

CARD_FIELDS = {
    "discard": lambda code: {"type": "discard", "card": code},
    "meld": lambda code: {"type": "meld", "cards": ["QH", code, "AH"]},
    "lay_off": lambda code: {"type": "lay_off", "card": code, "meld": 0},
}


@pytest.mark.parametrize("code", NOT_CANONICAL)
@pytest.mark.parametrize("action_type", sorted(CARD_FIELDS))
def test_a_card_code_not_in_the_contracts_form_is_a_malformed_body(alice_client, action_type, code):
    """The shape comes first in the check order, before the game is even looked up."""
    response = move(alice_client, "no-such-game", CARD_FIELDS[action_type](code), 0)
    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert set(body["details"]) == {"action"}
    assert set(body["details"]["action"]) == {"card" if action_type != "meld" else "cards"}


def lowered(action: dict) -> dict:
    """The same action as a careless client spells it: every card code in lower case."""
    spelt = dict(action)
    if "card" in spelt:
        spelt["card"] = spelt["card"].lower()
    if "cards" in spelt:
        spelt["cards"] = [card.lower() for card in spelt["cards"]]
    return spelt


def test_discards_melds_and_lay_offs_spelt_in_lower_case_are_refused_and_never_stored(alice_client, bob_client):
    """A Scattle game played through the API: whenever a discard, a meld or a lay-off is legal, it
    is sent in lower case first (400, nothing stored), then as the contract spells it."""
    detail = started_two_player_game(alice_client, bob_client, kind="scattle", options={"lay_off": "own"})
    game_id = detail["id"]
    clients = {0: alice_client, 1: bob_client}
    rng = random.Random("card codes")
    refused: set[str] = set()
    for _ in range(600):
        detail = game(alice_client, game_id)
        if detail["status"] != "active" or refused == set(CARD_FIELDS):
            break
        client = clients[detail["to_act"]]
        mine = game(client, game_id)
        actions = mine["legal_actions"]
        with_cards = [a for a in actions if a["type"] in CARD_FIELDS and a["type"] not in refused]
        chosen = with_cards[0] if with_cards else rng.choice(actions)
        if chosen["type"] in CARD_FIELDS:
            stored = Move.objects.count()
            response = move(client, game_id, lowered(chosen), mine["version"])
            assert response.status_code == 400, (chosen, response.content)
            assert Move.objects.count() == stored
            refused.add(chosen["type"])
        answer = move(client, game_id, chosen, mine["version"])
        assert answer.status_code == 201, (chosen, answer.content)
    assert refused == set(CARD_FIELDS)
    for stored in Move.objects.filter(game__public_id=game_id):
        codes = [stored.action.get("card"), *stored.action.get("cards", [])]
        assert all(code is None or code == code.upper() for code in codes), stored.action
