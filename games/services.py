"""Every change to a game happens here, in one transaction, under the game's row lock.

The API, the pages and the Celery tasks all call these functions; none of them saves a game
itself.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from operator import attrgetter
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.blocks import blocks_between
from accounts.models import User
from accounts.preferences import NotificationKind, PlayerPreference
from config.compiled import CompiledQuery
from config.dispatch import enqueue_after_commit
from config.events import publish
from config.write_batch import WriteBatch

from . import advice, clock, turn_hooks
from .engine import BadOption, IllegalAction, get_rules
from .engine.bots import BOT_LEVELS, choose_action
from .errors import Conflict, Forbidden, Invalid, NotFound
from .events import (
    GameChanged,
    GameFinished,
    GameStarted,
    InvitationsAnswered,
    InvitationsSent,
    MoveMade,
    PlayerJoined,
    PlayerResigned,
    TurnBegan,
    TurnTimedOut,
)
from .models import (
    Game,
    GameKind,
    GameStatus,
    Move,
    Seat,
    TimeControl,
    TimeoutPolicy,
    Turn,
    time_control_columns,
)

DEFAULT_INVITE_DAYS = 14
MAX_WAITING_INVITATIONS = 2  # from one creator to one player
MAX_INVITATIONS_PER_DAY = 20
TIMEOUTS_BEFORE_REMOVAL = 3
# Bounds a run of server moves (bots, or a timed-out turn of several actions).
MAX_SERVER_ACTIONS = 2000


def new_seed() -> str:
    """A game's shuffle seed: 256 bits from the operating system's generator."""
    return secrets.token_hex(32)


@dataclass(frozen=True)
class MoveResult:
    game: Game
    seats: list[Seat]
    move: Move
    replayed: bool = False


# --- creating and filling games -------------------------------------------------------------


@transaction.atomic
def create_game(
    *,
    creator: User,
    kind: str,
    num_seats: int,
    options: dict[str, Any] | None = None,
    move_time_limit: int = 86400,
    time_bank: dict[str, int] | None = None,
    timeout_policy: str = TimeoutPolicy.AUTOPLAY,
    bots: list[str] | None = None,
    invite: list[str] | None = None,
    invite_days: int = DEFAULT_INVITE_DAYS,
    is_private: bool = False,
    preset: str = "",
    rated: bool = True,
    advice: bool = False,
) -> Game:
    """A new game with the creator in seat 0, then invitees' reserved seats, then bots. A `preset`
    (such as "original") gives the options a starting point; the options given override it."""
    if kind not in GameKind.values:
        raise Invalid(f"Unknown game kind {kind!r}; choose scat or scattle.", "bad_kind", {"kind": [kind]})
    rules = get_rules(kind)
    presets = rules.presets()
    if preset and preset not in presets:
        message = f"{kind.title()} has no preset {preset!r}; the presets are {', '.join(presets)}."
        raise Invalid(message, "bad_preset", {"preset": [message]})
    try:
        chosen = {**presets.get(preset, {}), **(options or {})}
        rules.validate_options(chosen, num_seats)
        # Stored as chosen ("auto" included): _start resolves them for the seats that really play.
        options = rules.validate_options(chosen)
    except BadOption as exc:
        raise Invalid(exc.message, "bad_option", {"options": [exc.message]}, option=exc.option) from exc
    bank = checked_time_control(move_time_limit, time_bank)
    bots = list(bots or [])
    for level in bots:
        if level not in BOT_LEVELS:
            raise Invalid(f"Unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}.", "bad_bot_level")
    invitees = _users_to_invite(creator, invite or [])
    if 1 + len(invitees) + len(bots) > num_seats:
        raise Invalid(
            f"{num_seats} seats cannot hold you, {len(invitees)} invited players and {len(bots)} bots.", "too_many"
        )
    if not 1 <= invite_days <= 60:
        raise Invalid("Invitations expire after 1 to 60 days.", "bad_invite_days")
    if advice and rated:
        raise Invalid(
            "Advice is only for unrated games: send rated false as well.", "advice_in_rated_game", {"advice": [True]}
        )

    now = timezone.now()
    game = Game.objects.create(
        kind=kind,
        options=options,
        num_seats=num_seats,
        creator=creator,
        move_time_limit=move_time_limit,
        **time_control_columns(bank),
        timeout_policy=timeout_policy,
        is_private=is_private,
        rated=rated,
        advice=advice,
        created_at=now,
    )
    expires = now + timedelta(days=invite_days)
    seats = [Seat(game=game, index=0, user=creator, joined_at=now)]
    seats += [
        Seat(game=game, index=len(seats) + i, invited_user=u, invite_expires_at=expires) for i, u in enumerate(invitees)
    ]
    seats += [Seat(game=game, index=len(seats) + i, bot_level=level, joined_at=now) for i, level in enumerate(bots)]
    seats += [Seat(game=game, index=i) for i in range(len(seats), num_seats)]
    Seat.objects.bulk_create(seats)
    writes = WriteBatch()
    if invitees:
        invited = [u.pk for u in invitees]
        publish(InvitationsSent(game=game, seats=seats, revision=game.revision, writes=writes, user_ids=invited))
    if all(seat.is_taken for seat in seats):
        _start(game, seats, writes, started_by=creator.pk)
    else:
        writes.flush()
    return game


def checked_time_control(move_time_limit: int, time_bank: dict[str, int] | None) -> dict[str, int] | None:
    """The time bank (None: a limit per move), once the limit and the bank are checked."""
    if not clock.MIN_MOVE_TIME <= move_time_limit <= clock.MAX_MOVE_TIME:
        raise Invalid(f"move_time_limit must be between {clock.MIN_MOVE_TIME} seconds and 30 days.", "bad_time_limit")
    if time_bank is None:
        return None
    bank = clock.validate_time_bank(time_bank)
    if bank is None:
        raise Invalid(
            "time_bank needs initial, increment and cap in seconds, with initial <= cap <= 30 days.",
            "bad_time_bank",
            {"time_bank": ["Give initial, increment and cap in seconds."]},
        )
    return bank


def _users_to_invite(creator: User, usernames: list[str]) -> list[User]:
    if len({name.lower() for name in usernames}) != len(usernames):
        raise Invalid("Each player can be invited once.", "duplicate_invite")
    users, missing = [], []
    for name in usernames:
        user = User.objects.filter(is_active=True, username__iexact=name).first()
        if user is None:
            missing.append(name)
        elif user.pk == creator.pk:
            raise Invalid("You are already in your own game.", "invite_self")
        else:
            users.append(user)
    if missing:
        raise Invalid(f"No player named {', '.join(missing)}.", "unknown_user", {"invite": missing})
    if users:
        _check_invitation_limits(creator, users)
    return users


def _check_invitation_limits(creator: User, invitees: list[User]) -> None:
    """Invitations send messages to other people, so nobody may flood a player with them: not to a
    player who has blocked the creator (or whom the creator blocked), not more than a few waiting
    from one creator to one player, and not more than a day's worth in all."""
    # Counted under a lock on the creator's row: games created at the same instant would otherwise
    # all count the same invitations and all pass the limits.
    User.objects.select_for_update().filter(pk=creator.pk).values_list("pk", flat=True).get()
    blocked = blocks_between(creator.pk, [u.pk for u in invitees])
    if blocked:
        names = [u.username for u in invitees if u.pk in blocked]
        raise Invalid(f"You cannot invite {', '.join(names)}.", "cannot_invite", {"invite": names})
    now = timezone.now()
    waiting = (
        Seat.objects.filter(game__creator=creator, game__status=GameStatus.OPEN, user__isnull=True)
        .filter(invited_user__in=invitees, invite_expires_at__gt=now)
        .values_list("invited_user__username", flat=True)
    )
    crowded = sorted(name for name, count in Counter(waiting).items() if count >= MAX_WAITING_INVITATIONS)
    if crowded:
        raise Invalid(
            f"{', '.join(crowded)} already has {MAX_WAITING_INVITATIONS} invitations from you waiting for an answer.",
            "too_many_invitations",
            {"invite": crowded},
        )
    # The invitation notices of the creator's games (notifications' rows, reached through their
    # relation to the game: one row of the join per notice).
    sent = Game.objects.filter(
        creator=creator,
        notifications__kind=NotificationKind.INVITATION,
        notifications__created_at__gte=now - timedelta(days=1),
    ).count()
    if sent + len(invitees) > MAX_INVITATIONS_PER_DAY:
        raise Invalid(
            f"You may invite {MAX_INVITATIONS_PER_DAY} players a day by name, and you have invited {sent} "
            "since this time yesterday. An invitation link reaches anyone you send it to.",
            "invitation_limit",
        )


