from django.contrib import admin

from .models import Game, Move, Seat, Turn


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "invited_user", "invite_expires_at", "final_place", "resigned")
    raw_id_fields = ("user", "invited_user")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("public_id", "kind", "status", "num_seats", "version", "creator", "deadline", "created_at")
    list_filter = ("kind", "status", "is_private")
    search_fields = ("public_id", "creator__username", "seats__user__username")
    readonly_fields = ("public_id", "state", "version", "seed", "seed_sha256", "outcome", "to_act_seat")
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """Moves are the game's record: moderators read them, nobody edits them."""

    list_display = ("game", "seq", "seat", "action", "by_server", "user", "created_at")
    list_filter = ("by_server",)
    search_fields = ("game__public_id",)
    list_select_related = ("game", "user")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "started_at", "deadline", "ended_at", "timed_out")
