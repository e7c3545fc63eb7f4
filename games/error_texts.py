"""The game core's refusals in the reader's language, for every page that shows one (the game pages,
the settings page's vacation section).

Services and the engine explain themselves in English, with a stable code; pages show a
translated sentence for each code, and the English explanation only to English readers
(it is more specific, and there is nothing to translate).
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from config.service_errors import GameError

MESSAGES = {
    "bad_kind": _("There is no such game."),
    "bad_option": _("These rules options do not fit together, or do not fit the number of seats."),
    "bad_time_limit": _("The time per move must be between one minute and 30 days."),
    "bad_time_bank": _("A time bank needs a start, an increment and a cap, with the start at most the cap."),
    "bad_bot_level": _("There is no such computer player."),
    "too_many": _("There are not enough seats for you, the invited players and the computer players."),
    "bad_invite_days": _("Invitations expire after 1 to 60 days."),
    "advice_in_rated_game": _("Advice is only for unrated games."),
    "duplicate_invite": _("Each player can be invited once."),
    "invite_self": _("You are already in your own game."),
    "unknown_user": _("There is no player by that name."),
    "not_creator": _("Only the game's creator can do that."),
    "game_not_open": _("The game is no longer open."),
    "no_free_seat": _("Every seat is taken or kept for an invited player."),
    "already_seated": _("You already have a seat in this game."),
    "bad_invite": _("This invitation link is not valid, or it has expired."),
    "not_invited": _("You have no invitation to this game."),
    "not_seated": _("You do not have a seat in this game."),
    "not_enough_players": _("Not enough players have joined yet."),
    "bad_seat_count": _("The rules options do not allow this number of players."),
    "game_not_started": _("The game has not started yet."),
    "game_over": _("This game is over."),
    "stale_version": _("The game has moved on; look again and retry."),
    "not_your_turn": _("It is not your turn."),
    "not_found": _("There is no such game, or you may not see it."),
    "bad_preset": _("There are no such rules to start from."),
    "cannot_invite": _("You cannot invite that player."),
    "too_many_invitations": _("That player already has invitations from you waiting for an answer."),
    "invitation_limit": _("You have sent as many invitations today as one player may; try again tomorrow."),
    "blocked": _("You cannot join this game."),
    "already_on_vacation": _("You are already on vacation; end it first."),
    "bad_vacation_end": _("A vacation ends in the future: pick a later day."),
    "vacation_allowance": _("That is more vacation than you have left this year."),
}


def error_message(exc: GameError) -> str:
    if (get_language() or "en").startswith("en"):
        return exc.message
    return str(MESSAGES.get(exc.code, _("That is not possible now.")))