@transaction.atomic
def create_invite_link(*, game_id: str, user: User, days: int = DEFAULT_INVITE_DAYS) -> tuple[Seat, str]:
    """Reserve a free seat for whoever holds the returned token (the secret part of a link)."""
    game, seats = lock_game(game_id, user)
    if game.creator_id != user.pk:
        raise Forbidden("Only the game's creator can invite.", "not_creator")
    _require_open(game)
    seat = _free_seat(seats)
    if seat is None:
        raise Conflict("Every seat is taken or reserved.", "no_free_seat")
    token = secrets.token_urlsafe(18)
    seat.invite_token_hash = _hash(token)
    seat.invite_expires_at = timezone.now() + timedelta(days=days)
    seat.save(update_fields=["invite_token_hash", "invite_expires_at"])
    _seats_changed(game, seats)
    return seat, token


@transaction.atomic
def join_game(*, game_id: str, user: User, invite_token: str = "") -> Game:
    game, seats = lock_game(game_id, user, invite_token=invite_token)
    _require_open(game)
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict("You already have a seat in this game.", "already_seated")
    if blocks_between(user.pk, [seat.user_id for seat in seats if seat.user_id]):
        raise Forbidden("You cannot join this game.", "blocked")
    now = timezone.now()
    seat = _reserved_seat(seats, user, invite_token, now) or _free_seat(seats, now)
    if seat is None:
        raise Conflict("Every seat is taken or reserved for an invited player.", "no_free_seat")
    # Their invitations here are answered; and the seat may be one whose invitation had expired.
    writes = WriteBatch()
    _invitations_answered(game, seats, {user.pk, seat.invited_user_id} - {None}, writes)
    seat.user = user
    seat.joined_at = now
    seat.invited_user = None
    seat.invite_token_hash = ""
    seat.invite_expires_at = None
    seat.save(update_fields=["user", "joined_at", "invited_user", "invite_token_hash", "invite_expires_at"])
    if all(s.is_taken for s in seats):
        _start(game, seats, writes, started_by=user.pk)
    else:
        _seats_changed(game, seats, writes=writes, joined=user.pk)
    return game


