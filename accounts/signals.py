"""Signals other apps listen to, so that accounts never imports them (no import circle)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by accounts.services.password_changed with `user`: whatever the old password gave away
# (a secret address, say) is replaced by each receiver.
password_changed = Signal()
