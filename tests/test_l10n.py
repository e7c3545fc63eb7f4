"""Numbers and dates in the reader's language: Persian digits and the Solar Hijri calendar in Persian,
the Gregorian calendar in Turkish and English, one format per language; inputs in either digit system."""

# ruff: noqa: RUF001 - the Persian digits and separators are meant

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from config import l10n, solar_hijri
from frontend.forms import NewGameForm, duration_label
from frontend.option_texts import choice_label
from games.models import Game
from tests.frontend.test_pages import new_game_form_data

TEHRAN = zoneinfo.ZoneInfo("Asia/Tehran")


@pytest.mark.parametrize(
    ("gregorian", "solar_hijri_date"),
    [
        (dt.date(2026, 12, 4), (1405, 9, 13)),  # 13 Azar 1405
        (dt.date(2024, 3, 20), (1403, 1, 1)),  # Nowruz 1403
        (dt.date(2025, 3, 20), (1403, 12, 30)),  # the leap day of 1403
        (dt.date(2025, 3, 21), (1404, 1, 1)),
        (dt.date(2026, 3, 20), (1404, 12, 29)),  # 1404 is no leap year
        (dt.date(1979, 2, 11), (1357, 11, 22)),  # 22 Bahman 1357
        (dt.date(2000, 1, 1), (1378, 10, 11)),
        (dt.date(2026, 9, 22), (1405, 6, 31)),  # the last of the 31-day months
        (dt.date(2026, 9, 23), (1405, 7, 1)),
    ],
)
def test_a_gregorian_day_has_its_solar_hijri_date(gregorian, solar_hijri_date):
    assert solar_hijri.from_gregorian(gregorian) == solar_hijri_date
    assert solar_hijri.to_gregorian(*solar_hijri_date) == gregorian


@given(st.dates(min_value=dt.date(1800, 1, 1), max_value=dt.date(2300, 12, 31)))
def test_the_conversion_goes_there_and_back(day):
    converted = solar_hijri.from_gregorian(day)
    assert 1 <= converted.day <= solar_hijri.days_in_month(converted.year, converted.month)
    assert solar_hijri.to_gregorian(*converted) == day
    following = solar_hijri.from_gregorian(day + dt.timedelta(days=1))
    assert following > converted  # days follow each other, months and years turn over in order


def test_a_year_has_365_days_or_366_in_a_leap_year():
    for year in range(1300, 1500):
        length = (solar_hijri.to_gregorian(year + 1, 1, 1) - solar_hijri.to_gregorian(year, 1, 1)).days
        assert length == (366 if solar_hijri.is_leap_year(year) else 365), year


def test_a_date_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="not a Solar Hijri date"):
        solar_hijri.to_gregorian(1404, 12, 30)  # 1404 has no leap day
    with pytest.raises(ValueError):
        solar_hijri.to_gregorian(1404, 13, 1)


@pytest.mark.parametrize(
    ("language", "value", "decimals", "written"),
    [
        ("en", 1234.5, None, "1,234.5"),
        ("tr", 1234.5, None, "1.234,5"),
        ("fa", 1234.5, None, "۱٬۲۳۴٫۵"),
        ("fa", 42, None, "۴۲"),
        ("fa", 24.25, 1, "۲۴٫۳"),  # half up, as the pages round
        ("tr", Decimal("7.0"), 1, "7,0"),
        ("fa", -3.2, 1, "\u200e\u2212۳٫۲"),
        ("en", -0.04, 1, "0.0"),  # no minus before a zero
    ],
)
def test_a_number_is_written_in_the_languages_digits_and_separators(language, value, decimals, written):
    with translation.override(language):
        assert l10n.number(value, decimals) == written


def test_trailing_zeros_go_when_asked():
    with translation.override("fa"):
        assert l10n.number(62.0, 1, trim=True) == "۶۲"
        assert l10n.number(62.5, 1, trim=True) == "۶۲٫۵"


def test_interpolation_writes_the_numbers_and_leaves_the_rest():
    with translation.override("fa"):
        text = l10n.interpolate("%(name)s: %(count)d / %(total)s", {"name": "bob2", "count": 5, "total": 12})
    assert text == "bob2: ۵ / ۱۲"  # the name keeps its digit: it is no number


def test_typed_digits_of_either_system_read_as_ascii():
    assert l10n.ascii_digits("۱۲") == "12"
    assert l10n.ascii_digits("٣٤") == "34"  # Arabic-Indic
    assert l10n.ascii_digits("۲٫۵") == "2.5"


