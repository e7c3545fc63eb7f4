# ruff: noqa: RUF001 - the Turkish phrases are meant
"""One unread notice per game and kind: a new "your turn" (or "time running out") replaces the
reader's unread one of that game, names the company at the table in the reader's language, and the
badge counts the games with unread notices, not the notices."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone, translation

from games import sweeps
from games.models import Game
from notifications import outbox, texts
from notifications.models import Notification, NotificationKind
from tests.api.helpers import create_game, started_two_player_game
from tests.tasks.helpers import play_one_turn


def turns_of(user, game_id: str, kind: str = NotificationKind.YOUR_TURN):
    return Notification.objects.filter(user=user, game__public_id=game_id, kind=kind)


def play_until_bob_has_had(turns: int, game_id: str, bob) -> None:
    while turns_of(bob, game_id).count() < turns:
        play_one_turn(game_id)


def test_bobs_third_turn_leaves_one_unread_notice_that_names_alice(alice_client, bob_client, bob):
    game_id = started_two_player_game(alice_client, bob_client)["id"]
    play_until_bob_has_had(3, game_id, bob)

    listed = bob_client.get("/api/v1/notifications/").json()
    yours = [item for item in listed["results"] if item["kind"] == "your_turn"]
    assert len(yours) == 1
    assert yours[0]["text"] == "Your turn in Scat with alice."
    assert yours[0]["payload"]["with"] == [{"username": "alice", "name": "alice"}]
    # The older ones are written still (their emails and pushes had their say), but no longer listed.
    assert turns_of(bob, game_id).count() == 3
    assert turns_of(bob, game_id).filter(in_app=True).count() == 1


def test_a_read_notice_stays_listed_beside_the_new_one(alice_client, bob_client, bob):
    game_id = started_two_player_game(alice_client, bob_client)["id"]
    play_until_bob_has_had(1, game_id, bob)
    bob_client.post("/api/v1/notifications/read/", {"all": True}, format="json")
    play_until_bob_has_had(2, game_id, bob)
    listed = turns_of(bob, game_id).filter(in_app=True)
    assert [n.read_at is None for n in listed] == [True, False]  # newest first


def test_a_turn_in_another_game_replaces_nothing(alice_client, bob_client, bob):
    first = started_two_player_game(alice_client, bob_client)["id"]
    second = started_two_player_game(alice_client, bob_client)["id"]
    play_until_bob_has_had(1, first, bob)
    play_until_bob_has_had(1, second, bob)
    assert outbox.unread(bob).filter(kind=NotificationKind.YOUR_TURN).count() == 2


def test_the_badge_counts_games_not_notices(alice_client, bob_client, alice):
    game_id = started_two_player_game(alice_client, bob_client)["id"]
    play_until_bob_has_had(1, game_id, alice)  # alice: the game started, and her turn came
    play_one_turn(game_id)
    create_game(bob_client, seats=2, invite=["alice"])  # a second game, with an invitation
    kinds = sorted(outbox.unread(alice).values_list("kind", flat=True))
    assert kinds == ["game_started", "invitation", "your_turn"]
    listed = alice_client.get("/api/v1/notifications/").json()
    assert (listed["unread_count"], listed["unread_games"]) == (3, 2)
    browser = Client()
    browser.force_login(alice)
    page = browser.get("/")
    assert b'id="unread-badge" data-unread="2"' in page.content


def test_time_running_out_replaces_its_own_kind_only(alice_client, bob_client, bob):
    game_id = started_two_player_game(alice_client, bob_client)["id"]
    play_until_bob_has_had(1, game_id, bob)
    for _ in range(2):  # the sweep runs twice for the same turn (a reminder sent again)
        Game.objects.filter(public_id=game_id).update(reminder_at=timezone.now() - timedelta(seconds=1))
        assert sweeps.send_due_reminders() == 1
    running_out = turns_of(bob, game_id, NotificationKind.TIME_RUNNING_OUT)
    assert running_out.count() == 2 and running_out.filter(in_app=True).count() == 1
    assert turns_of(bob, game_id).filter(in_app=True).count() == 1  # the turn's own notice stays
    assert (
        texts.text_of(running_out.filter(in_app=True).get()) == "Your time to move in Scat with alice is running out."
    )


def test_the_notice_names_people_and_computers_in_the_readers_language(alice_client, bob_client, bob):
    created = create_game(alice_client, seats=3, bots=["good"], invite=["bob"])
    bob_client.post(f"/api/v1/games/{created['id']}/join/", format="json")
    play_until_bob_has_had(1, created["id"], bob)
    notice = turns_of(bob, created["id"]).get()
    assert texts.text_of(notice) == "Your turn in Scat with alice and Computer (good)."
    with translation.override("tr"):
        assert texts.text_of(notice) == "alice ve Bilgisayar (iyi) ile oynadığınız Scat oyununda sıra sizde."
    with translation.override("fa"):
        assert texts.text_of(notice) == "در بازی اسکات با alice و رایانه (خوب) نوبت شماست."


def test_a_notice_from_before_names_nobody(bob):
    old = Notification(user=bob, kind=NotificationKind.YOUR_TURN, payload={"game": "x", "kind": "scat"})
    assert texts.text_of(old) == "It is your turn in Scat."


def test_the_orm_writer_replaces_as_the_single_statement_does(alice_client, bob_client, bob):
    """SQLite writes the outbox with the ORM (PostgreSQL in one statement): the same replacement, there too."""
    game_id = started_two_player_game(alice_client, bob_client)["id"]
    game = Game.objects.get(public_id=game_id)
    written = []
    for _ in range(2):
        notice = Notification(user=bob, kind=NotificationKind.YOUR_TURN, game=game, payload={"game": game_id})
        outbox.write_outbox_with_orm([notice], [[]])
        written.append(notice.pk)
    listed = Notification.objects.filter(user=bob, game=game, kind=NotificationKind.YOUR_TURN, in_app=True)
    assert list(listed.values_list("pk", flat=True)) == [written[-1]]
