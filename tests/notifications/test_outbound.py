"""The webhook sender on real sockets: it checks the address when it sends, connects to the address
it checked, follows no redirect, keeps to its timeout, and tells the player one sentence whatever
failed on the wire (anything more would make it a port scanner)."""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from notifications import delivery as sending
from notifications import outbound, outbox
from notifications.channels import webhook
from notifications.channels.webhook import WEBHOOK_NOT_ACCEPTED
from notifications.models import Delivery, PlayerPreference
from notifications.outbound import MAX_ANSWER_BYTES, AddressRefused, SendFailed
from tests.tasks.helpers import subscribe_webhook
from tests.tasks.wire import Resolver, certificate_authority, closed_port, servers


@pytest.fixture
def resolver(monkeypatch) -> Resolver:
    return Resolver.installed(monkeypatch)


@pytest.fixture
def http():
    with servers() as pool:
        yield pool


@pytest.fixture
def production(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False


@pytest.fixture
def laptop(settings):
    """Private addresses allowed, so that receivers on 127.0.0.1 can take deliveries."""
    settings.WEBHOOK_ALLOW_PRIVATE = True


def invite(user) -> Delivery:
    """One webhook delivery for `user`, not yet sent."""
    outbox.notify("invitation", [(user.pk, None, {"from": "charlie", "kind": "scat"})])
    return Delivery.objects.get(notification__user=user, channel="webhook")


def deliver(delivery: Delivery) -> tuple[str, Delivery, PlayerPreference]:
    outcome = sending.deliver(delivery.pk)
    delivery.refresh_from_db()
    return outcome, delivery, PlayerPreference.objects.get(user_id=delivery.notification.user_id)


def post(url: str, **kwargs) -> object:
    headers = {"Content-Type": "application/json", "X-Test": "1"}
    return outbound.post(url, b'{"hello": 1}', headers, **{"allow_private": True, "timeout": 2, **kwargs})


# --- through a delivery --------------------------------------------------------------------------


def test_a_name_that_rebinds_to_loopback_after_it_was_saved_gets_nothing(production, bob_client, bob, resolver, http):
    receiver = http.start()
    resolver.answer("hook.example.test", ["93.184.216.34"])
    saved = bob_client.patch(
        "/api/v1/me/notification-settings/",
        {"webhook_url": f"http://hook.example.test:{receiver.port}/hook", "channels": {"invitation": ["webhook"]}},
        format="json",
    )
    assert saved.status_code == 200
    resolver.answer("hook.example.test", ["127.0.0.1"])

    outcome, delivery, preference = deliver(invite(bob))

    assert receiver.requests == []
    # It fails for good at once: retrying an address the policy refuses only repeats the refusal.
    assert (outcome, delivery.status, delivery.attempts) == ("failed", "failed", 1)
    assert delivery.last_error == preference.webhook_last_error == WEBHOOK_NOT_ACCEPTED


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_a_failure_and_is_not_followed(laptop, bob, http, status):
    elsewhere = http.start()
    redirecting = http.start(status=status, headers={"Location": elsewhere.url("/internal")})
    subscribe_webhook(bob, redirecting.url(), ["invitation"])

    outcome, delivery, preference = deliver(invite(bob))

    assert len(redirecting.requests) == 1
    assert elsewhere.requests == []
    assert (outcome, delivery.status) == ("retry", "pending")
    assert preference.webhook_last_error == WEBHOOK_NOT_ACCEPTED


def test_a_closed_port_a_400_and_a_silent_receiver_read_the_same(laptop, alice, bob, charlie, http, monkeypatch):
    monkeypatch.setattr(webhook, "WEBHOOK_TIMEOUT", 0.5)
    answering_400 = http.start(status=400, body=b"no such hook")
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()  # connects, never answers
    subscribe_webhook(alice, f"http://127.0.0.1:{closed_port()}/hook", ["invitation"])
    subscribe_webhook(bob, answering_400.url(), ["invitation"])
    subscribe_webhook(charlie, f"http://127.0.0.1:{silent.getsockname()[1]}/hook", ["invitation"])

    try:
        errors = {user.username: deliver(invite(user))[2].webhook_last_error for user in (alice, bob, charlie)}
    finally:
        silent.close()

    assert len(answering_400.requests) == 1
    assert errors == dict.fromkeys(["alice", "bob", "charlie"], WEBHOOK_NOT_ACCEPTED)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://user:pw@127.0.0.1:{port}/hook", "cannot carry a user name or password"),
        ("http://127.0.0.1:99999/hook", "a port (if any) from 1 to 65535"),
    ],
)
def test_an_address_saved_before_the_rules_fails_for_good_at_once(laptop, bob, http, url, says):
    receiver = http.start()
    subscribe_webhook(bob, url.format(port=receiver.port), ["invitation"])  # straight to the row

    outcome, delivery, preference = deliver(invite(bob))

    assert receiver.requests == []
    assert (outcome, delivery.status, delivery.attempts) == ("failed", "failed", 1)
    assert says in preference.webhook_last_error


