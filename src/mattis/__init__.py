"""mattis: the Mattis family of Nordic card games (Mattis, Hund, Blodmattis, Skitgubbe)."""

from .core import *  # noqa: F403
from .core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
