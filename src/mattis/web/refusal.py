"""A request refused, in words: :class:`Refusal` (the catalogue's key and parameters, said in
the language of whoever is refused)."""

from __future__ import annotations

from ..core import (
    Illegal,
)
from ..core.cards import Lang
from ..core.text import reason_words, say
from .untrusted import clip


class Refusal(Exception):
    """A request the table refuses: the catalogue key of the reason (``web.refused.<what>``,
    or the engine's ``reason.<code>`` for an illegal move) and its parameters.  The words
    are the catalogue's, in the language of whoever is told (:meth:`text`)."""

    def __init__(self, what: str, **params: object) -> None:
        self._init(f"web.refused.{what}", params)

    def _init(self, key: str, params: dict[str, object]) -> None:
        self.key = key
        self.params = {k: clip(v) for k, v in params.items()}  # no long input echoed back
        super().__init__(self.en)

    @classmethod
    def illegal(cls, illegal: Illegal) -> Refusal:
        """The engine's reason why a move is illegal."""
        refusal = cls.__new__(cls)
        refusal._init(*reason_words(illegal))
        return refusal

    def text(self, lang: Lang) -> str:
        """The reason in ``lang``."""
        return say(self.key, lang, **self.params)

    @property
    def en(self) -> str:
        return self.text("en")

    @property
    def nb(self) -> str:
        return self.text("nb")