# --- the sender itself ---------------------------------------------------------------------------


def test_it_connects_to_the_address_it_checked_without_a_second_lookup(resolver, http):
    receiver = http.start()
    # A second lookup would get 127.0.0.2, where nothing listens.
    resolver.answer("pinned.example.test", ["127.0.0.1"], ["127.0.0.2"])

    answer = post(receiver.url(host="pinned.example.test"))

    assert answer.status == 204
    [request] = receiver.requests
    assert request["headers"]["Host"] == f"pinned.example.test:{receiver.port}"
    assert request["headers"]["X-Test"] == "1" and request["body"] == b'{"hello": 1}'
    assert resolver.lookups == ["pinned.example.test"]


def test_it_refuses_loopback_unless_private_addresses_are_allowed(http):
    receiver = http.start()
    with pytest.raises(AddressRefused, match=r"127\.0\.0\.0/8"):
        post(receiver.url(), allow_private=False)
    assert receiver.requests == []


def test_a_name_that_does_not_resolve_is_a_failed_send(resolver):
    resolver.answer("gone.example.test", None)
    with pytest.raises(SendFailed, match="cannot resolve"):
        post("https://gone.example.test/hook")


def test_it_reads_only_the_start_of_a_long_answer(http):
    receiver = http.start(status=200, body=b"x" * 1_000_000)
    answer = post(receiver.url())
    assert answer.ok and answer.body == b"x" * MAX_ANSWER_BYTES


@contextmanager
def dripping_receiver(seconds: float) -> Iterator[int]:
    """A receiver that answers a byte every 50 ms for `seconds`: no single read waits long, the answer does."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            try:
                connection.sendall(b"HTTP/1.1 204 No Content\r\nX-Drip: ")
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    connection.sendall(b"x")
                    time.sleep(0.05)
                connection.sendall(b"\r\n\r\n")
            except OSError:
                pass  # the sender gave up and closed, as it should

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
        thread.join(seconds + 1)


def test_a_receiver_that_drips_its_answer_cannot_hold_the_sender_past_the_timeout():
    with dripping_receiver(seconds=4) as port:
        started = time.monotonic()
        with pytest.raises(SendFailed, match="TimeoutError"):
            post(f"http://127.0.0.1:{port}/hook", timeout=0.5)
        assert time.monotonic() - started < 2


@pytest.fixture
def tls_receiver(tmp_path, http):
    """An https receiver on 127.0.0.1 with a certificate for hook.example.test, and a client context
    that trusts its CA; `names` records the server name each client asked for (SNI)."""

    def start(*certified_names: str):
        ca, cert, key = certificate_authority(tmp_path, *certified_names)
        server_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_tls.load_cert_chain(cert, key)
        names: list[str | None] = []
        server_tls.sni_callback = lambda _socket, name, _context: names.append(name)
        return http.start(tls=server_tls), ssl.create_default_context(cafile=ca), names

    return start


def test_https_goes_to_the_pinned_address_and_checks_the_certificate_against_the_name(resolver, tls_receiver):
    receiver, client_tls, names = tls_receiver("hook.example.test")
    resolver.answer("hook.example.test", ["127.0.0.1"], ["127.0.0.2"])

    answer = post(receiver.url(host="hook.example.test", scheme="https"), tls_context=client_tls)

    assert answer.status == 204
    assert names == ["hook.example.test"]
    assert receiver.requests[0]["headers"]["Host"] == f"hook.example.test:{receiver.port}"
    assert resolver.lookups == ["hook.example.test"]


def test_https_refuses_a_certificate_for_another_name(resolver, tls_receiver):
    receiver, client_tls, _ = tls_receiver("other.example.test")
    resolver.answer("hook.example.test", ["127.0.0.1"])

    with pytest.raises(SendFailed, match=r"CERTIFICATE_VERIFY_FAILED"):
        post(receiver.url(host="hook.example.test", scheme="https"), tls_context=client_tls)
    assert receiver.requests == []
