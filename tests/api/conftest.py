"""Fixtures of the API's tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def own_advisor_slots(settings, tmp_path):
    """Advisor slot files of this test's own (games/advice_pool.py): a test process running beside
    this one on the machine holds none of them."""
    settings.VAR_DIR = tmp_path
