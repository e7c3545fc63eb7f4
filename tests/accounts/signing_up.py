"""Signing up as a person does: the form, the mail, its link, the password."""

from __future__ import annotations

import re
from uuid import uuid4

from django.core import mail
from django.test import Client

PASSWORD = "a-Long-pass-42"
SIGNUP_URL = "/accounts/signup/"


def mails_to(email: str) -> list:
    return [m for m in mail.outbox if m.to == [email]]


def link_in(message) -> str:
    """The path of the signup link in a mail (the link is absolute, to the test server)."""
    found = re.search(r"https?://[^/\s]+(/accounts/signup/finish/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def ask(client: Client, username: str, email: str | None = None, next_url: str | None = None, **extra):
    """The first step: the form with a username and an address."""
    data = {"username": username, "email": email or f"{uuid4().hex[:12]}@example.com"}
    if next_url is not None:
        data["next"] = next_url
    return client.post(SIGNUP_URL, data, **extra)


def finish(client: Client, link: str, username: str, password: str = PASSWORD):
    """The second step: the link's page, with the password chosen."""
    return client.post(link, {"username": username, "password1": password, "password2": password})


def sign_up(client: Client, username: str, email: str | None = None, password: str = PASSWORD, **extra):
    """Both steps; the first step's answer when it refuses (it shows the form again)."""
    email = email or f"{uuid4().hex[:12]}@example.com"
    asked = ask(client, username, email, **extra)
    if asked.status_code != 302:
        return asked
    return finish(client, link_in(mails_to(email)[-1]), username, password)
