"""Playing in the terminal: the Textual card table and the plain line mode.

:class:`~mattis.tui.session.Session` is the referee (it holds the game and asks
the bots); the front ends see only the human seat's observation.
"""

from .session import Session, default_save_path

__all__ = ["Session", "default_save_path"]
