"""The Solar Hijri (Persian) calendar: Gregorian dates to Solar Hijri and back.

Pure arithmetic, no Django. Leap years follow the 33-year arithmetic cycle that ICU (and so the
browsers' `Intl.DateTimeFormat` with the `persian` calendar) uses, so that a date the server writes
reads the same as one a page writes; in the years this site can meet (1200 to 1600, that is 1821 to
2221) it agrees with the astronomical calendar Iran keeps.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

# The Julian day number of 1 Farvardin 1 (19 March 622 in the Julian calendar).
EPOCH = 1948320
# Python's proleptic Gregorian ordinal of a day plus this is its Julian day number.
ORDINAL_TO_JULIAN_DAY = 1721425
# Days before each month: six months of 31 days, five of 30, then Esfand (29, or 30 in a leap year).
DAYS_BEFORE_MONTH = (0, 31, 62, 93, 124, 155, 186, 216, 246, 276, 306, 336)
MONTH_NAMES = (
    "فروردین",
    "اردیبهشت",
    "خرداد",
    "تیر",
    "مرداد",
    "شهریور",
    "مهر",
    "آبان",
    "آذر",
    "دی",
    "بهمن",
    "اسفند",
)


class SolarHijriDate(NamedTuple):
    year: int
    month: int  # 1 (Farvardin) to 12 (Esfand)
    day: int

    @property
    def month_name(self) -> str:
        return MONTH_NAMES[self.month - 1]


def is_leap_year(year: int) -> bool:
    return (25 * year + 11) % 33 < 8


def days_in_month(year: int, month: int) -> int:
    if month <= 6:
        return 31
    if month <= 11:
        return 30
    return 30 if is_leap_year(year) else 29


def _first_day_of_year(year: int) -> int:
    """Days from the epoch to 1 Farvardin of `year`."""
    return 365 * (year - 1) + (8 * year + 21) // 33


def from_gregorian(day: dt.date) -> SolarHijriDate:
    """The Solar Hijri date of a Gregorian day (a datetime counts by its own calendar day)."""
    since_epoch = day.toordinal() + ORDINAL_TO_JULIAN_DAY - EPOCH
    year = 1 + (33 * since_epoch + 3) // 12053
    day_of_year = since_epoch - _first_day_of_year(year)  # 0-based
    month = day_of_year // 31 if day_of_year < 216 else (day_of_year - 6) // 30  # 0-based
    return SolarHijriDate(year, month + 1, day_of_year - DAYS_BEFORE_MONTH[month] + 1)


def to_gregorian(year: int, month: int, day: int) -> dt.date:
    """The Gregorian day of a Solar Hijri date; ValueError for a date that does not exist."""
    if not 1 <= month <= 12 or not 1 <= day <= days_in_month(year, month):
        raise ValueError(f"{year}/{month}/{day} is not a Solar Hijri date")
    julian_day = EPOCH + _first_day_of_year(year) + DAYS_BEFORE_MONTH[month - 1] + day - 1
    return dt.date.fromordinal(julian_day - ORDINAL_TO_JULIAN_DAY)
