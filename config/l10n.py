"""Numbers and dates as the reader's language writes them, for every text the server composes.

English and Turkish write Latin digits and Gregorian dates; Persian writes Persian digits (۰-۹,
with ٫ and ٬ as separators) and Solar Hijri dates. Each language has one date format, the same
one the pages' scripts get from `Intl.DateTimeFormat` (dateStyle "medium", timeStyle "short"), so a
date reads alike whichever side wrote it. Only numbers and dates go through here, never a whole
text: names, codes, addresses and card codes keep their characters.

Inputs take both digit systems: `ascii_digits` turns what a Persian keyboard types into the digits
a parser reads.
"""

# ruff: noqa: RUF001, RUF002 - the Persian digits and separators are meant

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.utils import dateformat, timezone
from django.utils.functional import Promise, lazy
from django.utils.translation import get_language

from . import solar_hijri

LATIN_DIGITS = "0123456789"
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"
ARABIC_INDIC_DIGITS = "٠١٢٣٤٥٦٧٨٩"  # what an Arabic keyboard types, read the same way

TO_PERSIAN = str.maketrans(LATIN_DIGITS, PERSIAN_DIGITS)
TO_ASCII = str.maketrans(PERSIAN_DIGITS + ARABIC_INDIC_DIGITS + "٫٬", LATIN_DIGITS * 2 + ".,")


class NumberStyle:
    def __init__(self, decimal: str, group: str, minus: str, persian_digits: bool = False) -> None:
        self.decimal, self.group, self.minus, self.persian_digits = decimal, group, minus, persian_digits


NUMBER_STYLES = {
    "en": NumberStyle(decimal=".", group=",", minus="-"),
    "tr": NumberStyle(decimal=",", group=".", minus="-"),
    # A left-to-right mark keeps the minus sign left of the number in right-to-left text.
    "fa": NumberStyle(decimal="٫", group="٬", minus="\u200e\u2212", persian_digits=True),
}
# Django date format strings (https://docs.djangoproject.com/en/stable/ref/templates/builtins/#date)
# for the Gregorian languages: (date, date and time).
GREGORIAN_FORMATS = {"en": ("M j, Y", "M j, Y, g:i A"), "tr": ("j M Y", "j M Y H:i")}


def language_code(language: str | None = None) -> str:
    """ "fa", "tr" or "en": the language given, or the active one."""
    code = (language or get_language() or "en").split("-")[0].lower()
    return code if code in NUMBER_STYLES else "en"


def writes_latin_digits(language: str | None = None) -> bool:
    return not NUMBER_STYLES[language_code(language)].persian_digits


def digits(text: object, language: str | None = None) -> str:
    """`text` with its Latin digits written in the language's digits (Persian ones in Persian). Only
    for texts whose digits are all figures: a number, a duration, a date; never a name or a code."""
    text = str(text)
    return text if writes_latin_digits(language) else text.translate(TO_PERSIAN)


def ascii_digits(text: str) -> str:
    """What a reader typed, with Persian and Arabic-Indic digits and separators as ASCII."""
    return text.translate(TO_ASCII)


def number(value: float | int | Decimal, decimals: int | None = None, *, trim: bool = False) -> str:
    """A number in the language's digits and separators, grouped by thousands as Intl.NumberFormat
    does: 1,234.5 / 1.234,5 / ۱٬۲۳۴٫۵. `decimals` rounds (half up) to that many places, None keeps
    what the value has; `trim` drops trailing zeros ("62.5", "62", not "62.0")."""
    style = NUMBER_STYLES[language_code()]
    try:
        exact = Decimal(str(value))
    except InvalidOperation:
        return digits(value)
    if not exact.is_finite():
        return digits(value)
    if decimals is not None:
        exact = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    text = f"{abs(exact):,f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    whole, _, fraction = text.partition(".")
    text = whole.replace(",", style.group) + (style.decimal + fraction if fraction else "")
    if exact < 0 and text.strip("0.,"):
        text = style.minus + text
    return digits(text)


def is_number(value: object) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def interpolate(template: str, values: Mapping[str, object]) -> str:
    """`template % values` with every number among the values written by `number`: the server's
    counterpart of the pages' format(). "%(count)d" placeholders take the written number too."""
    shown = {key: number(value) if is_number(value) else value for key, value in values.items()}
    return re.sub(r"(?<!%)%\((\w+)\)d", r"%(\1)s", str(template)) % shown


def lazy_interpolate(template: str | Promise, values: Mapping[str, object]) -> Promise:
    """`interpolate`, done when the text is shown, in the reader's language: for messages written at
    import time, such as a form field's error_messages (Django's own "%" on it then finds no
    placeholder left)."""
    return lazy(lambda: interpolate(str(template), values), str)()


def _local(value: dt.date) -> dt.date:
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        return timezone.localtime(value)
    return value


def format_date(value: dt.date | None, *, with_time: bool = False) -> str:
    """A date (or a datetime, in the current time zone) in the language's one format: "Dec 4,
    2026", "4 Ara 2026", "۱۳ آذر ۱۴۰۵"; with the time "Dec 4, 2026, 2:05 PM", "4 Ara 2026 14:05",
    "۱۳ آذر ۱۴۰۵، ۱۴:۰۵"."""
    if value is None:
        return ""
    value = _local(value)
    language = language_code()
    with_time = with_time and isinstance(value, dt.datetime)
    if language == "fa":
        day = solar_hijri.from_gregorian(value)
        text = f"{day.day} {day.month_name} {day.year}"
        if with_time:
            text += f"، {value.hour}:{value.minute:02d}"
        return digits(text, language)
    date_format, datetime_format = GREGORIAN_FORMATS[language]
    return dateformat.format(value, datetime_format if with_time else date_format)


def format_datetime(value: dt.datetime | None) -> str:
    return format_date(value, with_time=True)
