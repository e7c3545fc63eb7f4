"""The pages' side of follows: the profile's Follow and Unfollow buttons."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import friends
from .errors import GameError


@login_required
@require_POST
def follow_player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        if request.POST.get("operation") == "unfollow":
            friends.unfollow_player(user=request.user, username=username)
        else:
            friends.follow_player(user=request.user, username=username)
    except GameError as exc:
        refusals = {"blocked": _("You cannot follow a player while one of you blocks the other.")}
        messages.error(request, refusals.get(exc.code, _("That did not work; try again.")))
        if exc.code in ("unknown_user",):
            return redirect("lobby")
    return redirect("profile", username=username)
