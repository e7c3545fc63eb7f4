from accounts.models import User

from .signing_up import sign_up


def test_home_page_renders(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Slowhand" in response.content


def test_signup_creates_an_account_and_logs_in(client, db):
    response = sign_up(client, "dora", "dora@example.com")
    assert response.status_code == 302
    assert User.objects.filter(username="dora").exists()
    assert client.get("/").context["user"].username == "dora"


def test_usernames_are_unique_without_regard_to_case(client, alice):
    response = sign_up(client, "ALICE", "x@example.com")
    assert response.status_code == 200
    assert "taken" in response.content.decode()
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_login_page_has_labelled_fields_and_a_log_in_button(client, db):
    html = client.get("/accounts/login/").content.decode()
    assert '<label for="id_username">Username</label>' in html
    assert '<label for="id_password">Password</label>' in html
    assert ">Log in</button>" in html


def test_login_accepts_the_username_in_any_case(client, alice):
    response = client.post("/accounts/login/", {"username": "Alice", "password": "alice-pw-1234"})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "alice"


def test_logout_ends_the_session(client, alice):
    client.force_login(alice)
    assert client.post("/accounts/logout/").status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_switching_language_remembers_it_on_the_account(client, alice):
    client.force_login(alice)
    response = client.post("/i18n/setlang/", {"language": "fa", "next": "/"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.language == "fa"
    assert client.cookies["django_language"].value == "fa"


def test_an_unknown_language_changes_nothing(client, alice):
    client.force_login(alice)
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "en"
