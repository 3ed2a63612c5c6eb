"""The web server is split by job: no module of mattis.web imports another in a circle (at
run time, inside a function or for type checking alike), none is over :data:`MAX_LINES`
lines, and no two of its classes share a name (one ``Hub`` at most)."""

from __future__ import annotations

import ast
from pathlib import Path

import mattis.web

WEB = Path(mattis.web.__file__).parent
MAX_LINES = 400


def _modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(WEB.glob("*.py"))}


def _imports(tree: ast.Module, names: set[str]) -> set[str]:
    """The mattis.web modules a module's code imports, wherever the import statement is."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:  # from .x import y / from . import x
                if node.module:
                    out.add(node.module.split(".")[0])
                else:
                    out.update(a.name for a in node.names)
            elif node.level == 2 and node.module and node.module.startswith("web"):
                rest = node.module.split(".")[1:]
                out.update(rest[:1] or [a.name for a in node.names])
            elif node.level == 0 and node.module and node.module.startswith("mattis.web"):
                rest = node.module.split(".")[2:]
                out.update(rest[:1] or [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names
                       if a.name.startswith("mattis.web.") and len(a.name.split(".")) > 2)
    return {m for m in out if m in names and m != "__init__"}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle in the graph (the modules in order, the first repeated at the end), or ``None``."""
    state: dict[str, int] = {}  # 1: being visited, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for other in sorted(graph[node]):
            if state.get(other) == 1:
                return [*path[path.index(other):], other]
            if other not in state:
                found = visit(other)
                if found is not None:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found is not None:
                return found
    return None


def test_no_web_module_imports_another_in_a_circle() -> None:
    trees = _modules()
    graph = {name: _imports(tree, set(trees)) for name, tree in trees.items()}
    circle = _cycle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_circle_finder_finds_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
    tree = ast.parse("from .x import y\ndef f():\n    from . import z\nif T:\n    from mattis.web.w import v\n")
    assert _imports(tree, {"x", "y", "z", "w", "v"}) == {"x", "z", "w"}


def test_every_web_module_is_short() -> None:
    long = {path.name: n for path in sorted(WEB.glob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"web modules over {MAX_LINES} lines: {long}"


def test_no_two_web_classes_share_a_name() -> None:
    where: dict[str, list[str]] = {}
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(name)
    twice = {cls: mods for cls, mods in where.items() if len(mods) > 1}
    assert twice == {}, f"classes defined more than once in mattis.web: {twice}"
    assert where["Table"] == ["table"] and where["Hub"] == ["hub"]  # the walk finds the classes
