"""The rules engine is pure Python: no framework, no I/O, no clock, no global random."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN = {
    "django", "rest_framework", "celery", "kombu", "redis", "psycopg", "requests", "urllib", "http",
    "socket", "os", "sys", "io", "pathlib", "time", "datetime", "logging", "threading", "subprocess",
}  # fmt: skip
MODULES = sorted(ENGINE.glob("*.py"))


def imported_roots(tree: ast.AST) -> set[str]:
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_engine_module_imports_a_framework_or_does_io(module):
    tree = ast.parse(module.read_text())
    assert imported_roots(tree) & FORBIDDEN == set()


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_randomness_only_comes_from_seeded_generators(module):
    """random.Random(seed) is fine; random.shuffle, random.choice ... on the global generator are not."""
    tree = ast.parse(module.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            assert node.attr == "Random", f"{module.name}:{node.lineno} uses random.{node.attr}"


def test_importing_the_engine_loads_no_framework():
    code = (
        "import sys, games.engine, games.engine.scat, games.engine.scattle, games.engine.bots;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'});"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parents[1])
    assert result.returncode == 0, result.stdout + result.stderr
