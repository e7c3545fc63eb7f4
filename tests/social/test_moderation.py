"""Reports and the moderation queue: Bob reports Alice's message, a moderator (Mo) acts in the admin."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from games import services
from social.models import ChatMessage, ChatReport, ChatWarning, ReportStatus
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

QUEUE = "/admin/social/chatreport/"


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def table(db):
    alice, bob, charlie = make_user("alice"), make_user("bob"), make_user("charlie")
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    return game.public_id, alice, bob, charlie


@pytest.fixture
def moderator(db) -> Client:
    mo = User.objects.create_superuser(username="mo", email="mo@example.com", password="mo-pw-1234")
    client = Client()
    client.force_login(mo)
    return client


def say(client, game_id: str, **body) -> dict:
    response = client.post(f"/api/v1/games/{game_id}/chat/", json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.json()
    return response.json()


def report(client, message_id: str, reason):
    return client.post(f"/api/v1/chat/{message_id}/report/", {"reason": reason}, format="json")


def chat_of(client, game_id: str) -> dict:
    return client.get(f"/api/v1/games/{game_id}/chat/").json()


def act(moderator: Client, action: str, reports, **extra) -> None:
    body = {"action": action, ACTION_CHECKBOX_NAME: [r.pk for r in reports], **extra}
    response = moderator.post(QUEUE, body)
    assert response.status_code in (200, 302), response.content[:500]


def test_a_report_reaches_the_queue_with_its_context_and_the_authors_history(table, moderator):
    game_id, alice, bob, _ = table
    say(client_of(bob), game_id, text="hi alice")
    rude = say(client_of(alice), game_id, text="you play like a potato")
    say(client_of(alice), game_id, phrase="sorry_away")
    assert report(client_of(bob), rude["id"], "insult").status_code == 202
    assert report(client_of(bob), rude["id"], "insult again").status_code == 202  # once per reporter
    assert ChatReport.objects.count() == 1

    queue = moderator.get(QUEUE).content.decode()
    assert "you play like a potato" in queue and "insult" in queue and "bob" in queue
    page = moderator.get(f"{QUEUE}{ChatReport.objects.get().pk}/change/").content.decode()
    assert "hi alice" in page and "(sorry_away)" in page  # the talk around it
    assert "reports of their messages: 1 open" in page  # the author's history


def test_hiding_a_message_leaves_it_to_its_author_marked_hidden(table, moderator):
    game_id, alice, bob, _ = table
    rude = say(client_of(alice), game_id, text="rude words")
    report(client_of(bob), rude["id"], "rude")
    act(moderator, "hide_messages", ChatReport.objects.all())
    assert ChatReport.objects.get().status == ReportStatus.HIDDEN
    assert chat_of(client_of(bob), game_id)["results"] == []
    mine = chat_of(client_of(alice), game_id)["results"]
    assert [(m["text"], m["hidden"]) for m in mine] == [("rude words", True)]


def test_a_warning_is_shown_to_the_author_and_never_the_reporter(table, moderator):
    game_id, alice, bob, _ = table
    rude = say(client_of(alice), game_id, text="rude words")
    report(client_of(bob), rude["id"], "a very particular reason")
    act(moderator, "warn_authors", ChatReport.objects.all())
    assert ChatWarning.objects.filter(user=alice).count() == 1
    seen_by_alice = chat_of(client_of(alice), game_id)
    assert seen_by_alice["moderation"]["warned_at"] is not None
    assert chat_of(client_of(bob), game_id)["moderation"]["warned_at"] is None
    everything = json.dumps(seen_by_alice) + client_of(alice).get("/api/v1/notifications/").content.decode()
    everything += client_of(alice).get("/api/v1/me/").content.decode()
    assert "a very particular reason" not in everything and "report" not in everything.lower()


def test_a_silence_refuses_free_text_for_its_days_and_leaves_the_phrases(table, moderator):
    game_id, alice, bob, _ = table
    rude = say(client_of(alice), game_id, text="rude words")
    report(client_of(bob), rude["id"], "rude")
    form = moderator.post(QUEUE, {"action": "silence_authors", ACTION_CHECKBOX_NAME: [ChatReport.objects.get().pk]})
    assert b'name="days"' in form.content  # the moderator is asked for how long
    act(moderator, "silence_authors", ChatReport.objects.all(), apply="1", days="3", reason="insults")
    assert ChatReport.objects.get().status == ReportStatus.SILENCED
    refused = client_of(alice).post(f"/api/v1/games/{game_id}/chat/", {"text": "more"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "chat_off"
    assert say(client_of(alice), game_id, phrase="good_game")["phrase"] == "good_game"
    assert chat_of(client_of(alice), game_id)["moderation"]["silenced_until"] is not None


@pytest.mark.parametrize(
    "reason, code", [("", "empty_text"), ("x" * 501, "text_too_long"), ("\x1b[31m", "bad_character")]
)
def test_a_bad_reason_is_a_400(table, reason, code):
    game_id, alice, bob, _ = table
    message = say(client_of(alice), game_id, text="hello")
    response = report(client_of(bob), message["id"], reason)
    assert response.status_code == 400 and response.json()["code"] == code


def test_only_a_reader_of_a_message_may_report_it(table):
    game_id, alice, bob, charlie = table
    message = say(client_of(alice), game_id, text="hello")
    assert report(client_of(charlie), message["id"], "spam").status_code == 404  # not at the table
    assert report(client_of(alice), message["id"], "me").json()["code"] == "report_self"
    assert report(client_of(bob), "nosuchmessage", "spam").status_code == 404
    assert report(client_of(bob), "bad id!", "spam").status_code == 404
    assert APIClient().post(f"/api/v1/chat/{message['id']}/report/", {"reason": "x"}, format="json").status_code in (
        401,
        403,
    )
    body = client_of(bob).post(f"/api/v1/chat/{message['id']}/report/", {"reason": "x", "extra": 1}, format="json")
    assert body.status_code == 400
    assert not ChatReport.objects.exists()
    assert ChatMessage.objects.count() == 1
