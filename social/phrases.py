"""Quick phrases: sent as a key, shown to each reader in their own language, so that players who
share no language can still greet each other. They stay open to a player who has switched free
text off or has been silenced."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

PHRASES = {
    "good_luck": pgettext_lazy("quick phrase", "Good luck"),
    "good_game": pgettext_lazy("quick phrase", "Good game"),
    "thanks": pgettext_lazy("quick phrase", "Thanks"),
    "your_turn_when_ready": pgettext_lazy("quick phrase", "Your turn when you are ready"),
    "sorry_away": pgettext_lazy("quick phrase", "Sorry, I was away"),
}


def phrase_text(key: str) -> str:
    """The phrase in the active language; the key itself for a phrase since retired."""
    text = PHRASES.get(key)
    return str(text) if text is not None else key


def phrase_list() -> list[dict[str, str]]:
    return [{"key": key, "text": str(text)} for key, text in PHRASES.items()]
