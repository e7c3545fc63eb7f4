from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import vacation_views, views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="api-games"),
    path("games/<public_id:game_id>/", views.GameDetailView.as_view(), name="api-game"),
    path("games/<public_id:game_id>/join/", views.JoinView.as_view(), name="api-game-join"),
    path("games/<public_id:game_id>/leave/", views.LeaveView.as_view(), name="api-game-leave"),
    path("games/<public_id:game_id>/start/", views.StartView.as_view(), name="api-game-start"),
    path("games/<public_id:game_id>/decline/", views.DeclineView.as_view(), name="api-game-decline"),
    path("games/<public_id:game_id>/resign/", views.ResignView.as_view(), name="api-game-resign"),
    path("games/<public_id:game_id>/invitations/", views.InviteLinkView.as_view(), name="api-game-invite"),
    path("games/<public_id:game_id>/moves/", views.MoveListView.as_view(), name="api-game-moves"),
    path("games/<public_id:game_id>/turns/", views.TurnListView.as_view(), name="api-game-turns"),
    path("games/<public_id:game_id>/verify/", views.VerifyView.as_view(), name="api-game-verify"),
    path("games/<public_id:game_id>/advice/", views.AdviceView.as_view(), name="api-game-advice"),
    path("games/<public_id:game_id>/review/", views.ReviewView.as_view(), name="api-game-review"),
    path("rules/<str:kind>/", views.RulesView.as_view(), name="api-rules"),
    path("me/games/", views.MyGamesView.as_view(), name="api-my-games"),
    path("me/vacation/", vacation_views.VacationView.as_view(), name="api-vacation"),
]
