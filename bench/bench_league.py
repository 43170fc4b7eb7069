"""Club mode, the league side: what the league absorbs, and how soon a finished play is on the page.

Everything real: a Mosquitto on 127.0.0.1 (tests/club/broker.py, the shipped ACL), paho clients
logged in as tables, the League (ui/club/league.py: SQLite in WAL with synchronous=FULL, a commit
per batch, acks after the commit) and its page (ui/club/web.py) read by a server-sent-events client.

* league_plays_per_s: 10 tables each publish 100 finished plays at once (QoS 1, 1 000 plays); plays
  per second from the first publish until the last play is committed.
* league_messages_per_s: the same tables publish 1 000 plays with 20 actions each (21 000 messages):
  messages (actions and plays) committed per second, and that run's plays per second.
* league_play_to_page: a table publishes one finished play; time until the page's event stream
  delivers the new HTML with it (the league holding 2 000 plays, so the standings are recomputed
  over all of them). Median and 95th percentile of 40.
* league_commit_to_page: the whole way, from a table's durable journal commit of a game's last
  action (a real Session on a real Journal, synchronous=FULL) through the real publisher (woken as
  the owner's snapshot wakes it), the broker and the league, to the page's event showing the play.
  Median and 95th percentile of 20.
"""
from __future__ import annotations

import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "club"))

import paho.mqtt.client as mqtt  # noqa: E402
from broker import Broker  # noqa: E402

from tablekeeper.engine import Journal, Session  # noqa: E402
from tablekeeper.engine.backup import table_id  # noqa: E402
from tablekeeper.ui.club import config, contract  # noqa: E402
from tablekeeper.ui.club.config import BrokerSettings  # noqa: E402
from tablekeeper.ui.club.league import League  # noqa: E402
from tablekeeper.ui.club.publisher import Publisher  # noqa: E402
from tablekeeper.ui.club.web import Page  # noqa: E402

TABLES = 10
USERS = {"league": "league-pw", **{f"mesa-{i}": f"pw-{i}" for i in range(1, TABLES + 1)}}
PEOPLE = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]


def _table(broker: Broker, name: str) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{name}-{time.monotonic_ns()}")
    c.username_pw_set(name, USERS[name])
    c.max_inflight_messages_set(100)
    c.connect(broker.host, broker.port)
    c.loop_start()
    return c


def _play(table: str, journal: str, no: int, finished: float) -> bytes:
    players = [PEOPLE[(no + i) % len(PEOPLE)] for i in range(2 + no % 3)]
    return contract.encode({"table": table, "journal": journal, "game_no": no, "game": "counters",
                            "started": finished - 900, "finished": finished,
                            "players": [{"name": p, "counters": {"score": i}} for i, p in enumerate(players)],
                            "winners": [players[no % len(players)]], "draw": False})


def _action(table: str, journal: str, no: int, seq: int) -> bytes:
    return contract.encode({"table": table, "journal": journal, "game_no": no, "game": "counters", "seq": seq,
                            "at": 1.7e9 + seq, "entry": {"action": "adjust", "player": "Ana", "counter": "score",
                                                         "delta": 1}})


