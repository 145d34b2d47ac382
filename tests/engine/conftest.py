"""The engine's tests: pure Python, no database (tests/engine/test_purity.py keeps
Django out of the engine), so each is marked ``once``: what it checks is the same on
any database, and .ci/run's PostgreSQL pass skips it."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_itemcollected(item: pytest.Item) -> None:
    if HERE in Path(item.path).resolve().parents:
        item.add_marker(pytest.mark.once)
