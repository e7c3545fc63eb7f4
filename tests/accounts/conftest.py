"""Fixtures for the account tests."""

from __future__ import annotations

import hashlib
import itertools

import pytest


@pytest.fixture
def fixed_seeds(monkeypatch):
    """Shuffle seeds from a counter, so each test deals the same games every run."""
    counter = itertools.count()

    def token_hex(nbytes: int = 32) -> str:
        return hashlib.sha256(f"slowhand-test-{next(counter)}".encode()).hexdigest()[: 2 * nbytes]

    monkeypatch.setattr("games.services.secrets.token_hex", token_hex)
