from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import ApiToken, PlayerStats, Rating, RatingHistory, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, ("Slowhand", {"fields": ("display_name", "time_zone", "language")}))


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "public_id", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("prefix", "public_id", "key_hash", "created_at", "last_used_at")
    search_fields = ("user__username", "name", "prefix", "public_id")


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
