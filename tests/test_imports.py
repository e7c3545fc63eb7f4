"""No import circle among the project's modules: a module never imports, even inside a function, a
module that imports it back. Services stay below the tasks that call them (tasks are queued by name),
and games reaches notifications through one function, never its channels."""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def project_modules() -> dict[str, Path]:
    packages = ["config"] + [app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT]
    modules = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_by(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports, anywhere in it (a package counts as its __init__)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_one_that_imports_it_back():
    modules = project_modules()
    graph = {name: imported_by(name, path, modules) for name, path in modules.items()}
    assert "notifications.outbox" in graph and "games.services" in graph
    assert circles(graph) == []


def test_the_checker_sees_a_circle_made_inside_a_function():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_games_notifies_through_the_outbox_and_never_touches_a_channel():
    modules = project_modules()
    for name, path in modules.items():
        if name.startswith("games."):
            imported = imported_by(name, path, modules)
            assert not {m for m in imported if m.startswith("notifications.channels")}, name
        if name.startswith("notifications."):
            assert "games.services" not in imported_by(name, path, modules), name
