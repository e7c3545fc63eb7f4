"""Read paths: a tournament's results, standings, rounds and lists, as the API shows them."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Prefetch, Q, QuerySet

from accounts.models import User
from games.models import Game, GameStatus, Seat, time_bank_of

from . import scoring
from .models import Bye, Entry, Round, Table, Tournament, TournamentStatus
from .snapshot import read_snapshot

OVER = (GameStatus.FINISHED, GameStatus.ABORTED)


@dataclass
class Results:
    """What the finished games and the byes say so far."""

    players: list[int]  # every entry's user id, in joining order
    tables: list[list[int]]  # the people of every table so far (who met whom)
    finished: list[scoring.TableResult]
    byes: list[int]  # one user id per bye taken
    rows: list[scoring.StandingRow]

    @property
    def points(self) -> dict[int, Any]:
        return {row.player: row.points for row in self.rows}

    def bye_counts(self) -> Counter:
        return Counter(self.byes)


def results(tournament: Tournament, *, finished_game: Game | None = None, players: list[int] | None = None) -> Results:
    """The results so far. `finished_game` has just finished in this transaction: its seats' places
    are saved, its own row not yet. `players`: the entries' user ids in joining order, when the
    caller has read them already (in the same snapshot)."""
    if players is None:
        players = list(
            Entry.objects.filter(tournament=tournament).order_by("joined_at", "pk").values_list("user_id", flat=True)
        )
    games = dict(
        Table.objects.filter(round__tournament=tournament)
        .order_by("round__number", "number")
        .values_list("game_id", "game__status")
    )
    seats_of: dict[int, list[dict]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(game_id__in=list(games))
        .order_by("game_id", "index")
        .values("game_id", "user_id", "final_place", "resigned")
    ):
        seats_of[seat["game_id"]].append(seat)
    tables, finished = [], []
    for game_id, status in games.items():
        seats = seats_of[game_id]
        tables.append([s["user_id"] for s in seats if s["user_id"]])
        done = status == GameStatus.FINISHED or (finished_game is not None and game_id == finished_game.pk)
        if done and all(s["final_place"] for s in seats):
            finished.append(
                scoring.TableResult(
                    players=tuple(s["user_id"] for s in seats),
                    places=tuple(s["final_place"] for s in seats),
                    resigned=tuple(s["resigned"] for s in seats),
                )
            )
    byes = list(Bye.objects.filter(round__tournament=tournament).values_list("user_id", flat=True))
    rows = scoring.standings(players, finished, byes, tournament.table_size)
    return Results(players, tables, finished, byes, rows)


def standings(tournament: Tournament, *, finished_game: Game | None = None) -> list[scoring.StandingRow]:
    return results(tournament, finished_game=finished_game).rows


def standings_order(tournament: Tournament, past: Results) -> list[int]:
    """User ids best first: the pairing's order (ties: joining order)."""
    return [row.player for row in past.rows]


def round_is_over(round_: Round, *, finished_game: Game | None = None) -> bool:
    waiting = Table.objects.filter(round=round_).exclude(game__status__in=OVER)
    if finished_game is not None:
        waiting = waiting.exclude(game_id=finished_game.pk)
    return not waiting.exists()


# --- what the API shows ----------------------------------------------------------------------


def tournaments_list(status: str | None = None) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.select_related("creator").annotate(
        player_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    )
    if status:
        tournaments = tournaments.filter(status=status)
    if status == TournamentStatus.FINISHED:
        return tournaments.order_by("-finished_at", "-pk")
    return tournaments.order_by("-created_at", "-pk")


def entered_tournaments(user: User, limit: int = 10) -> QuerySet[Tournament]:
    """The open and running tournaments `user` has entered and not withdrawn from, the running ones
    first, then by when they start."""
    entered = Entry.objects.filter(user=user, withdrawn_at__isnull=True).values("tournament_id")
    tournaments = Tournament.objects.filter(
        pk__in=entered, status__in=[TournamentStatus.OPEN, TournamentStatus.RUNNING]
    )
    # "running" sorts after "open": the running ones first.
    return tournaments.order_by("-status", F("starts_at").asc(nulls_last=True), "created_at")[:limit]


