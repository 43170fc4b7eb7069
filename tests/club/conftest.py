"""Fixtures for the club tests: a real Mosquitto broker on 127.0.0.1 (tests/club/broker.py)."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.ui.club.config import BrokerSettings
from tablekeeper.ui.club.league import League

from .broker import Broker, available

#: Passwords the tests' broker knows: the league and a few tables.
USERS = {"league": "league-pw", **{f"mesa-{i}": f"pw-{i}" for i in range(1, 5)}}


def one_broker(folder: Path) -> Iterator[Broker]:
    """A real broker in ``folder`` for as long as the fixture that yields from this lives."""
    if not available():
        pytest.fail("mosquitto is not installed: run tests/sysdeps.sh as root (make test does)")
    with Broker(folder, USERS) as b:
        yield b


def league_broker(broker: Broker, client_id: str | None = None) -> BrokerSettings:
    """The league's settings for ``broker``: a client id of its own unless given (a fresh session)."""
    return BrokerSettings(broker.host, broker.port, "league", USERS["league"],
                          client_id=client_id or f"league-{uuid.uuid4().hex[:12]}")


def listening_league(db: Path, broker: Broker) -> League:
    """A league started on ``broker`` and listening to the tables (its subscriptions granted)."""
    from .fake_table import wait_for  # it reads USERS from here

    lg = League(db, league_broker(broker)).start()
    wait_for(lambda: lg.connected, what="the league to connect")
    return lg


@pytest.fixture
def broker(tmp_path):
    """A broker of the test's own (a test that kills or restarts it); modules that only use one share
    theirs (``one_broker`` in a module-scoped fixture: starting one costs a third of a second)."""
    yield from one_broker(tmp_path / "broker")


def pytest_collection_modifyitems(config, items):
    """A test with a real broker is end to end (a Mosquitto process, real clients): the full suite's,
    not ``make check``'s — the fast tier keeps the contract's and the catalogs' checks."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here not in Path(item.path).resolve().parents:
            continue  # a conftest's hook sees every test of the session
        if "broker" in getattr(item, "fixturenames", ()) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
