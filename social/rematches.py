"""Rematch in one click: the first player of a finished game to ask creates its one rematch (the
same kind, options, time control and rating status, the same people invited, bots seated again);
every other player who asks takes their invited seat in that same game, which starts when everyone
has accepted."""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist
from django.db import transaction

from accounts.models import User
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game, GameStatus, time_bank_of

from .errors import Conflict, Forbidden, NotFound
from .models import Rematch


def in_a_tournament(game: Game) -> bool:
    """Whether a tournament's round seated the game (tournaments keep the link; this room never imports them)."""
    try:
        Game._meta.get_field("tournament_table")
    except FieldDoesNotExist:
        return False
    return Game.objects.filter(pk=game.pk, tournament_table__isnull=False).exists()


def rematch(*, game_id: str, user: User) -> Game:
    original = game_selectors.visible_games(user).filter(public_id=game_id).first()
    if original is None:
        raise NotFound("There is no such game, or you may not see it.", "not_found")
    seats = list(original.seats.all())
    if game_selectors.viewer_seat(original, seats, user) is None:
        raise Forbidden("Only the players of a game may ask for its rematch.", "not_seated")
    if original.status != GameStatus.FINISHED:
        raise Conflict("A rematch follows a finished game.", "game_not_finished")
    if in_a_tournament(original):
        raise Forbidden("Tournament games have no rematch: the tournament pairs its rounds.", "tournament_game")
    with transaction.atomic():
        # The original's row lock makes the players who ask at once queue: the first creates, the rest join.
        Game.objects.select_for_update().filter(pk=original.pk).first()
        made = Rematch.objects.filter(game=original).select_related("rematch").first()
        if made is not None:
            return take_seat(made.rematch, user)
        created = game_services.create_game(
            creator=user,
            kind=original.kind,
            num_seats=original.num_seats,
            options=original.options,
            move_time_limit=original.move_time_limit,
            time_bank=time_bank_of(original),
            timeout_policy=original.timeout_policy,
            bots=[s.bot_level for s in seats if s.bot_level],
            invite=[s.user.username for s in seats if s.user_id and s.user_id != user.pk],
            is_private=original.is_private,
            rated=original.rated,
            advice=original.advice,
        )
        Rematch.objects.create(game=original, rematch=created)
    return created


def take_seat(game: Game, user: User) -> Game:
    """The rematch for a player who asks after it was made: their invited seat, taken (once)."""
    if game.seats.filter(user=user).exists() or game.status != GameStatus.OPEN:
        return game
    return game_services.join_game(game_id=game.public_id, user=user)


def rematch_of(game: Game) -> Game | None:
    made = Rematch.objects.filter(game=game).select_related("rematch").first()
    return made.rematch if made is not None else None