def _invitations_answered(game: Game, seats: list[Seat], user_ids: Iterable[int], writes: WriteBatch) -> None:
    answered = InvitationsAnswered(
        game=game, seats=seats, revision=game.revision, writes=writes, user_ids=list(user_ids)
    )
    publish(answered)


def _reserved_seat(seats: list[Seat], user: User, token: str, now) -> Seat | None:
    for seat in seats:
        if not seat.is_reserved(now):
            continue
        if seat.invited_user_id == user.pk or (token and seat.invite_token_hash == _hash(token)):
            return seat
    if token:
        raise Forbidden("This invitation link is not valid, or it has expired.", "bad_invite")
    return None


def _waiting_invitees(seats: list[Seat]) -> list[int]:
    return [s.invited_user_id for s in seats if s.invited_user_id and not s.is_taken]


def _free_seat(seats: list[Seat], now=None) -> Seat | None:
    return next((s for s in seats if not s.is_taken and not s.is_reserved(now)), None)


@transaction.atomic
def decline_invitation(*, game_id: str, user: User) -> Game:
    game, seats = lock_game(game_id, user)
    _require_open(game)
    seat = next((s for s in seats if s.invited_user_id == user.pk and not s.is_taken), None)
    if seat is None:
        raise Forbidden("You have no invitation to this game.", "not_invited")
    writes = WriteBatch()
    _invitations_answered(game, seats, [user.pk], writes)
    seat.invited_user = None
    seat.invite_expires_at = None
    seat.save(update_fields=["invited_user", "invite_expires_at"])
    _seats_changed(game, seats, also_tell=[user.pk], writes=writes)
    return game


