"""The command line's numbers and lists, each checked against a bound.

Every numeric or list argument of every subcommand is read by one of these argparse
types, so a wrong one gives argparse's one line and exit status 2 ("argument --deals:
a whole number from 1 to 100000, not 100000000"), before any work starts: a typo
never grows a run to gigabytes, waits for ever or plays a game nobody asked for.
Cheap to import (the parser is built for every command).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Final

SEED_MAX: Final = 2 ** 63 - 1
"""A seed is a whole number of magnitude below 2**63 (what every generator here takes)."""

MAX_DEALS: Final = 100_000
"""``tournament --deals``: 100,000 deals, every one played once per seat rotation, is
already a run of hours on a large machine; more is a typo."""

MAX_GAMES: Final = 100_000
"""``lab --games``: games per cell."""

MAX_WORKERS: Final = 1024
"""Processes of a run (``--workers``); a Ray cluster may be large, not that large."""

MAX_BUDGET: Final = 100_000
"""``analyze --budget``: playouts per legal move (the terminal and the web use 64;
``--deeper`` multiplies by 16)."""

MAX_MOVES: Final = 100_000
"""A move number (``replay --upto``, ``analyze --decision``): far above any game's
length, which the command checks against the record itself."""

MAX_DELAY: Final = 60.0
"""Seconds between bot moves (``play --delay``)."""

MAX_SECONDS: Final = 3600.0
"""``bench --seconds`` per preset."""

MAX_PLAYERS: Final = 52
"""A player count: the rules say which counts they allow; this only keeps the number sane."""


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi``.

    >>> whole(1, 10)("7")
    7
    >>> whole(1, 10)("11")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: a whole number from 1 to 10, not 11
    """

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number from {lo} to {hi}, not {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"a whole number from {lo} to {hi}, not {value}")
        return value

    parse.__name__ = "whole number"
    return parse


def number(lo: float, hi: float, what: str = "a number") -> Callable[[str], float]:
    """An argparse type: ``what`` from ``lo`` to ``hi`` (never nan or infinite).

    >>> number(0, 60, "a number of seconds")("0.5")
    0.5
    >>> number(0, 60, "a number of seconds")("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: a number of seconds from 0 to 60, not 'nan'
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{what} from {lo:g} to {hi:g}, not {text!r}")
        return value

    parse.__name__ = what
    return parse


def seconds(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``lo`` to ``hi``."""
    return number(lo, hi, "a number of seconds")


def seed(text: str) -> int:
    """An argparse type: a seed, a whole number of magnitude below 2**63.

    >>> seed("-3")
    -3
    >>> seed("abc")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: a seed is a whole number (e.g. 7), not 'abc'
    """
    try:
        value = int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number (e.g. 7), not {text!r}") from None
    if abs(value) > SEED_MAX:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from -{SEED_MAX} to {SEED_MAX}")
    return value


def names(text: str) -> str:
    """An argparse type: a comma-separated list with no empty item ("easy," or "easy,,hard"
    is a typo, not a shorter list); the text itself is returned, stripped.

    >>> names("easy, hard")
    'easy, hard'
    >>> names("easy,")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 'easy,' has an empty item: give names separated by single commas
    """
    items = [w.strip() for w in text.split(",")]
    if not any(items) or not all(items):
        raise argparse.ArgumentTypeError(f"{text!r} has an empty item: give names separated by single commas")
    return text.strip()


def counts(lo: int, hi: int) -> Callable[[str], str]:
    """An argparse type: a comma-separated list of whole numbers from ``lo`` to ``hi``
    (``lab --players 3,4``); the text is returned as given, checked.

    >>> counts(2, 8)("3,4")
    '3,4'
    """

    def parse(text: str) -> str:
        one = whole(lo, hi)
        for item in names(text).split(","):
            try:
                one(item)
            except argparse.ArgumentTypeError as e:
                raise argparse.ArgumentTypeError(f"each item {e}") from None
        return text.strip()

    parse.__name__ = "list of whole numbers"
    return parse


__all__ = ["MAX_BUDGET", "MAX_DEALS", "MAX_DELAY", "MAX_GAMES", "MAX_MOVES", "MAX_PLAYERS", "MAX_SECONDS",
           "MAX_WORKERS", "SEED_MAX", "counts", "names", "number", "seconds", "seed", "whole"]
