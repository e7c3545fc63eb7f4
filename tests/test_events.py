"""The domain-event bus (config.events): subscribers hear their class and its subclasses, in the order
they were registered, once each however often they are registered."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from config import events


@dataclass(frozen=True)
class Ringing:
    bell: str


@dataclass(frozen=True)
class LoudRinging(Ringing):
    pass


@pytest.fixture
def heard(monkeypatch):
    monkeypatch.setattr(events, "_subscribers", {})
    return []


def test_a_subscriber_hears_its_class_and_its_subclasses_after_their_own(heard):
    events.subscribe(Ringing, lambda e: heard.append(("any ringing", e.bell)))
    events.subscribe(LoudRinging, lambda e: heard.append(("loud", e.bell)))

    events.publish(Ringing("small"))
    events.publish(LoudRinging("big"))

    assert heard == [("any ringing", "small"), ("loud", "big"), ("any ringing", "big")]


def test_subscribers_of_one_class_run_in_the_order_they_were_registered(heard):
    def first(e):
        heard.append("first")

    def second(e):
        heard.append("second")

    events.subscribe(Ringing, first)
    events.subscribe(Ringing, second)
    events.subscribe(Ringing, first)  # a ready() run twice registers nothing twice

    events.publish(Ringing("x"))

    assert heard == ["first", "second"]
    assert events.subscribers(Ringing) == [first, second]


def test_an_event_nobody_hears_is_no_error(heard):
    events.publish(Ringing("alone"))
    assert heard == []


def test_the_rooms_above_the_game_core_are_registered_for_its_events():
    from games.events import GameChanged, GameFinished, GameStarted, TurnBegan

    def rooms(event_type):
        return [handler.__module__.split(".")[0] for handler in events.subscribers(event_type)]

    assert rooms(GameFinished) == ["notifications", "stats", "tournaments"]
    assert rooms(GameChanged) == ["live"]
    assert rooms(GameStarted) == rooms(TurnBegan) == ["notifications"]
