from django.contrib import admin

from .models import PlayerStats, Rating, RatingHistory


# Statistics and ratings are derived data: change them with `manage.py recompute_stats`, not by hand.
class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "games_finished", "games_won", "best_streak", "last_finished_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "bot_level", "kind", "mu", "sigma", "ordinal", "games")
    list_filter = ("kind",)
    search_fields = ("user__username", "bot_level")


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "game", "place", "mu", "sigma", "recorded_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
