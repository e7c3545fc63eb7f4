# ruff: noqa: RUF001 - the Persian digits and separator are meant

"""Ratings read at a glance: one number where a newcomer starts at 1500, never negative, "?" while provisional."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from stats.models import Rating
from stats.templatetags.ratings_shown import rating_scale, shown_rating


def test_the_shown_rating_is_one_number_never_negative_and_a_question_mark_while_provisional():
    with translation.override("en"):
        assert str(shown_rating({"mu": 25.0, "sigma": 8.3, "provisional": False})) == "1,500"
        assert str(shown_rating({"mu": 27.6, "sigma": 8.1, "provisional": True})) == "?"
        assert str(rating_scale(-1.8)) == "0"
        assert shown_rating(None) == "?"
    with translation.override("fa"):
        assert str(rating_scale(30)) == "۱٬۸۰۰"


@pytest.mark.django_db
def test_the_leaderboard_shows_one_number_per_player(alice, bob):
    Rating.objects.create(user=alice, kind="scat", mu=30, sigma=2, ordinal=24, games=12)
    Rating.objects.create(user=bob, kind="scat", mu=27.6, sigma=8.1, ordinal=3.3, games=2)
    html = Client().get("/leaderboard/?kind=scat").content.decode()
    assert ">1,800</td>" in html and ">?</td>" in html
    assert "±" not in html and "Ratin g" not in html
