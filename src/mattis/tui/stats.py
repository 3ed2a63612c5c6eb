"""Statistics across sittings: every finished game against bots, stored locally.

One entry per game in ``$XDG_DATA_HOME/mattis/stats.json``
(``~/.local/share/mattis/stats.json``): the rule set (preset and whether house rules
were in force), the players, the bot levels, whether the player lost (and whether as
Blodmattis), the player's place and how many moves were taken back.  The session
records a game when it ends (:func:`record_game`); the in-game screen and ``mattis
stats`` show :func:`stats_lines`.  A broken file is never overwritten: it is set
aside as ``stats.json.broken`` and a new one is started.
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
    if not isinstance(item, dict):
        return None
    try:
        result = GameResult(**{k: item[k] for k in GameResult.__dataclass_fields__ if k in item})
    except TypeError:
        return None
    if not isinstance(result.rules, str) or not isinstance(result.players, int) or not isinstance(result.lost, bool):
        return None
    return result


def load_results(path: Path | None = None) -> list[GameResult]:
    """Every stored result (a missing or unreadable file: none; entries that do not
    read are skipped)."""
    p = path or stats_path()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list):
        return []
    return [r for r in map(_from_json, games) if r is not None]


def record_game(result: GameResult, path: Path | None = None) -> None:
    """Add one finished game to the statistics (atomically; a file that does not read is
    kept as ``<name>.broken`` rather than overwritten)."""
    p = path or stats_path()
    results: list[GameResult] = []
    if p.exists():
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("games"), list):
                raise ValueError("not a statistics file")
            results = [r for r in map(_from_json, data["games"]) if r is not None]
        except (OSError, UnicodeDecodeError, ValueError):
            os.replace(p, p.with_name(p.name + ".broken"))
    if not result.when:
        result = GameResult(**{**asdict(result), "when": time.time()})
    results.append(result)
    atomic_write(p, json.dumps({"version": 1, "games": [asdict(r) for r in results]}, ensure_ascii=False))


def _loser_word(rules: str, lang: Lang) -> str:
    return say("loser.skitgubbe" if rules == "skitgubbe" else "loser.mattis", lang)


def stats_lines(lang: Lang, path: Path | None = None) -> list[str]:
    """The statistics in words: games played and lost in all, then per rule set and per
    bot level (what the in-game screen and ``mattis stats`` show)."""
    results = load_results(path)
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


__all__ = ["GameResult", "load_results", "record_game", "stats_lines", "stats_path"]