@transaction.atomic
def leave_game(*, game_id: str, user: User) -> Game:
    """Give up a seat in a game that has not started; the creator leaving cancels the game."""
    game, seats = lock_game(game_id, user)
    _require_open(game)
    seat = seat_of(seats, user)
    if seat.index == 0 and game.creator_id == user.pk:
        game.status = GameStatus.ABORTED
        game.finished_at = timezone.now()
        writes = WriteBatch()
        _invitations_answered(game, seats, _waiting_invitees(seats), writes)
        _seats_changed(game, seats, fields=["status", "finished_at"], writes=writes)
        return game
    seat.user = None
    seat.joined_at = None
    seat.save(update_fields=["user", "joined_at"])
    _seats_changed(game, seats, also_tell=[user.pk])
    return game


@transaction.atomic
def start_game(*, game_id: str, user: User) -> Game:
    """Start before every seat is filled: empty and reserved seats are dropped."""
    game, seats = lock_game(game_id, user)
    if game.creator_id != user.pk:
        raise Forbidden("Only the game's creator can start it.", "not_creator")
    _require_open(game)
    taken = [s for s in seats if s.is_taken]
    rules = get_rules(game.kind)
    if len(taken) < rules.min_seats:
        raise Conflict(f"{game.kind.title()} needs at least {rules.min_seats} players.", "not_enough_players")
    try:
        rules.validate_options(game.options, len(taken))
    except BadOption as exc:
        raise Conflict(exc.message, "bad_seat_count", option=exc.option) from exc
    writes = WriteBatch()
    _invitations_answered(game, seats, _waiting_invitees(seats), writes)
    Seat.objects.filter(game=game).exclude(pk__in=[s.pk for s in taken]).delete()
    # Close the gaps so seat numbers run 0..n-1 in joining order (rules C2).
    for new_index, seat in enumerate(taken):
        if seat.index != new_index:
            seat.index = 1000 + new_index
            seat.save(update_fields=["index"])
    for seat in taken:
        if seat.index >= 1000:
            seat.index -= 1000
            seat.save(update_fields=["index"])
    game.num_seats = len(taken)
    _start(game, taken, writes, started_by=user.pk)
    return game


def _start(game: Game, seats: list[Seat], writes: WriteBatch, *, started_by: int) -> None:
    """Deal and start; every player but the one whose action started the game hears of it."""
    rules = get_rules(game.kind)
    now = timezone.now()
    # "auto" options become numbers now that the seat count is known, so that players see them.
    game.options = rules.validate_options(game.options, game.num_seats)
    game.seed = new_seed()
    game.seed_sha256 = hashlib.sha256(game.seed.encode()).hexdigest()
    state = rules.new_game(game.num_seats, game.options, game.seed, edition=game.rules_edition)
    game.state = rules.to_json(state)
    game.status = GameStatus.ACTIVE
    game.started_at = now
    game.version = 0
    for seat in seats:
        seat.bank_remaining = game.bank_initial
    if game.time_control == TimeControl.BANK:
        Seat.objects.bulk_update(seats, ["bank_remaining"])
    _after_state_change(
        game, seats, state, previous_to_act=None, now=now, also_save=START_FIELDS, writes=writes, started_by=started_by
    )


# --- moves -----------------------------------------------------------------------------------


