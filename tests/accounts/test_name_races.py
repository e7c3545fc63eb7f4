"""Look-alike names are refused one signup at a time; signups at the same instant must not all pass."""

from __future__ import annotations

from functools import partial
from uuid import uuid4

import pytest
from django.test import Client

from accounts.models import User
from tests.api.test_concurrency import at_once

pytestmark = [pytest.mark.concurrency]

# "mallory" in Latin letters, with a Cyrillic a (U+0430) and o (U+043E), and in capitals.
LOOK_ALIKES = ["mallory", "m\u0430llory", "mall\u043ery", "m\u0430ll\u043ery", "MALLORY", "Mallory"]


def sign_up(username: str):
    password = "a-Long-pass-2024"
    data = {
        "username": username,
        "email": f"{uuid4().hex[:12]}@example.com",
        "password1": password,
        "password2": password,
    }
    return Client(raise_request_exception=False).post("/accounts/signup/", data)


@pytest.mark.django_db(transaction=True)
def test_look_alike_signups_at_the_same_instant_make_one_account(concurrent_database):
    responses = at_once([partial(sign_up, name) for name in LOOK_ALIKES])

    assert sorted(r.status_code for r in responses) == [200] * 5 + [302], [r.status_code for r in responses]
    made = list(User.objects.values_list("username", flat=True))
    assert len(made) == 1, made
