"""The full rules of a game as the project plays them (seeds/<kind>.md, in English), as HTML: the small
part of Markdown those files use (headings, paragraphs, lists, quotes, tables, bold, code), every
character of the text escaped first."""

from __future__ import annotations

import re
from functools import cache

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

RULE_FILES = {"scat": "scat.md", "scattle": "scattle.md"}


def _inline(text: str) -> str:
    html = escape(text)
    html = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html)


def _table(rows: list[str]) -> str:
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    head, body = cells[0], [r for r in cells[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    out = [
        '<table class="data"><thead><tr>',
        *(f'<th scope="col">{_inline(c)}</th>' for c in head),
        "</tr></thead><tbody>",
    ]
    for row in body:
        out += ["<tr>", *(f"<td>{_inline(c)}</td>" for c in row), "</tr>"]
    return "".join([*out, "</tbody></table>"])


def markdown_to_html(source: str, first_level: int = 2) -> str:
    """Blocks separated by blank lines; "##" becomes `first_level`, so that the page's own headings stay above."""
    blocks: list[str] = []
    for block in re.split(r"\n\s*\n", source.strip()):
        lines = block.splitlines()
        heading = re.match(r"^(#{1,6})\s+(.*)$", lines[0])
        if heading and len(lines) == 1:
            level = min(6, len(heading.group(1)) - 2 + first_level)
            blocks.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif all(line.lstrip().startswith("|") for line in lines):
            blocks.append(_table(lines))
        elif all(line.startswith(">") for line in lines):
            text = " ".join(line.lstrip("> ").strip() for line in lines)
            blocks.append(f"<blockquote><p>{_inline(text)}</p></blockquote>")
        elif re.match(r"^(- |\d+\. )", lines[0]):
            ordered = lines[0][0].isdigit()
            items: list[str] = []
            for line in lines:
                if re.match(r"^(- |\d+\. )", line):
                    items.append(re.sub(r"^(- |\d+\. )", "", line))
                else:
                    items[-1] += " " + line.strip()
            tag = "ol" if ordered else "ul"
            blocks.append(f"<{tag}>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + f"</{tag}>")
        else:
            if heading:  # a heading directly followed by text
                level = min(6, len(heading.group(1)) - 2 + first_level)
                blocks.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
                lines = lines[1:]
            blocks.append("<p>" + _inline(" ".join(line.strip() for line in lines)) + "</p>")
    return "\n".join(blocks)


@cache
def full_rules(kind: str) -> SafeString:
    """The rules file without its title (the page has its own), as safe HTML."""
    source = (settings.BASE_DIR / "seeds" / RULE_FILES[kind]).read_text(encoding="utf-8")
    source = re.sub(r"\A# .*\n", "", source)
    return mark_safe(markdown_to_html(source, first_level=3))  # noqa: S308 - every text was escaped above
