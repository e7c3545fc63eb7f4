from django.conf import settings
from django.db import models


class Table(models.Model):
    """The row each request locks and moves on, as a move locks and moves on its game."""

    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"table {self.pk} at {self.version}"


class Entry(models.Model):
    """The row each request adds, as a move adds its Move."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE)
    seq = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    action = models.JSONField(default=dict)
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"entry {self.seq} of table {self.table_id}"
