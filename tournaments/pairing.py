"""Pairing a tournament round: pure and deterministic (no Django, no randomness).

Given the players still in (ordered best first, with their points and byes so far), the history
of who met whom, the pairs who block each other, the table size, the format and the round number,
`pair_round` returns the round's tables and byes.

- Round robin (tables of two): the circle method over the tournament's roster, so that every pair
  meets once in n - 1 rounds (n with an odd roster, one bye a round). A player whose opponent has
  withdrawn, or blocks them, sits the round out with a bye (or plays a bot with `bots_fill`).
- Swiss: tables of `table_size` filled from the top of the standings, so players of similar points
  sit together, avoiding repeat meetings where the field allows. An uneven field gets smaller tables
  (sizes differing by at most one), or bots with `bots_fill`; at tables of two an odd field gives
  one bye to the lowest-placed player with the fewest byes. Small fields (up to EXACT_LIMIT players)
  are searched exhaustively for the fewest repeat meetings; larger ones are seated greedily, then
  improved by swapping players between nearby tables.

Blocked pairs never share a table: a player who cannot be seated without one takes a bye.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

PlayerId = Hashable
SWISS = "swiss"
ROUND_ROBIN = "round_robin"
FORMATS = (SWISS, ROUND_ROBIN)

EXACT_LIMIT = 12  # players; beyond, the greedy seating and the swaps
EXACT_NODE_LIMIT = 200_000  # search nodes before the exact search settles for its best so far
SWAP_WINDOW = 8  # tables on each side where a swap partner is looked for
SWAP_PASSES = 3


@dataclass(frozen=True)
class Contender:
    id: PlayerId
    points: Fraction | int = 0
    byes: int = 0


@dataclass(frozen=True)
class Table:
    players: tuple[PlayerId, ...]  # in seat order
    bots: int = 0  # computer players seated after them


@dataclass(frozen=True)
class Pairing:
    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...]

    def seated(self) -> list[PlayerId]:
        return [p for table in self.tables for p in table.players]


def pair_key(a: PlayerId, b: PlayerId) -> frozenset:
    return frozenset((a, b))


def meetings(tables: Iterable[Iterable[PlayerId]]) -> dict[frozenset, int]:
    """The history of who met whom (pair -> times), from the player lists of earlier tables."""
    met: dict[frozenset, int] = {}
    for table in tables:
        people = list(table)
        for a, b in combinations(people, 2):
            key = pair_key(a, b)
            met[key] = met.get(key, 0) + 1
    return met


def round_robin_rounds(players: int) -> int:
    """Rounds for every pair of `players` to meet once at tables of two."""
    if players < 2:
        return 0
    return players - 1 if players % 2 == 0 else players


def table_shapes(players: int, table_size: int, bots_fill: bool) -> list[tuple[int, int]]:
    """(people, bots) per table, biggest tables first, for `players` all seated."""
    if players <= 0:
        return []
    count = -(-players // table_size)
    base, extra = divmod(players, count)
    people = [base + 1] * extra + [base] * (count - extra)
    return [(n, table_size - n if bots_fill else 0) for n in people]


def pair_round(
    contenders: Sequence[Contender],
    *,
    history: Mapping[frozenset, int] | None = None,
    blocks: Collection[frozenset] = (),
    table_size: int,
    format: str = SWISS,
    round_number: int = 1,
    bots_fill: bool = False,
    roster: Sequence[PlayerId] | None = None,
) -> Pairing:
    """The tables and byes of round `round_number`. `contenders` are the players still in, best
    first; `roster` (round robin) is everyone who started, withdrawn players included, in a fixed
    order. Raises ValueError for a format or table size it cannot pair."""
    if table_size < 2:
        raise ValueError("Tables seat at least two players.")
    history = history or {}
    blocked = set(blocks)
    if format == ROUND_ROBIN:
        if table_size != 2:
            raise ValueError("A round robin is played at tables of two.")
        order = list(roster) if roster is not None else [c.id for c in contenders]
        return _round_robin(order, {c.id for c in contenders}, round_number, blocked, bots_fill)
    if format != SWISS:
        raise ValueError(f"Unknown format {format!r}.")
    return _swiss(list(contenders), history, blocked, table_size, bots_fill)


# --- round robin -------------------------------------------------------------------------------


def _round_robin(
    roster: list[PlayerId], active: set[PlayerId], round_number: int, blocked: set[frozenset], bots_fill: bool
) -> Pairing:
    slots: list[PlayerId | None] = list(roster) + ([None] if len(roster) % 2 else [])
    n = len(slots)
    if n < 2:
        return Pairing((), tuple(p for p in roster if p in active))
    shift = (round_number - 1) % (n - 1)
    rest = slots[1:]
    rotated = rest[len(rest) - shift :] + rest[: len(rest) - shift]
    circle = [slots[0], *rotated]
    tables: list[Table] = []
    byes: list[PlayerId] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        # Alternate who sits first, so the fixed player is not always seat 0.
        if round_number % 2 == 0:
            a, b = b, a
        here = [p for p in (a, b) if p is not None and p in active]
        if len(here) == 2 and pair_key(*here) not in blocked:
            tables.append(Table(tuple(here)))
            continue
        for player in here:
            if bots_fill:
                tables.append(Table((player,), bots=1))
            else:
                byes.append(player)
    return Pairing(tuple(tables), tuple(byes))


# --- Swiss -------------------------------------------------------------------------------------


class _Field:
    """The costs the Swiss seating weighs: blocks (never), repeat meetings, then the spread of points
    and of standings places at a table."""

    def __init__(self, contenders: list[Contender], history: Mapping[frozenset, int], blocked: set[frozenset]):
        self.rank = {c.id: i for i, c in enumerate(contenders)}
        self.points = {c.id: Fraction(c.points) for c in contenders}
        self.history = history
        self.blocked = blocked

    def met(self, a: PlayerId, b: PlayerId) -> int:
        return self.history.get(pair_key(a, b), 0)

    def blocks(self, a: PlayerId, b: PlayerId) -> bool:
        return pair_key(a, b) in self.blocked

    def repeats(self, group: Sequence[PlayerId]) -> int:
        return sum(self.met(a, b) for a, b in combinations(group, 2))

    def spread(self, group: Sequence[PlayerId]) -> tuple[Fraction, int]:
        points = [self.points[p] for p in group]
        ranks = [self.rank[p] for p in group]
        return max(points) - min(points), max(ranks) - min(ranks)


def _swiss(
    contenders: list[Contender], history: Mapping[frozenset, int], blocked: set[frozenset], size: int, bots: bool
) -> Pairing:
    field = _Field(contenders, history, blocked)
    ids = [c.id for c in contenders]
    byes: list[PlayerId] = []
    if not bots and (len(ids) == 1 or (size == 2 and len(ids) % 2)):
        # The lowest-placed of those with the fewest byes sits out.
        fewest = min(c.byes for c in contenders)
        bye = next(c.id for c in reversed(contenders) if c.byes == fewest)
        ids.remove(bye)
        byes.append(bye)
    shapes = table_shapes(len(ids), size, bots)
    sizes = [people for people, _bots in shapes]
    groups = _exact(ids, sizes, field) if len(ids) <= EXACT_LIMIT else None
    if groups is None:
        groups, left = _greedy(ids, sizes, field)
        _improve(groups, field)
        left += [g[0] for g in groups if len(g) == 1 and not bots]
        groups = [g for g in groups if len(g) > 1 or bots]
        byes += _place_leftovers(groups, left, size, field, bots)
    groups.sort(key=lambda g: min(field.rank[p] for p in g))
    tables = [Table(tuple(sorted(g, key=field.rank.__getitem__)), size - len(g) if bots else 0) for g in groups]
    return Pairing(tuple(tables), tuple(byes))


def _exact(ids: list[PlayerId], sizes: list[int], field: _Field) -> list[list[PlayerId]] | None:
    """The seating with the fewest repeat meetings, then the least spread, by branch and bound; None
    when blocks leave no full seating (or there is nobody to seat)."""
    if not ids:
        return []
    best: dict = {"cost": None, "groups": None}
    nodes = 0
    counts: dict[int, int] = {}
    for s in sizes:
        counts[s] = counts.get(s, 0) + 1

    def search(remaining: tuple, groups: list, repeats: int, points: Fraction, ranks: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > EXACT_NODE_LIMIT:
            return
        if not remaining:
            cost = (repeats, points, ranks)
            if best["cost"] is None or cost < best["cost"]:
                best["cost"], best["groups"] = cost, [list(g) for g in groups]
            return
        anchor, rest = remaining[0], remaining[1:]
        for size in sorted((s for s, c in counts.items() if c), reverse=True):
            counts[size] -= 1
            for others in combinations(rest, size - 1):
                group = (anchor, *others)
                if any(field.blocks(a, b) for a, b in combinations(group, 2)):
                    continue
                r = repeats + field.repeats(group)
                p_spread, r_spread = field.spread(group)
                cost = (r, points + p_spread, ranks + r_spread)
                if best["cost"] is not None and cost >= best["cost"]:
                    continue  # every addition only adds: this branch cannot do better
                taken = set(others)
                groups.append(group)
                search(tuple(x for x in rest if x not in taken), groups, *cost)
                groups.pop()
            counts[size] += 1

    search(tuple(ids), [], 0, Fraction(0), 0)
    return best["groups"]


def _greedy(ids: list[PlayerId], sizes: list[int], field: _Field) -> tuple[list[list[PlayerId]], list[PlayerId]]:
    """Top table first: the best-placed player left, then the nearest players below who meet nobody
    at the table again (else the one with the fewest repeats), never a blocked pair."""
    remaining = list(ids)
    groups: list[list[PlayerId]] = []
    for size in sizes:
        if not remaining:
            break
        group = [remaining.pop(0)]
        while len(group) < size:
            pick, pick_cost = None, None
            for i, candidate in enumerate(remaining):
                if any(field.blocks(candidate, member) for member in group):
                    continue
                cost = sum(field.met(candidate, member) for member in group)
                if pick_cost is None or cost < pick_cost:
                    pick, pick_cost = i, cost
                    if cost == 0:
                        break
            if pick is None:
                break
            group.append(remaining.pop(pick))
        groups.append(group)
    return groups, remaining


def _improve(groups: list[list[PlayerId]], field: _Field) -> None:
    """Swap players between nearby tables while a swap lowers the repeat meetings (and makes no
    blocked table)."""

    def cost_with(group: list[PlayerId], out: PlayerId, into: PlayerId) -> int | None:
        others = [m for m in group if m != out]
        if any(field.blocks(into, m) for m in others):
            return None
        return sum(field.met(into, m) for m in others)

    def cost_of(group: list[PlayerId], member: PlayerId) -> int:
        return sum(field.met(member, m) for m in group if m != member)

    for _ in range(SWAP_PASSES):
        improved = False
        for gi, group in enumerate(groups):
            for x in list(group):
                if x not in group or cost_of(group, x) == 0:
                    continue
                window = range(max(0, gi - SWAP_WINDOW), min(len(groups), gi + SWAP_WINDOW + 1))
                near = sorted(window, key=lambda j, gi=gi: abs(j - gi))
                done = False
                for gj in near:
                    if gj == gi:
                        continue
                    other = groups[gj]
                    for y in other:
                        before = cost_of(group, x) + cost_of(other, y)
                        x_there = cost_with(other, y, x)
                        y_here = cost_with(group, x, y)
                        if x_there is None or y_here is None or x_there + y_here >= before:
                            continue
                        group[group.index(x)] = y
                        other[other.index(y)] = x
                        improved = done = True
                        break
                    if done:
                        break
        if not improved:
            return


def _place_leftovers(
    groups: list[list[PlayerId]], left: list[PlayerId], size: int, field: _Field, bots: bool
) -> list[PlayerId]:
    """Seat the players the greedy pass could not (blocks), at a table with room and nobody they
    block; with bots, at a table of their own. The rest take byes."""
    byes = []
    for player in sorted(left, key=field.rank.__getitem__):
        options = [g for g in groups if len(g) < size and not any(field.blocks(player, m) for m in g)]
        if options:
            options.sort(key=lambda g, p=player: (sum(field.met(p, m) for m in g), field.rank[g[0]]))
            options[0].append(player)
        elif bots:
            groups.append([player])
        else:
            byes.append(player)
    return byes
