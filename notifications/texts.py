"""What a notification says, in the active language, on every channel: the sentence, the public JSON
of the API and streams, and a push message's payload. Ids and texts only, never a card."""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from config import l10n
from games.models import BotLevel, GameKind

from .models import Notification, NotificationKind


def text_of(notification: Notification) -> str:
    """One sentence for people, in the active language."""
    payload = notification.payload
    kind = notification.kind
    game = kind_name(payload.get("kind", ""))
    company = company_of(payload)
    if kind == NotificationKind.YOUR_TURN:
        if company:
            sentence = _("Your turn in %(game)s with %(players)s.") % {"game": game, "players": company}
        else:  # a notice written before notices named the company
            sentence = _("It is your turn in %(game)s.") % {"game": game}
        return sentence + _orders_note(payload)
    if kind == NotificationKind.TIME_RUNNING_OUT:
        if company:
            return _("Your time to move in %(game)s with %(players)s is running out.") % {
                "game": game,
                "players": company,
            }
        return _("Your time to move in %(game)s is running out.") % {"game": game}
    if kind == NotificationKind.GAME_OVER:
        values = {"game": game, "place": payload.get("place")}
        return l10n.interpolate(_("Your %(game)s game is over: you finished in place %(place)s."), values)
    if kind == NotificationKind.INVITATION:
        return _("%(player)s invites you to a game of %(game)s.") % {"player": payload.get("from"), "game": game}
    if kind == NotificationKind.GAME_STARTED:
        return _("Your %(game)s game has started.") % {"game": game}
    if kind == NotificationKind.DIGEST:
        return l10n.interpolate(
            _("%(count)s games are waiting for your move."), {"count": len(payload.get("games", []))}
        )
    if kind == NotificationKind.ROUND_STARTED:
        values = {"round": payload.get("round"), "name": payload.get("name")}
        if payload.get("bye"):
            return l10n.interpolate(_("Round %(round)s of %(name)s has started: you sit it out with a bye."), values)
        return l10n.interpolate(_("Round %(round)s of %(name)s has started: your table is ready."), values)
    if kind == NotificationKind.TOURNAMENT_OVER:
        values = {"name": payload.get("name"), "place": payload.get("place")}
        if payload.get("reason") == "creator":
            return _("%(name)s was called off by its creator.") % values
        if payload.get("cancelled"):
            return _("%(name)s was cancelled: too few players entered.") % values
        return l10n.interpolate(_("%(name)s is over: you finished in place %(place)s."), values)
    if kind == NotificationKind.CHAT_MESSAGE:
        return _("%(player)s wrote at your %(game)s table.") % {"player": payload.get("from"), "game": game}
    return kind


def company_of(payload: dict[str, Any]) -> str:
    """The other players a turn's notice names ("bob and carol"), in the active language; empty
    when it names none."""
    company = payload.get("with")
    if not isinstance(company, list):
        return ""
    names = []
    for player in company:
        if not isinstance(player, dict):
            continue
        if player.get("bot") in BotLevel.values:
            names.append(str(BotLevel(player["bot"]).label))
        elif isinstance(player.get("name"), str) and player["name"]:
            names.append(player["name"])
    return names_list(names)


def names_list(names: list[str]) -> str:
    """ "bob", "bob and carol", "bob, carol and dave", in the active language."""
    if len(names) < 2:
        return "".join(names)
    separator = pgettext("between the names of a list", ", ")
    return _("%(names)s and %(last)s") % {"names": separator.join(names[:-1]), "last": names[-1]}


def _orders_note(payload: dict[str, Any]) -> str:
    """What the player's standing orders did before they left the turn to the player (the payload
    of orders/services.py's "your turn"); nothing when no orders were at work."""
    if "orders_played" not in payload:
        return ""
    played = payload["orders_played"] if isinstance(payload["orders_played"], int) else 0
    if played:
        note = l10n.interpolate(
            ngettext(
                "Your standing orders played %(count)s move first.",
                "Your standing orders played %(count)s moves first.",
                played,
            ),
            {"count": played},
        )
    elif not payload.get("orders_ended"):
        note = _("Your standing orders had nothing to play.")
    else:
        note = ""
    if payload.get("orders_ended"):
        ended = _("Your standing orders have ended.")
        note = f"{note} {ended}".strip()
    return f" {note}"


def kind_name(kind: str) -> str:
    """The game's name in the active language ("اسکات" on a Persian page)."""
    return str(GameKind(kind).label) if kind in GameKind.values else kind.title()


def as_json(notification: Notification) -> dict[str, Any]:
    """The public payload: ids and texts, never a card."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "game": notification.payload.get("game"),
        "payload": notification.payload,
        "text": text_of(notification),
        "created_at": notification.created_at,
        "read_at": notification.read_at,
    }


def link_of(notification: Notification) -> str:
    """The site's page for a notification (a path): its game's table, its tournament, or the list."""
    game_id, tournament_id = notification.payload.get("game"), notification.payload.get("tournament")
    if isinstance(game_id, str) and game_id:
        return f"/games/{game_id}/"
    if isinstance(tournament_id, str) and tournament_id:
        return f"/tournaments/{tournament_id}/"
    return "/notifications/"


def push_payload(notification: Notification) -> dict[str, Any]:
    """The decrypted body of a push message (design: "Web push"), read by the service worker."""
    title = NotificationKind(notification.kind).label if notification.kind in NotificationKind.values else ""
    return {
        "type": notification.kind,
        "game": notification.payload.get("game"),
        "title": capfirst(str(title)) or "Slowhand",
        "body": text_of(notification),
        "url": link_of(notification),
    }
