"""Doctests of the compiled core's modules.

``--doctest-modules`` collects ``src/mattis/core/*.py``; where those modules run
compiled (mypyc, see setup.py), the imported module is not the ``.py`` file and pytest
refuses it, so they are not collected then.  Their doctests run on the pure core
(``MATTIS_PURE=1``, as CI's second pass does).
"""

from __future__ import annotations

from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent / "src" / "mattis" / "core"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix != ".py" or collection_path.resolve().parent != CORE:
        return None
    from mattis._build import COMPILED
    from mattis.core import build_kind

    if collection_path.stem in COMPILED and build_kind() == "compiled":
        return True
    return None
