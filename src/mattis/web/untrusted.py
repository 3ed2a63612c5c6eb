"""What comes from a client, read safely: JSON with bounded numbers and nesting (:func:`loads`;
what it refuses raises a :class:`json.JSONDecodeError`, like any other bad JSON), no input
echoed back longer than a few dozen characters (:func:`clip`), and the language a refusal
is said in."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any, Final


class BadJson(json.JSONDecodeError):
    """JSON this server does not read: a number too long, nesting too deep, NaN."""


MAX_DIGITS: Final = 30
MAX_DEPTH: Final = 12


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise BadJson("number too long", text[:MAX_DIGITS], 0)
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise BadJson("number too long", text[:MAX_DIGITS], 0)
    value = float(text)
    if not math.isfinite(value):
        raise BadJson("number out of range", text[:MAX_DIGITS], 0)
    return value


def _constant(text: str) -> Any:
    raise BadJson("not a JSON number", text, 0)


def _depth(obj: Any, level: int = 0) -> None:
    if level > MAX_DEPTH:
        raise BadJson("nesting too deep", "", 0)
    if isinstance(obj, dict):
        for v in obj.values():
            _depth(v, level + 1)
    elif isinstance(obj, list):
        for v in obj:
            _depth(v, level + 1)


def loads(text: str | bytes) -> Any:
    """``json.loads`` for untrusted input: numbers of at most 30 characters, finite, no NaN,
    at most 12 levels deep.  Anything else raises :class:`json.JSONDecodeError` (or
    :class:`UnicodeDecodeError` for bytes that are not UTF-8), never another error."""
    try:
        obj = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise BadJson("nesting too deep", "", 0) from None
    _depth(obj)
    return obj


def clip(value: object, limit: int = 120) -> object:
    """A value to be written into a message (a string from a client, an error that quotes
    one), cut to ``limit`` characters with an ellipsis; numbers and short values unchanged."""
    if isinstance(value, int | float):
        return value
    text = str(value)
    return text[:limit] + "…" if len(text) > limit else value


def words(key: str, lang: str) -> str:
    """A catalogue text (the guard's refusals are ``web.refused.*``)."""
    from ..core.text import say

    return say(key, "nb" if lang == "nb" else "en")


def lang_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """``nb`` if the browser's first language is Norwegian, else ``en``."""
    for name, value in headers:
        if name == b"accept-language":
            first = value.decode("latin-1").split(",")[0].strip().lower()
            return "nb" if first[:2] in ("nb", "no", "nn") else "en"
    return "en"

