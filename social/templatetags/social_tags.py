from __future__ import annotations

from django import template

from accounts.blocks import blocks_between

from .. import friends, rematches

register = template.Library()


@register.inclusion_tag("social/_profile_actions.html", takes_context=True)
def profile_actions(context, player) -> dict:
    """The profile's "Follow" and "Challenge" buttons, and how many follow the player."""
    viewer = context["request"].user
    signed_in = viewer.is_authenticated and viewer.pk != player.pk
    blocked = signed_in and bool(blocks_between(viewer.pk, [player.pk]))
    return {
        "request": context["request"],
        "csrf_token": context.get("csrf_token"),
        "player": player,
        "followers": friends.followers_count(player),
        "following": signed_in and friends.follows(viewer, player),
        "can_act": signed_in and not blocked,
    }


@register.inclusion_tag("social/_table_side.html", takes_context=True)
def table_side(context) -> dict:
    """Beside a seated player's table: its talk, their private note, and a finished game's rematch."""
    game = context["game"]
    finished = game.status == "finished"
    offered = finished and not rematches.in_a_tournament(game)
    return {
        **context.flatten(),
        "rematch_offered": offered,
        "rematch": rematches.rematch_of(game) if offered else None,
    }
