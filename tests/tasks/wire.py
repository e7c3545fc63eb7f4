"""Real sockets for the outbound tests: HTTP servers on 127.0.0.1 that record what reaches them, and a
scripted resolver (socket.getaddrinfo is the one seam these tests replace: DNS is what they play with)."""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest


class Server:
    """Answers every request with `status` (and `headers`, `body`), and keeps what arrived."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes, tls: ssl.SSLContext | None) -> None:
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                with server.lock:
                    server.requests.append(
                        {
                            "method": self.command,
                            "path": self.path,
                            "headers": dict(self.headers),
                            "body": self.rfile.read(length),
                        }
                    )
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = answer

            def log_message(self, *args) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            self.http.socket = tls.wrap_socket(self.http.socket, server_side=True)
        self.port = self.http.server_port
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def url(self, path: str = "/hook", host: str = "127.0.0.1", scheme: str = "http") -> str:
        return f"{scheme}://{host}:{self.port}{path}"

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


class Servers:
    """Starts servers with `start(status=..., headers=..., body=..., tls=...)`, and stops them all."""

    def __init__(self) -> None:
        self.started: list[Server] = []

    def start(self, status: int = 204, headers: dict[str, str] | None = None, body: bytes = b"", tls=None) -> Server:
        self.started.append(Server(status, headers or {}, body, tls))
        return self.started[-1]

    def stop_all(self) -> None:
        for server in self.started:
            server.close()


@contextmanager
def servers() -> Iterator[Servers]:
    pool = Servers()
    try:
        yield pool
    finally:
        pool.stop_all()


def closed_port() -> int:
    """A port on 127.0.0.1 that nobody listens on (a connection to it is refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Resolver:
    """socket.getaddrinfo, with the names given to `answer` answered from a script: each lookup takes
    the next answer, and the last one repeats. An answer of None is "no such name"."""

    def __init__(self) -> None:
        self.real = socket.getaddrinfo
        self.scripts: dict[str, list[list[str] | None]] = {}
        self.lookups: list[str] = []

    @classmethod
    def installed(cls, monkeypatch: pytest.MonkeyPatch) -> Resolver:
        scripted = cls()
        monkeypatch.setattr(socket, "getaddrinfo", scripted.getaddrinfo)
        return scripted

    def answer(self, host: str, *answers: list[str] | None) -> None:
        self.scripts[host] = list(answers)

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        if host not in self.scripts:
            return self.real(host, port, family, type, proto, flags)
        self.lookups.append(host)
        script = self.scripts[host]
        addresses = script.pop(0) if len(script) > 1 else script[0]
        if addresses is None:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port, 0, 0))
            if ":" in address
            else (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))
            for address in addresses
        ]


def certificate_authority(directory: Path, *names: str) -> tuple[Path, Path, Path]:
    """A throwaway CA and a certificate from it for `names`: (ca.pem, cert.pem, key.pem)."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Test CA")
    openssl("req", *ec, "-keyout", "key.pem", "-out", "cert.csr", "-subj", f"/CN={names[0]}")
    (directory / "san.ext").write_text("subjectAltName=" + ",".join(f"DNS:{name}" for name in names) + "\n")
    openssl(
        "x509", "-req", "-in", "cert.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "cert.pem", "-days", "2", "-extfile", "san.ext",
    )  # fmt: skip
    return directory / "ca.pem", directory / "cert.pem", directory / "key.pem"