def _wait(predicate, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError("the league did not catch up in time")
        time.sleep(0.005)


def _burst(broker: Broker, league: League, journal: str, plays: int, actions: int) -> tuple[float, int]:
    """Each table publishes ``plays`` plays (with ``actions`` actions each) at once; seconds until stored."""
    clients = {f"mesa-{i}": _table(broker, f"mesa-{i}") for i in range(1, TABLES + 1)}
    before = league.stored["plays"] + league.stored["actions"]
    want = TABLES * plays * (actions + 1)
    start = time.perf_counter()

    def publish(name: str, c: mqtt.Client) -> None:
        for no in range(plays):
            for seq in range(1, actions + 1):
                c.publish(contract.topic(contract.DEFAULT_PREFIX, name, contract.ACTIONS),
                          _action(name, journal, no, seq), qos=1)
            c.publish(contract.topic(contract.DEFAULT_PREFIX, name, contract.PLAYS),
                      _play(name, journal, no, 1.7e9 + no), qos=1)

    threads = [threading.Thread(target=publish, args=item) for item in clients.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _wait(lambda: league.stored["plays"] + league.stored["actions"] - before >= want)
    seconds = time.perf_counter() - start
    for c in clients.values():
        c.disconnect()
        c.loop_stop()
    return seconds, want


class _Events:
    """The page's server-sent events, each kept with the moment it arrived."""

    def __init__(self, page: Page):
        host, port = page.server.server_address[:2]
        self.conn = http.client.HTTPConnection(str(host), int(port), timeout=30)
        self.conn.request("GET", "/events/")
        self.stream = self.conn.getresponse()
        self.got: list[tuple[float, str]] = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        data = None
        for raw in self.stream.fp:
            line = raw.decode()
            if line.startswith("data: "):
                data = line[6:]
            elif line == "\n" and data is not None:
                with self.lock:
                    self.got.append((time.perf_counter(), data))
                    self.lock.notify_all()
                data = None

    def mark(self) -> int:
        with self.lock:
            return len(self.got)

    def when(self, since: int, marker: str) -> float:
        """The moment of the first event after ``since`` that shows ``marker``."""
        with self.lock:
            if not self.lock.wait_for(lambda: any(marker in d for _, d in self.got[since:]), timeout=30):
                raise RuntimeError("the page never showed the play")
            return next(t for t, d in self.got[since:] if marker in d)

    def close(self) -> None:
        self.conn.close()


def _commit_to_page(broker: Broker, league: League, page: Page, folder: Path, n: int = 20) -> list[float]:
    """From the journal commit of a game's last action to the page's event whose list of plays has it
    (the heading's count: the live card shows the players before the game ends)."""
    events = _Events(page)
    journal = Journal(folder / "table", durable=True)
    settings = config.club_settings({"club": {"table": "mesa-2", "host": broker.host, "port": broker.port,
                                              "password": USERS["mesa-2"]}})
    assert settings is not None
    pub = Publisher(settings, folder / "table", journal_id=table_id(journal)).start()
    out = []
    try:
        _wait(lambda: pub.online, 10)
        for i in range(n):
            name = f"Winner{i:02d}"
            session = Session.new(journal, "counters", [name, "Ben"],
                                  {"counters": [{"name": "score", "start": 0, "min": 0, "target": 3}]})
            for _ in range(2):
                session.apply({"action": "adjust", "player": name, "counter": "score", "delta": 1})
            pub.wake()
            time.sleep(0.3)  # the game so far is published and acknowledged
            since = events.mark()
            marker = f"Plays ({len(league.plays()) + 1})"
            session.apply({"action": "adjust", "player": name, "counter": "score", "delta": 1})  # wins: the play
            start = time.perf_counter()  # the commit has returned
            pub.wake()  # what the owner's snapshot listener does
            out.append(events.when(since, marker) - start)
            time.sleep(0.15)  # the page's events settle (at most one per 0.1 s)
    finally:
        pub.stop()
        journal.close()
        events.close()
    return out


def _latency(broker: Broker, league: League, page: Page, n: int = 40) -> list[float]:
    table = _table(broker, "mesa-1")
    host, port = page.server.server_address[:2]
    conn = http.client.HTTPConnection(str(host), int(port), timeout=30)
    conn.request("GET", "/events/")
    stream = conn.getresponse()
    got: list[tuple[float, str]] = []
    lock = threading.Condition()

    def read() -> None:
        data = None
        for raw in stream.fp:
            line = raw.decode()
            if line.startswith("data: "):
                data = line[6:]
            elif line == "\n" and data is not None:
                with lock:
                    got.append((time.perf_counter(), data))
                    lock.notify_all()
                data = None

    threading.Thread(target=read, daemon=True).start()
    out = []
    for i in range(n):
        journal = f"lat-{i}"
        marker = f"{journal}-marker"
        payload = contract.encode({"table": "mesa-1", "journal": journal, "game_no": 1, "game": "counters",
                                   "started": 2e9 + i, "finished": 2e9 + i + 1,
                                   "players": [marker, "Ben"], "winners": [marker], "draw": False})
        with lock:
            seen = len(got)
        start = time.perf_counter()
        table.publish(contract.topic(contract.DEFAULT_PREFIX, "mesa-1", contract.PLAYS), payload, qos=1)
        with lock:
            ok = lock.wait_for(lambda s=seen, m=marker: any(m in d for _, d in got[s:]), timeout=30)
            if not ok:
                raise RuntimeError("the page never showed the play")
            at = next(t for t, d in got[seen:] if marker in d)
        out.append(at - start)
        time.sleep(0.15)  # let the page's events settle (at most one per 0.1 s)
    conn.close()
    table.disconnect()
    table.loop_stop()
    return out


def run() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Broker(folder / "broker", USERS).start()
        league = League(folder / "league.db", BrokerSettings(broker.host, broker.port, "league", USERS["league"],
                                                             client_id="bench-league")).start()
        page = Page(league, "127.0.0.1", 0).start()
        try:
            _wait(lambda: league.connected, 10)
            s1, n1 = _burst(broker, league, "plays-only", 100, 0)
            s2, n2 = _burst(broker, league, "with-actions", 100, 20)
            lat = sorted(_latency(broker, league, page))
            total = len(league.plays())
            whole = sorted(_commit_to_page(broker, league, page, folder))
        finally:
            page.stop()
            league.close()
            broker.stop()
    p95 = lat[int(len(lat) * 0.95) - 1]
    return {
        "league_plays_per_s": {"value": round(n1 / s1), "unit": "plays/s",
                               "note": f"{n1} plays from {TABLES} tables at once, in {s1:.2f} s"},
        "league_messages_per_s": {"value": round(n2 / s2), "unit": "messages/s",
                                  "plays_per_s": round(TABLES * 100 / s2),
                                  "note": f"{n2} messages (1 000 plays of 20 actions) in {s2:.2f} s"},
        "league_play_to_page": {"value": round(statistics.median(lat) * 1000, 1), "unit": "ms (median)",
                                "p95_ms": round(p95 * 1000, 1), "max_ms": round(lat[-1] * 1000, 1),
                                "note": f"publish to the page's server-sent event, {total} plays stored"},
        "league_commit_to_page": {"value": round(statistics.median(whole) * 1000, 1), "unit": "ms (median)",
                                  "p95_ms": round(whole[int(len(whole) * 0.95) - 1] * 1000, 1),
                                  "max_ms": round(whole[-1] * 1000, 1),
                                  "note": "a table's durable commit of a game's last action to the page's event "
                                          "showing its play (the real publisher, broker and league)"},
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