def submit_move(
    *, game_id: str, user: User, action: dict[str, Any], version: int, idempotency_key: str = ""
) -> MoveResult:
    """Apply a player's action, checked in the contract's order: 404, 403 not seated, 409, 403, 400."""
    with transaction.atomic():
        game, seats = lock_game(game_id, user)
        seat = seat_of(seats, user)
        if idempotency_key:
            earlier = Move.objects.filter(game=game, user=user, idempotency_key=idempotency_key).first()
            if earlier is not None:
                if earlier.action != action:
                    raise Conflict(
                        "This Idempotency-Key was already used for a different action.", "idempotency_key_reused"
                    )
                return MoveResult(game, seats, earlier, replayed=True)
        _require_active(game)
        if version != game.version:
            raise Conflict(
                f"The game has moved on: you sent version {version}, it is at {game.version}. Reload and try again.",
                "stale_version",
                {"version": game.version},
            )
        rules = get_rules(game.kind)
        state = rules.from_json(game.state)
        if rules.to_act(state) != seat.index:
            raise Forbidden("It is not your turn.", "not_your_turn")
        try:
            new_state, events = rules.apply(state, seat.index, action)
        except IllegalAction as exc:
            raise Invalid(exc.message, exc.code, {"action": [exc.message]}) from exc
        if seat.timeouts_in_row:
            seat.timeouts_in_row = 0
            seat.save(update_fields=["timeouts_in_row"])
        move = record_move(game, seats, seat.index, action, events, state, new_state, user=user, key=idempotency_key)
    return MoveResult(game, seats, move)


@transaction.atomic
def resign(*, game_id: str, user: User) -> MoveResult:
    game, seats = lock_game(game_id, user)
    seat = seat_of(seats, user)
    _require_active(game)
    return MoveResult(game, seats, _resign_seat(game, seats, seat, user=user, by_server=""))


def _resign_seat(game: Game, seats: list[Seat], seat: Seat, *, user: User | None, by_server: str) -> Move:
    rules = get_rules(game.kind)
    state = rules.from_json(game.state)
    try:
        new_state, events = rules.resign(state, seat.index)
    except IllegalAction as exc:
        raise Conflict(exc.message, exc.code) from exc
    seat.resigned = True
    seat.save(update_fields=["resigned"])
    action = {"type": "resign"}
    return record_move(game, seats, seat.index, action, events, state, new_state, user=user, by_server=by_server)


def play_bot_moves(*, game_id: str, limit: int = MAX_SERVER_ACTIONS) -> int:
    """Play every move that is a computer player's, one transaction each. Returns how many."""
    played = 0
    while played < limit:
        with transaction.atomic():
            game, seats = lock_game(game_id, None, check_visibility=False)
            if game.status != GameStatus.ACTIVE or game.to_act_seat is None:
                break
            seat = seats[game.to_act_seat]
            if not seat.is_bot:
                break
            _play_for(game, seats, seat, level=seat.bot_level, by_server="bot")
        played += 1
    return played


@transaction.atomic
def apply_timeout(*, game_id: str, now=None) -> bool:
    """Handle an overdue turn by the game's policy. False when it was not (or no longer) due."""
    now = now or timezone.now()
    game, seats = lock_game(game_id, None, check_visibility=False)
    if game.status != GameStatus.ACTIVE or game.deadline is None or game.deadline > now or game.to_act_seat is None:
        return False
    seat = seats[game.to_act_seat]
    if seat.is_bot:
        _play_for(game, seats, seat, level=seat.bot_level, by_server="bot")
        return True
    # A timeout never falls while the player's standing orders can play the turn.
    if (first := turn_hooks.player_for(seat)) and first.play_before_timeout(game, seats, seat):
        return True
    if game.timeout_policy == TimeoutPolicy.FORFEIT:
        _resign_seat(game, seats, seat, user=None, by_server="timeout")
        return True
    seat.timeouts_in_row += 1
    seat.save(update_fields=["timeouts_in_row"])
    if seat.timeouts_in_row >= TIMEOUTS_BEFORE_REMOVAL:
        _resign_seat(game, seats, seat, user=None, by_server="timeout")
        return True
    # Play out the whole turn (draw, melds, discard) so the game moves on, and no more: a new turn
    # (even the same player's, when a new hand starts with them) gets its own full time.
    overdue_turn = game.turn_started_at
    for _ in range(MAX_SERVER_ACTIONS):
        _play_for(game, seats, seat, level="good", by_server="timeout")
        if game.status != GameStatus.ACTIVE or game.turn_started_at != overdue_turn:
            break
    return True


