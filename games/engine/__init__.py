"""Pure rules engines for Slowhand's games: no Django, no I/O, no clock, no global random."""

from __future__ import annotations

from .base import Rules
from .errors import BadOption, IllegalAction

KINDS = ("scat", "scattle")


def get_rules(kind: str) -> Rules:
    """The rules object for a game kind ("scat" or "scattle")."""
    if kind == "scat":
        from .scat import RULES
    elif kind == "scattle":
        from .scattle import RULES
    else:
        raise IllegalAction("bad_kind", f"Unknown game kind {kind!r}; choose one of {', '.join(KINDS)}.")
    return RULES


__all__ = ["KINDS", "BadOption", "IllegalAction", "Rules", "get_rules"]
