"""{% load localized %}: numbers and dates in the reader's language (config.l10n), where a template
writes one. Each filter touches only the value it is given, never the text around it.

    {{ count|number }}              1,234 / 1.234 / ۱٬۲۳۴
    {{ rating|number:1 }}           24.3 / 24,3 / ۲۴٫۳
    {{ left|timeuntil|digits }}     a text made of figures (a duration), in the language's digits
    {{ when|local_date }}           Dec 4, 2026 / 4 Ara 2026 / ۱۳ آذر ۱۴۰۵
    {{ when|local_datetime }}       the same with the time of day
    {{ when|ago }}                  "just now" within a minute, else "5 minutes ago", in the language
    {{ deadline|time_left }}        "3 hours, 5 minutes" in the language's digits; "less than a minute" at the end

In {% blocktranslate count n=x %}, `n` stays the number that picks the plural; pass the written
number beside it: {% blocktranslate count n=x with shown=x|number %}{{ shown }} …
"""

# ruff: noqa: RUF002 - the Persian digits are meant

from __future__ import annotations

import datetime as dt

from django import template
from django.utils import timezone
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext as _

from config import l10n

register = template.Library()
NOTHING = "\u2013"  # an en dash: no figure


@register.filter(is_safe=True)
def number(value: object, decimals: int | None = None) -> object:
    """A number written in the language's digits and separators (`decimals`: rounded to that many
    places); a dash for no number, anything else left as it is."""
    if value is None or value == "":
        return NOTHING
    if not l10n.is_number(value):
        return value
    return l10n.number(value, None if decimals in (None, "") else int(decimals))


@register.filter
def digits(value: object) -> str:
    """A text of figures (a duration from timesince, a time) in the language's digits."""
    return l10n.digits("" if value is None else value)


@register.simple_tag
def number_input_type() -> str:
    """The type of a number's <input>: "number" takes Latin digits only, so where the reader writes
    other digits a "text" input (with inputmode="numeric") takes both."""
    return "number" if l10n.writes_latin_digits() else "text"


@register.filter
def local_date(value: dt.date | None) -> str:
    return l10n.format_date(value)


@register.filter
def local_datetime(value: dt.datetime | None) -> str:
    return l10n.format_datetime(value)


@register.filter
def ago(value: dt.datetime | None) -> str:
    """How long ago, never "0 minutes ago": under a minute reads "just now"."""
    if value is None:
        return ""
    if timezone.now() - value < dt.timedelta(minutes=1):
        return _("just now")
    return _("%(ago)s ago") % {"ago": l10n.digits(timesince(value))}


@register.filter
def time_left(value: dt.datetime | None) -> str:
    """How long until a moment, never "0 minutes": under a minute (or past) reads "less than a minute"."""
    if value is None:
        return ""
    if value - timezone.now() < dt.timedelta(minutes=1):
        return _("less than a minute")
    return l10n.digits(timeuntil(value))