def summary(
    tournament: Tournament, user: User | None, *, player_count: int | None = None, entered: bool | None = None
) -> dict[str, Any]:
    if player_count is None:
        player_count = getattr(tournament, "player_count", None)
    if player_count is None:
        player_count = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
    if entered is None:
        entered = False
        if user is not None and user.is_authenticated:
            entered = Entry.objects.filter(tournament=tournament, user=user).exists()
    return {
        "id": tournament.public_id,
        "name": tournament.name,
        "kind": tournament.kind,
        "format": tournament.format,
        "status": tournament.status,
        "cancelled": tournament.cancelled,
        "cancel_reason": tournament.cancel_reason or None,
        "table_size": tournament.table_size,
        "round_count": tournament.rounds,
        "current_round": tournament.current_round,
        "options": tournament.options,
        "move_time_limit": tournament.move_time_limit,
        "time_bank": time_bank_of(tournament),
        "timeout_policy": tournament.timeout_policy,
        "vacation": tournament.vacation,
        "max_players": tournament.max_players,
        "player_count": player_count,
        "bots_fill": tournament.bots_fill,
        "creator": tournament.creator.username,
        "entered": entered,
        "starts_at": tournament.starts_at,
        "created_at": tournament.created_at,
        "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
    }


def seat_name(seat: Seat) -> str:
    if seat.user_id:
        return seat.user.username
    return f"bot ({seat.bot_level})"


def detail(tournament: Tournament, user: User | None) -> dict[str, Any]:
    """The tournament as GET /api/v1/tournaments/{id}/ shows it, read from one snapshot: players
    joining meanwhile are in all of its parts or in none."""
    with read_snapshot():
        return _detail(tournament, user)


def _detail(tournament: Tournament, user: User | None) -> dict[str, Any]:
    # The caller's row may be older than the snapshot (read before it, or locked by a service that
    # has committed since): the status, round and count come from the same moment as the rest.
    tournament = Tournament.objects.select_related("creator").get(pk=tournament.pk)
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user").order_by("joined_at", "pk"))
    names = {entry.user_id: entry.user.username for entry in entries}
    withdrawn = {entry.user_id for entry in entries if entry.withdrawn_at}
    me = user.pk if user is not None and user.is_authenticated else None
    body = summary(tournament, user, player_count=len(entries) - len(withdrawn), entered=me in names)
    rows = results(tournament, players=[entry.user_id for entry in entries]).rows
    body["players"] = [entry.user.username for entry in entries]
    body["standings"] = [
        {
            "player": names[row.player],
            "points": scoring.as_number(row.points),
            "games": row.games,
            "place": row.place,
            "byes": row.byes,
            "opponents_points": scoring.as_number(row.opponents_points),
            "withdrawn": row.player in withdrawn,
        }
        for row in rows
    ]
    seats = Seat.objects.select_related("user").order_by("index")
    tables = Table.objects.select_related("game").prefetch_related(Prefetch("game__seats", seats))
    rounds = (
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(Prefetch("tables", tables), Prefetch("byes", Bye.objects.select_related("user")))
    )
    body["rounds"] = []
    your_table = None
    for round_ in rounds:
        shown = []
        for table in round_.tables.all():
            game_seats = list(table.game.seats.all())
            shown.append(
                {
                    "number": table.number,
                    "game": table.game.public_id,
                    "players": [seat_name(seat) for seat in game_seats],
                    "status": table.game.status,
                    "places": [seat.final_place for seat in game_seats]
                    if table.game.status == GameStatus.FINISHED
                    else None,
                }
            )
            if round_.number == tournament.current_round and any(seat.user_id == me for seat in game_seats):
                your_table = table.game.public_id
        body["rounds"].append(
            {
                "number": round_.number,
                "started_at": round_.started_at,
                "expected_end": round_.expected_end,
                "finished_at": round_.finished_at,
                "tables": shown,
                "byes": sorted(bye.user.username for bye in round_.byes.all()),
            }
        )
    body["you"] = {
        "entered": me in names,
        "withdrawn": me in withdrawn,
        "is_creator": me is not None and tournament.creator_id == me,
        "table": your_table,
    }
    return body


def games_waiting_for(user: User) -> QuerySet[Game]:
    """Active games in which it is `user`'s turn and a deadline runs (for the calendar)."""
    from django.db.models import F

    return Game.objects.filter(
        status=GameStatus.ACTIVE, deadline__isnull=False, seats__user=user, seats__index=F("to_act_seat")
    ).order_by("deadline")


def table_of_game(game: Game) -> Table | None:
    """The tournament table a game is played at (with its round and tournament), or None outside one."""
    return Table.objects.filter(game=game).select_related("round__tournament").first()
