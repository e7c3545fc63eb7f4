"""The game core's names as players read them: each kind's name and a move time's length. Pages of
every room above the core (the game table, tournaments, profiles) show them the same way."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from config import l10n

KIND_LABELS = {"scat": _("Scat (31)"), "scattle": _("Scattle!")}

HOUR = 3600
DAY = 24 * HOUR


def duration_label(seconds: int) -> str:
    if seconds % DAY == 0:
        days = seconds // DAY
        return l10n.interpolate(ngettext("%(count)d day", "%(count)d days", days), {"count": days})
    if seconds % HOUR == 0:
        hours = seconds // HOUR
        return l10n.interpolate(ngettext("%(count)d hour", "%(count)d hours", hours), {"count": hours})
    minutes = seconds // 60
    return l10n.interpolate(ngettext("%(count)d minute", "%(count)d minutes", minutes), {"count": minutes})
