"""Notifications by email: sent once, in the player's language, with an id that survives a retry."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.mail.backends import locmem
from django.db import transaction
from django.utils import timezone

from games import services
from notifications import delivery as sending
from notifications import outbox, tasks
from notifications.models import Delivery, DeliveryStatus, NotificationKind, PlayerPreference


def invitation_email(creator, user) -> Delivery:
    """The email of `creator`'s invitation of `user` to a new game: sent as soon as the sweep finds it
    (a turn's email may be held back, see test_timing)."""
    game = services.create_game(creator=creator, kind="scat", num_seats=2, invite=[user.username])
    return Delivery.objects.get(notification__user=user, notification__game=game, channel="email")


def test_an_email_is_sent_once_with_a_link_to_the_game(alice, bob):
    delivery = invitation_email(alice, bob)
    game = delivery.notification.game

    assert sending.deliver(delivery.pk) == "sent"
    assert sending.deliver(delivery.pk) == "busy"  # a repeated task sends nothing

    [message] = mail.outbox
    assert message.to == [bob.email]
    assert message.subject == "Slowhand: alice invites you to a game of Scat."
    assert f"/games/{game.public_id}/" in message.body
    # A retry would carry the same Message-ID, so a mailbox that gets both keeps one.
    assert message.extra_headers["Message-ID"] == f"<delivery-{delivery.pk}@127.0.0.1>"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 1)


@pytest.mark.parametrize(
    ("language", "game", "not_said"),
    [("tr", "Scat", "invites you"), ("fa", "اسکات", "Scat")],  # the game's name in the player's language too
)
def test_the_email_speaks_the_players_language(alice, bob, language, game, not_said):
    bob.language = language
    bob.save(update_fields=["language"])
    sending.deliver(invitation_email(alice, bob).pk)

    [message] = mail.outbox
    assert game in message.subject and not_said not in message.subject


def test_a_player_without_an_address_gets_a_retry_and_the_reason(alice, bob):
    bob.email = ""
    bob.save(update_fields=["email"])
    delivery = invitation_email(alice, bob)

    assert sending.deliver(delivery.pk) == "retry"

    assert mail.outbox == []
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 1
    assert delivery.last_error == "the player has no email address"


def test_emails_wait_for_the_sweep_and_webhooks_get_a_message_of_their_own(
    alice, bob, django_capture_on_commit_callbacks
):
    PlayerPreference.objects.create(user=bob, webhook_url="https://example.com/hook", webhook_secret="s")
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    with django_capture_on_commit_callbacks() as queued, transaction.atomic():
        outbox.notify(NotificationKind.YOUR_TURN, [(bob.pk, game, {"game": game.public_id, "kind": "scat"})])
    email = Delivery.objects.get(channel="email")
    webhook = Delivery.objects.get(channel="webhook")

    # The webhook's message (beside the live streams' nudge); the move pays for no email message.
    assert [q for q in queued if "enqueue_after_commit" in q.__qualname__] == queued[-1:]
    assert len(queued) == 2
    assert sending.due_deliveries() == [email.pk]
    with time_machine.travel(timezone.now() + sending.OWN_MESSAGE_GRACE + timedelta(seconds=1)):
        # The webhook's message should have been handled by now: the sweep takes over.
        assert sorted(sending.due_deliveries()) == sorted([email.pk, webhook.pk])


class SessionCountingBackend(locmem.EmailBackend):
    """The test outbox, counting mail server sessions as the SMTP backend would open them."""

    sessions = 0

    def open(self) -> bool:
        if getattr(self, "is_open", False):
            return False
        self.is_open = True
        SessionCountingBackend.sessions += 1
        return True

    def close(self) -> None:
        self.is_open = False


def test_a_batch_of_emails_shares_one_mail_server_session(alice, bob, charlie, settings):
    settings.EMAIL_BACKEND = f"{__name__}.SessionCountingBackend"
    SessionCountingBackend.sessions = 0
    deliveries = [
        invitation_email(creator, user).pk for creator, user in ((alice, bob), (bob, charlie), (charlie, alice))
    ]

    assert tasks.deliver(deliveries) == ["sent", "sent", "sent"]

    assert len(mail.outbox) == 3
    assert SessionCountingBackend.sessions == 1
