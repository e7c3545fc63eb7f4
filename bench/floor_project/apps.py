from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "bench.floor_project"
    label = "floor"