def _play_for(game: Game, seats: list[Seat], seat: Seat, *, level: str, by_server: str) -> Move:
    rules = get_rules(game.kind)
    state = rules.from_json(game.state)
    # Deterministic per position, so a replayed bot move is the same move.
    rng = random.Random(f"{game.seed}/bot/{game.version}")
    # The expert reads what the seat saw happen (who took which discard), as a player would.
    history = advice.seat_history(game, seat.index) if level == "expert" else None
    action = choose_action(game.kind, state, seat.index, level, rng, history=history)
    new_state, events = rules.apply(state, seat.index, action)
    return record_move(game, seats, seat.index, action, events, state, new_state, user=None, by_server=by_server)


# --- shared steps ----------------------------------------------------------------------------


GAME_FOR_UPDATE = CompiledQuery(lambda public_id: Game.objects.select_for_update().filter(public_id=public_id), str)
SEATS_WITH_PLAYERS = CompiledQuery(lambda game_pk: Seat.objects.with_players().filter(game_id=game_pk).order_by(), int)
SEAT_GAME = Seat._meta.get_field("game")


def lock_game(
    game_id: str, user: User | None, *, invite_token: str = "", check_visibility: bool = True
) -> tuple[Game, list[Seat]]:
    """The game, locked for this transaction, and its seats; NotFound when the user may not see it.
    Every change to a game starts here (the services below, and the rooms that play moves for a
    player, such as standing orders)."""
    # get() and a Python sort rather than first() and ORDER BY: the same rows, with less SQL to
    # build on the path every move takes. The seats are read in a statement of their own, after the
    # lock is held: read in one statement with the locked game, they would be as they were before
    # the wait for the lock (PostgreSQL re-reads only the locked row), and two joins could take the
    # same seat.
    # Both reads with their SQL built once (config.compiled): the same rows as
    # Game.objects.select_for_update().get(public_id=...) and game.seats.with_players().
    games = GAME_FOR_UPDATE.rows(str(game_id))
    if not games:
        raise NotFound("There is no such game, or you may not see it.", "not_found")
    game = games[0]
    seats = SEATS_WITH_PLAYERS.rows(game.pk, known_related={SEAT_GAME: {game.pk: game}})
    seats.sort(key=attrgetter("index"))
    if check_visibility and game.is_private:
        uid = getattr(user, "pk", None)
        allowed = any(uid in (s.user_id, s.invited_user_id) for s in seats)
        if not allowed and not (invite_token and any(s.invite_token_hash == _hash(invite_token) for s in seats)):
            raise NotFound("There is no such game, or you may not see it.", "not_found")
    return game, seats


def seat_of(seats: list[Seat], user: User) -> Seat:
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    raise Forbidden("You do not have a seat in this game.", "not_seated")


def _require_open(game: Game) -> None:
    if game.status != GameStatus.OPEN:
        raise Conflict(f"The game is {game.status}, not open.", "game_not_open")


