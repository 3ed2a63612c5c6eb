"""mattis: the Mattis family of Nordic card games (Mattis, Hund, Blodmattis, Skitgubbe)."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType

from ._build import COMPILED as _COMPILED
from ._build import STAMP as _STAMP
from ._build import source_hash as _source_hash


def _choose_core() -> str:
    """Whether to run the compiled core (mypyc, see setup.py) or its Python source,
    and why: the words ``mattis bench`` prints.  This file is never compiled.

    The compiled modules run only all together, when every one is built from the
    source next to it (the build records a hash of each); otherwise (or with ``MATTIS_PURE=1``) a finder loads every
    one of them from its ``.py`` file, so one install runs and tests both ways."""
    core = Path(__file__).resolve().parent / "core"
    built: dict[str, Path] = {}
    for name in _COMPILED:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = core / f"{name}{suffix}"
            if path.exists():
                built[name] = path
                break
    if not built:
        return "pure Python (no compiled build installed)"
    if os.environ.get("MATTIS_PURE") == "1":
        return "pure Python (MATTIS_PURE=1)"
    if len(built) < len(_COMPILED):
        missing = ", ".join(sorted(set(_COMPILED) - set(built)))
        why = f"pure Python (the compiled build lacks {missing})"
    else:
        stamp = core / _STAMP
        recorded = dict(line.split() for line in stamp.read_text().splitlines()) if stamp.exists() else {}
        stale = [n for n in _COMPILED
                 if (core / f"{n}.py").exists() and recorded.get(n) != _source_hash(core / f"{n}.py")]
        if not stale:
            return "compiled (mypyc)"
        why = f"pure Python (the source of {', '.join(stale)} changed since the compiled build: rebuild it)"
    warnings.warn(f"mattis: running the {why}", RuntimeWarning, stacklevel=2)
    return why


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the compiled core modules from their Python source instead."""

    def __init__(self, core: Path) -> None:
        self.core = core

    def find_spec(self, fullname: str, path: object = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != "mattis.core" or name not in _COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, self.core / f"{name}.py")


CORE_BUILD = _choose_core()
"""Which core runs, in words: ``compiled (mypyc)`` or ``pure Python (why)``."""
if not CORE_BUILD.startswith("compiled"):
    sys.meta_path.insert(0, _SourceFinder(Path(__file__).resolve().parent / "core"))

from .core import *  # noqa: E402, F403
from .core import __all__ as _core_all  # noqa: E402

__version__ = "0.1.0"
__all__ = [*_core_all, "CORE_BUILD", "__version__"]
