"""config.collector: the streams' objects frozen out of the full collections, and reviewed once an hour."""

from __future__ import annotations

import gc
import weakref

import pytest

from config.collector import CALM_OPENINGS, REVIEW_SECONDS, TENURE_AFTER, WINDOW_SECONDS, Tenure


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Node:
    """A container the collector tracks."""


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # the rest of the suite's objects go back to the collector as they were


def cycle() -> weakref.ref:
    """An object in a reference cycle, alive only through it (as a game reading's objects are)."""
    node = Node()
    node.itself = node
    return weakref.ref(node)


def test_every_tenure_after_openings_what_the_process_holds_is_frozen(unfrozen):
    tenure = Tenure(Clock(), first_review_after=REVIEW_SECONDS)
    gc.unfreeze()
    for _ in range(TENURE_AFTER - 1):
        tenure.opened()
    assert gc.get_freeze_count() == 0
    tenure.opened()
    assert gc.get_freeze_count() > 0
    gc.unfreeze()
    for _ in range(TENURE_AFTER):
        tenure.opened()
    assert gc.get_freeze_count() > 0, "the count starts again after each freeze"


def test_a_frozen_object_is_still_freed_when_nothing_refers_to_it(unfrozen):
    """An ended stream's objects go as soon as it ends, frozen or not (they form no cycles)."""
    node = Node()
    gone = weakref.ref(node)
    gc.freeze()
    del node
    assert gone() is None


def test_a_frozen_cycle_waits_for_the_review_which_waits_for_a_calm_moment(unfrozen):
    clock = Clock()
    tenure = Tenure(clock, first_review_after=REVIEW_SECONDS)
    reading = cycle()
    gc.freeze()  # as after TENURE_AFTER openings, while a game's reading was alive
    gc.collect()
    assert reading() is not None, "a full collection does not see a frozen cycle"

    clock.now += REVIEW_SECONDS
    for _ in range(CALM_OPENINGS):  # a storm: streams coming back
        tenure.opened()
    tenure.review_if_due()
    clock.now += WINDOW_SECONDS - 1
    tenure.review_if_due()
    assert reading() is not None, "no review while the streams come back"

    clock.now += 1
    tenure.review_if_due()  # none opened in the last WINDOW_SECONDS
    assert reading() is None
    assert gc.get_freeze_count() > 0, "what outlived the review is frozen again"
    assert tenure.review_at == clock.now + REVIEW_SECONDS, "the next an hour later"


def test_no_review_before_review_seconds(unfrozen):
    clock = Clock()
    tenure = Tenure(clock, first_review_after=REVIEW_SECONDS)
    reading = cycle()
    gc.freeze()
    clock.now += REVIEW_SECONDS - 1
    tenure.review_if_due()
    assert reading() is not None


def test_the_processes_of_a_machine_review_at_moments_of_their_own():
    clock = Clock()
    firsts = {Tenure(clock).review_at - clock.now for _ in range(20)}
    assert len(firsts) == 20
    assert all(REVIEW_SECONDS / 2 <= first <= REVIEW_SECONDS * 1.5 for first in firsts)
