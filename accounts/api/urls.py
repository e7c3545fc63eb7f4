from django.urls import path

from . import views

urlpatterns = [
    path("auth/token/", views.TokenCreateView.as_view(), name="api-token"),
    path("me/", views.MeView.as_view(), name="api-me"),
]
