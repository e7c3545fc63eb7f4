"""Look-alike names: a new username or a display name may not pass for another player's username,
names may not hide invisible characters, and pages show a misleading display name with its username.

Look-alike letters are written as escapes ("\\u0430" is the Cyrillic a) so that this file shows them."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from accounts import names
from accounts.models import User
from games import services
from tests.conftest import make_user

from .helpers import win
from .signing_up import sign_up

CYRILLIC_ALICE = "\u0430lice"  # Cyrillic small a
UKRAINIAN_ALICE = "al\u0456ce"  # Byelorussian-Ukrainian i
GREEK_ALICE_IN_CAPITALS = "ALIC\u0395"  # Greek capital epsilon
HANGUL_FILLER = "\u3164"
ZERO_WIDTH_JOINER = "\u200d"
RIGHT_TO_LEFT_OVERRIDE = "\u202e"
TAKEN = "That username is taken, or looks too much like one that is."


def username_errors(response) -> list[str]:
    assert response.status_code == 200, "a refused signup shows the form again"
    return response.context["form"].errors.get("username", [])


def profile_form(user: User, **changes) -> dict[str, str]:
    return {"display_name": "", "email": user.email, "time_zone": "UTC", "language": "en", **changes}


# --- the keys ------------------------------------------------------------------------------------


def test_the_skeleton_maps_cyrillic_and_ukrainian_look_alikes_to_latin_letters():
    assert names.skeleton(CYRILLIC_ALICE) == names.skeleton(UKRAINIAN_ALICE) == names.skeleton("alice") == "alice"
    assert names.skeleton("a1ice") == "alice"  # the digit one looks like a small L
    assert names.skeleton("rn") == names.skeleton("m")


@pytest.mark.parametrize(
    "other",
    [CYRILLIC_ALICE, UKRAINIAN_ALICE, "ALICE", "Alice", "\u0410LICE", "a1ice", GREEK_ALICE_IN_CAPITALS, "aIice"],
    ids=repr,
)
def test_look_alikes_and_case_variants_share_a_key_with_alice(other):
    assert names.look_alike(other, "alice")


def test_capitals_that_look_latin_share_a_key_even_when_their_small_letters_do_not():
    assert names.look_alike("\u041aEN", "ken")  # Cyrillic capital Ka; its small letter is no Latin k
    assert names.look_alike("\u041dELLO", "hello")  # Cyrillic capital En


@pytest.mark.parametrize("other", ["alicia", "alice2", "ali", "bob", "Émile"])
def test_different_names_share_no_key_with_alice(other):
    assert not names.look_alike(other, "alice")


def test_the_vendored_table_says_where_it_comes_from():
    header = names.CONFUSABLES_FILE.read_text(encoding="utf-8").splitlines()[:7]
    assert any("Unicode Security Mechanisms version 17.0.0" in line for line in header)
    assert any("SHA-256" in line for line in header)
    assert len(names.confusables()) > 6000


def test_accounts_get_their_keys_when_created_and_from_the_refresh_command(alice):
    assert (alice.name_key, alice.look_key, alice.caps_key) == names.key_digests("alice")
    # bulk_create skips save(), which sets the keys (loaddata and raw SQL do too).
    [made_by_hand] = User.objects.bulk_create([User(username="dora")])
    assert User.objects.get(pk=made_by_hand.pk).name_key == ""
    call_command("refresh_name_keys")
    made_by_hand.refresh_from_db()
    assert (made_by_hand.name_key, made_by_hand.look_key, made_by_hand.caps_key) == names.key_digests("dora")


# --- signup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "username", [CYRILLIC_ALICE, UKRAINIAN_ALICE, "ALICE", "aIice", GREEK_ALICE_IN_CAPITALS], ids=repr
)
def test_signup_refuses_a_username_that_passes_for_alice(client, alice, username):
    assert username_errors(sign_up(client, username)) == [TAKEN]
    assert User.objects.count() == 1


def test_signup_refuses_emile_once_emile_exists_in_any_case_on_any_database(client, db):
    assert sign_up(client, "Émile").status_code == 302
    assert username_errors(sign_up(Client(), "émile")) == [TAKEN]
    assert list(User.objects.values_list("username", flat=True)) == ["Émile"]


def test_signup_stores_the_new_accounts_keys(client, db):
    assert sign_up(client, "Zoë").status_code == 302
    user = User.objects.get(username="Zoë")
    assert (user.name_key, user.look_key, user.caps_key) == names.key_digests("Zoë")


@pytest.mark.parametrize(
    ("username", "named"),
    [
        (f"alice{HANGUL_FILLER}", "U+3164 HANGUL FILLER"),
        (HANGUL_FILLER, "U+3164 HANGUL FILLER"),
        (f"al{ZERO_WIDTH_JOINER}ice", "U+200D ZERO WIDTH JOINER"),
    ],
    ids=repr,
)
def test_signup_refuses_invisible_characters_and_names_them(client, db, username, named):
    errors = username_errors(sign_up(client, username))
    assert len(errors) == 1
    assert named in errors[0] and "Remove the invisible character" in errors[0]
    assert not User.objects.exists()


# --- display names: PATCH /api/v1/me/ and the settings page ---------------------------------------------


def test_the_api_refuses_bobs_display_name_alice(bob_client, alice, bob):
    response = bob_client.patch("/api/v1/me/", {"display_name": "alice"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["code"] == "invalid"
    assert "another player's username" in body["details"]["display_name"][0]
    assert body["message"].startswith("display_name: ")
    bob.refresh_from_db()
    assert bob.display_name == ""


@pytest.mark.parametrize("display_name", ["Alice", CYRILLIC_ALICE, GREEK_ALICE_IN_CAPITALS, "aIice"], ids=repr)
def test_the_api_refuses_display_names_that_pass_for_alice(bob_client, alice, display_name):
    response = bob_client.patch("/api/v1/me/", {"display_name": display_name}, format="json")
    assert response.status_code == 400
    assert "another player's username" in response.json()["details"]["display_name"][0]


def test_the_settings_page_refuses_bobs_display_name_alice(alice, bob):
    client = Client()
    client.force_login(bob)
    response = client.post("/settings/profile/", profile_form(bob, display_name="alice"))
    assert response.status_code == 200
    assert "another player's username" in response.context["profile_form"].errors["display_name"][0]
    bob.refresh_from_db()
    assert bob.display_name == ""


def test_alice_may_show_her_own_username_in_capitals_but_bob_may_not(alice_client, bob_client):
    response = alice_client.patch("/api/v1/me/", {"display_name": "ALICE"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["display_name"] == "ALICE"
    assert bob_client.patch("/api/v1/me/", {"display_name": "ALICE"}, format="json").status_code == 400


def test_a_display_name_with_an_accent_and_one_inner_space_is_fine_and_shown_with_the_username(alice_client, alice):
    response = alice_client.patch("/api/v1/me/", {"display_name": "Émile Zola"}, format="json")
    assert response.status_code == 200, response.json()
    alice.refresh_from_db()
    assert alice.display_name == "Émile Zola"
    services.create_game(creator=alice, kind="scat", num_seats=2)
    assert "Émile Zola (@alice)" in Client().get("/games/").content.decode()


@pytest.mark.parametrize(
    ("display_name", "named"),
    [
        (HANGUL_FILLER, "U+3164 HANGUL FILLER"),
        (f"Bob{HANGUL_FILLER}", "U+3164 HANGUL FILLER"),
        (f"Bo{ZERO_WIDTH_JOINER}b", "U+200D ZERO WIDTH JOINER"),
        (f"{RIGHT_TO_LEFT_OVERRIDE}boB", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
        ("Bo\u00adb", "U+00AD SOFT HYPHEN"),
    ],
    ids=repr,
)
def test_the_api_refuses_invisible_characters_in_display_names_and_names_them(bob_client, display_name, named):
    response = bob_client.patch("/api/v1/me/", {"display_name": display_name}, format="json")
    assert response.status_code == 400
    detail = response.json()["details"]["display_name"][0]
    assert named in detail and "Remove the invisible character" in detail


def test_the_settings_page_refuses_a_hangul_filler_display_name(bob):
    client = Client()
    client.force_login(bob)
    response = client.post("/settings/profile/", profile_form(bob, display_name=HANGUL_FILLER))
    assert "U+3164 HANGUL FILLER" in response.context["profile_form"].errors["display_name"][0]


@pytest.mark.parametrize(
    ("display_name", "says"),
    [
        ("Bob  the Bold", "a single space between the words"),
        ("Bob\u00a0the Bold", "U+00A0 NO-BREAK SPACE"),
        ("Bob\tthe Bold", "ordinary spaces"),
        ("Bob\u3000the Bold", "U+3000 IDEOGRAPHIC SPACE"),
    ],
    ids=repr,
)
def test_display_names_part_words_by_single_ordinary_spaces(bob_client, display_name, says):
    response = bob_client.patch("/api/v1/me/", {"display_name": display_name}, format="json")
    assert response.status_code == 400
    assert says in response.json()["details"]["display_name"][0]


# --- pages show a misleading display name with its username -------------------------------------------


@pytest.fixture
def bob_calling_himself_alice(bob) -> User:
    """An account from before these rules, whose display name passes for a username."""
    bob.display_name = "Alice"
    bob.save(update_fields=["display_name"])
    return bob


def test_the_lobby_shows_bobs_display_name_alice_with_his_username(alice, bob_calling_himself_alice):
    services.create_game(creator=bob_calling_himself_alice, kind="scat", num_seats=2)
    html = Client().get("/games/").content.decode()
    assert "Alice (@bob)" in html


def test_the_waiting_room_and_the_table_name_bob_with_his_username(alice, bob_calling_himself_alice):
    game = services.create_game(creator=bob_calling_himself_alice, kind="scat", num_seats=3)
    client = Client()
    client.force_login(alice)
    assert "Alice (@bob)" in client.get(f"/games/{game.public_id}/").content.decode()
    services.join_game(game_id=game.public_id, user=alice)
    services.start_game(game_id=game.public_id, user=bob_calling_himself_alice)
    table = client.get(f"/games/{game.public_id}/").context["seat_names"]
    assert {entry["label"] for entry in table.values()} == {"Alice (@bob)", "alice"}


def test_the_profile_header_and_the_leaderboard_name_bob_with_his_username(alice, bob_calling_himself_alice):
    win(bob_calling_himself_alice, alice)
    profile = Client().get("/users/bob/").content.decode()
    assert '<h1 id="player-title">Alice (@bob)</h1>' in profile
    leaderboard = Client().get("/leaderboard/").content.decode()
    assert ">Alice (@bob)</a>" in leaderboard


def test_only_a_display_name_unlike_the_username_gets_the_username_beside_it(bob_calling_himself_alice):
    charlie = make_user("charlie")
    charlie.display_name = "Charlie"
    charlie.save(update_fields=["display_name"])
    services.create_game(creator=charlie, kind="scat", num_seats=2)
    services.create_game(creator=bob_calling_himself_alice, kind="scat", num_seats=2)
    html = Client().get("/games/").content.decode()
    assert "Alice (@bob)" in html
    assert "Charlie" in html and "(@charlie)" not in html
