from django.urls import path

from .views import FloorView

urlpatterns = [path("floor/<int:table_id>/", FloorView.as_view())]
