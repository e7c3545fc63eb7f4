"""Multiplayer ratings: OpenSkill's Plackett-Luce model, one player per team, ranked by place."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma
# Fewer rated games than this, and the rating is shown as provisional.
PROVISIONAL_GAMES = 5
# OpenSkill's newcomer starts at mu 25: 60 points a unit put that start at 1500, as chess ratings do.
POINTS_PER_MU = 60


def ordinal(mu: float, sigma: float) -> float:
    """A conservative rating, mu - 3 sigma: the player is very likely at least this strong."""
    return mu - 3 * sigma


def rate(ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per player, in order, after a game they finished in `places` (1 = first; ties share)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]


def shown_value(mu: float) -> int:
    """The model's mu on the scale people read: a newcomer at 1500, never negative."""
    return max(0, round(mu * POINTS_PER_MU))


def shown_or_provisional(mu: float, games: int) -> int | None:
    """The one number shown for a rating after `games` rated games; None ("?") while provisional."""
    return None if games < PROVISIONAL_GAMES else shown_value(mu)
