"""Tournament points and standings: pure functions (no Django), exact in fractions.

At a table of n players, place p earns (n - p) x (table_size - 1) / (n - 1): a win is worth
table_size - 1 at any table and the last place nothing. Players who share a place share the
average of the points of the places they cover. Players who resigned (or were removed by the
timeout policy) take the last place of their table, together when there are several. A bye earns
(table_size - 1) / 2. Standings break ties by the sum of the opponents' points, then by the places
the tied players took against each other.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

PlayerId = Hashable


def bye_points(table_size: int) -> Fraction:
    return Fraction(table_size - 1, 2)


def place_points(place: int, players: int, table_size: int) -> Fraction:
    """Points of one place at a table of `players`; a table of one (never dealt) earns a win."""
    if players < 2:
        return Fraction(table_size - 1)
    return Fraction((players - place) * (table_size - 1), players - 1)


def effective_places(places: Sequence[int], resigned: Sequence[bool]) -> list[int]:
    """The places that count for the tournament: the game's own ranking, with every resigned (or
    timed-out) player moved to the last place, shared when there are several of them."""
    staying = sorted({p for p, gone in zip(places, resigned, strict=True) if not gone})
    result = [0] * len(places)
    next_place = 1
    for place in staying:
        group = [i for i, (p, gone) in enumerate(zip(places, resigned, strict=True)) if p == place and not gone]
        for i in group:
            result[i] = next_place
        next_place += len(group)
    for i, gone in enumerate(resigned):
        if gone:
            result[i] = next_place
    return result


def table_points(places: Sequence[int], resigned: Sequence[bool], table_size: int) -> list[Fraction]:
    """Points per seat of a finished game; tied places share the average of the places they cover."""
    ranked = effective_places(places, resigned)
    n = len(ranked)
    points = []
    for place in ranked:
        covered = sum(1 for other in ranked if other == place)
        share = sum(place_points(p, n, table_size) for p in range(place, place + covered))
        points.append(share / covered)
    return points


@dataclass(frozen=True)
class TableResult:
    """A finished game of a tournament: per seat the player (None for a bot), the game's place and
    whether that player resigned or was removed."""

    players: tuple[PlayerId | None, ...]
    places: tuple[int, ...]
    resigned: tuple[bool, ...]


@dataclass
class StandingRow:
    player: PlayerId
    points: Fraction = Fraction(0)
    games: int = 0
    byes: int = 0
    opponents_points: Fraction = Fraction(0)
    head_to_head: int = 0
    place: int = 0
    opponents: list[PlayerId] = field(default_factory=list)


def standings(
    players: Sequence[PlayerId],
    results: Sequence[TableResult],
    byes: Sequence[PlayerId],
    table_size: int,
) -> list[StandingRow]:
    """Rows best first. `players` gives the order among players tied on everything (who share a
    place); `byes` holds one entry per bye taken."""
    rows = {player: StandingRow(player) for player in players}
    # (a, b) -> how often a placed ahead of b minus how often behind, at the tables they shared
    ahead: dict[tuple[PlayerId, PlayerId], int] = defaultdict(int)
    for result in results:
        points = table_points(result.places, result.resigned, table_size)
        ranked = effective_places(result.places, result.resigned)
        people = [(i, p) for i, p in enumerate(result.players) if p is not None and p in rows]
        for i, player in people:
            row = rows[player]
            row.points += points[i]
            row.games += 1
            row.opponents.extend(p for j, p in people if j != i)
            for j, other in people:
                if j != i and ranked[i] != ranked[j]:
                    ahead[(player, other)] += 1 if ranked[i] < ranked[j] else -1
    for player in byes:
        if player in rows:
            rows[player].points += bye_points(table_size)
            rows[player].byes += 1
    for row in rows.values():
        row.opponents_points = sum((rows[o].points for o in row.opponents), Fraction(0))

    order = {player: i for i, player in enumerate(players)}
    by_score = sorted(rows.values(), key=lambda r: (-r.points, -r.opponents_points, order[r.player]))
    # Head-to-head only among players level on points and opponents' points.
    result: list[StandingRow] = []
    i = 0
    while i < len(by_score):
        j = i
        while j < len(by_score) and _level(by_score[j], by_score[i]):
            j += 1
        group = by_score[i:j]
        for row in group:
            row.head_to_head = sum(ahead[(row.player, other.player)] for other in group if other is not row)
        group.sort(key=lambda r: (-r.head_to_head, order[r.player]))
        result.extend(group)
        i = j
    for index, row in enumerate(result):
        previous = result[index - 1] if index else None
        if previous is not None and _level(previous, row) and previous.head_to_head == row.head_to_head:
            row.place = previous.place
        else:
            row.place = index + 1
    return result


def _level(a: StandingRow, b: StandingRow) -> bool:
    return a.points == b.points and a.opponents_points == b.opponents_points


def as_number(points: Fraction) -> float | int:
    """Points for JSON: a whole number as such, else a decimal to two places."""
    if points.denominator == 1:
        return int(points)
    return round(float(points), 2)
