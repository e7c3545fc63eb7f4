"""The floor's one view: what no move can do without."""

from django.db import transaction
from django.utils import timezone
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Entry, Table


class FloorView(APIView):
    """POST with `Authorization: Token <key>`: in one transaction, SELECT the table's row FOR UPDATE,
    UPDATE it, INSERT an entry; answer a small JSON body."""

    def post(self, request: Request, table_id: int) -> Response:
        now = timezone.now()
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None:
                raise NotFound("no such table")
            table.version += 1
            table.updated_at = now
            table.save(update_fields=["version", "updated_at"])
            action = request.data.get("action") or {}
            Entry.objects.create(table=table, seq=table.version, user=request.user, action=action, created_at=now)
        return Response({"table": table.pk, "version": table.version}, status=201)
