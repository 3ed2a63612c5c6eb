"""Statistics across sittings: every finished game against bots, stored locally.

One entry per game in ``$XDG_DATA_HOME/mattis/stats.json``
(``~/.local/share/mattis/stats.json``): the rule set (preset and whether house rules
were in force), the players, the bot levels, whether the player lost (and whether as
Blodmattis), the player's place and how many moves were taken back.  The session
records a game when it ends (:func:`record_game`); the in-game screen and ``mattis
stats`` show :func:`stats_lines`.  A broken file (not JSON, not a statistics file, or
an entry that does not read) is never overwritten nor thinned out: when the next game
is recorded it is set aside as ``stats.json.broken`` (``.broken-2`` ... when that is
taken), a new one is started, and the session says so in a line; ``mattis stats``
reading it says so in one line and leaves it alone (:func:`read_results`).
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..core.cards import Lang
from ..core.text import say
from ..play import atomic_write
from ..play.saving import NotARegularFile, os_error_words, set_aside

MAX_STATS_BYTES = 64 * 1024 * 1024
"""The largest statistics file read (a game's entry is about 200 bytes)."""


@dataclass(frozen=True)
class GameResult:
    """One finished game, as the statistics keep it."""

    rules: str
    """The preset's name."""
    house_rules: bool
    """Whether some option differed from the preset."""
    players: int
    bots: str
    """The bot levels, one level or a comma list (``"medium"``, ``"easy,expert"``)."""
    lost: bool
    blodmattis: bool = False
    place: int | None = None
    """The player's place among those who went out (``None``: lost, or not ranked)."""
    take_backs: int = 0
    when: float = 0.0
    """Seconds since the epoch."""


def stats_path() -> Path:
    """``$XDG_DATA_HOME/mattis/stats.json`` (``~/.local/share/mattis/stats.json``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "mattis" / "stats.json"


def _from_json(item: Any) -> GameResult | None:
    """One stored entry, or ``None`` when it does not read as one."""
    if not isinstance(item, dict) or not all(k in item for k in ("rules", "house_rules", "players", "bots", "lost")):
        return None
    try:
        result = GameResult(**{k: item[k] for k in GameResult.__dataclass_fields__ if k in item})
    except TypeError:
        return None
    ok = (isinstance(result.rules, str) and isinstance(result.house_rules, bool) and whole(result.players)
          and isinstance(result.bots, str) and isinstance(result.lost, bool) and isinstance(result.blodmattis, bool)
          and (result.place is None or whole(result.place)) and whole(result.take_backs)
          and isinstance(result.when, (int, float)) and not isinstance(result.when, bool))
    return result if ok else None


def whole(x: object) -> bool:
    """A whole number (not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


class StatsFileError(ValueError):
    """The statistics file does not read: the reason as a catalogue key
    (``stats.err.*``), said in either language by :meth:`words`; ``str()`` is the English."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(say(key, "en"))

    def words(self, lang: Lang) -> str:
        """The reason in ``lang``."""
        return say(self.key, lang)


def read_results(path: Path | None = None) -> list[GameResult]:
    """Every stored result; a missing file: none.  Raises :class:`StatsFileError`
    when the file is there but does not read whole (not JSON, not a statistics file,
    an entry that is not a game), and :class:`OSError` when it cannot be read."""
    p = path or stats_path()
    if not p.exists() and not p.is_symlink():
        return []
    if not p.is_file():
        raise StatsFileError("stats.err.not_file")
    if p.stat().st_size > MAX_STATS_BYTES:
        raise StatsFileError("stats.err.too_large")
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        return []
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise StatsFileError("stats.err.not_json") from None
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list):
        raise StatsFileError("stats.err.not_stats")
    results = [_from_json(g) for g in games]
    if any(r is None for r in results):
        raise StatsFileError("stats.err.entry")
    return [r for r in results if r is not None]


def load_results(path: Path | None = None) -> list[GameResult]:
    """Every stored result (a missing or unreadable file: none)."""
    try:
        return read_results(path)
    except (OSError, StatsFileError):
        return []


def record_game(result: GameResult, path: Path | None = None) -> Path | None:
    """Add one finished game to the statistics (atomically).  A file that does not
    read whole is first set aside (``<name>.broken``, never overwritten) and a new one
    started; returns where it went then (``None``: nothing was set aside).  Raises
    :class:`OSError` when the file cannot be read or written (it is untouched then)."""
    p = path or stats_path()
    aside: Path | None = None
    try:
        results = read_results(p)
    except StatsFileError:
        if not p.is_file():
            raise NotARegularFile(p) from None
        results = []
        aside = set_aside(p)
    if not result.when:
        result = GameResult(**{**asdict(result), "when": time.time()})
    results.append(result)
    atomic_write(p, json.dumps({"version": 1, "games": [asdict(r) for r in results]}, ensure_ascii=False))
    return aside


def _loser_word(rules: str, lang: Lang) -> str:
    return say("loser.skitgubbe" if rules == "skitgubbe" else "loser.mattis", lang)


def stats_lines(lang: Lang, path: Path | None = None) -> list[str]:
    """The statistics in words: games played and lost in all, then per rule set and per
    bot level (what the in-game screen and ``mattis stats`` show)."""
    p = path or stats_path()
    try:
        results = read_results(p)
    except (OSError, StatsFileError) as e:
        why = e.words(lang) if isinstance(e, StatsFileError) else os_error_words(e, lang)
        return [say("stats.unreadable", lang, path=str(p), why=why)]
    if not results:
        return [say("stats.none", lang)]
    lines = [say("stats.total", lang, games=len(results), lost=sum(r.lost for r in results))]
    blod = sum(r.blodmattis for r in results)
    if blod:
        lines.append(say("stats.blodmattis", lang, n=blod))
    lines.append("")
    lines.append(say("stats.by_rules", lang))
    played = Counter(r.rules + ("*" if r.house_rules else "") for r in results)
    lost = Counter(r.rules + ("*" if r.house_rules else "") for r in results if r.lost)
    for key in sorted(played):
        name = key.rstrip("*")
        label = name.capitalize()
        if key.endswith("*"):
            label += " " + say("stats.house", lang)
        lines.append(say("stats.row", lang, label=label, games=played[key], lost=lost[key],
                         loser=_loser_word(name, lang)))
    lines.append("")
    lines.append(say("stats.by_bots", lang))
    played = Counter(r.bots for r in results)
    lost = Counter(r.bots for r in results if r.lost)
    for key in sorted(played):
        label = ", ".join(say(f"level.{b}", lang) if f"level.{b}" in _keys() else b for b in key.split(","))
        lines.append(say("stats.row_bots", lang, label=label, games=played[key], lost=lost[key]))
    return lines


def _keys() -> frozenset[str]:
    from ..core.catalogue import TEXT

    return frozenset(TEXT)


__all__ = ["GameResult", "StatsFileError", "load_results", "read_results", "record_game", "stats_lines",
           "stats_path"]
