"""Fixtures for the club tests: a real Mosquitto broker on 127.0.0.1 (tests/club/broker.py)."""
from __future__ import annotations

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
