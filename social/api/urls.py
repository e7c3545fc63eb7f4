from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...> and <username:...>)

from . import chat_views, friend_views, game_views

urlpatterns = [
    path("games/<public_id:game_id>/chat/", chat_views.ChatView.as_view(), name="api-game-chat"),
    path("games/<public_id:game_id>/rematch/", game_views.RematchView.as_view(), name="api-game-rematch"),
    path("games/<public_id:game_id>/notes/", game_views.NoteView.as_view(), name="api-game-notes"),
    path("chat/phrases/", chat_views.PhraseListView.as_view(), name="api-chat-phrases"),
    path("chat/<public_id:message_id>/report/", chat_views.ReportView.as_view(), name="api-chat-report"),
    path("users/<username:username>/follow/", friend_views.FollowView.as_view(), name="api-user-follow"),
    path("me/following/", friend_views.FollowingView.as_view(), name="api-me-following"),
    path("me/mutes/", chat_views.MuteListView.as_view(), name="api-me-mutes"),
    path("me/mutes/<username:username>/", chat_views.MuteView.as_view(), name="api-me-mute"),
]
