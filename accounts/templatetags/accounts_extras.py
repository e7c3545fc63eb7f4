"""Formatting for pages: players' names, shares as percentages, seconds as a readable duration."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from accounts import names
from config import l10n

register = template.Library()
NOTHING = "\u2013"  # an en dash: no figure yet


@register.filter
def shown_name(display_name: str | None, username: str) -> str:
    """{{ player.display_name|shown_name:player.username }}: "Alice the Bold (@alice)", or just the
    name when the display name is empty or looks like the username. Every page that names a player to
    others goes through this (or accounts.names.shown_name), so a display name never passes for another."""
    return names.shown_name(display_name or "", username)


@register.filter
def percent(share: float | None) -> str:
    """0.625 -> "62.5%" (in the reader's digits and signs); nothing to divide -> a dash."""
    if share is None:
        return NOTHING
    return _("%(number)s%%") % {"number": l10n.number(share * 100, 1, trim=True)}


@register.filter
def duration(seconds: float | None) -> str:
    """A length of time in its largest sensible unit: "45 s", "12 min", "3.5 h", "2 d"."""
    if seconds is None:
        return NOTHING
    if seconds < 60:
        return _("%(n)s s") % {"n": l10n.number(seconds, 0)}
    if seconds < 3600:
        return _("%(n)s min") % {"n": l10n.number(seconds / 60, 0)}
    if seconds < 86400:
        return _("%(n)s h") % {"n": l10n.number(seconds / 3600, 1, trim=True)}
    return _("%(n)s d") % {"n": l10n.number(seconds / 86400, 1, trim=True)}


@register.filter
def number(value: float | None, digits: int = 1) -> str:
    """A number to `digits` decimals in the reader's digits, or a dash when there is none."""
    return NOTHING if value is None else l10n.number(value, int(digits))
