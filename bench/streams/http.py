"""The load generator's HTTP client: requests written and read on asyncio streams, nothing in between."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body) if self.body else {}


def encode_request(
    method: str, path: str, token: str, body: dict | None = None, headers: dict[str, str] | None = None
) -> bytes:
    data = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Authorization: Token {token}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    status, headers = parse_head((await reader.readuntil(b"\r\n\r\n"))[:-4])
    if status in (204, 304):
        body = b""
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:
        body = await reader.read()
    return Answer(status, headers, body)


async def one_request(port: int, method: str, path: str, token: str, body: dict | None = None) -> Answer:
    """A request on a connection of its own (a POST is never sent twice)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(encode_request(method, path, token, body, {"Accept": "application/json", "Connection": "close"}))
        return await read_answer(reader)
    finally:
        writer.close()


class KeepAlive:
    """One HTTP/1.1 connection kept open between GETs; opened again when the server has closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, token: str, headers: dict[str, str]) -> Answer:
        try:
            return await self._get(path, token, headers)
        except (asyncio.IncompleteReadError, ConnectionError):
            self.close()  # the server closed the idle connection as the request went out: once more
            return await self._get(path, token, headers)

    async def _get(self, path: str, token: str, headers: dict[str, str]) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(encode_request("GET", path, token, None, {"Accept": "application/json", **headers}))
        answer = await read_answer(self.reader)
        if answer.headers.get("connection") == "close":
            self.close()
        return answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
