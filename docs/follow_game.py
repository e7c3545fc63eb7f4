#!/usr/bin/env python3
"""Follow one Slowhand game's live event stream as a player, and play it to the end.

    python3 follow_game.py http://127.0.0.1:8000 GAME_ID --token KEY
    python3 follow_game.py http://127.0.0.1:8000 GAME_ID --username demo --password demo

Standard library only. It reads GET /api/v1/games/{id}/stream/ (server-sent events), plays
whenever an event's game detail says it is this player's turn, and after a dropped connection
reconnects with Last-Event-ID, so that it misses no move and sees none twice. See live-events.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

KNOCK_AT = 21  # Scat: knock once the hand is worth this much (of 31)
READ_TIMEOUT = 45  # the server sends a keep-alive at least every 15 s: this much silence is a dead link
BACKOFF = (0.5, 1, 2, 5, 10)  # seconds before each reconnection in a row
NETWORK_ERRORS = (OSError, http.client.HTTPException)  # HTTPException: a stream cut mid-chunk


class Api:
    def __init__(self, base_url: str, token: str = "") -> None:
        if not base_url.startswith(("http://", "https://")):
            raise SystemExit(f"The base URL must start with http:// or https://, not {base_url!r}.")
        self.base_url, self.token = base_url.rstrip("/"), token

    def open(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None):
        """The response, open; urllib.error.HTTPError for a 4xx or 5xx (its body is the API's error)."""
        headers = {"Accept": "application/json", "Content-Type": "application/json", **(headers or {})}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data, headers, method=method)  # noqa: S310
        return urllib.request.urlopen(request, timeout=READ_TIMEOUT)  # noqa: S310 - http(s) only, checked above

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> dict:
        with self.open(method, path, body, headers) as response:
            return json.load(response)


def error_of(exc: urllib.error.HTTPError) -> str:
    """The API's error body, {"code", "message", "details"}, in one line."""
    try:
        body = json.load(exc)
        return f"{exc.code} {body['code']}: {body['message']}"
    except (ValueError, KeyError):
        return f"{exc.code} {exc.reason}"


def read_events(response) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(id, event, data) of each server-sent event: "field: value" lines, an empty line ends an
    event, and lines starting with ":" are comments (the keep-alives)."""
    fields: dict[str, str] = {}
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if "data" in fields:
                yield int(fields["id"]), fields.get("event", "message"), json.loads(fields["data"])
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            fields[name] = f"{fields[name]}\n{value}" if name == "data" and "data" in fields else value


def choose(detail: dict[str, Any]) -> dict[str, Any]:
    """A deliberately plain policy: in Scat, knock once the hand is worth KNOCK_AT; otherwise the
    first legal action. The server lists drawing before discarding and, in Scattle, melds before
    discards, so this plays a simple but complete game of either."""
    actions = detail["legal_actions"]
    if ((detail["state"] or {}).get("hand_value") or 0) >= KNOCK_AT and {"type": "knock"} in actions:
        return {"type": "knock"}
    return actions[0]


def play(api: Api, game_id: str, detail: dict[str, Any]) -> None:
    action, version = choose(detail), detail["version"]
    # The same key on a retry: if an attempt that seemed lost did arrive, nothing is applied twice.
    headers = {"Idempotency-Key": f"follow-game-{version}"}
    for delay in BACKOFF:
        try:
            api.call("POST", f"/api/v1/games/{game_id}/moves/", {"version": version, "action": action}, headers)
            print(f"   I play {json.dumps(action)} at version {version}")
            return
        except urllib.error.HTTPError as exc:
            if exc.code != 409:
                raise SystemExit(f"The move was refused: {error_of(exc)}") from exc
            # stale_version (or the game is over): someone moved first, a timeout played for us, say.
            # That move is on its way as an event, and its detail tells whose turn it is now.
            print(f"   too late for version {version}: {error_of(exc)}")
            return
        except NETWORK_ERRORS as exc:
            print(f"   could not send the move ({exc}); trying again in {delay} s")
            time.sleep(delay)
    raise SystemExit("Could not reach the server to send a move.")


def detail_of(event_id: int, event: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """Print the event; return the game detail it carries (on a resume, only the last move has one)."""
    if event == "move":
        move = data["move"]
        print(f"#{event_id} move {move['seq']} by seat {move['seat']} ({move['player']}): {json.dumps(move['action'])}")
        return data.get("detail")
    if event == "game":
        print(f"#{event_id} game: {data['status']}, version {data['version']}, to act: {data['to_act']}")
        return data
    return None  # an event this client does not know (a newer server's): safe to skip


def follow(api: Api, game_id: str, last_event_id: int | None = None) -> dict[str, Any]:
    """Play the game to its end over its stream; return its final detail."""
    answered = None  # the version we last sent a move for: one version is never answered twice
    failures = 0
    while True:
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        try:
            with api.open("GET", f"/api/v1/games/{game_id}/stream/", headers=headers) as response:
                print("stream open" + ("" if last_event_id is None else f", resuming after #{last_event_id}"))
                for event_id, event, data in read_events(response):
                    last_event_id, failures = event_id, 0
                    detail = detail_of(event_id, event, data)
                    if detail is None:
                        continue
                    if detail["status"] in ("finished", "aborted"):
                        return detail
                    if detail["is_your_turn"] and detail["version"] != answered:
                        answered = detail["version"]
                        play(api, game_id, detail)
        except urllib.error.HTTPError as exc:
            if exc.code != 429 and exc.code < 500:  # a bad token, no such game: trying again cannot help
                raise SystemExit(error_of(exc)) from exc
            print(f"refused for now: {error_of(exc)}")
        except NETWORK_ERRORS as exc:
            print(f"connection lost: {exc!r}")
        else:
            print("the stream ended")  # a server restart, or a proxy that closed it
        delay = BACKOFF[min(failures, len(BACKOFF) - 1)]
        failures += 1
        print(f"reconnecting in {delay} s")
        time.sleep(delay)


def main() -> None:
    sys.stdout.reconfigure(line_buffering=True)  # each line as it happens, into a pipe too
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url", help="e.g. http://127.0.0.1:8000")
    parser.add_argument("game_id")
    parser.add_argument("--token", help="an API token (Authorization: Token ...)")
    parser.add_argument("--username", help="with --password: get a token from POST /api/v1/auth/token/")
    parser.add_argument("--password")
    parser.add_argument("--last-event-id", type=int, help="resume after this event, as a reconnection does")
    args = parser.parse_args()
    api = Api(args.base_url, args.token or "")
    if not args.token:
        if not (args.username and args.password):
            parser.error("give --token, or --username and --password")
        login = {"username": args.username, "password": args.password, "name": "follow_game.py"}
        try:
            api.token = api.call("POST", "/api/v1/auth/token/", login)["token"]
        except urllib.error.HTTPError as exc:
            raise SystemExit(f"Could not log in: {error_of(exc)}") from exc
    final = follow(api, args.game_id, args.last_event_id)
    places = sorted(final["seats"], key=lambda seat: seat["place"] or len(final["seats"]))
    standings = ", ".join(f"{seat['place']}. {seat['display_name'] or seat['username']}" for seat in places)
    mine = next((seat["place"] for seat in places if seat["index"] == final["your_seat"]), None)
    print(f"game over ({final['status']}, version {final['version']}): {standings}; my place: {mine}")


if __name__ == "__main__":
    main()
