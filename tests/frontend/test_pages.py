"""The pages through Django's test client: what they show, and what their forms change."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from django.test import Client

from frontend.forms import NewGameForm
from games import services
from games.engine import KINDS, get_rules
from games.models import Game, GameStatus
from notifications.models import Notification
from tests.accounts.signing_up import finish, link_in, mails_to
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def page_client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def embedded_game(html: str) -> dict:
    match = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the table embeds the game as JSON"
    return json.loads(match.group(1))


def two_player_scat(alice, bob, **options) -> Game:
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options=options)
    services.join_game(game_id=game.public_id, user=bob)
    return Game.objects.get(pk=game.pk)


def as_posted(form: NewGameForm, names: list[str] | None = None) -> dict:
    """What the browser sends for `form` (or its fields `names`) as shown: a ticked box as "on", an
    unticked one not at all."""
    data = {}
    for name in names or form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else str(value)
    return data


def new_game_form_data(kind: str = "scat", **overrides) -> dict:
    """The form as the browser would send it untouched: every option at its default, as rendered."""
    data = {"kind": kind, "seats": "2", "time_control": "per_move", "move_time_limit": "86400"}
    data.update({"timeout_policy": "autoplay", "good_bots": "0", "random_bots": "0", "invite_days": "14"})
    form = NewGameForm()
    data.update(as_posted(form, [name for names in form.option_fields.values() for name in names]))
    data.update(overrides)
    return data


# --- home and lobby ------------------------------------------------------------------------------


def test_home_explains_slowhand_to_a_visitor(client):
    html = client.get("/").content.decode()
    assert "Scat" in html and "Scattle" in html
    assert 'href="/accounts/signup/"' in html


def test_home_lists_the_games_awaiting_the_player_most_urgent_first(alice, bob, charlie):
    # With seat 1 dealing, seat 0 (Alice) plays first; the older game's deadline comes first.
    first = two_player_scat(alice, bob, first_dealer=1)
    second = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=second.public_id, user=charlie)
    not_awaiting = services.create_game(creator=bob, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=not_awaiting.public_id, user=alice)
    # A 31 on the deal (about 1 deal in 450) ends the first hand at once and moves the first turn on,
    # so ask the games who is to act rather than assume it.
    games = [Game.objects.get(pk=g.pk) for g in (first, second, not_awaiting)]
    expected = [
        g.public_id for g in sorted(games, key=lambda g: g.deadline) if g.seats.get(index=g.to_act_seat).user == alice
    ]
    response = page_client(alice).get("/")
    listed = [g["id"] for g in response.context["awaiting"]]
    assert listed == expected
    for game_id in listed:
        assert f"/games/{game_id}/" in response.content.decode()


def test_lobby_lists_open_games_with_a_join_button(alice, bob):
    game = services.create_game(creator=alice, kind="scattle", num_seats=3)
    html = page_client(bob).get("/games/").content.decode()
    assert f'action="/games/{game.public_id}/"' in html
    assert 'aria-label="Join Scattle!: alice, open seat, open seat"' in html


def test_lobby_leaves_out_a_game_whose_free_seats_are_kept_for_others(alice, bob):
    kept = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    charlie = make_user("charlie")
    assert f"/games/{kept.public_id}/" not in page_client(charlie).get("/games/").content.decode()
    bobs = page_client(bob).get("/games/").content.decode()
    assert f'action="/games/{kept.public_id}/"' in bobs and "a seat kept for you" in bobs


def test_games_nobody_else_can_join_do_not_crowd_the_lobby_out(alice, bob):
    from frontend.views import LIST_LIMIT

    joinable = services.create_game(creator=bob, kind="scat", num_seats=2)
    for _ in range(LIST_LIMIT + 1):  # newer, each with its one free seat kept for a link's holder
        kept = services.create_game(creator=alice, kind="scat", num_seats=2)
        services.create_invite_link(game_id=kept.public_id, user=alice)
    html = page_client(make_user("charlie")).get("/games/").content.decode()
    assert f'action="/games/{joinable.public_id}/"' in html
    assert html.count('name="operation" value="join"') == 1


def test_joining_from_the_lobby_takes_the_seat_and_starts_a_full_game(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    response = page_client(bob).post(f"/games/{game.public_id}/", {"operation": "join"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.seats.filter(user=bob).exists()


def test_lobby_shows_my_games_by_state(alice, bob):
    active = two_player_scat(alice, bob)
    waiting = services.create_game(creator=alice, kind="scattle", num_seats=2)
    context = page_client(alice).get("/games/").context
    assert [g["id"] for g in context["my_active"]] == [active.public_id]
    assert [g["id"] for g in context["my_open"]] == [waiting.public_id]


# --- the new-game form -------------------------------------------------------------------------


def test_new_game_needs_an_account(client):
    response = client.get("/games/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("kind", KINDS)
def test_new_game_form_shows_every_rules_option_with_its_default_and_help(alice, kind):
    html = page_client(alice).get("/games/new/").content.decode()
    for spec in get_rules(kind).option_specs():
        field_id = f"id_{kind}-{spec['name']}"
        assert f'id="{field_id}"' in html, spec["name"]
        help_block = re.search(rf'<small class="help" id="{field_id}_helptext">(.*?)</small>', html, re.S)
        assert help_block, f"{spec['name']} has no explanation"
        assert "Default:" in help_block.group(1)


def test_every_rules_option_has_a_player_facing_label_and_explanation():
    from frontend.option_texts import OPTION_TEXTS

    missing = [(kind, s["name"]) for kind in KINDS for s in get_rules(kind).option_specs()]
    missing = [key for key in missing if key not in OPTION_TEXTS]
    assert not missing, f"add these to frontend/option_texts.py: {missing}"


def test_creating_a_scat_game_with_changed_options(alice, bob):
    data = new_game_form_data(
        "scat",
        **{"scat-initial_tokens": "1", "scat-three_of_a_kind_value": "30.5", "invite": "bob", "good_bots": "1"},
    )
    data.pop("scat-on_the_county")  # an unticked box is not sent
    data["seats"] = "3"
    response = page_client(alice).post("/games/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    game = Game.objects.get(creator=alice)
    assert response["Location"] == f"/games/{game.public_id}/"
    assert game.options["initial_tokens"] == 1
    assert game.options["on_the_county"] is False
    assert game.options["three_of_a_kind_value"] == 30.5
    assert game.num_seats == 3
    assert game.seats.get(index=1).invited_user == bob
    assert game.seats.get(index=2).bot_level == "good"
    assert Notification.objects.filter(user=bob, kind="invitation").exists()


def test_creating_a_scattle_game_ignores_the_scat_fieldset(alice):
    data = new_game_form_data("scattle", **{"scattle-target_score": "", "scat-initial_tokens": "not a number"})
    response = page_client(alice).post("/games/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    game = Game.objects.get(creator=alice)
    assert game.kind == "scattle"
    assert game.options["target_score"] is None


def test_the_form_shows_the_services_refusal_on_the_field(alice):
    response = page_client(alice).post("/games/new/", new_game_form_data(invite="nobody-here"))
    assert response.status_code == 200
    assert "nobody-here" in response.context["form"].errors["invite"][0]
    assert not Game.objects.exists()


def test_play_again_sets_up_the_same_game_with_the_same_people(alice, bob):
    bank = {"initial": 3 * 86400, "increment": 12 * 3600, "cap": 7 * 86400}
    first = services.create_game(
        creator=alice, kind="scattle", num_seats=3, preset="original", time_bank=bank, timeout_policy="forfeit",
        bots=["good"], invite=["bob"], is_private=True, rated=False, advice=True,
    )  # fmt: skip
    services.join_game(game_id=first.public_id, user=bob)
    first.refresh_from_db()

    form = page_client(alice).get(f"/games/new/?again={first.public_id}").context["form"]
    response = page_client(alice).post("/games/new/", as_posted(form))
    assert response.status_code == 302, response.context["form"].errors
    again = Game.objects.exclude(pk=first.pk).get(creator=alice)
    same = ("kind", "num_seats", "time_control", "bank_initial", "bank_increment", "bank_cap",
            "timeout_policy", "is_private", "rated", "advice")  # fmt: skip
    assert [getattr(again, f) for f in same] == [getattr(first, f) for f in same]
    # Its options as played ("auto" is kept as "auto", and comes to the same at this seat count).
    assert get_rules("scattle").validate_options(again.options, again.num_seats) == first.options
    assert [(s.invited_user, s.bot_level) for s in again.seats.order_by("index")][1:] == [(bob, ""), (None, "good")]


def test_play_again_keeps_auto_as_auto_for_another_seat_count(alice, bob):
    game = services.create_game(creator=alice, kind="scattle", num_seats=2, options={"target_score": 40})
    services.join_game(game_id=game.public_id, user=bob)
    assert Game.objects.get(pk=game.pk).options["deck_count"] != "auto"  # a started game holds the number
    form = page_client(alice).get(f"/games/new/?again={game.public_id}").context["form"]
    assert form["scattle-deck_count"].value() == '"auto"'
    assert form["scattle-target_score"].value() == 40  # chosen by hand


def test_play_again_shows_a_game_only_to_who_may_see_it(alice, bob):
    private = services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"], is_private=True)
    stranger = make_user("charlie")
    form = page_client(stranger).get(f"/games/new/?again={private.public_id}").context["form"]
    assert form["seats"].value() == 2 and not form["invite"].value(), "the blank form, nothing of the game"
    public = services.create_game(creator=alice, kind="scat", num_seats=3, bots=["good"])
    services.join_game(game_id=public.public_id, user=bob)
    form = page_client(stranger).get(f"/games/new/?again={public.public_id}").context["form"]
    assert form["seats"].value() == 3 and not form["invite"].value(), "its setup, but nobody invited"


@pytest.mark.parametrize("language", ["en", "tr"])
def test_rules_options_that_do_not_fit_are_refused_beside_the_option_at_fault(alice, language):
    client = page_client(alice)
    client.cookies["django_language"] = language
    endless = new_game_form_data("scattle", **{"scattle-max_stock_rebuilds": ""})
    endless.pop("scattle-stalemate_end")  # unticked: with no limit on rebuilds, a game could never end
    too_few_seats = new_game_form_data("scat", **{"scat-min_players": "3"})  # two seats
    for data, field in ((endless, "scattle-max_stock_rebuilds"), (too_few_seats, "seats")):
        response = client.post("/games/new/", data)
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == [field], errors
    assert not Game.objects.exists()


def test_a_time_bank_game(alice):
    data = new_game_form_data(time_control="bank", bank_initial="86400", bank_increment="3600", bank_cap="604800")
    response = page_client(alice).post("/games/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    game = Game.objects.get(creator=alice)
    assert (game.time_control, game.bank_initial, game.bank_increment, game.bank_cap) == ("bank", 86400, 3600, 604800)


# --- the table ---------------------------------------------------------------------------------


def test_the_table_embeds_the_game_as_the_viewer_may_see_it(alice, bob):
    game = two_player_scat(alice, bob)
    for user in (alice, bob):
        data = embedded_game(page_client(user).get(f"/games/{game.public_id}/").content.decode())
        assert data["your_seat"] == game.seats.get(user=user).index
        assert len(data["hand"]) == 3
    spectator = embedded_game(Client().get(f"/games/{game.public_id}/").content.decode())
    assert spectator["your_seat"] is None and spectator["hand"] is None
    assert "seed" not in json.dumps(spectator["state"])


def test_the_table_loads_its_script_and_the_translations(alice, bob):
    game = two_player_scat(alice, bob)
    html = page_client(alice).get(f"/games/{game.public_id}/").content.decode()
    assert '<script src="/jsi18n/"></script>' in html
    assert '<script type="module" src="/static/frontend/js/table.js"></script>' in html
    assert 'aria-live="polite"' in html


def test_a_private_game_is_not_found_by_others(alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"], is_private=True)
    assert page_client(charlie).get(f"/games/{game.public_id}/").status_code == 404
    assert page_client(bob).get(f"/games/{game.public_id}/").status_code == 200


def test_the_waiting_room_offers_the_invited_player_accept_and_decline(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    html = page_client(bob).get(f"/games/{game.public_id}/").content.decode()
    assert "Accept the invitation" in html and "Decline" in html
    page_client(bob).post(f"/games/{game.public_id}/", {"operation": "decline"})
    assert not game.seats.filter(invited_user=bob).exists()


def test_the_creator_can_start_early_and_cancel(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    services.join_game(game_id=game.public_id, user=bob)
    page_client(alice).post(f"/games/{game.public_id}/", {"operation": "start"})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.num_seats == 2

    other = services.create_game(creator=alice, kind="scat", num_seats=2)
    response = page_client(alice).post(f"/games/{other.public_id}/", {"operation": "leave"})
    assert response["Location"] == "/games/"
    other.refresh_from_db()
    assert other.status == GameStatus.ABORTED


def test_a_refused_operation_shows_a_message(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    client = page_client(bob)
    response = client.post(f"/games/{game.public_id}/", {"operation": "start"}, follow=True)
    assert "Only the game&#x27;s creator can start it." in response.content.decode()


def test_an_invitation_link_is_shown_once_and_seats_whoever_opens_it(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, is_private=True)
    creator = page_client(alice)
    response = creator.post(f"/games/{game.public_id}/", {"operation": "invite_link"}, follow=True)
    link = re.search(r'id="invite-link-url"', response.content.decode())
    assert link
    url = re.search(r'value="(http://testserver/games/[^"]+)"', response.content.decode()).group(1)
    assert "invite-link-url" not in creator.get(f"/games/{game.public_id}/").content.decode()
    path = url.replace("http://testserver", "").replace("&amp;", "&")

    # A visitor without an account is sent to sign up, and comes back to the link.
    visitor = Client()
    response = visitor.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/signup/?next=")
    # Someone who has an account already logs in from there and comes back just the same.
    signup_page = visitor.get(response["Location"]).content.decode()
    assert f'href="/accounts/login/?next={quote(path, safe="/")}"' in signup_page
    signup = visitor.post(response["Location"], {"username": "dora", "email": "dora@example.com"})
    assert signup.status_code == 302
    signup = finish(visitor, link_in(mails_to("dora@example.com")[0]), "dora")  # the mailed link
    assert signup.status_code == 302
    assert signup["Location"] == path
    html = visitor.get(path).content.decode()
    assert "Join with this invitation" in html
    token = path.split("invite=")[1]
    visitor.post(f"/games/{game.public_id}/", {"operation": "join", "invite_token": token})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.seats.filter(user__username="dora").exists()


# --- notifications -----------------------------------------------------------------------------


def test_notifications_page_lists_and_marks_read(alice, bob):
    services.create_game(creator=bob, kind="scat", num_seats=2, invite=["alice"])
    client = page_client(alice)
    response = client.get("/notifications/")
    game = Game.objects.get(creator=bob)
    assert f'href="/games/{game.public_id}/"' in response.content.decode()
    assert response.context["unread"] == 1
    assert '<span class="badge">1' in client.get("/").content.decode()
    client.post("/notifications/", {"all": "1"})
    assert client.get("/notifications/").context["unread"] == 0


def test_marking_one_notification_read(alice, bob):
    services.create_game(creator=bob, kind="scat", num_seats=2, invite=["alice"])
    services.create_game(creator=bob, kind="scattle", num_seats=2, invite=["alice"])
    client = page_client(alice)
    first = Notification.objects.filter(user=alice).first()
    client.post("/notifications/", {"ids": [str(first.pk)]})
    assert client.get("/notifications/").context["unread"] == 1


def test_notifications_need_an_account(client):
    assert client.get("/notifications/").status_code == 302


def test_names_are_escaped(alice):
    mallory = make_user("mallory")
    mallory.display_name = "<script>alert(1)</script>"
    mallory.save()
    services.create_game(creator=mallory, kind="scat", num_seats=2)
    html = page_client(alice).get("/games/").content.decode()
    assert "<script>alert(1)</script>" not in html


def test_the_new_game_form_offers_the_original_rules_and_explains_auto(alice):
    html = page_client(alice).get("/games/new/").content.decode()
    assert 'name="preset"' in html and 'value="original"' in html
    assert 'id="scattle-auto-note"' in html and 'id="scattle-auto-table"' in html
    assert "&quot;auto&quot;" in html or '"auto"' in html  # the decks' automatic choice


def test_creating_a_game_from_the_original_rules_with_the_form(alice):
    data = new_game_form_data("scattle", preset="original")
    response = page_client(alice).post("/games/new/", data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.options["deck_count"], game.options["target_score"], game.options["tie_rule"]) == (1, 25, "shared")


def test_an_automatic_target_is_typed_as_auto_or_a_number(alice):
    for typed, stored in (("auto", "auto"), ("12", 12), ("", None)):
        Game.objects.all().delete()
        data = new_game_form_data("scattle", **{"scattle-target_score": typed})
        assert page_client(alice).post("/games/new/", data).status_code == 302
        assert Game.objects.get().options["target_score"] == stored
    refused = page_client(alice).post("/games/new/", new_game_form_data("scattle", **{"scattle-target_score": "many"}))
    assert "Type auto or a whole number" in refused.content.decode()


def test_opening_a_game_marks_the_players_notifications_about_it_read(alice, bob):
    game = two_player_scat(alice, bob)  # alice hears that the game started
    other = services.create_game(creator=bob, kind="scattle", num_seats=2, invite=["alice"])
    client = page_client(alice)
    assert client.get("/notifications/").context["unread"] == 2
    client.get(f"/games/{game.public_id}/")
    unread = Notification.objects.filter(user=alice, read_at__isnull=True)
    assert [n.game_id for n in unread] == [other.pk]


@pytest.mark.parametrize("language", ["tr", "fa"])
def test_each_option_is_explained_in_the_readers_language_where_it_is_chosen(alice, language):
    from django.utils import translation

    from frontend.option_texts import OPTION_TEXTS

    with translation.override("en"):
        english = {str(field.help_text) for group in NewGameForm().option_groups() for field in group["fields"]}
    with translation.override(language):
        groups = NewGameForm().option_groups()
        shown = {group["kind"]: [str(field.help_text) for field in group["fields"]] for group in groups}
    assert {kind: len(texts) for kind, texts in shown.items()} == {
        kind: sum(1 for key in OPTION_TEXTS if key[0] == kind) for kind in KINDS
    }
    untranslated = [text for texts in shown.values() for text in texts if not text or text in english]
    assert untranslated == []
    html = page_client(alice).get("/games/new/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'href="/how-to-play/scat/"' in html and 'href="/how-to-play/scattle/"' in html
