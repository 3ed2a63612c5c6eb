"""The test tiers.

``python -m pytest`` runs the fast tier: every behaviour, with small property
runs (a few minutes on two cores).  ``python -m pytest --slow`` (what CI runs)
adds the slow tier: the 6,000-game property runs and the statistical bot
ladders (tests marked ``slow``), and scales the property runs up
(:mod:`tiers`).
"""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the slow tier (what CI runs)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: the slow tier (large property runs, statistical bot ladders)")
    if config.getoption("--slow"):
        os.environ["MATTIS_SLOW"] = "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow") or os.environ.get("MATTIS_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow tier: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
