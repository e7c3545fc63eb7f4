"""live.batches: the calls of one moment made together, the next ones behind them."""

from __future__ import annotations

import asyncio

import pytest

from live.batches import Batched


def test_calls_of_one_moment_go_together_and_those_made_meanwhile_in_the_next():
    batches = []

    async def run(items):
        batches.append(list(items))
        await asyncio.sleep(0.05)
        return [item * 10 for item in items]

    async def calls() -> None:
        batched = Batched(run)
        first = [asyncio.ensure_future(batched(n)) for n in range(3)]
        await asyncio.sleep(0.01)  # the first batch is under way
        later = [asyncio.ensure_future(batched(n)) for n in range(3, 5)]
        assert await asyncio.gather(*first, *later) == [0, 10, 20, 30, 40]
        assert await batched(7) == 70  # alone: at once, in a batch of its own

    asyncio.run(calls())
    assert batches == [[0, 1, 2], [3, 4], [7]]


def test_a_caller_gone_hands_its_result_to_unwanted_and_a_failure_reaches_every_caller():
    unwanted = []

    async def run(items):
        await asyncio.sleep(0.05)
        if "fail" in items:
            raise ValueError("the database is away")
        return [f"lease {item}" for item in items]

    async def hand_back(result) -> None:
        unwanted.append(result)

    async def calls() -> None:
        batched = Batched(run, unwanted=hand_back)
        gone, stays = asyncio.ensure_future(batched("a")), asyncio.ensure_future(batched("b"))
        await asyncio.sleep(0.01)
        gone.cancel()
        assert await stays == "lease b"
        failing = [asyncio.ensure_future(batched(item)) for item in ("fail", "c")]
        for call in failing:
            with pytest.raises(ValueError, match="away"):
                await call

    asyncio.run(calls())
    assert unwanted == ["lease a"]
