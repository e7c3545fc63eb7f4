from django.urls import path

from . import notification_views, views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="api-games"),
    path("games/<str:game_id>/", views.GameDetailView.as_view(), name="api-game"),
    path("games/<str:game_id>/join/", views.JoinView.as_view(), name="api-game-join"),
    path("games/<str:game_id>/leave/", views.LeaveView.as_view(), name="api-game-leave"),
    path("games/<str:game_id>/start/", views.StartView.as_view(), name="api-game-start"),
    path("games/<str:game_id>/decline/", views.DeclineView.as_view(), name="api-game-decline"),
    path("games/<str:game_id>/resign/", views.ResignView.as_view(), name="api-game-resign"),
    path("games/<str:game_id>/invitations/", views.InviteLinkView.as_view(), name="api-game-invite"),
    path("games/<str:game_id>/moves/", views.MoveListView.as_view(), name="api-game-moves"),
    path("games/<str:game_id>/turns/", views.TurnListView.as_view(), name="api-game-turns"),
    path("games/<str:game_id>/verify/", views.VerifyView.as_view(), name="api-game-verify"),
    path("notifications/", notification_views.NotificationListView.as_view(), name="api-notifications"),
    path("notifications/read/", notification_views.NotificationReadView.as_view(), name="api-notifications-read"),
    path("me/notification-settings/", notification_views.PreferenceView.as_view(), name="api-preferences"),
    path("me/vacation/", notification_views.VacationView.as_view(), name="api-vacation"),
]
