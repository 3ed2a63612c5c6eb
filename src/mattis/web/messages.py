"""The messages a page sends to its table (on the WebSocket, or to the offline app's worker):
each message type, its fields and each field's type, in one table, :data:`MESSAGES`.

:func:`check` holds a message to it strictly, before anything reads the message: an int
field takes a JSON integer only (not ``true``, not ``1.0``, not ``"1"``), a text field a
string, a flag ``true`` or ``false``, a list field a list of the element's type.  A wrong
type is refused in words (``web.refused.not_<kind>``, naming the field and the message),
and the connection stays open.  A field that is absent or ``null`` is not given (what
that means is the handler's business); a field the table does not list is ignored; a
type the table does not list is left to the dispatcher (``unknown_request``).

A new message type or field is one line in :data:`MESSAGES` (the tests send a wrong
value of each field's type to each field listed there).

>>> check({"type": "move", "game": 1, "seq": 4, "move": "play 4C"})
>>> check({"type": "move", "game": True, "seq": 4, "move": "play 4C"})
Traceback (most recent call last):
    ...
mattis.web.refusal.Refusal: "game" in a "move" message must be a whole number
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .refusal import Refusal


@dataclass(frozen=True)
class Kind:
    """A field's type: its name and its test."""

    name: str
    test: Callable[[object], bool]

    def __repr__(self) -> str:
        return self.name.upper()

    @property
    def refusal(self) -> str:
        """The refusal of a value not of this kind (``web.refused.<it>``: field, message)."""
        return f"not_{self.name}"


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # True is an int in Python, not here


INT: Final = Kind("int", _int)
"""A JSON integer."""
TEXT: Final = Kind("text", lambda value: isinstance(value, str))
"""A JSON string."""
FLAG: Final = Kind("flag", lambda value: isinstance(value, bool))
"""``true`` or ``false``."""
TEXTS: Final = Kind("texts", lambda value: isinstance(value, list) and all(isinstance(v, str) for v in value))
"""A list of strings.

>>> TEXTS.test(["4C", "5C"]), TEXTS.test(["4C", 5]), TEXTS.test("4C")
(True, False, False)
"""
KINDS: Final = (INT, TEXT, FLAG, TEXTS)

COMMON: Final[Mapping[str, Kind]] = {"seat": INT}
"""Fields any message may carry: the seat it acts for (refused unless the sender's own)."""

MESSAGES: Final[Mapping[str, Mapping[str, Kind]]] = {
    "hello": {"token": TEXT, "lang": TEXT, "history": FLAG},  # the first, on opening the socket
    "ping": {},  # the page's heartbeat
    "lang": {"lang": TEXT},
    "sync": {"echo": INT},  # "send me the table now", numbered
    "react": {"emote": TEXT},
    "move": {"game": INT, "seq": INT, "move": TEXT},
    "start": {"level": TEXT},
    "rematch": {"game": INT, "level": TEXT},
    "seat": {"at": INT, "kind": TEXT, "level": TEXT},  # the host changes a seat
    "end": {},
    "pause": {"paused": FLAG},
    "skip": {},
    "nudge": {"at": INT},
    "chat": {"text": TEXT},  # a seated player's chat line (mattis.web.chat)
    "mute": {"at": INT, "muted": FLAG},  # the host mutes (or unmutes) a seat's chat
    "hint": {},  # the seat to act asks for a hint (answered to her socket only)
    "undo": {},  # the offline app only: take back the person's last move
}
"""Every message type a page sends, its fields and their types (:func:`check`)."""


def fields(kind: object) -> Mapping[str, Kind]:
    """The fields a message of type ``kind`` may carry ({} for a type not in :data:`MESSAGES`)."""
    if not isinstance(kind, str) or kind not in MESSAGES:
        return {}
    return {**COMMON, **MESSAGES[kind]}


def check(msg: Mapping[str, Any]) -> None:
    """Raise a :class:`~mattis.web.refusal.Refusal` for the first field of ``msg`` (a JSON
    object) whose value is not of its type in :data:`MESSAGES`."""
    kind = msg.get("type")
    for name, field in fields(kind).items():
        value = msg.get(name)
        if value is not None and not field.test(value):
            raise Refusal(field.refusal, field=name, message=kind)
