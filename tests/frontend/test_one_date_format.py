"""One reader, one clock: every date a page writes goes through the one format of its language (config.l10n,
in the reader's time zone) or is the machine-readable ISO form; none is left to Django's own formats."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
APPS = ["accounts", "config", "frontend", "games", "live", "notifications", "orders", "social", "stats", "tournaments"]
TEMPLATES = sorted(path for app in APPS for path in (ROOT / app).rglob("templates/**/*") if path.is_file())
# A date filter other than the ISO "c" (for <time datetime>), a time filter, or a datetime printed bare.
ANOTHER_FORMAT = re.compile(r"\|\s*(?:date(?!:\s*['\"]c['\"])|time\b|naturaltime|naturalday)")
BARE_MOMENT = re.compile(r"\{\{\s*[\w.]*_(?:at|on|until)\s*\}\}")


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_template_writes_dates_only_in_the_languages_one_format(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    assert not ANOTHER_FORMAT.search(text), "use |local_date, |local_datetime or |ago (frontend.templatetags)"
    assert not BARE_MOMENT.search(text), "a moment printed with Django's default format"


def test_the_templates_were_found():
    assert len(TEMPLATES) > 40
    assert any(path.name == "table.html" for path in TEMPLATES)


def test_no_page_text_is_written_with_strftime():
    # Admin pages are the staff's, in English; every other strftime would write a date the reader's way.
    offenders = [
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if path.name != "admin.py"
        and "migrations" not in path.parts
        and "strftime(" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []
