"""Every way an account gets or changes its username gives it the look-alike keys: the admin's add and
change forms save through User.save(), not through the signup form or create_user."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User

from .signing_up import sign_up
from .test_names import TAKEN, username_errors

pytestmark = pytest.mark.django_db

CYRILLIC_O = "\u043e"


@pytest.fixture
def admin_client() -> Client:
    User.objects.create_superuser("root", "root@example.com", "root-pw-1234")
    client = Client()
    client.login(username="root", password="root-pw-1234")
    return client


def test_an_account_added_in_the_admin_cannot_be_impersonated_at_signup(admin_client, client):
    password = "an-Admin-made-pw-9"
    answer = admin_client.post(
        "/admin/accounts/user/add/",
        {"username": "moderator", "password1": password, "password2": password, "usable_password": "true"},
    )
    assert answer.status_code == 302, answer.content[:500]

    assert TAKEN in username_errors(sign_up(client, f"m{CYRILLIC_O}derator"))


def test_a_username_changed_by_save_gets_keys_of_its_new_name(alice, client):
    alice.username = "moderator"
    alice.save()

    assert TAKEN in username_errors(sign_up(client, f"m{CYRILLIC_O}derator"))
    assert sign_up(client, "alice").status_code == 302, "the old name is free again"
