"""Saving games: atomic writes, kept generations, never a lost game.

:func:`atomic_write` writes a file so that a crash leaves either the old or the
new text, never half of one; with ``keep`` it first moves the old file to
``name.1.json``, ``name.2.json``, ... so several generations survive.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: str | os.PathLike[str], text: str, keep: int = 0) -> Path:
    """Write ``text`` to ``path`` atomically (a temporary file, then a rename),
    keeping the ``keep`` previous versions as ``<stem>.1<suffix>`` (newest) ...
    ``<stem>.<keep><suffix>``.  Returns the path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=str(p.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text if text.endswith("\n") else text + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        if keep and p.exists():
            for i in range(keep, 1, -1):
                older = generation(p, i - 1)
                if older.exists():
                    os.replace(older, generation(p, i))
            os.replace(p, generation(p, 1))
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p


def generation(path: Path, i: int) -> Path:
    """The ``i``-th kept older version of ``path`` (1 = the newest)."""
    return path.with_name(f"{path.stem}.{i}{path.suffix}")
