"""Saving games: atomic writes, kept generations, never a lost or clobbered file.

:func:`atomic_write` writes a file so that a crash (or a full disk) leaves either
the old or the new text, never half of one; with ``keep`` it first moves the old
file to ``name.1.json``, ``name.2.json``, ... so several generations survive.  It
never replaces anything that is not a regular file (a device such as ``/dev/full``,
a folder, a socket): :class:`NotARegularFile`.  :func:`set_aside` moves a file that
does not read out of the way under a name no file has, and :func:`os_error_words`
says in a few words why a write failed (a full disk, a read-only disk ...).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from ..core.cards import Lang
from ..core.text import say


class NotARegularFile(OSError):
    """The path names something that is not a regular file (a device, a folder ...);
    nothing is written there."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EEXIST, "not a regular file", str(path))


def is_regular_or_absent(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file or nothing at all (a symbolic link counts as
    what it points to)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return not os.path.islink(path)
    except OSError:
        return False


def atomic_write(path: str | os.PathLike[str], text: str, keep: int = 0) -> Path:
    """Write ``text`` to ``path`` atomically (a temporary file, then a rename),
    keeping the ``keep`` previous versions as ``<stem>.1<suffix>`` (newest) ...
    ``<stem>.<keep><suffix>``.  Returns the path.  Raises :class:`OSError` (the file
    that was there is untouched then), :class:`NotARegularFile` when ``path`` is not
    a regular file."""
    p = Path(path)
    if not is_regular_or_absent(p):
        raise NotARegularFile(p)
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


def set_aside(path: Path, label: str = "broken") -> Path:
    """Move ``path`` to ``<name>.<label>`` (``<name>.<label>-2``, ... when that is
    taken: an earlier file set aside is never overwritten); returns where it went."""
    target = path.with_name(f"{path.name}.{label}")
    n = 2
    while target.exists() or target.is_symlink():
        target = path.with_name(f"{path.name}.{label}-{n}")
        n += 1
    os.rename(path, target)
    return target


_ERRNO_WORDS = {errno.ENOSPC: "oserr.nospace", errno.EDQUOT: "oserr.nospace", errno.EROFS: "oserr.readonly",
                errno.EACCES: "oserr.access", errno.EPERM: "oserr.access", errno.ENOENT: "oserr.missing",
                errno.ENOTDIR: "oserr.missing", errno.EIO: "oserr.io", errno.ENAMETOOLONG: "oserr.too_long",
                errno.ELOOP: "oserr.loop", errno.EISDIR: "oserr.notfile"}


def os_error_words(e: OSError, lang: Lang = "en") -> str:
    """Why a write failed, in a few words in ``lang`` ("the disk is full")."""
    if isinstance(e, NotARegularFile) or isinstance(e, IsADirectoryError):
        return say("oserr.notfile", lang)
    key = _ERRNO_WORDS.get(e.errno or 0)
    if key is not None:
        return say(key, lang)
    # a rarer error: its code (EXDEV), never the system's English sentence inside another language
    return say("oserr.other", lang, code=errno.errorcode.get(e.errno or 0) or type(e).__name__)
