"""A push service on 127.0.0.1 standing for a browser vendor's, and a browser's subscription to it
with keys the test made: what the site sends can be checked (the VAPID token against the site's
public key) and read (the body decrypted with the subscription's private key), as a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float = 0.0  # time.time() on arrival


@dataclass
class Browser:
    """One browser's push subscription: its endpoint at the local service, and its keys."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def keys(self) -> dict[str, str]:
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(public), "auth": b64url(self.auth)}

    def as_json(self, name: str = "test phone") -> dict:
        return {"endpoint": self.endpoint, "keys": self.keys, "name": name}

    def decrypt(self, message: Received) -> dict:
        """The payload, as the browser's push handler would see it (RFC 8291, aes128gcm)."""
        assert message.headers["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(message.body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def vapid_claims(message: Received, site_public_key: str) -> dict:
    """The claims of the message's VAPID token (RFC 8292), after checking its ES256 signature against
    `site_public_key` and that the header names that key."""
    scheme, _, params = message.headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(part.strip().split("=", 1) for part in params.split(","))
    assert parts["k"].rstrip("=") == site_public_key.rstrip("=")
    header_b64, claims_b64, signature_b64 = parts["t"].split(".")
    assert json.loads(unb64url(header_b64)) == {"typ": "JWT", "alg": "ES256"}
    signature = unb64url(signature_b64)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(site_public_key))
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as exc:
        raise AssertionError("the VAPID token's signature does not check") from exc
    return json.loads(unb64url(claims_b64))


class PushService:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self.status_for: dict[str, int] = {}  # path -> status to answer (default 201)
        self.delay = 0.0  # seconds before each answer
        self.lock = threading.Lock()
        self.origin = ""

    def browser(self, name: str) -> Browser:
        return Browser(f"{self.origin}/push/{name}")

    def messages(self, browser: Browser | None = None) -> list[Received]:
        with self.lock:
            path = browser.endpoint.removeprefix(self.origin) if browser else None
            return [m for m in self.received if path is None or m.path == path]

    def arrival_times(self, browser: Browser) -> list[float]:
        return [message.at for message in self.messages(browser)]

    def wait_for(self, count: int, browser: Browser | None = None, timeout: float = 20) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and len(self.messages(browser)) < count:
            time.sleep(0.05)
        return self.messages(browser)


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with service.lock:
                service.received.append(Received(self.path, dict(self.headers), body, time.time()))
                status = service.status_for.get(self.path, 201)
            time.sleep(service.delay)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.origin = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
