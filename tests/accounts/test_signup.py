"""Signing up: a link by mail makes the account, so that the answer never tells whether an address
has an account (its owner is told instead), and one address cannot make accounts without end."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User

from .signing_up import PASSWORD, SIGNUP_URL, ask, finish, link_in, mails_to, sign_up

pytestmark = pytest.mark.django_db

ADDRESS_A = "198.51.100.7"
ADDRESS_B = "203.0.113.9"


def test_the_form_asks_for_a_username_and_an_address_then_the_link_makes_the_account(client):
    asked = ask(client, "dora", "dora@example.com")
    assert asked.status_code == 302 and asked["Location"] == "/accounts/signup/sent/"
    assert not User.objects.filter(username="dora").exists(), "nothing is made before the address answers"
    assert "Check your email" in client.get(asked["Location"]).content.decode()

    [message] = mails_to("dora@example.com")
    link = link_in(message)
    page = client.get(link)
    assert page.status_code == 200
    assert page.context["form"]["username"].value() == "dora"
    done = finish(client, link, "dora")
    assert done.status_code == 302 and done["Location"] == "/"
    dora = User.objects.get(username="dora")
    assert dora.email == "dora@example.com" and dora.check_password(PASSWORD)
    assert client.get("/").context["user"] == dora


def page_without_tokens(client: Client, path: str) -> str:
    """The page, bar its CSRF tokens (each client has its own)."""
    return re.sub(r'(name="csrf[^"]*" (?:content|value)=)"[^"]*"', r"\1", client.get(path).content.decode())


def test_a_taken_address_gets_the_same_answer_as_a_fresh_one_and_its_owner_a_mail(alice):
    fresh, taken = Client(), Client()
    fresh_answer = ask(fresh, "dora", "dora@example.com")
    taken_answer = ask(taken, "eve", "Alice@Example.com")

    assert (taken_answer.status_code, taken_answer["Location"]) == (fresh_answer.status_code, fresh_answer["Location"])
    assert page_without_tokens(taken, taken_answer["Location"]) == page_without_tokens(fresh, fresh_answer["Location"])
    [told] = mails_to("alice@example.com")
    assert "tried to sign up" in told.body and "alice" in told.body
    assert "/accounts/signup/finish/" not in told.body, "the owner's mail makes no second account"
    assert "/accounts/password/reset/" in told.body
    assert not User.objects.filter(username="eve").exists()


def test_the_form_says_nothing_about_addresses_in_use(client, alice):
    page = (
        ask(client, "eve", "alice@example.com").content.decode() + client.get("/accounts/signup/sent/").content.decode()
    )
    assert "Another account uses" not in page and "alice" not in page


def test_one_address_may_sign_up_a_few_times_an_hour(client, settings):
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 3
    for n in range(3):
        assert ask(client, f"player{n}", REMOTE_ADDR=ADDRESS_A).status_code == 302
    refused = ask(client, "player3", REMOTE_ADDR=ADDRESS_A, HTTP_X_FORWARDED_FOR=ADDRESS_B)
    assert refused.status_code == 429
    assert "Too many signups from your address" in refused.content.decode()
    assert len(mail.outbox) == 3
    assert ask(client, "player3", REMOTE_ADDR=ADDRESS_B).status_code == 302
    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        assert ask(client, "player4", REMOTE_ADDR=ADDRESS_A).status_code == 302


def test_one_mailbox_gets_a_few_signup_mails_an_hour_whoever_asks(settings, alice):
    settings.SIGNUPS_PER_EMAIL_PER_HOUR = 2
    answers = [ask(Client(), f"player{n}", "alice@example.com", REMOTE_ADDR=f"192.0.2.{n}") for n in range(4)]
    answers += [ask(Client(), f"other{n}", "zed@example.com", REMOTE_ADDR=f"192.0.2.{n + 10}") for n in range(4)]
    assert {(a.status_code, a["Location"]) for a in answers} == {(302, "/accounts/signup/sent/")}
    assert len(mails_to("alice@example.com")) == 2 and len(mails_to("zed@example.com")) == 2


def test_a_link_makes_one_account(client):
    asked = ask(client, "dora", "dora@example.com")
    assert asked.status_code == 302
    link = link_in(mails_to("dora@example.com")[0])
    assert finish(client, link, "dora").status_code == 302
    again = finish(Client(), link, "dora2")
    assert again.status_code == 200
    assert "An account uses this address now" in again.content.decode()
    assert User.objects.filter(email__iexact="dora@example.com").count() == 1


def test_a_forged_or_old_link_makes_nothing(client):
    ask(client, "dora", "dora@example.com")
    link = link_in(mails_to("dora@example.com")[0])
    forged = link.replace("/finish/", "/finish/x")
    assert finish(Client(), forged, "dora").status_code == 400
    with time_machine.travel(timezone.now() + timedelta(days=3, minutes=1)):
        old = finish(Client(), link, "dora")
    assert old.status_code == 400 and "Sign up again" in old.content.decode()
    assert not User.objects.filter(username="dora").exists()


def test_a_username_taken_between_the_mail_and_the_link_can_be_changed_on_the_page(client):
    ask(client, "dora", "dora@example.com")
    ask(Client(), "dora", "dora.other@example.com")
    assert sign_up(Client(), "Dora", "dora.third@example.com").status_code == 302
    link = link_in(mails_to("dora@example.com")[0])
    refused = finish(client, link, "dora")
    assert refused.status_code == 200
    assert refused.context["form"].errors["username"] == ["That username is taken, or looks too much like one that is."]
    assert finish(client, link, "dora_b").status_code == 302
    assert User.objects.get(username="dora_b").email == "dora@example.com"


def test_the_link_brings_the_new_player_back_where_they_were_going(client):
    ask(client, "dora", "dora@example.com", next_url="/games/new/")
    done = finish(client, link_in(mails_to("dora@example.com")[0]), "dora")
    assert done["Location"] == "/games/new/"


def test_a_next_address_elsewhere_is_dropped(client):
    ask(client, "dora", "dora@example.com", next_url="https://evil.example/")
    done = finish(client, link_in(mails_to("dora@example.com")[0]), "dora")
    assert done["Location"] == "/"


def test_the_mails_speak_the_readers_language(client, alice):
    alice.language = "tr"
    alice.save()
    client.post("/i18n/setlang/", {"language": "fa", "next": "/"})
    ask(client, "dora", "dora@example.com")
    ask(client, "eve", "alice@example.com")
    assert "ثبت‌نام" in mails_to("dora@example.com")[0].subject  # the Persian for "sign up"
    assert "kaydol" in mails_to("alice@example.com")[0].body.casefold()


def test_the_page_is_the_same_form_again_when_a_field_is_wrong(client):
    answer = client.post(SIGNUP_URL, {"username": "dora", "email": "not an address"})
    assert answer.status_code == 200 and "email" in answer.context["form"].errors
    assert not mail.outbox
