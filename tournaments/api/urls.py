from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import views

urlpatterns = [
    path("tournaments/", views.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<public_id:tournament_id>/", views.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<public_id:tournament_id>/join/", views.JoinView.as_view(), name="api-tournament-join"),
    path("tournaments/<public_id:tournament_id>/leave/", views.LeaveView.as_view(), name="api-tournament-leave"),
    path("tournaments/<public_id:tournament_id>/start/", views.StartView.as_view(), name="api-tournament-start"),
    path("tournaments/<public_id:tournament_id>/cancel/", views.CancelView.as_view(), name="api-tournament-cancel"),
    path(
        "tournaments/<public_id:tournament_id>/withdraw/", views.WithdrawView.as_view(), name="api-tournament-withdraw"
    ),
    path("me/calendar/", views.CalendarView.as_view(), name="api-me-calendar"),
    path("games/<public_id:game_id>/deadline.ics", views.GameDeadlineView.as_view(), name="api-game-deadline-ics"),
]
