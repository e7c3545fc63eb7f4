from django.contrib import admin

from .models import Entry, Round, Table, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Moderators read tournaments here; every change goes through the services (the API)."""

    list_display = ("public_id", "name", "kind", "format", "status", "current_round", "rounds", "created_at")
    list_filter = ("kind", "format", "status")
    search_fields = ("public_id", "name", "creator__username")
    readonly_fields = ("public_id", "status", "current_round", "started_at", "finished_at")
    inlines = [EntryInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "started_at", "expected_end", "finished_at")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "game")
    raw_id_fields = ("game",)