def _require_active(game: Game) -> None:
    if game.status == GameStatus.OPEN:
        raise Conflict("The game has not started yet.", "game_not_started")
    if game.status != GameStatus.ACTIVE:
        raise Conflict(f"The game is {game.status}.", "game_over")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def record_move(
    game: Game,
    seats: list[Seat],
    seat_index: int,
    action: dict[str, Any],
    events: list[dict[str, Any]],
    old_state,
    new_state,
    *,
    user: User | None,
    key: str = "",
    by_server: str = "",
) -> Move:
    """Append the move and save the new snapshot: a constant number of queries. The caller holds the
    game's lock (`lock_game`) and has checked the action with the engine."""
    rules = get_rules(game.kind)
    now = timezone.now()
    previous_to_act = rules.to_act(old_state)
    game.version += 1
    writes = WriteBatch()
    move = Move(
        game=game,
        seq=game.version,
        seat=seat_index,
        action=action,
        events=events,
        by_server=by_server,
        user=user,
        idempotency_key=key,
        created_at=now,
    )
    writes.insert(move)
    game.state = rules.to_json(new_state)
    game.hold_engine_state(new_state)
    # _after_state_change moves the game's revision on; the move is the change it names.
    move.revision = game.revision + 1
    timed_out = by_server == "timeout"
    _after_state_change(
        game, seats, new_state, previous_to_act=previous_to_act, now=now, timed_out=timed_out, writes=writes, move=move
    )
    return move


# The engine's phases in which a turn begins: after an action, such a phase means the turn passed
# (possibly back to the same seat, as when a new Scat hand starts with the player who just moved).
TURN_START_PHASES = frozenset({"turn_start", "draw"})


# The game's columns a move can change; starting and finishing a game change a few more.
PLAY_FIELDS = [
    "state", "version", "revision", "to_act_seat", "deadline", "reminder_at", "turn_started_at", "turn_reminded_at",
    "paused_remaining", "timeout_claimed_until", "updated_at",
]  # fmt: skip
START_FIELDS = ["status", "started_at", "seed", "seed_sha256", "num_seats", "options"]
FINISH_FIELDS = ["status", "outcome", "finished_at"]


def _after_state_change(
    game: Game,
    seats: list[Seat],
    state,
    *,
    previous_to_act: int | None,
    now,
    timed_out: bool = False,
    also_save: Iterable[str] = (),
    writes: WriteBatch | None = None,
    move: Move | None = None,
    started_by: int | None = None,
) -> None:
    """Save the snapshot, move the clock, announce the change, and queue what comes next. The rows
    go out together with the game's, in `writes` (one round trip on PostgreSQL). `move` is the
    change, when a move made it; `started_by`, when the deal did."""
    writes = writes or WriteBatch()
    rules = get_rules(game.kind)
    to_act = rules.to_act(state)
    outcome = rules.outcome(state)
    game.to_act_seat = to_act
    if move is not None:
        tell_viewers(game, seats, writes, change=_move_event(move), move=move)
    elif started_by is not None:
        tell_viewers(game, seats, writes, change=GameStarted, started_by=started_by)
    else:
        tell_viewers(game, seats, writes)
    new_turn = to_act != previous_to_act or state.get("phase") in TURN_START_PHASES
    if new_turn and previous_to_act is not None:
        _end_turn(game, seats[previous_to_act], now, timed_out=timed_out, writes=writes)
    if outcome is not None:
        writes.flush()  # the statistics of a finished game are read from its moves and turns
        _finish(game, seats, outcome, now, writes)
    elif new_turn and to_act is not None:
        _begin_turn(game, seats, seats[to_act], now, writes)
    game.timeout_claimed_until = None
    fields = PLAY_FIELDS + list(also_save) + (FINISH_FIELDS if outcome is not None else [])
    writes.update(game, fields)
    writes.flush()
    if game.status == GameStatus.ACTIVE and to_act is not None and seats[to_act].is_bot:
        enqueue_after_commit("games.tasks.play_bots", game.public_id)


def _end_turn(game: Game, seat: Seat, now, *, timed_out: bool, writes: WriteBatch) -> None:
    turn = Turn(
        game=game,
        seat=seat.index,
        started_at=game.turn_started_at,
        deadline=game.deadline,
        ended_at=now,
        reminded_at=game.turn_reminded_at,
        timed_out=timed_out,
    )
    writes.insert(turn)
    if game.time_control == TimeControl.BANK and seat.user_id and game.turn_started_at:
        seat.bank_remaining = clock.bank_after_move(
            clock.seconds_left(game.deadline, game.paused_remaining, now), game.bank_increment, game.bank_cap
        )
        writes.update(seat, ["bank_remaining"])


