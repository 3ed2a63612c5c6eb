"""The player's settings, remembered between sittings: language, rules and house
rules, bot levels, bot speed and the player's name.

They live in ``$XDG_CONFIG_HOME/mattis/settings.json`` (``~/.config/mattis/...``).
A missing file gives the defaults; a broken one gives the defaults too and is left
as it is (:func:`load_settings` never overwrites; only :func:`save_settings` writes,
atomically).  ``mattis play`` flags override the file for that run.

>>> s = Settings(lang="en", overrides={"sequences": "2"})
>>> settings_from_json(settings_to_json(s)) == s
True
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import PRESETS, Rules, RulesError, parse_overrides, preset
from ..core.cards import Lang
from ..core.text import say
from ..play import atomic_write
from ..play.agents import DEFAULT_LEVEL
from ..play.saving import os_error_words

USUAL_DELAY = 0.8
"""Seconds per bot move at the usual pace of the terminal table (a setting's ``None``)."""

LEVELS = ("easy", "medium", "hard", "expert")
"""The bot levels a player chooses from."""


class SettingsError(ValueError):
    """Settings that do not make a game, or a settings file that does not read: the
    reason as a catalogue key (``settings.err.*``) with its values, so that it can be
    said in either language (:meth:`words`); ``str()`` is the English."""

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(say(key, "en", **values))

    def words(self, lang: Lang) -> str:
        """The reason in ``lang``."""
        return say(self.key, lang, **self.values)


@dataclass(frozen=True)
class Settings:
    """What ``mattis play`` starts with when no flag says otherwise."""

    lang: Lang = "nb"
    rules: str = "mattis"
    """The preset's name."""
    overrides: dict[str, str] = field(default_factory=dict)
    """House rules: option -> value as spelled after ``--set option=``."""
    players: int = 3
    bots: str = DEFAULT_LEVEL
    """One level for every bot, or a comma list with one level per bot seat."""
    delay: float | None = None
    """Seconds per bot move (``None``: the front end's default pace)."""
    name: str = ""
    """The player's name ("": "Du"/"You")."""

    def make_rules(self) -> Rules:
        """The rule set these settings name (raises :class:`SettingsError`, a
        :class:`RulesError` too, if they do not make one, or do not allow :attr:`players`)."""
        try:
            rules = preset(self.rules, **parse_overrides([f"{k}={v}" for k, v in self.overrides.items()]))
        except RulesError:
            if self.rules not in PRESETS:
                raise _RulesSettingsError("settings.err.rules", rules=self.rules) from None
            raise _RulesSettingsError("settings.err.house", players=self.players) from None
        allowed = rules.allowed_players()
        if self.players not in allowed:
            raise _RulesSettingsError("settings.err.players", rules=rules.name.capitalize(), low=allowed.start,
                                      high=allowed.stop - 1, players=self.players)
        try:
            rules.check_players(self.players)
        except RulesError:
            raise _RulesSettingsError("settings.err.house", players=self.players) from None
        return rules

    def bot_levels(self) -> list[str]:
        """One level per bot seat (seats 1 .. players-1); raises :class:`SettingsError`
        (a ``ValueError``) when the list does not fit the number of players or names an
        unknown level."""
        wanted = [w.strip().lower() for w in self.bots.split(",") if w.strip()]
        if len(wanted) == 1:
            wanted = wanted * (self.players - 1)
        if len(wanted) != self.players - 1:
            raise SettingsError("settings.err.level_count", levels=len(wanted), bots=self.players - 1)
        for level in wanted:
            if level not in LEVELS:
                raise SettingsError("settings.err.level", level=level, levels=", ".join(LEVELS))
        return wanted

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)


class _RulesSettingsError(SettingsError, RulesError):
    """Settings whose rules do not make a game (both a :class:`SettingsError` and, as
    :meth:`Settings.make_rules` always raised, a :class:`RulesError`)."""


def settings_path() -> Path:
    """``$XDG_CONFIG_HOME/mattis/settings.json`` (``~/.config/mattis/settings.json``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "mattis" / "settings.json"


def settings_to_json(settings: Settings) -> dict[str, Any]:
    return {"lang": settings.lang, "rules": settings.rules, "overrides": dict(settings.overrides),
            "players": settings.players, "bots": settings.bots, "delay": settings.delay,
            "name": settings.name}


def settings_from_json(data: Any) -> Settings:
    """Settings from JSON data; raises :class:`SettingsError` saying what is wrong.
    Unknown keys are ignored (a newer version may have written them)."""
    if not isinstance(data, dict):
        raise SettingsError("settings.err.object")
    default = Settings()
    lang = data.get("lang", default.lang)
    if lang not in ("nb", "en"):
        raise SettingsError("settings.err.lang", value=repr(lang)[:40])
    rules = data.get("rules", default.rules)
    if not isinstance(rules, str) or rules not in PRESETS:
        raise SettingsError("settings.err.rules", rules=repr(rules)[:40])
    overrides = data.get("overrides", {})
    if not isinstance(overrides, dict) or not all(isinstance(k, str) for k in overrides):
        raise SettingsError("settings.err.overrides")
    players = data.get("players", default.players)
    if not isinstance(players, int) or isinstance(players, bool):
        raise SettingsError("settings.err.players_number")
    bots = data.get("bots", default.bots)
    if not isinstance(bots, str):
        raise SettingsError("settings.err.bots")
    delay = data.get("delay", default.delay)
    if delay is not None and (not isinstance(delay, (int, float)) or isinstance(delay, bool) or delay < 0):
        raise SettingsError("settings.err.delay")
    name = data.get("name", default.name)
    if not isinstance(name, str):
        raise SettingsError("settings.err.name")
    settings = Settings(lang=lang, rules=rules, overrides={k: str(v) for k, v in overrides.items()},
                        players=players, bots=bots, delay=None if delay is None else float(delay),
                        name=name.strip()[:20])
    settings.make_rules()
    settings.bot_levels()
    return settings


def read_settings(path: Path | None = None, lang: Lang = "en") -> tuple[Settings, str | None]:
    """The settings and, when the file is broken, why in ``lang`` (the defaults are
    returned then, and the file is left untouched)."""
    p = path or settings_path()
    if p.exists() and not p.is_file():
        return Settings(), say("settings.err.not_file", lang, path=str(p))
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), None
    except UnicodeDecodeError:
        return Settings(), say("settings.err.not_text", lang, path=str(p))
    except OSError as e:
        return Settings(), say("settings.err.cannot_read", lang, path=str(p), why=os_error_words(e, lang))
    try:
        data = json.loads(text)
    except ValueError:
        return Settings(), say("settings.err.not_json", lang, path=str(p))
    except RecursionError:  # JSON nested thousands deep
        return Settings(), say("settings.err.deep", lang, path=str(p))
    try:
        return settings_from_json(data), None
    except SettingsError as e:
        return Settings(), f"{p}: {e.words(lang)}"


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings (missing or broken file: the defaults; a broken file is never
    overwritten here)."""
    return read_settings(path)[0]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (one older generation is kept as ``settings.1.json``)."""
    atomic_write(path or settings_path(), json.dumps(settings_to_json(settings), ensure_ascii=False, indent=1),
                 keep=1)


__all__ = ["LEVELS", "USUAL_DELAY", "Settings", "SettingsError", "load_settings", "read_settings", "save_settings",
           "settings_path"]
