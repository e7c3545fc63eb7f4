from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...> and <username:...>)

from . import block_views, views

urlpatterns = [
    path("auth/token/", views.TokenCreateView.as_view(), name="api-token"),
    path("me/", views.MeView.as_view(), name="api-me"),
    path("me/tokens/", views.ApiTokenListView.as_view(), name="api-me-tokens"),
    path("me/tokens/<public_id:token_id>/", views.ApiTokenDetailView.as_view(), name="api-me-token"),
    path("me/blocks/", block_views.BlockListView.as_view(), name="api-me-blocks"),
    path("me/blocks/<username:username>/", block_views.BlockDetailView.as_view(), name="api-me-block"),
]
