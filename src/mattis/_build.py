"""Which core modules the optional compiled build holds (read by setup.py and by the
import switch in ``mattis/__init__.py``; this file is never compiled and imports only
the standard library)."""

import hashlib
from pathlib import Path

COMPILED: tuple[str, ...] = (
    "cards", "moves", "vocabulary", "rules", "legal", "state", "observation", "layout", "determinize", "batch",
)
"""The modules of ``mattis.core`` compiled with mypyc when a C compiler is present."""

GROUP: str = "mattis_core"
"""The name of the shared library mypyc builds for them (``mattis_core__mypyc``)."""

STAMP: str = "_compiled_from.txt"
"""Written next to the compiled modules by the build: ``<module> <hash of its source>``
per line, so that a module edited since the build runs from its source."""


def source_hash(path: Path) -> str:
    """The hash of a source file that the build records."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