@pytest.mark.parametrize(
    ("language", "date", "date_and_time"),
    [
        ("en", "Dec 4, 2026", "Dec 4, 2026, 2:05 PM"),
        ("tr", "4 Ara 2026", "4 Ara 2026 14:05"),
        ("fa", "۱۳ آذر ۱۴۰۵", "۱۳ آذر ۱۴۰۵، ۱۴:۰۵"),
    ],
)
def test_each_language_writes_dates_one_way(language, date, date_and_time):
    moment = dt.datetime(2026, 12, 4, 14, 5, tzinfo=dt.UTC)
    with translation.override(language), timezone.override(dt.UTC):
        assert l10n.format_date(moment) == date
        assert l10n.format_datetime(moment) == date_and_time
        assert l10n.format_date(moment.date()) == date


def test_a_date_is_the_readers_day_in_their_time_zone():
    # 22:00 UTC on 20 March 2025 is already 21 March, Nowruz 1404, in Tehran (UTC+3:30).
    moment = dt.datetime(2025, 3, 20, 22, 0, tzinfo=dt.UTC)
    with translation.override("fa"), timezone.override(TEHRAN):
        assert l10n.format_datetime(moment) == "۱ فروردین ۱۴۰۴، ۱:۳۰"
    with translation.override("fa"), timezone.override(dt.UTC):
        assert l10n.format_datetime(moment) == "۳۰ اسفند ۱۴۰۳، ۲۲:۰۰"


def render(source: str, language: str, **context) -> str:
    with translation.override(language), timezone.override(dt.UTC):
        return Template("{% load localized %}" + source).render(Context(context))


def test_the_filters_write_numbers_and_dates_and_leave_the_rest():
    moment = dt.datetime(2026, 12, 4, 14, 5, tzinfo=dt.UTC)
    html = render(
        "{{ n|number }} {{ r|number:1 }} {{ none|number }} {{ name|number }} "
        "{{ when|local_date }} {{ when|local_datetime }}",
        "fa",
        n=1234,
        r=24.25,
        none=None,
        name="alice2",
        when=moment,
    )
    assert html == "۱٬۲۳۴ ۲۴٫۳ \u2013 alice2 ۱۳ آذر ۱۴۰۵ ۱۳ آذر ۱۴۰۵، ۱۴:۰۵"
    assert render("{{ n|number }} {{ when|local_date }}", "tr", n=1234, when=moment) == "1.234 4 Ara 2026"


def test_a_plural_picks_its_form_by_the_number_and_shows_the_written_one():
    source = (
        "{% load i18n %}{% blocktranslate count counter=n with seats=n|number %}"
        "{{ seats }} seat open{% plural %}{{ seats }} seats open{% endblocktranslate %}"
    )
    assert render(source, "en", n=1) == "1 seat open"
    assert render(source, "en", n=1234) == "1,234 seats open"
    assert render(source, "fa", n=3) == "۳ جای خالی"


def test_the_servers_labels_write_their_numbers():
    with translation.override("fa"):
        assert duration_label(3 * 86400) == "۳ روز"
        assert choice_label("three_of_a_kind_value", 30.5) == "۳۰½"
        assert choice_label("max_group_size", 4) == "۴"
    with translation.override("tr"):
        assert duration_label(12 * 3600) == "12 saat"


def test_a_number_input_takes_persian_digits_on_a_persian_page():
    with translation.override("fa"):
        html = str(NewGameForm()["seats"])
    assert 'type="text"' in html and 'inputmode="numeric"' in html and 'value="۲"' in html
    with translation.override("en"):
        assert 'type="number"' in str(NewGameForm()["seats"])


def test_the_new_game_page_reads_persian_digits(client, alice):
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    data = new_game_form_data("scattle", seats="۳", invite_days="۱۴", **{"scattle-target_score": "۲۰"})
    response = client.post("/games/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(creator=alice)
    assert (game.num_seats, game.options["target_score"]) == (3, 20)


def test_the_api_reads_persian_digits_sent_by_a_page(alice_client):
    # The tournament form posts what was typed into it; a client may send the typed text as it is.
    body = {"name": "Yalda", "kind": "scat", "format": "swiss", "table_size": "۳", "rounds": "۲", "max_players": "۸"}
    response = alice_client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    assert (response.json()["table_size"], response.json()["max_players"]) == (3, 8)
