from __future__ import annotations

import hashlib
import secrets
import zoneinfo
from typing import Any

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import connection, models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import names
from .preferences import PlayerPreference

__all__ = ["ApiToken", "Block", "PlayerPreference", "User"]

TIME_ZONES = sorted(zoneinfo.available_timezones())


def new_token_id() -> str:
    return secrets.token_urlsafe(9)


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username: str) -> User:
        return self.get(username__iexact=username)

    def _create_user_object(self, username, email, password, **extra_fields) -> User:
        # create_user and create_superuser (and their async twins) all build the user here.
        user = super()._create_user_object(username, email, password, **extra_fields)
        user.refresh_name_keys()
        return user


class ChatSetting(models.TextChoices):
    """What a player reads and writes at their tables: everything, or only the quick phrases."""

    ON = "on", _("table talk on")
    PHRASES = "phrases", _("quick phrases only")


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=8, default="en")
    chat = models.CharField(_("table talk"), max_length=8, choices=ChatSetting.choices, default=ChatSetting.ON)
    # Digests of the username's look-alike keys (accounts.names): a new username, or another
    # player's display name, that shares any of them is refused.
    name_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    look_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    caps_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    NAME_KEY_FIELDS = ("name_key", "look_key", "caps_key")

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="username_unique_ignoring_case"),
        ]

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def refresh_name_keys(self) -> None:
        """Set the look-alike keys from the username (save() does, whoever sets the username)."""
        self.name_key, self.look_key, self.caps_key = names.key_digests(self.username)

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Every save, not only the signup form's: the admin's add and change forms, a shell or a
        # script set usernames too, and a stale key lets a look-alike of the name through.
        self.refresh_name_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, *self.NAME_KEY_FIELDS}
        super().save(*args, **kwargs)


def lock_account_names() -> None:
    """Serialize what creates account names, for the rest of the transaction. PostgreSQL: an advisory
    lock; SQLite: its IMMEDIATE transactions already hold the one write lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ACCOUNT_NAMES_LOCK])


# An advisory lock's number: any constant no other lock of ours uses.
ACCOUNT_NAMES_LOCK = 0x5_1047_4E41


class ApiTokenQuerySet(models.QuerySet):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 is stored; the key is shown once, at creation."""

    PREFIX_LENGTH = 8

    # The token's address in the API and on the settings page: public, unguessable, not a secret.
    public_id = models.CharField(max_length=16, unique=True, default=new_token_id, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def hash_key(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, *, user: User, name: str) -> tuple[ApiToken, str]:
        """A new token and its key, which is never stored and cannot be shown again."""
        key = secrets.token_hex(20)
        token = cls.objects.create(user=user, name=name, prefix=key[: cls.PREFIX_LENGTH], key_hash=cls.hash_key(key))
        return token, key


class Block(models.Model):
    """One player refusing another: the blocked player cannot invite them or share a table with them."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
