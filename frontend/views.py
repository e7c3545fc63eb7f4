"""The pages. Every change goes through games.services, every read through the selectors."""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import User
from config.converters import PublicIdConverter, UsernameConverter
from config.service_errors import GameError
from games import selectors, services
from games.engine import get_rules
from games.error_texts import error_message
from games.labels import KIND_LABELS, duration_label
from games.models import Game, GameStatus, Seat, TimeControl
from games.selectors import seat_label
from notifications import outbox, presence, texts
from social import friends
from stats.models import Rating
from stats.ratings import PROVISIONAL_GAMES
from stats.templatetags.ratings_shown import shown_rating
from tournaments.selectors import entered_tournaments, table_of_game

from .forms import NewGameForm, default_label
from .option_texts import option_label
from .rules_text import RULE_FILES, full_rules

LIST_LIMIT = 50
INVITE_LINK_SESSION_KEY = "frontend.invite_link"


def how_to_play(request: HttpRequest) -> HttpResponse:
    """Both games in a few sentences, and how each one ends (the hand limit as the engine has it)."""
    max_hands = next(spec["default"] for spec in get_rules("scat").option_specs() if spec["name"] == "max_hands")
    return render(request, "frontend/how_to_play.html", {"max_hands": max_hands})


def _cards(*codes: str) -> list[dict[str, Any]]:
    """Cards for an illustration, as the page draws them (frontend/_card_face.html)."""
    return [{"rank": "10" if c[0] == "T" else c[0], "suit": c[1], "red": c[1] in "HD"} for c in codes]


def how_to_play_game(request: HttpRequest, kind: str) -> HttpResponse:
    """One game: a short illustrated summary in the reader's language, then the full rules (English)."""
    if kind not in RULE_FILES:
        raise Http404
    examples = {
        "scat": [_cards("KS", "TS", "4H"), _cards("AH", "KH", "QH")],
        "scattle": [_cards("7H", "7D", "7C"), _cards("4S", "5S", "6S")],
    }[kind]
    return render(
        request,
        f"frontend/how_to_play_{kind}.html",
        {"kind": kind, "kind_label": KIND_LABELS[kind], "examples": examples, "rules": full_rules(kind)},
    )


