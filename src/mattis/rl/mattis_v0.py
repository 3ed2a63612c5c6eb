"""PettingZoo's usual entry module: ``from mattis.rl import mattis_v0; env = mattis_v0.env()``."""

from .pettingzoo_env import env, raw_env

__all__ = ["env", "raw_env"]
