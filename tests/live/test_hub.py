"""The hub's bookkeeping, in one event loop: news of a game nobody follows is not kept (a process
hears every game's messages), and a stream that starts to follow looks once at once, for news that
came between its first reading and its following."""

from __future__ import annotations

import asyncio
import time

from live.hub import Hub, Listener
from live.publish import game_channel


def test_the_hub_keeps_news_only_of_followed_games_and_a_new_follower_looks_at_once():
    async def scenario():
        hub = Hub()
        channels = [game_channel("g1"), game_channel("g2")]
        hub.ring(channels[0], 7)  # a move that raced the stream's opening
        assert hub.known == {}

        listener = Listener()
        hub.follow(listener, channels)
        hub.task.cancel()
        assert listener.rang.is_set() and listener.answer() == {channels[0]}

        hub.ring(channels[1], 3)
        hub.ring(channels[1], 3)  # heard already: rings once
        assert listener.answer() == {channels[1]}
        hub.ring(channels[1], 3)
        assert not listener.rang.is_set()

        hub.unfollow(listener, channels)
        assert not hub.listeners
        # A game's news is kept a while for the streams a cut ended, which come back at once.
        assert hub.known == {channels[1]: 3} and set(hub.lately) == set(channels)
        hub.ring(channels[1], 4)
        assert hub.known == {channels[1]: 4}
        hub.lately = dict.fromkeys(hub.lately, time.monotonic() - 1)
        hub.forget_lately()
        assert hub.known == {} and hub.lately == {}
        hub.ring(channels[1], 5)
        assert hub.known == {}

    asyncio.run(scenario())
