"""Fixtures for the club tests: a real Mosquitto broker on 127.0.0.1 (tests/club/broker.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from .broker import Broker, available

#: Passwords the tests' broker knows: the league and a few tables.
USERS = {"league": "league-pw", **{f"mesa-{i}": f"pw-{i}" for i in range(1, 5)}}


@pytest.fixture
def broker(tmp_path):
    if not available():
        pytest.fail("mosquitto is not installed: run tests/sysdeps.sh as root (make test does)")
    with Broker(tmp_path / "broker", USERS) as b:
        yield b


def pytest_collection_modifyitems(config, items):
    """A test with a real broker is end to end (a Mosquitto process, real clients): the full suite's,
    not ``make check``'s — the fast tier keeps the contract's and the catalogs' checks."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here not in Path(item.path).resolve().parents:
            continue  # a conftest's hook sees every test of the session
        if "broker" in getattr(item, "fixturenames", ()) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
