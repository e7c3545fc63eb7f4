"""Error reports without the games' secrets.

Django's error reports (the technical 500 page with DEBUG, and the emails to ADMINS built from
the `django.request` log records) print every local variable of every frame. In a move those
are the engine's snapshot, with every hand, the stock in order and the seed: whoever sees the
page could read the deck. This filter (settings.DEFAULT_EXCEPTION_REPORTER_FILTER) hides any
variable that holds a game's secrets, in every mode, and otherwise cleanses as Django does
(settings, cookies and headers whose names look secret; @sensitive_variables when not DEBUG).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable
from typing import Any

from django.template.defaultfilters import pprint
from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter
from psycopg.types.json import Json, Jsonb

# Keys only an engine snapshot (scat.py and scattle.py new_game) or its events have.
SECRET_KEYS = frozenset({"secret", "seed", "stock", "hands", "deal_events", "latest_deal_events"})
# Variable names that say what they hold, whole or as a part between underscores
# (state, new_state, old_state, snapshot, deal_events, ...); "st" is the Scattle engine's state.
SECRET_NAME_PARTS = frozenset(
    {"state", "states", "snapshot", "snapshots", "seed", "seeds", "secret", "secrets", "stock"}
    | {"deck", "decks", "hand", "hands", "event", "events", "shuffled"}
)
SECRET_NAMES = frozenset({"st"})
# The same, in the printed form the report would show: a snapshot's key, or two card codes in a
# row (a hand, the stock, a deck), also inside a string (a snapshot serialised for the database).
PRINTED_SECRET = re.compile(
    r"""(['"])(?:secret|seed|stock|hands|deal_events|latest_deal_events)\1\s*:"""
    r"""|(['"])[A2-9TJQK][SHDC]\2\s*,\s*(['"])[A2-9TJQK][SHDC]\3"""
)
# How many containers and items to look into before relying on the printed form alone.
WALK_BUDGET = 10_000


def is_secret_name(name: str) -> bool:
    name = name.lower()
    return name in SECRET_NAMES or not SECRET_NAME_PARTS.isdisjoint(name.split("_"))


def holds_game_secrets(value: Any) -> bool:
    """Whether the value is or contains a game, a move, or an engine snapshot or its events."""
    return _walk_finds_secrets(value) or bool(PRINTED_SECRET.search(pprint(value)))


# The types whose every instance holds a secret, registered by the rooms that own them (the game
# core registers its games and moves in GamesConfig.ready()): the ground names none of them.
SECRET_TYPES: list[type] = []


def register_secret_types(*types: type) -> None:
    SECRET_TYPES.extend(t for t in types if t not in SECRET_TYPES)


def _walk_finds_secrets(value: Any) -> bool:
    secret_types = tuple(SECRET_TYPES)
    pending, seen, budget = [value], set(), WALK_BUDGET
    while pending and budget > 0:
        item = pending.pop()
        budget -= 1
        if isinstance(item, (str, bytes, int, float, bool)) or item is None or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, secret_types):
            return True
        if isinstance(item, dict):
            if any(isinstance(key, str) and key in SECRET_KEYS for key in item):
                return True
            pending.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            pending.extend(item)
        elif isinstance(item, (Json, Jsonb)):  # a JSON value on its way to the database, such as a snapshot
            pending.append(item.obj)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            pending.extend(getattr(item, field.name, None) for field in dataclasses.fields(item))
    return False


class GameSecretsReporterFilter(SafeExceptionReporterFilter):
    def get_traceback_frame_variables(self, request, tb_frame) -> Iterable[tuple[str, Any]]:
        variables = super().get_traceback_frame_variables(request, tb_frame)
        return [
            (name, self.cleansed_substitute if is_secret_name(name) or holds_game_secrets(value) else value)
            for name, value in variables
        ]


# PostgreSQL quotes the whole row that broke a constraint ("DETAIL:  Failing row contains (...)"):
# a game's seed and snapshot are columns of it. Reports and logs keep the line, not the row.
FAILING_ROW = re.compile(r"(Failing row contains )\(.*")


def redacted(text: str) -> str:
    return FAILING_ROW.sub(r"\1(…)", text)


class GameSecretsExceptionReporter(ExceptionReporter):
    """settings.DEFAULT_EXCEPTION_REPORTER: the technical 500 page and the admins' emails, with the
    exception messages (of the error and of its causes) redacted as well as the variables."""

    def get_traceback_data(self) -> dict[str, Any]:
        data = super().get_traceback_data()
        if isinstance(data.get("exception_value"), str):
            data["exception_value"] = redacted(data["exception_value"])
        for frame in data.get("frames", []):
            if frame.get("exc_cause") is not None:
                frame["exc_cause"] = redacted(str(frame["exc_cause"]))
        return data


class RedactGameSecrets(logging.Filter):
    """On the log handlers: the same redaction for the message and the traceback of a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if FAILING_ROW.search(message):
            record.msg, record.args = redacted(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redacted(record.exc_text)
        return True
