from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import ApiToken, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, ("Slowhand", {"fields": ("display_name", "time_zone", "language")}))


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "public_id", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("prefix", "public_id", "key_hash", "created_at", "last_used_at")
    search_fields = ("user__username", "name", "prefix", "public_id")
