"""The terminal UI's words: a thin view on the one catalogue
(:data:`mattis.core.catalogue.TEXT`).

The game's own terms keep their Norwegian names; in English each comes with a
gloss ("stikk (trick)").

>>> t("nb", "turn.other", name="Bjørn")
'Bjørn er i tur'
>>> t("en", "term.stoting")
'støting (clash)'
"""

from __future__ import annotations

from typing import Final

from ..core.cards import Lang
from ..core.catalogue import TERM_KEYS, TEXT

LANGS: Final[tuple[Lang, ...]] = ("nb", "en")

#: Every catalogue string by language: ``STRINGS[lang][key]``.
STRINGS: Final[dict[Lang, dict[str, str]]] = {
    "nb": {key: nb for key, (nb, _en) in TEXT.items()},
    "en": {key: en for key, (_nb, en) in TEXT.items()},
}


def _explanation(key: str) -> str:
    word = TEXT[f"term.{key}"][0]
    return TEXT[f"gloss.{key}"][0].removeprefix(word + ": ")


#: The rule terms, in glossary order: (Norwegian name, Norwegian explanation, English with gloss).
TERMS: Final[dict[str, tuple[str, str, str]]] = {
    key: (TEXT[f"term.{key}"][0], _explanation(key), TEXT[f"gloss.{key}"][1]) for key in TERM_KEYS
}


def t(lang: Lang, key: str, **values: object) -> str:
    """The catalogue's string ``key`` in ``lang``, with ``{placeholders}`` filled in."""
    text = STRINGS[lang][key]
    return text.format(**values) if values else text


def has(lang: Lang, key: str) -> bool:
    """Whether the catalogue has ``key`` (in every language it has both)."""
    return key in STRINGS[lang]


__all__ = ["LANGS", "STRINGS", "TERMS", "Lang", "has", "t"]
