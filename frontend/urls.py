from django.urls import path
from django.views.i18n import JavaScriptCatalog

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import app_shell, views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.lobby, name="lobby"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<public_id:game_id>/", views.game_table, name="game"),
    path("notifications/", views.notifications_page, name="notifications"),
    path("how-to-play/", views.how_to_play, name="how_to_play"),
    path("how-to-play/<slug:kind>/", views.how_to_play_game, name="how_to_play_game"),
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service-worker"),
    path("favicon.ico", app_shell.favicon, name="favicon"),
    path("offline/", app_shell.offline, name="offline"),
    # The translations the scripts use (the djangojs catalog), served by the app itself.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]
