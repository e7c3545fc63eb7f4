"""axe-core (as the axe-playwright-python package ships it) run inside a page: the list of its violations."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def axe_violations(page) -> list[dict]:
    """Each violation as {id, impact, targets}; evaluated through the DevTools protocol, so the page's
    strict CSP needs no exception for it."""
    return page.evaluate(
        "async (source) => {"
        "  if (!window.axe) { (0, eval)(source); }"
        "  const result = await window.axe.run(document, {resultTypes: ['violations']});"
        "  return result.violations.map(v => ({id: v.id, impact: v.impact,"
        "    targets: v.nodes.map(n => n.target.join(' '))}));"
        "}",
        axe_source(),
    )
