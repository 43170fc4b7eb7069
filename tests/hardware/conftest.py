"""A table of mock pods on a fake clock: the session, the rig, the owner (the product's keeper, driven
on the test's thread), and press helpers."""
from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from tablekeeper.engine import Journal, Session, available
from tablekeeper.hardware.buttons import Timing
from tablekeeper.hardware.config import PodsConfig, SeatConfig
from tablekeeper.hardware.face import Care
from tablekeeper.hardware.mock import FakeClock
from tablekeeper.hardware.rig import Rig
from tests.owner import Owner

#: Every game registered now; the four games join as their modules land.
GAMES = sorted(available())
NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]
TIMING = Timing(debounce=0.02, hold_time=0.6, repeat_interval=0.15)
#: No burn-in shift and no dimming unless a test asks: pixels compare 1:1 with the renderer.
STILL = Care(shift_every=0, dim_after=0)


def players_for(game_id: str) -> list[str]:
    cls = available()[game_id]
    n = max(cls.min_players, min(3, cls.max_players))
    return NAMES[:n]


@dataclass
class Table:
    rig: Rig
    owner: Owner
    clock: FakeClock
    reports: list

    @property
    def session(self) -> Session:
        return self.owner.session

    @property
    def seats(self):
        return self.owner.seats

    @property
    def rules(self):
        return self.session.rules

    @property
    def state(self):
        return self.session.state

    def pod(self, seat: int):
        return self.rig.pods[seat]

    def settle(self, seconds: float = 0.0) -> None:
        """Let time pass in small steps (button timers run), then handle every event and refresh."""
        step = 0.005
        t = 0.0
        while True:
            self.rig.scanner.tick()
            self._drain()
            if t >= seconds:
                break
            dt = min(step, seconds - t)
            self.clock.advance(dt)
            t += dt
        self.owner.tick()
        self.owner.refresh()

    def refresh(self) -> None:
        self.owner.refresh()

    def _drain(self) -> None:
        self.owner.keeper.pump()

    def press(self, seat: int, button: str, *, chatter: int = 0, hold: float = 0.05) -> None:
        """Press and release ``button`` like a finger: optional contact chatter, held ``hold`` seconds."""
        pin = self.pod(seat).pin(button)
        for _ in range(chatter):
            pin.drive_low()
            self.clock.advance(0.001)
            pin.drive_high()
            self.clock.advance(0.001)
        pin.drive_low()
        self.settle(hold)
        for _ in range(chatter):  # bounce on release too
            pin.drive_high()
            self.clock.advance(0.001)
            pin.drive_low()
            self.clock.advance(0.001)
        pin.drive_high()
        self.settle(TIMING.debounce * 3)


def make_table(tmp_path, game_id: str, *, care: Care = STILL, seats: int | None = None,
               options: dict | None = None, players: list[str] | None = None) -> Table:
    journal = Journal(tmp_path / f"state-{game_id}", durable=False)
    players = players or players_for(game_id)
    session = Session.new(journal, game_id, players, options or {}, rng=random.Random(7))
    clock = FakeClock()
    reports: list[str] = []
    n = seats or len(players)
    cfg = PodsConfig("(test)", backend="mock", care=care, timing=TIMING,
                     seats=tuple(SeatConfig(i, "mock") for i in range(1, n + 1)))
    owner_of: list[Owner] = []
    # Each button event goes straight to the owner, as on the appliance (ui/podlink.py).
    rig = Rig(cfg, lambda event: owner_of[0].keeper.press(event), backlog=lambda: owner_of[0].keeper.backlog(),
              clock=clock, report=reports.append)
    rig.build()
    owner_of.append(Owner(session, rig.pods, clock=clock, report=reports.append))
    return Table(rig, owner_of[0], clock, reports)


@pytest.fixture
def table_factory(tmp_path):
    made: list[Table] = []

    def make(game_id: str = "counters", **kw) -> Table:
        t = make_table(tmp_path, game_id, **kw)
        made.append(t)
        return t

    yield make
    for t in made:
        t.rig.close()
        t.session.journal.close()


def pytest_collection_modifyitems(items):
    # luma.oled's full-frame display() (used once when a display is set up) calls a Pillow API
    # deprecated in Pillow 13; that is luma's to change, not a problem of ours.
    here = str(__import__("pathlib").Path(__file__).parent)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning"))
