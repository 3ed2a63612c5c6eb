"""What a client does to its own connection (drops it mid-handshake, resets it, sends a text
frame that is not UTF-8) is logged as one line at debug level, never as a traceback
(:func:`quiet_network_events`)."""

from __future__ import annotations

import logging
from typing import Final

from .untrusted import clip


def network_event(exc: BaseException | None) -> bool:
    """Whether ``exc`` is something a client did to its own connection: a reset or a broken
    pipe, or a text frame that is not UTF-8 (as uvicorn's WebSocket protocol finds it); a
    decoding error in the app's own code is not one."""
    if isinstance(exc, ConnectionError):
        return True
    if not isinstance(exc, UnicodeDecodeError):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and str(tb.tb_frame.f_globals.get("__name__", "")).startswith("uvicorn.protocols.")


class NetworkEvents(logging.Filter):
    """Turns a record whose exception is a :func:`network_event` into one line at
    debug level (without the traceback), shown only where debug is on; other records pass
    as they are."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not network_event(exc):
            return True
        text = record.getMessage().strip()
        record.msg = f"{text} ({type(exc).__name__}: {clip(str(exc))})"
        record.args = None
        record.exc_info = record.exc_text = None
        record.stack_info = None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


SERVER_LOGGERS: Final = ("uvicorn.error", "uvicorn.asgi", "websockets.server", "websockets.protocol", "asyncio")
"""The loggers through which uvicorn, websockets and asyncio report a connection's end."""


def quiet_network_events() -> None:
    """Install :class:`NetworkEvents` on the server's loggers (once; after uvicorn has
    configured its logging)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, NetworkEvents) for f in logger.filters):
            logger.addFilter(NetworkEvents())

