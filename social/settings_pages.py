"""The table talk section of /settings/: free text or quick phrases only, and the muted players.
accounts renders the page and takes its context through `accounts.views.SETTINGS_CONTEXT`."""

from __future__ import annotations

import contextlib
import re
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.models import ChatSetting, User
from accounts.views import settings_saved
from config.converters import UsernameConverter

from . import mutes
from .errors import GameError


def settings_context(request: HttpRequest) -> dict[str, Any]:
    return {"chat_choices": ChatSetting.choices, "mutes": mutes.muted_players(request.user)}


@login_required
@require_POST
def save_chat_setting(request: HttpRequest) -> HttpResponse:
    chosen = request.POST.get("chat")
    if chosen in ChatSetting.values:
        User.objects.filter(pk=request.user.pk).update(chat=chosen)
    return settings_saved("table_talk", "table-talk")


@login_required
@require_POST
def unmute(request: HttpRequest) -> HttpResponse:
    username = request.POST.get("username", "")
    # Checked like a name in a path: PostgreSQL answers a NUL in text with an error (a 500).
    if re.fullmatch(UsernameConverter.regex, username):
        with contextlib.suppress(GameError):  # unmuted already: the page shows the list as it is
            mutes.unmute_player(user=request.user, username=username)
    return settings_saved("unmuted", "table-talk")


SAVED_MESSAGES = {
    "table_talk": _("Your table talk setting is saved."),
    "unmuted": _("The player is no longer muted."),
}
