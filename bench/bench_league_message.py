"""What one message costs the league: the store thread's work for it and the standings the page asks next.

No broker, no network: the League's own store (ui/club/league.py: one SQLite transaction, WAL,
synchronous=FULL, as the store thread runs it) and its standings (ui/club/standings.py), on a league
that already holds ``--plays`` plays (default 2 000) of 2 to 4 players among 30 people.

* normal_play: a finished play of 3 players that finished after every play held (the usual case):
  store + standings, median and 95th percentile of ``--repeat``;
* late_play: a play of 3 players that finished before the newest quarter of the plays held (a table
  back after being offline): store + standings;
* hostile_play: a play message of 3 000 names (36 KB): store + standings, ``--repeat`` times
  (``counted``: how many the league took). With ``--no-cap`` the league's cap on players per play is
  lifted for the run (3 messages), to show what such a message costs when it is counted.

Run it against any checkout (``PYTHONPATH=/path/to/checkout/..`` with the package importable as
``tablekeeper``) to compare two versions on the same machine::

    .venv/bin/python bench/bench_league_message.py [--plays 2000] [--repeat 30] [--no-cap]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from tablekeeper.ui.club import contract
from tablekeeper.ui.club import league as league_module
from tablekeeper.ui.club.config import BrokerSettings
from tablekeeper.ui.club.league import League, _Message

PEOPLE = [f"Player {i}" for i in range(30)]
START = 1.7e9


def _message(body: dict) -> _Message:
    return _Message(contract.topic(contract.DEFAULT_PREFIX, body["table"], contract.PLAYS), contract.encode(body),
                    0, 0, 0)


def _play(no: int, finished: float, names: list[str], table: str = "mesa-1") -> dict:
    return {"table": table, "journal": "bench", "game_no": no, "game": "counters", "started": finished - 600,
            "finished": finished, "players": [{"name": n, "counters": {"score": i}} for i, n in enumerate(names)],
            "winners": [names[no % len(names)]], "draw": False, "actions": 0, "identity": f"bench-{table}-{no}"}


def _timed(league: League, body: dict) -> float:
    t0 = time.perf_counter()
    league._store([_message(body)])
    league.standings()
    return time.perf_counter() - t0


def measure(plays: int = 2000, repeat: int = 30, no_cap: bool = False) -> dict:
    """The figures of one run (see the module's docstring)."""
    cap = league_module.MAX_PLAYERS
    if no_cap:
        league_module.MAX_PLAYERS = 10**6
    try:
        return _measure(argparse.Namespace(plays=plays, repeat=repeat, no_cap=no_cap))
    finally:
        league_module.MAX_PLAYERS = cap


def _measure(args: argparse.Namespace) -> dict:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        lg = League(Path(tmp) / "league.db", BrokerSettings(client_id="bench-league-message"))
        held = [_play(no, START + 60 * no, rng.sample(PEOPLE, 2 + no % 3)) for no in range(1, args.plays + 1)]
        for i in range(0, len(held), league_module.BATCH):
            lg._store([_message(p) for p in held[i:i + league_module.BATCH]])
        lg.standings()  # the page's first question: the standings built once
        newest = START + 60 * args.plays
        no = args.plays
        normal, late = [], []
        for k in range(args.repeat):
            no += 1
            newest += 60
            normal.append(_timed(lg, _play(no, newest, rng.sample(PEOPLE, 3))))
            no += 1
            late.append(_timed(lg, _play(no, START + 60 * (args.plays * 3 // 4) + k + 0.5, rng.sample(PEOPLE, 3),
                                         table="mesa-2")))
        hostile_ms = []
        counted = 0
        for _ in range(3 if args.no_cap else args.repeat):
            no += 1
            newest += 60
            hostile = {**_play(no, newest, ["Ana", "Ben"]), "players": [f"Name {i}" for i in range(3000)],
                       "winners": ["Name 0"]}  # names only: 36 KB, as the message that once stalled the league
            size = len(contract.encode(hostile))
            dropped = sum(lg.dropped.values())
            hostile_ms.append(_timed(lg, hostile))
            counted += sum(lg.dropped.values()) == dropped
        lg.close()

    def ms(values: list[float]) -> dict:
        ordered = sorted(values)
        return {"median_ms": round(statistics.median(ordered) * 1000, 2),
                "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000, 2)}

    return {"plays_held": args.plays, "repeat": args.repeat, "cap": league_module.MAX_PLAYERS,
            "normal_play": ms(normal), "late_play": ms(late),
            "hostile_play": {"names": 3000, "bytes": size, **ms(hostile_ms), "counted": counted}}


def run() -> dict:
    """For bench/run.py: the medians of one run with the league's cap."""
    got = measure()
    return {f"league_message_{kind}": {"value": got[kind]["median_ms"], "unit": "ms",
                                       "note": f"median of {got['repeat']}, {got['plays_held']} plays held"}
            for kind in ("normal_play", "late_play", "hostile_play")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plays", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--no-cap", action="store_true", help="lift the cap on players per play for the run")
    args = ap.parse_args()
    print(json.dumps(measure(args.plays, args.repeat, args.no_cap), indent=2))


if __name__ == "__main__":
    main()
