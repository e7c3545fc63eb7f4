"""Tournaments made and played through the real services."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from accounts.models import User
from games.models import Game, GameStatus
from tests.accounts.helpers import Policy, play_out
from tests.conftest import make_user
from tournaments import services
from tournaments.models import Round, Tournament, TournamentStatus


def make_players(count: int, prefix: str = "p") -> list[User]:
    return [make_user(f"{prefix}{i}") for i in range(count)]


def new_tournament(players: list[User], **settings) -> Tournament:
    """The first player creates it, the rest join."""
    settings.setdefault("name", "Test cup")
    tournament = services.create_tournament(creator=players[0], **settings)
    for player in players[1:]:
        services.join_tournament(tournament_id=tournament.public_id, user=player)
    return tournament


def running_games(tournament: Tournament) -> list[Game]:
    return list(
        Game.objects.filter(
            tournament_table__round__tournament=tournament,
            tournament_table__round__number=Tournament.objects.get(pk=tournament.pk).current_round,
            status=GameStatus.ACTIVE,
        ).order_by("pk")
    )


def play_round(tournament: Tournament, policy: Policy) -> None:
    """Play every game of the current round to its end, by scripted moves."""
    for game in running_games(tournament):
        players = {seat.index: seat.user for seat in game.seats.select_related("user") if seat.user_id}
        play_out(game, players, policy)


def play_to_the_end(tournament: Tournament, policy: Policy, *, max_rounds: int = 20) -> Tournament:
    for _ in range(max_rounds):
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return tournament
        play_round(tournament, policy)
    raise AssertionError("the tournament did not finish")


def seatings(tournament: Tournament) -> list[tuple[list[list[int]], list[int]]]:
    """Per round: the people of each table (user ids in seat order) and the byes."""
    rounds = []
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        tables = [
            [s.user_id for s in table.game.seats.order_by("index") if s.user_id]
            for table in round_.tables.select_related("game").order_by("number")
        ]
        rounds.append((tables, sorted(round_.byes.values_list("user_id", flat=True))))
    return rounds


def pairs(tables: list[list[int]]) -> list[frozenset]:
    return [frozenset(pair) for table in tables for pair in combinations(table, 2)]


def recomputed_points(tournament: Tournament) -> dict[int, Fraction]:
    """Points from the games themselves, as the clarification states them, written out again here
    (not through tournaments.scoring): place p of n earns (n - p)(T - 1)/(n - 1), tied places share,
    resigned players share the last place; a bye (T - 1)/2."""
    size = tournament.table_size
    points: dict[int, Fraction] = {}
    for round_ in Round.objects.filter(tournament=tournament):
        for table in round_.tables.select_related("game"):
            game = table.game
            assert game.status == GameStatus.FINISHED
            seats = list(game.seats.order_by("index"))
            n = len(seats)
            places = game.outcome["places"]
            staying = sorted((places[s.index], s.index) for s in seats if not s.resigned)
            order: list[list[int]] = []
            for place, index in staying:
                if order and places[order[-1][0]] == place:
                    order[-1].append(index)
                else:
                    order.append([index])
            gone = [s.index for s in seats if s.resigned]
            if gone:
                order.append(gone)
            first = 1
            for group in order:
                worth = [Fraction((n - p) * (size - 1), n - 1) for p in range(first, first + len(group))]
                for index in group:
                    if seats[index].user_id:
                        points[seats[index].user_id] = points.get(seats[index].user_id, 0) + sum(worth) / len(group)
                first += len(group)
        for user_id in round_.byes.values_list("user_id", flat=True):
            points[user_id] = points.get(user_id, 0) + Fraction(size - 1, 2)
    return points
