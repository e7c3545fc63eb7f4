"""A stream that comes back after a cut is resumed from the newest change this process received
(live.openings.resumed_from_the_changes), without reading the game, only where that change says
all the database would: the newest revision heard of, who may see the game, who sits where."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from live import feeds
from live.hub import hub
from live.openings import resumed_from_the_changes
from live.publish import game_channel


def change(revision: int, members: frozenset[int] | None) -> feeds.Rendered:
    return feeds.Rendered(revision, {}, {7: 0, 8: 1}, members, game_pk=42)


def test_a_resume_within_the_newest_change_needs_no_reading():
    seated, stranger = SimpleNamespace(pk=8), SimpleNamespace(pk=9)

    async def scenario() -> None:
        hub().audiences.received("private", 4, change(5, frozenset({7, 8})))
        view = resumed_from_the_changes("private", seated, 3)
        assert (view.revision, view.seat, view.game_pk) == (3, 1, 42)
        assert resumed_from_the_changes("private", stranger, 3) is None  # may not see it: the database says
        assert resumed_from_the_changes("private", None, 3) is None
        assert resumed_from_the_changes("private", seated, 6) is None  # past what the change knows
        assert resumed_from_the_changes("private", seated, 5 - feeds.RESUME_LIMIT - 1) is None  # too far back

        hub().audiences.received("public", 1, change(2, None))
        view = resumed_from_the_changes("public", None, 2)
        assert (view.revision, view.seat) == (2, None)
        hub().known[game_channel("public")] = 3  # a newer revision came without its change
        assert resumed_from_the_changes("public", None, 2) is None
        assert resumed_from_the_changes("unknown", None, 2) is None

    asyncio.run(scenario())


def test_a_change_between_processes_carries_its_game():
    since, sent = feeds.from_message(feeds.as_message(change(5, None), 4))
    assert (since, sent.game_pk, sent.revision) == (4, 42, 5)