def home(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {}
    if request.user.is_authenticated:
        context["first_visit"] = request.session.pop("just_signed_up", False)
        context.update(dashboard(request.user))
    return render(request, "home.html", context)


DASHBOARD_LIMIT = 100


def dashboard(user) -> dict[str, Any]:
    """The signed-in home page: the player's games in two groups, those awaiting their move (the
    earliest deadline first) and those awaiting someone else (named), with their invitations, their
    tournaments and the games of the players they follow beside."""
    games = [summarize(game, user) for game in selectors.player_games(user)[:DASHBOARD_LIMIT]]
    for game in games:
        game["waiting_for"] = game["names"][game["to_act"]] if game["to_act"] is not None else None
    invited = selectors.games_for(user, status=GameStatus.OPEN, player=user).defer("state")[:LIST_LIMIT]
    return {
        "awaiting": [g for g in games if g["is_your_turn"]],
        "waiting": [g for g in games if not g["is_your_turn"]],
        "invitations": [g for g in (summarize(game, user) for game in invited) if g["you_are_invited"]],
        "tournaments": [tournament_row(t) for t in entered_tournaments(user)],
        "followed_games": [summarize(game, user) for game in friends.followed_games(user)],
    }


def tournament_row(tournament) -> dict[str, Any]:
    return {
        "url": reverse("tournament", args=[tournament.public_id]),
        "name": tournament.name,
        "kind_label": KIND_LABELS.get(tournament.kind, tournament.kind),
        "status": tournament.status,
        "round": tournament.current_round,
        "rounds": tournament.rounds,
    }


def lobby(request: HttpRequest) -> HttpResponse:
    user = request.user if request.user.is_authenticated else None
    # The games the reader can join: a seat free, or one kept for them (not every seat kept for others).
    joinable = selectors.joinable(selectors.games_for(user, status=GameStatus.OPEN), user)
    context: dict[str, Any] = {"open_games": [summarize(game, user) for game in joinable[:LIST_LIMIT]]}
    context["watchable"] = with_ratings([summarize(game, user) for game in selectors.watchable()[:LIST_LIMIT]])
    if user is not None:
        mine = [summarize(game, user) for game in selectors.games_for(user, player=user)[: LIST_LIMIT * 2]]
        context["my_open"] = [g for g in mine if g["status"] == GameStatus.OPEN]
        context["my_active"] = [g for g in mine if g["status"] == GameStatus.ACTIVE]
        context["my_finished"] = [g for g in mine if g["status"] in (GameStatus.FINISHED, GameStatus.ABORTED)][
            :LIST_LIMIT
        ]
    return render(request, "frontend/lobby.html", context)


def summarize(game: Game, user) -> dict[str, Any]:
    """A list row: the API's summary, plus what the row's buttons need."""
    seats = list(game.seats.all())
    summary = selectors.game_summary(game, seats, user)
    me = user.pk if user is not None and user.is_authenticated else None
    summary["you_play"] = me is not None and any(s.user_id == me for s in seats)
    summary["you_are_invited"] = me is not None and any(s.invited_user_id == me and s.is_reserved() for s in seats)
    summary["kind_label"] = KIND_LABELS.get(game.kind, game.kind)
    summary["names"] = [seat_label(s) for s in seats]
    summary["usernames"] = [s.user.username if s.user_id else None for s in seats]  # people only
    summary["time_label"] = time_control_label(game)
    summary["url"] = reverse("game", args=[game.public_id])
    return summary


def with_ratings(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with its players' ratings in its game, as the site shows a rating: one number, "?" while
    provisional, and for a player with no rated game yet ("players_rated": [(name, shown rating, or None for
    a computer player)])."""
    names = {name for row in rows for name in row["usernames"] if name}
    ratings = {
        (r.user.username, r.kind): shown_rating({"mu": r.mu, "provisional": r.games < PROVISIONAL_GAMES})
        for r in Rating.objects.filter(user__username__in=names, games__gt=0)
        .select_related("user")
        .only("user__username", "kind", "mu", "games")
    }
    for row in rows:
        row["players_rated"] = [
            (label, ratings.get((name, row["kind"]), "?") if name else None)
            for label, name in zip(row["names"], row["usernames"], strict=True)
        ]
    return rows


def time_control_label(game: Game) -> str:
    if game.time_control == TimeControl.BANK and game.bank_initial:
        return _("time bank of %(time)s") % {"time": duration_label(game.bank_initial)}
    return _("%(time)s a move") % {"time": duration_label(game.move_time_limit)}


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", "")  # from a game's How to play page
    form = NewGameForm(request.POST or None, initial={"kind": kind} if kind in KIND_LABELS else None)
    again = request.GET.get("again", "")  # "Play again": the form as that game was set up
    # Checked like an id in a path: PostgreSQL answers a NUL in text with an error (a 500).
    if request.method == "GET" and re.fullmatch(PublicIdConverter.regex, again):
        game = selectors.visible_games(request.user).filter(public_id=again).first()
        if game is not None:
            form = NewGameForm.like(game, request.user)
    challenged = request.GET.get("challenge", "")  # from a profile: that player invited, as you last played
    if request.method == "GET" and not again and re.fullmatch(UsernameConverter.regex, challenged):
        form = challenge_form(request.user, challenged) or form
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.create_game(
                creator=request.user,
                kind=data["kind"],
                num_seats=data["seats"],
                options=form.options(),
                move_time_limit=data.get("move_time_limit") or 86400,
                time_bank=form.time_bank(),
                timeout_policy=data["timeout_policy"],
                bots=form.bots(),
                invite=form.invitees(),
                invite_days=data.get("invite_days") or 14,
                is_private=data["is_private"],
                preset=data.get("preset") or "",
                rated=data["rated"],
                advice=data["advice"],
            )
        except GameError as exc:
            field = {
                "unknown_user": "invite",
                "duplicate_invite": "invite",
                "invite_self": "invite",
                "cannot_invite": "invite",
                "too_many_invitations": "invite",
                "invitation_limit": "invite",
                "advice_in_rated_game": "advice",
                "bad_option": f"{data['kind']}-{exc.option}" if exc.option else "seats",
            }.get(exc.code)
            form.add_error(field if field in form.fields else None, error_message(exc))
        else:
            return redirect("game", game_id=game.public_id)
    return render(request, "frontend/new_game.html", {"form": form})


def _games_with_seats():
    seats = Seat.objects.with_players().select_related("invited_user")
    return Game.objects.select_related("creator").prefetch_related(Prefetch("seats", seats))


def find_game(request: HttpRequest, game_id: str, invite_token: str) -> Game | None:
    """The game if the visitor may see it, or holds a live invitation link to one of its seats."""
    game = _games_with_seats().filter(public_id=game_id).first()
    if game is None:
        return None
    if Game.objects.visible_to(request.user).filter(pk=game.pk).exists():
        return game
    token_hash = hashlib.sha256(invite_token.encode()).hexdigest() if invite_token else None
    if token_hash and any(s.invite_token_hash == token_hash and s.is_reserved() for s in game.seats.all()):
        return game
    return None


@require_http_methods(["GET", "POST"])
def game_table(request: HttpRequest, game_id: str) -> HttpResponse:
    invite_token = (request.POST.get("invite_token") or request.GET.get("invite") or "").strip()[:64]
    if invite_token and not request.user.is_authenticated:
        # An invitation link for a visitor without an account: sign up, then come back here.
        return redirect(f"{reverse('signup')}?{urlencode({'next': request.get_full_path()})}")
    game = find_game(request, game_id, invite_token)
    if game is None:
        raise Http404(_("There is no such game, or you may not see it."))
    if request.method == "POST":
        return game_operation(request, game, invite_token)

    user = request.user if request.user.is_authenticated else None
    seats = list(game.seats.all())
    me = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    if me is not None:  # the player has the game in front of them: no push or email about it now
        presence.mark_seen([(user.pk, game.pk)])
        outbox.mark_read(user, game=game.public_id)  # and what the badge said about it is seen
    detail = selectors.game_detail(game, user)
    tournament_table = table_of_game(game) if game.status != GameStatus.OPEN else None
    invite_link = request.session.pop(INVITE_LINK_SESSION_KEY, None)
    if invite_link and invite_link.get("game") != game.public_id:
        invite_link = None
    context = {
        "game": game,
        "detail": detail,
        "kind_label": KIND_LABELS.get(game.kind, game.kind),
        "seats": [{"seat": s, "label": seat_label(s), "reserved": s.is_reserved()} for s in seats],
        # The card table's script names seated players by these, not by the API's bare display names.
        "seat_names": {s.index: {"username": s.user.username, "label": seat_label(s)} for s in seats if s.user_id},
        "my_seat": me,
        "is_creator": user is not None and game.creator_id == user.pk,
        # A game starts early only with a second player seated (the page reloads when one joins).
        "can_start": sum(1 for s in seats if s.is_taken) >= 2,
        "invited_me": user is not None and any(s.invited_user_id == user.pk and not s.is_taken for s in seats),
        "invite_token": invite_token if me is None else "",
        "can_join": user is not None and me is None and detail["open_seats"] > 0,
        "invite_link": invite_link,
        "time_label": time_control_label(game),
        "option_rows": option_rows(game),
        "time_zone": getattr(user, "time_zone", "") or "UTC",
        # A tournament game names its tournament and round, and its end leads back there.
        "tournament_table": tournament_table,
        "tournament": tournament_table.round.tournament if tournament_table else None,
    }
    return render(request, "frontend/table.html", context)


def challenge_form(user, username: str) -> NewGameForm | None:
    """The new-game form with `username` invited and the options of the last game the two played (or
    the reader's last game); None when there is no such player."""
    other = User.objects.filter(username__iexact=username, is_active=True).exclude(pk=user.pk).first()
    if other is None:
        return None
    last = friends.last_game_together(user, other)
    form = NewGameForm.like(last, user) if last is not None else NewGameForm()
    form.initial["invite"] = other.username
    return form


def option_rows(game: Game) -> list[dict[str, str]]:
    """The game's rules options as label/value pairs, for the table's rules summary."""
    rows = []
    for spec in get_rules(game.kind).option_specs():
        value = game.options.get(spec["name"], spec["default"])
        rows.append({"label": option_label(game.kind, spec), "value": default_label({**spec, "default": value})})
    return rows


GAME_OPERATIONS = ("join", "leave", "start", "decline", "invite_link")


def game_operation(request: HttpRequest, game: Game, invite_token: str) -> HttpResponse:
    """The waiting room's buttons: plain forms, so they work before any script has loaded."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?{urlencode({'next': request.path})}")
    operation = request.POST.get("operation", "")
    if operation not in GAME_OPERATIONS:
        messages.error(request, _("Unknown request."))
        return redirect("game", game_id=game.public_id)
    user = request.user
    try:
        if operation == "join":
            services.join_game(game_id=game.public_id, user=user, invite_token=invite_token)
        elif operation == "leave":
            game = services.leave_game(game_id=game.public_id, user=user)
            if game.status == GameStatus.ABORTED:
                messages.info(request, _("You cancelled the game."))
                return redirect("lobby")
            messages.info(request, _("You left the game."))
            return redirect("lobby")
        elif operation == "start":
            services.start_game(game_id=game.public_id, user=user)
        elif operation == "decline":
            services.decline_invitation(game_id=game.public_id, user=user)
            messages.info(request, _("You declined the invitation."))
            return redirect("lobby")
        else:
            try:
                days = min(60, max(1, int(request.POST.get("days", "14"))))
            except ValueError:
                days = 14
            seat, token = services.create_invite_link(game_id=game.public_id, user=user, days=days)
            url = request.build_absolute_uri(f"{reverse('game', args=[game.public_id])}?{urlencode({'invite': token})}")
            # Shown once: only the token's hash is stored.
            request.session[INVITE_LINK_SESSION_KEY] = {"game": game.public_id, "url": url, "seat": seat.index + 1}
    except GameError as exc:
        messages.error(request, error_message(exc))
        target = reverse("game", args=[game.public_id])
        if operation == "join" and invite_token:
            target += "?" + urlencode({"invite": invite_token})
        return redirect(target)
    return redirect("game", game_id=game.public_id)


@login_required
@require_http_methods(["GET", "POST"])
def notifications_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        if request.POST.get("all"):
            outbox.mark_read(request.user, everything=True)
        else:
            # Only what can be an id: ASCII digits ("²".isdigit() is true too) within the bigint
            # column; the rest is ignored, as a stale or doctored form may send anything.
            digits = [v for v in request.POST.getlist("ids") if v.isascii() and v.isdigit() and len(v) <= 19]
            ids = [i for i in map(int, digits) if 1 <= i <= 2**63 - 1]
            outbox.mark_read(request.user, ids=ids)
        return redirect("notifications")
    listed = list(outbox.listed_for(request.user).order_by("-created_at", "-pk")[:100])
    # A private game the reader was invited to and is not any more (declined, withdrawn) is not theirs to open.
    games = Game.objects.visible_to(request.user).filter(pk__in={n.game_id for n in listed if n.game_id})
    may_open = set(games.values_list("pk", flat=True))
    items = [
        {
            **texts.as_json(n),
            "url": reverse("game", args=[n.game.public_id]) if n.game_id in may_open else None,
            "closed": n.game_id is not None and n.game_id not in may_open,
        }
        for n in listed
    ]
    unread = sum(1 for item in items if item["read_at"] is None)
    return render(request, "frontend/notifications.html", {"items": items, "unread": unread})
