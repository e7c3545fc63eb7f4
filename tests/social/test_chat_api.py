"""Table talk through the API: Alice and Bob sit at a table, Charlie watches it from outside."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Block
from games import services
from notifications.models import Notification, NotificationKind
from social.models import ChatMessage, ChatSilence
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def client_of(user, language: str | None = None) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    if language:
        client.credentials(HTTP_ACCEPT_LANGUAGE=language)
    return client


@pytest.fixture
def cast(db):
    alice, bob, charlie = make_user("alice"), make_user("bob"), make_user("charlie")
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    return game.public_id, alice, bob, charlie


def chat_url(game_id: str) -> str:
    return f"/api/v1/games/{game_id}/chat/"


def say(client: APIClient, game_id: str, **body):
    # Encoded here, escaping every non-ASCII character, so that a lone surrogate reaches the server.
    return client.post(chat_url(game_id), json.dumps(body), content_type="application/json")


def read(client: APIClient, game_id: str) -> list[dict]:
    response = client.get(chat_url(game_id))
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def test_two_players_talk_and_read_it_oldest_first(cast):
    game_id, alice, bob, _ = cast
    first = say(client_of(alice), game_id, text="Hello Bob <b>hi</b> https://example.com")
    assert first.status_code == 201, first.json()
    assert first.json()["text"] == "Hello Bob <b>hi</b> https://example.com"  # kept as text, never as HTML
    assert say(client_of(bob), game_id, phrase="good_luck").status_code == 201
    messages = read(client_of(bob), game_id)
    assert [m["author"] for m in messages] == ["alice", "bob"]
    assert messages[1]["phrase"] == "good_luck" and "text" not in messages[1]
    assert [m["hidden"] for m in messages] == [False, False]
    after = client_of(alice).get(chat_url(game_id), {"after": messages[0]["id"]}).json()["results"]
    assert [m["id"] for m in after] == [messages[1]["id"]]


def test_spectators_and_outsiders_never_read_a_tables_talk(cast):
    game_id, alice, _bob, charlie = cast
    say(client_of(alice), game_id, text="secret plan")
    assert client_of(charlie).get(chat_url(game_id)).json()["code"] == "not_seated"
    assert client_of(charlie).get(chat_url(game_id)).status_code == 403
    assert say(client_of(charlie), game_id, text="hi").status_code == 403
    assert APIClient().get(chat_url(game_id)).status_code in (401, 403)
    for client in (client_of(charlie), APIClient()):
        for address in (f"/api/v1/games/{game_id}/", f"/api/v1/games/{game_id}/moves/", "/api/v1/games/"):
            assert "secret plan" not in client.get(address).content.decode()


def test_a_private_game_is_not_found_for_outsiders(db):
    alice, charlie = make_user("alice"), make_user("charlie")
    make_user("bob")
    game = services.create_game(creator=alice, kind="scat", num_seats=2, is_private=True, invite=["bob"])
    assert client_of(charlie).get(chat_url(game.public_id)).status_code == 404
    assert say(client_of(charlie), game.public_id, phrase="thanks").status_code == 404


def test_a_turkish_and_a_persian_reader_see_the_same_phrase_in_their_languages(cast):
    game_id, alice, bob, _ = cast
    say(client_of(alice), game_id, phrase="good_game")
    turkish = client_of(alice, "tr").get(chat_url(game_id)).json()["results"][0]
    persian = client_of(bob, "fa").get(chat_url(game_id)).json()["results"][0]
    assert turkish["phrase"] == persian["phrase"] == "good_game"
    assert turkish["phrase_text"] == "İyi oyundu"
    assert persian["phrase_text"] == "بازی خوبی بود"
    phrases_tr = {p["key"]: p["text"] for p in APIClient(HTTP_ACCEPT_LANGUAGE="tr").get("/api/v1/chat/phrases/").json()}
    phrases_fa = {p["key"]: p["text"] for p in APIClient(HTTP_ACCEPT_LANGUAGE="fa").get("/api/v1/chat/phrases/").json()}
    phrases_en = {p["key"]: p["text"] for p in APIClient().get("/api/v1/chat/phrases/").json()}
    assert (
        set(phrases_tr)
        == set(phrases_fa)
        == set(phrases_en)
        == {
            "good_luck",
            "good_game",
            "thanks",
            "your_turn_when_ready",
            "sorry_away",
        }
    )
    assert phrases_en["good_luck"] == "Good luck"
    assert phrases_tr["good_luck"] == "İyi şanslar" and phrases_fa["good_luck"] == "موفق باشید"
    assert all(phrases_tr[k] != phrases_en[k] and phrases_fa[k] != phrases_en[k] for k in phrases_en)


@pytest.mark.parametrize(
    "body, code",
    [
        ({"text": ""}, "empty_text"),
        ({"text": "   \n "}, "empty_text"),
        ({"text": "x" * 501}, "text_too_long"),
        ({"text": "bell\x07"}, "bad_character"),
        ({"text": "right-to-left \u202e override"}, "bad_character"),
        ({"text": "zero\u200bwidth"}, "bad_character"),
        ({"text": "nul\x00"}, "invalid"),
        ({"text": "\ud800"}, "invalid"),
        ({"text": ["a"]}, "invalid"),
        ({"text": {"a": 1}}, "invalid"),
        ({"text": None}, "invalid"),
        ({"text": 42}, "invalid"),
        ({"text": True}, "invalid"),
        ({"phrase": "hello"}, "unknown_phrase"),
        ({"phrase": 3}, "invalid"),
        ({"text": "a", "phrase": "thanks"}, "text_or_phrase"),
        ({}, "text_or_phrase"),
        ({"txt": "a"}, "invalid"),
    ],
)
def test_every_bad_message_is_a_400_that_says_why(cast, body, code):
    game_id, alice, _bob, _ = cast
    response = say(client_of(alice), game_id, **body)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert not ChatMessage.objects.exists()


def test_persian_text_keeps_its_non_joiner_and_500_characters_fit(cast):
    game_id, alice, _bob, _ = cast
    assert say(client_of(alice), game_id, text="می‌خواهم بازی کنم").json()["text"] == "می‌خواهم بازی کنم"
    assert say(client_of(alice), game_id, text="ş" * 500).status_code == 201
    assert say(client_of(alice), game_id, text="two\nlines").json()["text"] == "two\nlines"


@pytest.mark.parametrize("after", ["nope", "x" * 40, "a b", "\x00"])
def test_a_bad_after_is_a_400(cast, after):
    game_id, alice, _bob, _ = cast
    response = client_of(alice).get(chat_url(game_id), {"after": after})
    assert response.status_code == 400 and response.json()["code"] == "unknown_message"


def test_an_eleventh_message_in_a_minute_is_a_429_with_retry_after(cast):
    game_id, alice, bob, _ = cast
    for n in range(10):
        assert say(client_of(alice), game_id, text=f"message {n}").status_code == 201
    refused = say(client_of(alice), game_id, phrase="thanks")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert say(client_of(bob), game_id, text="my own ten").status_code == 201  # per player
    ChatMessage.objects.filter(author=alice).update(created_at=timezone.now() - timezone.timedelta(seconds=61))
    assert say(client_of(alice), game_id, text="a minute later").status_code == 201


def test_chat_off_sends_and_reads_phrases_only(cast):
    game_id, alice, bob, _ = cast
    assert client_of(bob).patch("/api/v1/me/", {"chat": "phrases"}, format="json").json()["chat"] == "phrases"
    say(client_of(alice), game_id, text="free text")
    say(client_of(alice), game_id, phrase="good_luck")
    assert [m.get("phrase") for m in read(client_of(bob), game_id)] == ["good_luck"]
    refused = say(client_of(bob), game_id, text="hello")
    assert refused.status_code == 403 and refused.json()["code"] == "chat_off"
    assert say(client_of(bob), game_id, phrase="thanks").status_code == 201
    bad = client_of(bob).patch("/api/v1/me/", {"chat": "off"}, format="json")
    assert bad.status_code == 400 and "chat" in bad.json()["details"]


def test_a_muted_players_messages_are_left_out_for_the_muter_only(cast):
    game_id, alice, bob, _ = cast
    assert client_of(bob).post("/api/v1/me/mutes/alice/").status_code == 201
    assert client_of(bob).post("/api/v1/me/mutes/ALICE/").status_code == 201  # again: no change
    say(client_of(alice), game_id, text="can you hear me")
    say(client_of(alice), game_id, phrase="good_luck")
    assert read(client_of(bob), game_id) == []
    assert len(read(client_of(alice), game_id)) == 2
    assert [m["username"] for m in client_of(bob).get("/api/v1/me/mutes/").json()["results"]] == ["alice"]
    assert client_of(bob).delete("/api/v1/me/mutes/alice/").status_code == 204
    assert len(read(client_of(bob), game_id)) == 2
    assert client_of(bob).delete("/api/v1/me/mutes/alice/").status_code == 404
    assert client_of(bob).post("/api/v1/me/mutes/nobody/").status_code == 404
    assert client_of(bob).post("/api/v1/me/mutes/bob/").json()["code"] == "mute_self"


def test_a_block_stops_table_talk_both_ways(cast):
    game_id, alice, bob, _ = cast
    say(client_of(alice), game_id, text="before the block")
    Block.objects.create(blocker=bob, blocked=alice)
    say(client_of(alice), game_id, text="after")
    say(client_of(bob), game_id, text="from bob")
    assert [m["author"] for m in read(client_of(bob), game_id)] == ["bob"]
    assert [m["author"] for m in read(client_of(alice), game_id)] == ["alice", "alice"]


def test_a_silenced_player_keeps_the_phrases(cast):
    game_id, alice, _bob, _ = cast
    ChatSilence.objects.create(user=alice, until=timezone.now() + timezone.timedelta(days=2))
    refused = say(client_of(alice), game_id, text="hi")
    assert refused.status_code == 403 and refused.json()["code"] == "chat_off"
    assert "silenced_until" in refused.json()["details"]
    assert say(client_of(alice), game_id, phrase="good_luck").status_code == 201


def test_a_new_message_notice_is_one_per_game_and_not_by_email(cast):
    game_id, alice, bob, _ = cast
    for text in ("one", "two", "three"):
        say(client_of(alice), game_id, text=text)
    notices = Notification.objects.filter(user=bob, kind=NotificationKind.CHAT_MESSAGE)
    assert notices.count() == 1
    assert not notices.get().deliveries.exists()  # in-app only unless Bob asks for more
    assert not Notification.objects.filter(user=alice, kind=NotificationKind.CHAT_MESSAGE).exists()
    notices.update(read_at=timezone.now())
    say(client_of(alice), game_id, text="four")
    assert notices.count() == 2


def test_messages_move_the_games_revision_on_but_not_its_version(cast):
    game_id, alice, _bob, _ = cast
    before = client_of(alice).get(f"/api/v1/games/{game_id}/").json()
    say(client_of(alice), game_id, phrase="good_luck")
    after = client_of(alice).get(f"/api/v1/games/{game_id}/").json()
    assert after["version"] == before["version"]
    message = ChatMessage.objects.get()
    assert message.revision == message.game.revision


def test_a_new_message_email_waits_out_quiet_hours_and_is_dropped_once_the_game_is_seen(cast):
    from notifications import presence, timing
    from notifications.models import Delivery, PlayerPreference

    game_id, alice, bob, _ = cast
    PlayerPreference.objects.create(
        user=bob,
        channels={"chat_message": ["in_app", "email"]},
        quiet_hours_start=dt.time(22),
        quiet_hours_end=dt.time(7),
    )
    say(client_of(alice), game_id, text="are you there?")
    email = Delivery.objects.select_related("notification__game").get(
        notification__user=bob, notification__kind="chat_message", channel="email"
    )
    preference = PlayerPreference.objects.select_related("user").get(user=bob)
    night = dt.datetime(2026, 12, 4, 23, 30, tzinfo=dt.UTC)
    decision = timing.decide(email, preference, night)
    assert decision.wait_until == dt.datetime(2026, 12, 5, 7, 0, tzinfo=dt.UTC)  # never in quiet hours
    noon = dt.datetime(2026, 12, 5, 12, 0, tzinfo=dt.UTC)
    assert timing.decide(email, preference, noon).send
    presence.mark_seen([(bob.pk, email.notification.game_id)])
    assert timing.decide(email, preference, timezone.now()).skip == "seen"
