"""Club mode at the table: catching up after an outage, and what publishing costs a press.

A real Mosquitto (tests/club/broker.py) on 127.0.0.1 and the real league (ui/club/league.py), both
in this run.

* ``club_catch_up_500``: the table was offline (the broker down) while 500 actions were committed
  (5 games of 100, each finished: 500 actions and 5 plays queued in the journal, nothing else kept);
  the broker comes back. Measured from the moment the table and the league are both connected
  again to the league's ack of the last action and play. ``club_reconnect_wait`` is the wait before that reconnection, as it happened here;
  after an hour offline the publisher retries every ``reconnect[1]`` seconds (10 by default), so
  that is the longest it adds.
* ``club_press_*``: one pod press as ``tablekeeper serve`` takes it (four mock pods, the owner,
  its subscribers; bench/bench_press.py), on a durable journal, with the club off and on side by
  side in the same run, alternated three times (on: the publisher attached, connected, the league
  storing and acking everything, in a process of its own). ``_cpu``: process CPU per press, every thread (the publisher's
  included); ``_commit``: the press's journal commit on the owner (where a reader of the same file
  could make it wait). ``club_commit_to_ack``: an action submitted until the league's ack of it.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "club"))

import bench_press  # noqa: E402
from broker import Broker  # noqa: E402

from tablekeeper.engine import Journal, Session  # noqa: E402
from tablekeeper.engine.backup import table_id  # noqa: E402
from tablekeeper.ui.club import config  # noqa: E402
from tablekeeper.ui.club.league import League  # noqa: E402
from tablekeeper.ui.club.publisher import Publisher  # noqa: E402

USERS = {"league": "league-pw", "mesa-1": "pw-1"}
HUNDRED = {"counters": [{"name": "score", "start": 0, "min": 0, "target": 100}]}


def _club(broker: Broker) -> config.ClubSettings:
    settings = config.club_settings({"club": {"table": "mesa-1", "host": broker.host, "port": broker.port,
                                              "password": USERS["mesa-1"]}})
    assert settings is not None
    return settings


def _league(broker: Broker, folder: Path) -> League:
    s = config.league_settings({"league": {"host": broker.host, "port": broker.port,
                                           "password": USERS["league"]}}, state_dir=folder)
    return League(s.db, s.broker, reconnect_max=1).start()


#: The league in a process of its own (its CPU is not the table's), until its standard input closes.
_LEAGUE = """
import sys
from tablekeeper.ui.club import config
from tablekeeper.ui.club.league import League
host, port, password, folder = sys.argv[1:]
s = config.league_settings({"league": {"host": host, "port": int(port), "password": password}}, state_dir=folder)
league = League(s.db, s.broker, reconnect_max=1).start()
print("started", flush=True)
sys.stdin.read()
league.stop()
"""


def _league_process(broker: Broker, folder: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", _LEAGUE, broker.host, str(broker.port), USERS["league"],
                             str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "started"
    return proc


def _until(predicate, timeout: float, step: float = 0.002) -> float:
    """Seconds until ``predicate()`` holds (polled); raises after ``timeout``."""
    t0 = time.monotonic()
    while not predicate():
        if time.monotonic() - t0 > timeout:
            raise TimeoutError("the club did not catch up")
        time.sleep(step)
    return time.monotonic() - t0


def catch_up() -> dict:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        broker = Broker(folder / "broker", USERS).start()
        league = _league(broker, folder)
        journal = Journal(folder / "mesa-1")  # durable, as at a table
        jid = table_id(journal)
        pub = Publisher(_club(broker), folder / "mesa-1", journal_id=jid, reconnect=(1, 2)).start()
        _until(lambda: pub.online and league.connected, 10, 0.01)
        broker.stop()  # the broker goes, for the table and the league alike
        _until(lambda: not pub.online, 10, 0.01)
        games = []
        t0 = time.perf_counter()
        for _g in range(5):
            session = Session.new(journal, "counters", ["Ana", "Ben"], HUNDRED)
            for _i in range(100):
                session.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
            assert session.state["over"]
            games.append(session.game_id)
        commit = (time.perf_counter() - t0) / 500
        pub.wake()
        broker.start()
        back = time.monotonic()
        wait = _until(lambda: pub.online, 30, 0.001)
        league_wait = _until(lambda: league.connected, 30, 0.001) + wait  # (measured from the same moment)
        t1 = back + max(wait, league_wait)  # both sides connected again: the catch-up proper starts

        def caught_up() -> bool:
            acks, settled = pub.acks(), pub.settled()
            return all(g in settled or acks.get(g) == (100, True) for g in games)

        _until(caught_up, 60, 0.001)
        took = time.monotonic() - t1
        held = league.counts()
        pub.stop()
        league.stop()
        journal.close()
        broker.stop()
        assert back <= t1 and held["actions"] == 500 and held["plays"] == 5, held
    return {
        "club_catch_up_500": {"value": round(took, 3), "unit": "s",
                              "what": "500 actions and 5 plays queued while offline: from the reconnection to "
                                      "the league's ack of the last one", "per_action_ms": round(took * 2, 2)},
        "club_reconnect_wait": {"value": round(wait, 2), "unit": "s", "league": round(league_wait, 2),
                                "what": "broker back to the table reconnected, here (at most the retry interval, "
                                        "10 s by default after a long outage); the league's beside it"},
        "club_offline_commit": {"value": round(commit * 1000, 3), "unit": "ms/action",
                                "what": "a durable commit while the broker is down (nothing waits for it)"},
    }


class _ClubOwner(bench_press._Owner):
    """bench_press's owner and pods, with the club's publisher attached and connected."""

    broker: Broker | None = None

    def __init__(self, folder: str):
        super().__init__(folder)
        assert self.broker is not None
        self.publisher = Publisher(_club(self.broker), folder, poll=1.0).attach(self.keeper).start()
        _until(lambda: self.publisher.online and self.publisher.journal_id is not None, 10, 0.01)

    def close(self) -> None:
        self.publisher.stop()
        super().close()


def _presses(make, n: int = 40) -> tuple[float, float, float | None, float]:
    """(CPU ms per press, the commit's median ms, ms from a submitted action to the league's ack of it,
    the commit's slowest ms)."""
    with tempfile.TemporaryDirectory() as d:
        table = make(d)
        try:
            bench_press._press(table, 1)
            keeper = table.keeper
            keeper.commit_times.clear()
            cpu0 = time.process_time()
            for i in range(n):
                bench_press._press(table, 1 + i % len(bench_press.PLAYERS))
            cpu = (time.process_time() - cpu0) / n
            commit = statistics.median(keeper.commit_times)
            slowest = max(keeper.commit_times)
            pub = getattr(table, "publisher", None)
            latencies = []
            if pub is not None:
                game = keeper.session.game_id
                for i in range(20):
                    done = keeper.journal.next_seq(game) + 1
                    t0 = time.perf_counter()
                    keeper.submit({"action": "adjust", "player": bench_press.PLAYERS[i % 4], "counter": "score",
                                   "delta": 1})
                    _until(lambda: pub.acks().get(game, (0, False))[0] >= done, 10, 0.0002)  # noqa: B023
                    latencies.append(time.perf_counter() - t0)
        finally:
            table.close()
    return (cpu * 1000, commit * 1000, statistics.median(latencies) * 1000 if latencies else None,
            slowest * 1000)


def press_cost() -> dict:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        broker = Broker(folder / "broker", USERS).start()
        league = _league_process(broker, folder)
        _ClubOwner.broker = broker
        try:
            runs: dict[str, list[tuple[float, float, float | None, float]]] = {"off": [], "on": []}
            for _round in range(3):  # alternated, so that a noisy moment hits both
                runs["off"].append(_presses(bench_press._Owner))
                runs["on"].append(_presses(_ClubOwner))
        finally:
            league.communicate("", timeout=30)
            broker.stop()
    off_cpu = statistics.median(r[0] for r in runs["off"])
    on_cpu = statistics.median(r[0] for r in runs["on"])
    off_commit = statistics.median(r[1] for r in runs["off"])
    on_commit = statistics.median(r[1] for r in runs["on"])
    published = statistics.median(r[2] for r in runs["on"] if r[2] is not None)
    off_max = max(r[3] for r in runs["off"])
    on_max = max(r[3] for r in runs["on"])
    return {
        "club_press_cpu_off": {"value": round(off_cpu, 2), "unit": "ms CPU/press",
                               "what": "process CPU per pod press, every thread, club off (mean of 40, median of 3)"},
        "club_press_cpu_on": {"value": round(on_cpu, 2), "unit": "ms CPU/press",
                              "what": "the same, club on: the publisher's threads included",
                              "ratio": round(on_cpu / off_cpu, 2)},
        "club_press_commit_off": {"value": round(off_commit, 3), "unit": "ms/press",
                                  "what": "the press's journal commit on the owner (median), club off"},
        "club_press_commit_on": {"value": round(on_commit, 3), "unit": "ms/press",
                                 "what": "the same, club on (the publisher reads the same file)",
                                 "ratio": round(on_commit / off_commit, 2)},
        "club_press_commit_max_off": {"value": round(off_max, 3), "unit": "ms",
                                      "what": "the slowest of the 120 presses' commits, club off"},
        "club_press_commit_max_on": {"value": round(on_max, 3), "unit": "ms",
                                     "what": "the slowest of the 120 presses' commits, club on"},
        "club_commit_to_ack": {"value": round(published, 2), "unit": "ms",
                               "what": "an action submitted to the owner until the league's ack of it is back "
                                       "at the table (median of 20, club on)"},
    }


def run() -> dict:
    out = catch_up()
    out.update(press_cost())
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
