"""The translation catalogues as the tests read them: every .po file of the project and its entries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ("tr", "fa")
# Django looks in LOCALE_PATHS first, then in each app's locale/: every folder that holds catalogues.
LOCALE_DIRS = (ROOT / "locale", ROOT / "tournaments" / "locale", ROOT / "orders" / "locale")


@dataclass
class Entry:
    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstrs: list[str] = field(default_factory=list)  # msgstr, or msgstr[0], msgstr[1], ...
    references: list[str] = field(default_factory=list)  # "path:line" from the "#:" comments
    flags: str = ""

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)


def catalogue_paths(language: str) -> list[Path]:
    return [path for directory in LOCALE_DIRS for path in sorted((directory / language / "LC_MESSAGES").glob("*.po"))]


def all_catalogue_paths() -> list[Path]:
    return [path for language in LANGUAGES for path in catalogue_paths(language)]


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def read_catalogue(path: Path) -> list[Entry]:
    """The entries of a .po file, the header left out, with their texts unescaped."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    references: list[str] = []
    flags, key = "", None

    def finish() -> None:
        if fields.get("msgid"):
            plurals = sorted(k for k in fields if k.startswith("msgstr["))
            entries.append(
                Entry(
                    msgid=unescape(fields["msgid"]),
                    msgctxt=unescape(fields["msgctxt"]) if "msgctxt" in fields else None,
                    msgid_plural=unescape(fields["msgid_plural"]) if "msgid_plural" in fields else None,
                    msgstrs=[unescape(fields[k]) for k in (plurals or ["msgstr"]) if k in fields],
                    references=references,
                    flags=flags,
                )
            )

    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            finish()
            fields, references, flags, key = {}, [], "", None
        elif line.startswith("#:"):
            references.extend(line[2:].split())
        elif line.startswith("#,"):
            flags = line
        elif line.startswith("#"):
            continue
        elif match := re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line):
            key = match.group(1)
            fields[key] = match.group(2)
        elif line.startswith('"') and key:
            fields[key] += line[1:-1]
    return entries


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))
