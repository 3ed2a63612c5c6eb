"""Doctests of every package.

``--doctest-modules`` collects ``src/mattis/**/*.py``.  Where the core's hot modules
run compiled (mypyc, see setup.py), the imported module is not the ``.py`` file and
pytest refuses it, so they are not collected then; their doctests run on the pure core
(``MATTIS_PURE=1``, as CI's second pass does).  A module that needs an optional extra
which is not installed (textual, fastapi, gymnasium, ...) is left out rather than
breaking the collection.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent / "src"
CORE = SRC / "mattis" / "core"


def _needs_missing_extra(path: Path) -> bool:
    """Whether importing the package module at ``path`` fails for want of a third-party
    package (an optional extra)."""
    import importlib

    name = ".".join(path.resolve().relative_to(SRC).with_suffix("").parts)
    if name.endswith(".__init__"):
        name = name[: -len(".__init__")]
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as e:
        return not (e.name or "").startswith("mattis")
    return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix != ".py":
        return None
    if SRC in collection_path.resolve().parents and collection_path.resolve().parent != CORE:
        return True if _needs_missing_extra(collection_path) else None
    if collection_path.resolve().parent != CORE:
        return None
    from mattis._build import COMPILED
    from mattis.core import build_kind

    if collection_path.stem in COMPILED and build_kind() == "compiled":
        return True
    return None
