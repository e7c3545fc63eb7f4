"""Look-alike names are refused one signup at a time; signups finished at the same instant must not all pass."""

from __future__ import annotations

from functools import partial
from uuid import uuid4

import pytest
from django.test import Client

from accounts.models import User
from tests.api.test_concurrency import at_once

from .signing_up import ask, finish, link_in, mails_to

pytestmark = [pytest.mark.concurrency]

# "mallory" in Latin letters, with a Cyrillic a (U+0430) and o (U+043E), and in capitals.
LOOK_ALIKES = ["mallory", "m\u0430llory", "mall\u043ery", "m\u0430ll\u043ery", "MALLORY", "Mallory"]


def link_for(username: str) -> str:
    """The first step, one signup at a time: each name gets its link, as none is taken yet."""
    email = f"{uuid4().hex[:12]}@example.com"
    assert ask(Client(), username, email).status_code == 302
    return link_in(mails_to(email)[-1])


def finish_at(link: str, username: str):
    return finish(Client(raise_request_exception=False), link, username)


@pytest.mark.django_db(transaction=True)
def test_look_alike_signups_at_the_same_instant_make_one_account(concurrent_database):
    links = {name: link_for(name) for name in LOOK_ALIKES}
    responses = at_once([partial(finish_at, link, name) for name, link in links.items()])

    assert sorted(r.status_code for r in responses) == [200] * 5 + [302], [r.status_code for r in responses]
    made = list(User.objects.values_list("username", flat=True))
    assert len(made) == 1, made