def _move_event(move: Move) -> type[MoveMade]:
    if move.action.get("type") == "resign":
        return PlayerResigned
    return TurnTimedOut if move.by_server == "timeout" else MoveMade


def _begin_turn(game: Game, seats: list[Seat], seat: Seat, now, writes: WriteBatch) -> None:
    game.turn_started_at = now
    game.turn_reminded_at = None
    game.paused_remaining = None
    game.reminder_at = None
    if seat.is_bot:
        game.deadline = now + clock.BOT_GRACE
    else:
        seconds = seat.bank_remaining if game.time_control == TimeControl.BANK else game.move_time_limit
        preference = seat_preference(seat)
        if seat.away_until is not None:
            game.deadline = None
            game.paused_remaining = seconds
        else:
            game.deadline = now + timedelta(seconds=seconds)
            game.reminder_at = clock.reminder_time(now, game.deadline, preference.reminder_share)
        if first := turn_hooks.player_for(seat):
            # Standing orders play first, as bots do; the player hears of the turn when they leave it.
            enqueue_after_commit(first.task, game.public_id)
            return
        publish(
            TurnBegan(game=game, seats=seats, revision=game.revision, writes=writes, seat=seat, preference=preference)
        )


def seat_preference(seat: Seat) -> PlayerPreference:
    """The seated player's preferences, as loaded with the seat (defaults when they have none)."""
    try:
        return seat.user.preference
    except PlayerPreference.DoesNotExist:
        return PlayerPreference(user_id=seat.user_id)


def _finish(game: Game, seats: list[Seat], outcome: dict[str, Any], now, writes: WriteBatch) -> None:
    game.status = GameStatus.FINISHED
    game.outcome = outcome
    game.finished_at = now
    game.deadline = None
    game.reminder_at = None
    for seat, place in zip(seats, outcome["places"], strict=True):
        seat.final_place = place
    Seat.objects.bulk_update(seats, ["final_place"])
    for review in advice.start_reviews(game, seats):
        enqueue_after_commit("games.tasks.review_game", review.pk)
    # Statistics, tournaments and the outbox hear of the end inside this transaction.
    publish(GameFinished(game=game, seats=seats, revision=game.revision, writes=writes, outcome=outcome))


def tell_viewers(
    game: Game,
    seats: list[Seat],
    writes: WriteBatch,
    *,
    also_tell: Iterable[int] = (),
    move: Move | None = None,
    change: type[GameChanged] = GameChanged,
    **details: Any,
) -> None:
    """Something a viewer of the game can see has changed (`move`, or its seats, or its clock): its
    revision (the game streams' event id) moves on, and `change` (with its `details`) is announced to
    the players at the table or invited to it, and to `also_tell`."""
    game.revision += 1
    users = {s.user_id for s in seats if s.user_id} | {s.invited_user_id for s in seats if s.invited_user_id}
    users = sorted(users | set(also_tell))
    moves = [move] if move is not None else []
    if move is not None:
        details["move"] = move
    publish(
        change(game=game, seats=seats, revision=game.revision, writes=writes, viewers=users, moves=moves, **details)
    )


def _seats_changed(
    game: Game,
    seats: list[Seat],
    *,
    also_tell: Iterable[int] = (),
    fields: Iterable[str] = (),
    writes: WriteBatch | None = None,
    joined: int | None = None,
) -> None:
    """A change to a game that has not started (a seat taken by `joined`, left, reserved or freed, a
    cancel), written with the rows of `writes` if the caller has some."""
    writes = writes if writes is not None else WriteBatch()
    if joined is not None:
        tell_viewers(game, seats, writes, also_tell=also_tell, change=PlayerJoined, user_id=joined)
    else:
        tell_viewers(game, seats, writes, also_tell=also_tell)
    writes.update(game, ["revision", "updated_at", *fields])
    writes.flush()
