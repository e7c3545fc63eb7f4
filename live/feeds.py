"""What a stream sends, as its viewer may see it: synchronous code, run in a thread by live.streams.

The per-viewer selectors (games.selectors) are the only road from a game to an event, as for every
other response. A game stream's ids are the game's revisions; a player's own stream's ids are the
numbers of their log (live.models).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.db.models import Max, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from rest_framework.utils.encoders import JSONEncoder

from accounts.models import ApiToken, User
from games import selectors, table_hooks
from games.models import Game, GameStatus, Move
from notifications import outbox, texts

from .models import EventKind, StreamCursor, StreamEvent

# How long a player's log is kept: a resume from further back gets a "reset" event.
LOG_KEPT_FOR = timedelta(hours=48)


@dataclass
class Event:
    id: int
    event: str
    data: dict[str, Any] | None
    raw: str | None = None  # `data` as JSON already, when it came so from another process

    def without_detail(self) -> Event:
        """This event without the game's detail that the last move of a change carries."""
        data = self.data if self.data is not None else json.loads(self.raw)
        if "detail" not in data:
            return self
        return Event(self.id, self.event, {key: value for key, value in data.items() if key != "detail"})


def data_json(data: dict[str, Any]) -> str:
    """An event's data as every stream sends it."""
    return json.dumps(data, cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Credentials:
    """What a stream was opened with, to tell later whether it still holds (a revoked token, a new
    password or a logout closes the stream)."""

    user_id: int | None
    token_id: int | None = None
    session_key: str | None = None
    session_hash: str | None = None
    log_seq: int = 0  # the player's log as far as this stream has looked for credential changes

    def revoked(self) -> bool:
        """Whether the credentials changed since the stream last looked (the log says so) and no
        longer hold."""
        if self.user_id is None:
            return False
        changes = StreamEvent.objects.filter(user_id=self.user_id, kind=EventKind.CREDENTIALS, seq__gt=self.log_seq)
        last = changes.aggregate(last=Max("seq"))["last"]
        if last is None:
            return False
        valid = self.still_valid()
        self.log_seq = last  # only once checked: a check the database failed is made again
        return not valid

    def still_valid(self) -> bool:
        if self.user_id is None:
            return True  # a spectator's public stream
        user = User.objects.filter(pk=self.user_id, is_active=True).only("password").first()
        if user is None:
            return False
        if self.token_id is not None:
            return ApiToken.objects.active().filter(pk=self.token_id).exists()
        store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore(self.session_key)
        stored = store.load()
        return str(stored.get(SESSION_KEY)) == str(self.user_id) and constant_time_compare(
            stored.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash()
        )


def credentials_of(request, seq: int) -> Credentials:
    """From a request authenticated by DRF (token or session), whose player's log is at `seq` (last_seqs)."""
    user = request.user if request.user.is_authenticated else None
    if user is None:
        return Credentials(user_id=None)
    if isinstance(request.auth, ApiToken):
        return Credentials(user_id=user.pk, token_id=request.auth.pk, log_seq=seq)
    session = request._request.session
    return Credentials(
        user_id=user.pk, session_key=session.session_key, session_hash=session.get(HASH_SESSION_KEY), log_seq=seq
    )


# --- a game's stream -------------------------------------------------------------------------

# A resume replays at most this many revisions. From further back it starts afresh with a "game"
# event, as a new connection does: a whole game's history cost megabytes and a second of CPU.
RESUME_LIMIT = 200


@dataclass
class GameView:
    """One viewer's position in one game's stream."""

    game_id: str
    revision: int = 0
    seat: int | None = None
    game_pk: int = 0
    first_look: bool = True  # the stream's first wake-up: news since its first events were read?


@dataclass
class Rendered:
    """What the viewers of a game are sent after a revision, for each audience (each seat, and the
    spectators under None): read once, and rendered once for all the streams of an audience
    (live.audiences)."""

    revision: int
    events: dict[int | None, list[Event]]  # audience -> its events
    seats_of: dict[int, int]  # user id -> their seat
    members: frozenset[int] | None  # who may see a private game (None: a public one)
    game_pk: int = 0
    _encoded: dict[tuple, bytes] = field(default_factory=dict)

    def allows(self, user_id: int | None) -> bool:
        return self.members is None or user_id in self.members

    @classmethod
    def one_after_another(cls, steps: list[Rendered]) -> Rendered:
        """Consecutive changes as one: every audience's events in order, the game's detail on the last
        move only (as a change read at once has it); who sits where and who may see the game as the
        last change has it."""
        last = steps[-1]
        events: dict[int | None, list[Event]] = {}
        for step in steps:
            for audience, step_events in step.events.items():
                if step is not last and step_events and step_events[-1].event == "move":
                    step_events = [*step_events[:-1], step_events[-1].without_detail()]
                events.setdefault(audience, []).extend(step_events)
        return cls(last.revision, events, last.seats_of, last.members, last.game_pk)

    def encoded(self, seat: int | None, encoder) -> bytes:
        key = (seat, encoder.ndjson)
        if key not in self._encoded:
            self._encoded[key] = b"".join(encoder.event(event) for event in self.events.get(seat, ()))
        return self._encoded[key]


def render_since(game_id: str, revision: int) -> Rendered | None:
    """The events after `revision` as each seat's player and the spectators see them, from one
    reading of the game; None when the game is gone."""
    game = selectors.with_seats(Game.objects.filter(public_id=game_id)).first()
    if game is None:
        return None
    seats = list(game.seats.all())
    return rendered(game, seats, revision, moves_between(game, revision) if game.revision > revision else [])


def rendered(game: Game, seats: list, revision: int, moves: list[Move]) -> Rendered:
    """The game's change since `revision` (its moves: `moves`) for every audience."""
    members = frozenset(u for s in seats for u in (s.user_id, s.invited_user_id) if u) if game.is_private else None
    events = {}
    if game.revision > revision:
        events = {seat: events_for_seat(game, seats, seat, revision, moves) for seat in [None, *range(len(seats))]}
    return Rendered(
        revision=max(game.revision, revision),
        events=events,
        seats_of={s.user_id: s.index for s in seats if s.user_id},
        members=members,
        game_pk=game.pk,
    )


SPECTATORS = "s"  # the spectators' audience in a message (JSON keys are strings)


def as_message(change: Rendered, since: int) -> str:
    """A rendered change as the stream processes receive it (live.changes)."""
    return json.dumps(
        {
            "revision": change.revision,
            "since": since,
            "pk": change.game_pk,
            "seats_of": {str(user_id): seat for user_id, seat in change.seats_of.items()},
            "members": sorted(change.members) if change.members is not None else None,
            "events": {
                SPECTATORS if seat is None else str(seat): [[e.id, e.event, data_json(e.data)] for e in events]
                for seat, events in change.events.items()
            },
        },
        separators=(",", ":"),
    )


def from_message(message: str) -> tuple[int, Rendered]:
    """The change a message carries, and the revision it is the change since."""
    body = json.loads(message)
    events = {
        None if seat == SPECTATORS else int(seat): [Event(id_, name, None, raw) for id_, name, raw in items]
        for seat, items in body["events"].items()
    }
    members = body["members"]
    change = Rendered(
        revision=body["revision"],
        events=events,
        seats_of={int(user_id): seat for user_id, seat in body["seats_of"].items()},
        members=frozenset(members) if members is not None else None,
        game_pk=body.get("pk", 0),
    )
    return body["since"], change


def moves_between(game: Game, revision: int) -> list[Move]:
    # Never past the game as read: a move committed since goes out with its own detail next time.
    return list(Move.objects.filter(game=game, revision__gt=revision, revision__lte=game.revision).order_by("seq"))


def events_for_seat(game: Game, seats: list, seat: int | None, revision: int, moves: list[Move]) -> list[Event]:
    """Every move after `revision` (`moves`), in order, the last with the detail; then, if anything
    besides moves changed since, one "game" event with the detail as it is now."""
    entries = selectors.moves_for_seat(game, seats, seat, moves)
    detail = selectors.detail_for_seat(game, seats, seat)
    events = [
        Event(move.revision, "move", {"type": "move", "game": game.public_id, "version": move.seq, "move": entry})
        for move, entry in zip(moves, entries, strict=True)
    ]
    # What other rooms keep at the table (table talk) takes revisions too, seen by some audiences only.
    # (Only revisions the moves leave unexplained are looked for: a move's change reads nothing more.)
    extra = table_hooks.StreamPart()
    if len(moves) < game.revision - revision:
        extra = table_hooks.read_stream_parts(game, seats, seat, revision, game.revision)
    if len(moves) + extra.revisions_used < game.revision - revision:  # a seat, a start, a deadline moved
        events.append(Event(game.revision, "game", detail))
    elif events:
        events[-1].data["detail"] = detail
    if extra.events:
        events = sorted(events + [Event(*part) for part in extra.events], key=lambda event: event.id)
    return events


# --- a player's own stream -------------------------------------------------------------------


@dataclass
class UserView:
    user: User
    seq: int = 0


def open_user(user: User, last_event_id: int | None) -> tuple[UserView, list[Event]]:
    view = UserView(user=user, seq=last_seq(user))
    if last_event_id is None or last_event_id >= view.seq:
        return view, []
    oldest = StreamEvent.objects.filter(user=user).order_by("seq").values_list("seq", flat=True).first()
    if oldest is None or last_event_id < oldest - 1:
        # Older than the log keeps: the client starts afresh.
        return view, [Event(view.seq, "reset", {"type": "reset", "last_event_id": view.seq})]
    view.seq = last_event_id
    return view, user_events_after(view)


def last_seq(user: User) -> int:
    return StreamCursor.objects.filter(user=user).values_list("last_seq", flat=True).first() or 0


def last_seqs(user_ids: list[int]) -> dict[int, int]:
    """last_seq of each of these players, in one query (a player whose log is empty: 0)."""
    if not user_ids:
        return {}
    found = dict(StreamCursor.objects.filter(user_id__in=user_ids).values_list("user_id", "last_seq"))
    return {user_id: found.get(user_id) or 0 for user_id in user_ids}


def unread_and_last_seq(user: User) -> tuple[int, int]:
    """The games the player has unread notices about (the badge: outbox.unread_games) and the number
    of their log's last event, read in one statement (one snapshot). A page shows the count and its
    stream resumes after that number, so news that comes between the page and its stream is neither
    missed nor counted twice."""
    unread = outbox.unread_games_query(user)
    cursor = StreamCursor.objects.filter(user=user).values("last_seq")
    both = User.objects.filter(pk=user.pk).values_list(Coalesce(Subquery(unread), 0), Coalesce(Subquery(cursor), 0))
    return both.first() or (0, 0)


def user_events_after(view: UserView, credentials: Credentials | None = None) -> list[Event] | None:
    """The player's new events; None when a credentials change among them means the stream must end."""
    rows = list(
        StreamEvent.objects.filter(user=view.user, seq__gt=view.seq)
        .select_related("game", "notification__game")
        .order_by("seq")[:500]
    )
    events = []
    seq = view.seq  # moved on only once every row is rendered: a read the database failed is made again
    # The unread counts are read as they are now: of several, the last says all (and is read once).
    last_counts = max((row.seq for row in rows if row.kind == EventKind.NOTIFICATIONS_READ), default=None)
    for row in rows:
        seq = row.seq
        if row.kind == EventKind.CREDENTIALS and credentials is not None and not credentials.still_valid():
            return None
        if row.kind == EventKind.NOTIFICATIONS_READ and row.seq != last_counts:
            continue
        event = render(view.user, row)
        if event is not None:
            events.append(event)
    view.seq = seq
    # A summary shows a game as it is now: of several for one game, the last says all.
    last_of_game = {e.data["game"]: e.id for e in events if e.event == "game_summary"}
    return [e for e in events if e.event != "game_summary" or last_of_game[e.data["game"]] == e.id]


def render(user: User, row: StreamEvent) -> Event | None:
    """A log row as the player's stream shows it (credentials changes are for the stream itself)."""
    if row.kind == EventKind.GAME and row.game is not None:
        game = row.game
        seats = list(game.seats.all())
        seat = selectors.viewer_seat(game, seats, user)
        active = game.status == GameStatus.ACTIVE
        summary = {
            "type": "game",
            "game": game.public_id,
            "version": game.version,
            "status": game.status,
            "is_your_turn": active and seat is not None and game.to_act_seat == seat,
            "deadline": game.deadline,
        }
        return Event(row.seq, "game_summary", summary)
    if row.kind == EventKind.NOTIFICATION and row.notification is not None and row.notification.in_app:
        return Event(row.seq, "notification", texts.as_json(row.notification))
    if row.kind == EventKind.NOTIFICATIONS_READ:
        data = {"type": "notifications_read", "unread_count": outbox.unread_count(user),
                "unread_games": outbox.unread_games(user)}  # fmt: skip
        return Event(row.seq, "notifications_read", data)
    return None


def prune_logs(now=None) -> int:
    """Remove log rows past LOG_KEPT_FOR (the counters stay, so numbers are never reused)."""
    now = now or timezone.now()
    deleted, _ = StreamEvent.objects.filter(created_at__lt=now - LOG_KEPT_FOR).delete()
    return deleted
