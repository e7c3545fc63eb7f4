"""Free text from players (messages, reports, notes), checked before anything stores it."""

from __future__ import annotations

import unicodedata

# Format characters that writing needs: the zero-width non-joiner of Persian (می‌خواهم), the joiner
# of emoji sequences, and the marks that set the direction of a neutral character in mixed text.
ALLOWED_FORMAT = {"\u200c", "\u200d", "\u200e", "\u200f"}


class TextRefused(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean_text(value: object, *, max_length: int, allow_empty: bool = False, multiline: bool = True) -> str:
    """The text as stored: NFC, without surrounding blanks. Refused: anything but a string, control
    characters (a line break aside, where allowed), invisible and direction-overriding format
    characters, surrogates, private-use code points and noncharacters, and a length outside the bounds.
    (Unassigned code points pass: they are the newest emoji to a Python older than its phones.)"""
    if not isinstance(value, str):
        raise TextRefused("not_text", "Send the text as a string.")
    text = unicodedata.normalize("NFC", value.replace("\r\n", "\n")).strip()
    for char in text:
        category = unicodedata.category(char)
        if char == "\n" and multiline:
            continue
        if category in ("Cc", "Cs", "Co") or (category == "Cf" and char not in ALLOWED_FORMAT) or noncharacter(char):
            raise TextRefused(
                "bad_character",
                f"Remove the character U+{ord(char):04X}: only visible text, spaces and line breaks are taken.",
            )
        if category in ("Zl", "Zp"):
            raise TextRefused("bad_character", f"Remove the character U+{ord(char):04X}: use an ordinary line break.")
    if not text and not allow_empty:
        raise TextRefused("empty_text", "Write something: the text is empty.")
    if len(text) > max_length:
        raise TextRefused("text_too_long", f"Shorten the text to {max_length} characters or fewer.")
    return text


def noncharacter(char: str) -> bool:
    code = ord(char)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE
