"""The name rules: which characters a name may hold, and when two names look too much alike.

Look-alikes are found with the skeleton of Unicode Technical Standard #39, section 4: decompose
(NFD), replace every character by its prototype from Unicode's confusables table, decompose again.
The table is vendored in confusables_ma.txt (its header names the Unicode version and the source
file; build_confusables.py regenerates it). Usernames are compared without regard to case, so a
name may pass for another in any case, and one key cannot say it all. Two names look alike when
they share any of three keys:

- name_key, the spelling: case-folded, then skeletonized. "ALICE", "Alice", and "alice" spelled
  with a Cyrillic a (U+0430) or a Ukrainian i (U+0456) all give alice's; so do "Émile" and
  "émile", on any database.
- look_key, the look as written: skeletonized, then case-folded (and skeletonized again). Folding
  first loses how capitals look: "aIice" with a capital I folds to "aiice", yet looks like "alice".
- caps_key, the look in capitals: upper-cased, then skeletonized. "ALICE" written with a Greek
  capital epsilon (U+0395), or "KEN" with a Cyrillic capital Ka (U+041A), look just like "ALICE"
  and "KEN", though their small letters look like no Latin ones.

Nothing here touches the database; accounts.validators asks it who already holds a key.
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import cache
from pathlib import Path

CONFUSABLES_FILE = Path(__file__).with_name("confusables_ma.txt")

# Default_Ignorable_Code_Point, from DerivedCoreProperties.txt of Unicode 17.0.0: characters that
# show as nothing where they are not understood, including the Hangul fillers, which are letters
# by category (U+115F, U+1160, U+3164, U+FFA0), and the variation selectors.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
# Symbols that are drawn as an empty cell, used as "blank letters" in names.
BLANK_SYMBOLS = frozenset({"\u2800"})  # BRAILLE PATTERN BLANK
# Format, control, private-use, surrogate and unassigned: nothing a reader can see or trust.
HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn"})


@cache
def confusables() -> dict[str, str]:
    """Unicode's confusables table: each character that has a prototype, mapped to that prototype."""
    table = {}
    for line in CONFUSABLES_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, *prototype = line.split()
            table[chr(int(source, 16))] = "".join(chr(int(point, 16)) for point in prototype)
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton: NFD, each character replaced by its prototype, NFD again."""
    table = confusables()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def case_folded(text: str) -> str:
    """NFKC, full case folding, NFKC again (NFKC_Casefold, less the removal of ignorables, which names refuse)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def name_key(name: str) -> str:
    """The name's spelling, whatever its case and look-alike letters: case fold, then skeleton."""
    return skeleton(case_folded(name))


def look_key(name: str) -> str:
    """How the name looks as written, whatever its case: skeleton, case fold, skeleton again."""
    return skeleton(case_folded(skeleton(unicodedata.normalize("NFKC", name))))


def caps_key(name: str) -> str:
    """How the name looks in capitals: upper case (in full: "ß" becomes "SS"), then skeleton."""
    return skeleton(unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).upper()))


def name_keys(name: str) -> frozenset[str]:
    return frozenset({name_key(name), look_key(name), caps_key(name)})


def look_alike(first: str, second: str) -> bool:
    """Whether the two names share a key: the same name to a reader, or close enough to pass for it."""
    return not name_keys(first).isdisjoint(name_keys(second))


def key_digest(key: str) -> str:
    """What the database stores for a key: a skeleton can be several times longer than the name, a digest
    always fits one indexed column."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def key_digests(name: str) -> tuple[str, str, str]:
    """The name's name_key, look_key and caps_key, as User stores them in the columns of those names."""
    return key_digest(name_key(name)), key_digest(look_key(name)), key_digest(caps_key(name))


def is_default_ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def hidden_characters(text: str) -> list[str]:
    """The characters of `text` that show as nothing or cannot be trusted to show, each once, in order."""
    found: dict[str, None] = {}
    for char in text:
        if (
            unicodedata.category(char) in HIDDEN_CATEGORIES or is_default_ignorable(char) or char in BLANK_SYMBOLS
        ) and not char.isspace():
            found[char] = None
    return list(found)


def odd_spaces(text: str) -> list[str]:
    """The whitespace characters of `text` other than the ordinary space (tabs, line breaks, other spaces)."""
    return list(dict.fromkeys(char for char in text if char.isspace() and char != " "))


def describe(char: str) -> str:
    """A character as a reader can find it when they cannot see it: "U+3164 HANGUL FILLER"."""
    name = unicodedata.name(char, "")
    if not name:
        name = {"Cc": "control character", "Cs": "surrogate", "Co": "private-use character"}.get(
            unicodedata.category(char), "unassigned code point"
        )
    return f"U+{ord(char):04X} {name}"


def shown_name(display_name: str, username: str) -> str:
    """How pages name a player to others: the display name, followed by "(@username)" unless the two
    look alike, so that a display name can never pass for someone else's username."""
    if not display_name or look_alike(display_name, username):
        return display_name or username
    return f"{display_name} (@{username})"
