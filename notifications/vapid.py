"""The site's VAPID key pair (RFC 8292): browsers subscribe with its public key, and every push
message carries a token signed with its private key.

Production sets VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY (`manage.py generate_vapid_keys` prints a
pair). A development site without them (DEBUG) makes a pair of its own in VAPID_DEV_KEYS_FILE, shared
by the web server and the worker; without either, push is off.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

# A token is good for this long; RFC 8292 allows at most 24 hours.
TOKEN_LIFETIME = 12 * 3600


class PushNotConfigured(Exception):
    """No VAPID keys: the site cannot sign push messages."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def generate_keys() -> dict[str, str]:
    """A new pair: the private key as its raw 32 bytes, the public key as the uncompressed point."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {
        "private_key": b64url(private.private_numbers().private_value.to_bytes(32, "big")),
        "public_key": b64url(public),
    }


def dev_keys(path: Path) -> dict[str, str]:
    """The development pair in `path`, made on first use (by whichever process comes first)."""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        pass
    keys = generate_keys()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            json.dump(keys, file)
    except FileExistsError:  # another process made it first: use theirs
        return json.loads(path.read_text())
    return keys


@functools.cache
def keys() -> dict[str, str]:
    if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY:
        return {"private_key": settings.VAPID_PRIVATE_KEY, "public_key": settings.VAPID_PUBLIC_KEY}
    if settings.VAPID_DEV_KEYS_FILE:
        return dev_keys(Path(settings.VAPID_DEV_KEYS_FILE))
    raise PushNotConfigured("Set VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY to send pushes.")


def public_key() -> str:
    """The application server key a browser subscribes with (base64url)."""
    return keys()["public_key"]


@functools.cache
def _signer(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key)


def authorization(endpoint: str, now: float | None = None) -> str:
    """The `Authorization: vapid t=..., k=...` value for a message to `endpoint`: a JWT for the
    push service's origin, signed with the site's key."""
    parts = urlsplit(endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int((now or time.time()) + TOKEN_LIFETIME),
        "sub": settings.VAPID_SUBJECT,
    }
    return _signer(keys()["private_key"]).sign(claims)["Authorization"]


def key_problem(private_key: str, public_key: str) -> str | None:
    """Why this pair cannot sign pushes, or None (for the deployment check)."""
    try:
        signer = Vapid02.from_string(private_key)
    except Exception as exc:  # py_vapid raises several kinds for a malformed key
        return f"VAPID_PRIVATE_KEY is not a P-256 private key ({exc.__class__.__name__})."
    derived = signer.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    if b64url(derived) != public_key.rstrip("="):
        return "VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY."
    return None
