"""docs/architecture.md draws the layers core < bots < play < lab < tui, web, rl < cli:
no module imports a layer above its own (nor another front end), at run time or for
type checking."""

from __future__ import annotations

import ast
from pathlib import Path

import mattis

LEVEL = {"core": 0, "bots": 1, "play": 2, "lab": 3, "tui": 4, "web": 4, "rl": 4, "cli": 5}
ROOT = Path(mattis.__file__).parent


def _imported(path: Path, package: str) -> set[str]:
    """The mattis subpackages ``path`` imports."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and node.module.startswith("mattis."):
                out.add(node.module.split(".")[1])
            elif node.level == 1:
                out.add(package)
            elif node.level == 2:
                name = (node.module or "").split(".")[0]
                if name:
                    out.add(name)
                else:
                    out.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names if a.name.startswith("mattis."))
    return {p for p in out if p in LEVEL}


def test_no_package_imports_a_layer_above_it() -> None:
    wrong = []
    for package, level in LEVEL.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            for other in _imported(path, package):
                if other != package and LEVEL[other] >= level:
                    wrong.append(f"{path.relative_to(ROOT)} imports {other}")
    assert wrong == []
