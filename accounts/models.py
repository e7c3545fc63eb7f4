from __future__ import annotations

import hashlib
import secrets
import zoneinfo

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TIME_ZONES = sorted(zoneinfo.available_timezones())


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username: str) -> User:
        return self.get(username__iexact=username)


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=8, default="en")

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="username_unique_ignoring_case"),
        ]

    @property
    def public_name(self) -> str:
        return self.display_name or self.username


class ApiTokenQuerySet(models.QuerySet):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 is stored; the key is shown once, at creation."""

    PREFIX_LENGTH = 8

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
