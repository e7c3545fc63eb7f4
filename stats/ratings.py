"""Multiplayer ratings: OpenSkill's Plackett-Luce model, one player per team, ranked by place."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma
# Fewer rated games than this, and the rating is shown as provisional.
PROVISIONAL_GAMES = 5


def ordinal(mu: float, sigma: float) -> float:
    """A conservative rating, mu - 3 sigma: the player is very likely at least this strong."""
    return mu - 3 * sigma


def rate(ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per player, in order, after a game they finished in `places` (1 = first; ties share)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]
