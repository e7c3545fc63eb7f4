"""POST a body to an address someone else chose (a webhook, a push service), safely: the host is
resolved once, at send time, through the address policy in notifications.addresses, and the
connection goes to the address that was checked (no second lookup a rebinding name could answer
differently). TLS still checks the certificate against the host name. Redirects are never
followed, and the answer is read only up to a small size within the timeout. Knows nothing of
what it sends, so any channel can use it."""

from __future__ import annotations

import functools
import http.client
import io
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from .addresses import (
    MAX_ENDPOINT_LENGTH,
    AddressRefused,
    HostNotFound,
    IPAddress,
    default_port,
    resolve_host,
    resolve_public,
    url_shape_problem,
)

# What we keep of an answer: enough for an error message, never a receiver's whole page.
MAX_ANSWER_BYTES = 4096
# A name with many addresses is tried on a few of them, each with the full connect timeout.
MAX_ADDRESSES_TRIED = 4
# Characters of a path or query sent as they are; anything else (non-ASCII) is percent-encoded.
SAFE_IN_TARGET = "/?:@!$&'()*+,;=%~-._[]"

__all__ = ["MAX_ANSWER_BYTES", "AddressRefused", "Answer", "SendFailed", "post"]


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes  # at most MAX_ANSWER_BYTES

    @property
    def ok(self) -> bool:
        """A 2xx. A 3xx is not followed, so it counts as a failure like any other status."""
        return 200 <= self.status < 300


class SendFailed(Exception):
    """No answer came (no address, refused, reset, timeout, TLS, a broken reply). The message
    names the cause for operators' logs; it is not for the person who chose the address."""


class _PinnedConnection:
    """Connects to one of the checked addresses instead of looking the host name up again."""

    addresses: list[IPAddress]
    host: str
    port: int
    timeout: float

    def _pinned_socket(self) -> socket.socket:
        failures = []
        for ip in self.addresses[:MAX_ADDRESSES_TRIED]:
            family = socket.AF_INET if ip.version == 4 else socket.AF_INET6
            sock = socket.socket(family, socket.SOCK_STREAM)
            try:
                sock.settimeout(self.timeout)
                sock.connect((str(ip), self.port))
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError as exc:
                sock.close()
                failures.append(f"{ip}: {exc}")
                continue
            return sock
        raise ConnectionError("; ".join(failures))


class PinnedHTTPConnection(_PinnedConnection, http.client.HTTPConnection):
    def __init__(self, host: str, port: int, *, addresses: list[IPAddress], timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.addresses = addresses

    def connect(self) -> None:
        self.sock = self._pinned_socket()


class PinnedHTTPSConnection(_PinnedConnection, http.client.HTTPSConnection):
    def __init__(
        self, host: str, port: int, *, addresses: list[IPAddress], timeout: float, context: ssl.SSLContext
    ) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self.addresses = addresses

    def connect(self) -> None:
        # SNI and the certificate check use the name; only the TCP connection uses the pinned address.
        self.sock = self._context.wrap_socket(self._pinned_socket(), server_hostname=self.host)


class _ReadsBeforeDeadline(io.RawIOBase):
    """The answer's bytes, each read given only the time left: a receiver that drips its answer a
    byte at a time cannot hold the sender longer than the timeout."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)  # keeps the socket open while the answer is read
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the answer took longer than the timeout")
        self._sock.settimeout(left)
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


class _AnswerBeforeDeadline(http.client.HTTPResponse):
    def __init__(self, sock: socket.socket, *args, deadline: float, **kwargs) -> None:
        super().__init__(sock, *args, **kwargs)
        self.fp.close()
        self.fp = io.BufferedReader(_ReadsBeforeDeadline(sock, deadline))


@functools.cache
def system_tls_context() -> ssl.SSLContext:
    """The system's trust store, with host name checks (made once: loading it takes a while)."""
    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    return context


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    allow_private: bool,
    timeout: float,
    tls_context: ssl.SSLContext | None = None,
) -> Answer:
    """POST `body` to `url` with `headers` (its Content-Type among them) and return the answer,
    whatever its status.

    Raises AddressRefused when the address breaks the policy (any resolved address not public,
    unless `allow_private`), SendFailed when no answer came. `timeout` bounds each connection
    attempt, and then the whole exchange of request and answer. `tls_context`: whom to trust for
    https (default: the system's trust store)."""
    problem = url_shape_problem(url, what="The address", max_length=MAX_ENDPOINT_LENGTH)
    if problem:
        raise AddressRefused(problem)
    parts = urlsplit(url)
    host, port = parts.hostname, parts.port or default_port(parts.scheme)
    try:
        addresses = resolve_host(host, port) if allow_private else resolve_public(host, port)
    except HostNotFound as exc:
        raise SendFailed(f"cannot resolve {exc}") from exc
    if parts.scheme == "https":
        context = tls_context or system_tls_context()
        connection = PinnedHTTPSConnection(host, port, addresses=addresses, timeout=timeout, context=context)
    else:
        connection = PinnedHTTPConnection(host, port, addresses=addresses, timeout=timeout)
    target = quote(parts.path or "/", safe=SAFE_IN_TARGET) + (
        "?" + quote(parts.query, safe=SAFE_IN_TARGET) if parts.query else ""
    )
    try:
        connection.connect()
        connection.response_class = functools.partial(_AnswerBeforeDeadline, deadline=time.monotonic() + timeout)
        connection.request(
            "POST",
            target,
            body=body,
            headers={**headers, "Connection": "close"},
        )
        response = connection.getresponse()
        return Answer(status=response.status, body=response.read(MAX_ANSWER_BYTES))
    except (OSError, http.client.HTTPException, ValueError) as exc:
        raise SendFailed(f"POST to {host}:{port} ({', '.join(map(str, addresses))}): {exc!r}") from exc
    finally:
        connection.close()
