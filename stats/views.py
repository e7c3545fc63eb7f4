"""Players' profiles and the leaderboards, as pages."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.engine import KINDS
from games.labels import KIND_LABELS
from games.models import BotLevel, GameKind
from games.selectors import seat_label

from . import selectors
from .charts import rating_chart

LEADERBOARD_PAGE_SIZE = 50


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = selectors.find_player(username)
    if player is None:
        raise Http404("No such player.")
    if player.username != username:
        return redirect("profile", username=player.username, permanent=True)
    viewer = request.user if request.user.is_authenticated else None
    data = selectors.player_profile(player, viewer, name=seat_label)  # named as every page names players
    kinds = []
    for kind in KINDS:
        history, complete = selectors.rating_history(player, kind)
        kinds.append(
            {
                "kind": kind,
                "label": GameKind(kind).label,
                "stats": data["statistics"][kind],
                "rating": data["ratings"][kind],
                "chart": rating_chart(history, from_start=complete),
            }
        )
    for game in data["recent_games"]:
        game["kind_label"] = KIND_LABELS.get(game["kind"], game["kind"])
    context = {"player": player, "profile": data, "kinds": kinds, "is_me": viewer is not None and viewer == player}
    return render(request, "stats/profile.html", context)


def leaderboard(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", KINDS[0])
    if kind not in KINDS:
        kind = KINDS[0]
    page = Paginator(selectors.leaderboard(kind), LEADERBOARD_PAGE_SIZE).get_page(request.GET.get("page"))
    entries = [selectors.leaderboard_entry(rating, page.start_index() + i) for i, rating in enumerate(page)]
    context = {
        "kind": kind,
        "kinds": [(k, GameKind(k).label) for k in KINDS],
        "page": page,
        "entries": entries,
        "bots": [(BotLevel(r.bot_level).label, selectors.rating_facts(r)) for r in selectors.bot_ratings(kind)],
    }
    return render(request, "stats/leaderboard.html", context)
