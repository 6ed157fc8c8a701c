"""The `long` marker: tests of minutes, left out of the normal run (which
stays within a few minutes) and run with ``pytest --long``."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", help="also run the tests marked long (minutes each)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="marked long: run with --long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
