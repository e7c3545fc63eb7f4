"""docs/follow_game.py, the example client of docs/live-events.md, run for real: two players each run
it in a subprocess against the ASGI server until the game ends (Scat from the start, Scat resumed
from an event id, Scattle through a proxy that keeps cutting the streams), and what each saw is the
game's history as GET /api/v1/games/{id}/moves/ shows that player: every move once, in order."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import re
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from accounts.models import ApiToken
from games import services
from games.models import Game, new_public_id

pytestmark = pytest.mark.django_db(transaction=True)

CLIENT = Path(__file__).resolve().parents[2] / "docs" / "follow_game.py"
MOVE_LINE = re.compile(r"^#(\d+) move (\d+) by seat (\d+) \(\w+\): (.+)$", re.MULTILINE)
FIRST_EVENT_LINE = re.compile(r"^#\d+ (game: \w+, version|move) (\d+)", re.MULTILINE)
PLAYED_LINE = re.compile(r"^   I play (.+) at version (\d+)$", re.MULTILINE)
# Short games: one life and no second chance in Scat, hands of at most five rounds; 3 points in Scattle.
SHORT = {
    "scat": {"initial_tokens": 1, "on_the_county": False, "max_rounds_per_hand": 5},
    "scattle": {"target_score": 3},
}


def test_no_game_id_starts_with_a_dash_that_the_client_would_take_for_an_option():
    assert not [public_id for public_id in (new_public_id() for _ in range(5000)) if public_id.startswith("-")]


@dataclass
class Table:
    game_id: str
    tokens: dict[int, str]  # by seat


@pytest.fixture
def start_table(alice, bob):
    def start(kind: str) -> Table:
        game = services.create_game(creator=alice, kind=kind, num_seats=2, options=SHORT[kind])
        services.join_game(game_id=game.public_id, user=bob)  # the table is full: the game starts
        seats = {seat.user_id: seat.index for seat in Game.objects.get(pk=game.pk).seats.all()}
        tokens = {seats[user.pk]: ApiToken.issue(user=user, name="example client")[1] for user in (alice, bob)}
        return Table(game.public_id, tokens)

    return start


def run_clients(base_url: str, table: Table, *extra: str) -> dict[int, str]:
    """Both players' clients at once, to the end of the game: their output by seat."""
    processes = {
        seat: subprocess.Popen(
            [sys.executable, str(CLIENT), base_url, table.game_id, "--token", token, *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for seat, token in table.tokens.items()
    }
    outputs = {}
    try:
        for seat, process in processes.items():
            try:
                outputs[seat], _ = process.communicate(timeout=60)  # a guard against a hang, not a speed test
            except subprocess.TimeoutExpired:
                process.kill()
                raise AssertionError(f"seat {seat}'s client is still playing:\n{process.communicate()[0]}") from None
            assert process.returncode == 0, outputs[seat]
    finally:
        for process in processes.values():
            process.kill()
    return outputs


def history(base_url: str, table: Table, seat: int) -> list[tuple[int, int, dict]]:
    """(seq, seat, action) of every move, as GET /moves/ shows this player."""
    headers = {"Authorization": f"Token {table.tokens[seat]}"}
    page = httpx.get(f"{base_url}/api/v1/games/{table.game_id}/moves/?page_size=500", headers=headers).json()
    assert page["next"] is None
    return [(move["seq"], move["seat"], move["action"]) for move in page["results"]]


def moves_seen(output: str) -> list[tuple[int, int, dict]]:
    return [(int(seq), int(seat), json.loads(action)) for _id, seq, seat, action in MOVE_LINE.findall(output)]


def moves_played(output: str) -> list[tuple[int, dict]]:
    """(seq, action) of the moves the client sent: each answers a version, and becomes the next."""
    return [(int(version) + 1, json.loads(action)) for action, version in PLAYED_LINE.findall(output)]


def seen_after(output: str) -> int:
    """The version the client's stream started from: a fresh stream opens with the game as it is
    (a "game" event), a resumed one with the first move it had missed."""
    first = FIRST_EVENT_LINE.search(output)
    assert first is not None, output
    kind, number = first.groups()
    return int(number) - 1 if kind == "move" else int(number)


def assert_played_to_the_end(base_url: str, table: Table, outputs: dict[int, str], first_played: int = 1) -> None:
    """The game finished; each client saw every move after the one its stream started from, once and
    in order, as /moves/ shows that player; and it sent every move of its seat from `first_played` on."""
    final = httpx.get(f"{base_url}/api/v1/games/{table.game_id}/").json()
    assert final["status"] == "finished"
    for seat, output in outputs.items():
        assert f"game over (finished, version {final['version']})" in output, output
        moves = history(base_url, table, seat)
        assert [seq for seq, _seat, _action in moves] == list(range(1, final["version"] + 1))
        start = seen_after(output)
        assert moves_seen(output) == moves[start:], output
        mine = [(seq, action) for seq, by, action in moves if by == seat and seq >= first_played]
        assert moves_played(output) == mine, output


@functools.cache
def client_module() -> ModuleType:
    """docs/follow_game.py as a module, for its policy."""
    spec = importlib.util.spec_from_file_location("follow_game", CLIENT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_as_the_client_would(base_url: str, table: Table) -> None:
    """One move through the REST API, by whoever is to act, chosen by the client's own policy."""
    for token in table.tokens.values():
        with httpx.Client(base_url=base_url, headers={"Authorization": f"Token {token}"}) as api:
            detail = api.get(f"/api/v1/games/{table.game_id}/").json()
            if detail["is_your_turn"]:
                body = {"version": detail["version"], "action": client_module().choose(detail)}
                assert api.post(f"/api/v1/games/{table.game_id}/moves/", json=body).status_code == 201
                return
    raise AssertionError("nobody is to act")


def test_two_players_play_a_game_to_its_end_with_the_example_client(asgi_server, start_table):
    table = start_table("scat")
    outputs = run_clients(asgi_server, table)
    assert_played_to_the_end(asgi_server, table, outputs)
    for output in outputs.values():
        assert output.count("stream open") == 1  # nothing dropped: one stream from start to end


def test_clients_that_start_late_resume_after_the_event_they_name(asgi_server, start_table):
    table = start_table("scat")
    started = Game.objects.get(public_id=table.game_id).revision
    play_as_the_client_would(asgi_server, table)
    play_as_the_client_would(asgi_server, table)  # two moves before either client runs
    outputs = run_clients(asgi_server, table, "--last-event-id", str(started))
    for output in outputs.values():
        assert f"stream open, resuming after #{started}\n#" in output
    # Each saw the two moves it had missed, then played from the third on.
    assert_played_to_the_end(asgi_server, table, outputs, first_played=3)


@dataclass
class CuttingProxy:
    """A TCP proxy in front of the server that cuts each event stream once it has passed on
    `cut_after` move events: a flaky network, with nothing in the client or server mocked."""

    upstream: str
    cut_after: int
    stream_requests: list[str] = field(default_factory=list)  # the head of each stream request
    cuts: int = 0
    open_sockets: set[socket.socket] = field(default_factory=set)

    def start(self) -> str:
        self.listener = socket.create_server(("127.0.0.1", 0))
        threading.Thread(target=self._accept, daemon=True).start()
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        host, port = self.upstream.removeprefix("http://").split(":")
        with client, socket.create_connection((host, int(port))) as server:
            self.open_sockets |= {client, server}
            head = b""
            while b"\r\n\r\n" not in head and (chunk := client.recv(65536)):
                head += chunk
            server.sendall(head)
            is_stream = b"/stream/ " in head.split(b"\r\n", 1)[0]
            if is_stream:
                self.stream_requests.append(head.decode())
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            passed = b""
            while chunk := self._recv(server):
                try:
                    client.sendall(chunk)
                except OSError:
                    break  # the client has gone
                passed += chunk
                if is_stream and passed.count(b"event: move") >= self.cut_after:
                    self.cuts += 1
                    break  # the cut: both ends are shut below
            self.close(client, server)

    def close(self, *ends: socket.socket) -> None:
        for end in ends:
            self.open_sockets.discard(end)
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    @staticmethod
    def _recv(sock: socket.socket) -> bytes:
        try:
            return sock.recv(65536)
        except OSError:
            return b""

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                target.sendall(chunk)
        except OSError:
            pass

    def stop(self) -> None:
        """Close everything, so that the server's streams end now rather than at its shutdown."""
        self.listener.close()
        self.close(*list(self.open_sockets))


def test_cut_streams_resume_with_last_event_id_and_miss_nothing(asgi_server, start_table):
    table = start_table("scattle")  # 26 moves with these cards: five or so cuts a client
    proxy = CuttingProxy(asgi_server, cut_after=5)
    try:
        outputs = run_clients(proxy.start(), table)
    finally:
        proxy.stop()
    assert_played_to_the_end(asgi_server, table, outputs)
    assert proxy.cuts >= 2
    for output in outputs.values():
        assert "reconnecting in" in output and ", resuming after #" in output, output
    # Every stream after each client's first was asked for with the Last-Event-ID header: the last
    # event the client had whole (urllib writes the name as "Last-event-id"; names are case-blind).
    sent = sorted(int(m) for head in proxy.stream_requests for m in re.findall(r"(?im)^last-event-id: (\d+)", head))
    resumed = sorted(int(m) for output in outputs.values() for m in re.findall(r"resuming after #(\d+)", output))
    assert len(proxy.stream_requests) == len(sent) + 2
    assert set(sent) == set(resumed)  # a 429 while a lease was still held would send one twice
