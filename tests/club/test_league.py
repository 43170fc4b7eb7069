"""The league on a real Mosquitto: each action and play stored once, acks after the commit and right,
garbage dropped with its reason, standings equal to an independent computation, a store that
survives a restart. Tables are played by tests/club/fake_table.py (exact payloads, garbage too)."""
from __future__ import annotations

import json
import logging
import math
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tablekeeper.ui.club import contract, standings
from tablekeeper.ui.club import league as league_module
from tablekeeper.ui.club.config import BrokerSettings
from tablekeeper.ui.club.league import League, check, throttled_drops
from tablekeeper.ui.club.web import render_table_card

from .conftest import USERS, league_broker, listening_league, one_broker
from .fake_table import FakeTable, wait_for
from .proxy import Relay

settings = league_broker


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    yield from one_broker(tmp_path_factory.mktemp("broker"))


@pytest.fixture
def league(broker, tmp_path):
    lg = listening_league(tmp_path / "league" / "league.db", broker)
    yield lg
    lg.close()


@pytest.fixture
def table(broker):
    t = FakeTable(broker, "mesa-1")
    yield t
    t.close()


ANA_BEN = [{"name": "Ana", "counters": {"score": 3}, "out": False}, {"name": "Ben", "counters": {"score": 1},
                                                                      "out": False}]


def test_the_same_actions_and_play_delivered_twice_are_stored_once(league, table):
    for seq in (1, 2, 3, 1, 2, 3):
        table.action("j-a", 1, seq)
    table.play("j-a", 1, ANA_BEN, ["Ana"])
    table.play("j-a", 1, ANA_BEN, ["Ana"])
    wait_for(lambda: league.stored["duplicates"] == 4, what="the copies to arrive")
    assert league.counts() == {"games": 1, "actions": 3, "plays": 1, "tables": 0}
    assert [p["winners"] for p in league.plays()] == [["Ana"]]
    assert league.standings()["overall"][0]["plays"] == 1  # counted once, not twice
    game = league.game(league.plays()[0]["id"])
    assert [a["seq"] for a in game["actions"]] == [1, 2, 3]
    assert game["actions"][1]["entry"]["delta"] == 2


def test_acks_name_the_highest_seq_without_a_gap_and_the_play(league, table):
    for seq in (1, 2, 4):
        table.action("j-b", 7, seq)
    wait_for(lambda: (a := table.ack_for("j-b", 7)) and a["seq"] == 2, what="an ack up to 2")
    assert table.ack_for("j-b", 7) == {"v": 1, "table": "mesa-1", "journal": "j-b", "game_no": 7, "seq": 2,
                                       "play": False}  # 4 is held, but 3 is missing
    table.action("j-b", 7, 3)
    wait_for(lambda: table.ack_for("j-b", 7)["seq"] == 4, what="the gap to close")
    table.play("j-b", 7, ANA_BEN, ["Ben"])
    wait_for(lambda: table.ack_for("j-b", 7)["play"], what="the play's ack")
    before = len(table.acks)
    table.action("j-b", 7, 2)  # a copy is acknowledged again (its first ack may have been lost)
    wait_for(lambda: len(table.acks) > before, what="the copy's ack")
    assert table.acks[-1]["seq"] == 4 and table.acks[-1]["play"] is True


def test_every_ack_covers_only_what_another_connection_already_reads_in_the_file(league, table):
    """At the moment each ack reaches the table, what it claims is committed: a connection of the
    table's own, opened on the league's file, already sees every action and the play it names."""
    other = sqlite3.connect(league.db_path, check_same_thread=False)
    checked = []
    on_ack = table._on_ack

    def check_on_arrival(client, userdata, message):
        body = contract.decode(contract.ACK, message.payload, table.name)
        held = other.execute("SELECT count(*) FROM actions a JOIN games g ON g.id = a.game WHERE g.journal=? "
                             "AND g.game_no=? AND a.seq <= ?", (body["journal"], body["game_no"], body["seq"]))
        plays = other.execute("SELECT count(*) FROM plays p JOIN games g ON g.id = p.game WHERE g.journal=? "
                              "AND g.game_no=?", (body["journal"], body["game_no"]))
        checked.append((body["seq"], held.fetchone()[0], body["play"], plays.fetchone()[0]))
        on_ack(client, userdata, message)

    table.client.on_message = check_on_arrival
    for seq in range(1, 31):
        table.send(contract.ACTIONS, wait=False, journal="j-c", game_no=1, game="counters", seq=seq, at=1.0,
                   entry={"action": "adjust"})
    table.play("j-c", 1, ANA_BEN, ["Ana"])
    wait_for(lambda: (a := table.ack_for("j-c", 1)) and a["seq"] == 30 and a["play"], what="the last ack")
    assert checked and all(seq == held and plays >= play for seq, held, play, plays in checked), checked
    other.close()


GARBAGE = [
    (b"\xff\xfe not utf-8", "not UTF-8 JSON"),
    (b"{not json", "not UTF-8 JSON"),
    (b"[1, 2]", "not a JSON object"),
    (json.dumps({"v": 2, "table": "mesa-1"}).encode(), "version 2"),
    (contract.encode({"table": "mesa-2", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": ["Ana"], "winners": [], "draw": False}), "says it is from 'mesa-2'"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1}), "field 'game' missing"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 2**70, "game": "counters", "started": 1,
                      "finished": 2, "players": ["Ana"], "winners": [], "draw": False}), "'game_no' is"),
    (b'{"v":1,"table":"mesa-1","journal":"j","game_no":1,"game":"counters","started":1,"finished":NaN,'
     b'"players":["Ana"],"winners":[],"draw":false}', "'finished' is not a time"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": ["Ana", "Ben"], "winners": ["Cai"], "draw": False}),
     "a winner is not one of the players"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": ["Ana", "Ana"], "winners": [], "draw": False}), "different names"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": [{"nom": "Ana"}], "winners": [], "draw": False}), "a player must"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": ["\x1b[2JAna"], "winners": [], "draw": False}), "printable"),
    (contract.encode({"table": "mesa-1", "journal": "", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": ["Ana"], "winners": [], "draw": False}), "'journal' must be"),
    # 3 000 names once stalled every table's acks for 31 s: the standings compare each pair of a play
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": [f"P{i}" for i in range(3000)], "winners": [], "draw": False}),
     "3000 players, over the 8 a table seats"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": [f"P{i}" for i in range(9)], "winners": [], "draw": False}),
     "9 players, over the 8 a table seats"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": ["Ana"], "winners": [], "draw": False, "actions": -1}),
     "actions must be a whole number"),
    (contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "started": 1,
                      "finished": 2, "players": ["Ana"], "winners": [], "draw": False, "identity": 7}),
     "identity must be a short text"),
]


@pytest.mark.parametrize("data, reason", GARBAGE, ids=[r for _, r in GARBAGE])
def test_a_bad_play_is_refused_with_a_sentence_saying_why(data, reason):
    with pytest.raises(contract.ContractError, match=reason.replace("(", r"\(").replace("[", r"\[")):
        check(contract.PLAYS, data, "mesa-1")


def test_an_action_numbered_below_one_is_refused():
    data = contract.encode({"table": "mesa-1", "journal": "j", "game_no": 1, "game": "counters", "seq": 0,
                            "at": 1, "entry": {}})
    with pytest.raises(contract.ContractError, match="'seq' is 0"):
        check(contract.ACTIONS, data, "mesa-1")


def test_garbage_is_dropped_logged_and_the_league_goes_on(league, table, caplog):
    caplog.set_level(logging.WARNING, logger="tablekeeper.club.league")
    for data, _ in GARBAGE:
        table.raw(contract.PLAYS, data)
    table.raw(contract.ACTIONS, b"x" * 1000)
    table.raw(contract.LIVE, b"null")
    table.raw(contract.ACTIONS, b"[" * 100_000 + b"]" * 100_000)  # too deep for Python's JSON parser
    table.play("j-d", 1, ["Ana", "Ben"], ["Ana"])  # a good one after the garbage
    wait_for(lambda: league.plays(), what="the good play")
    wait_for(lambda: league.dropped.get("mesa-1") == len(GARBAGE) + 3, what="every bad message counted")
    assert [p["journal"] for p in league.plays()] == ["j-d"]
    dropped = [r.getMessage() for r in caplog.records if "dropped a message" in r.getMessage()]
    assert dropped and "not UTF-8 JSON" in dropped[0]  # the first says why; the rest are throttled
    assert len(dropped) == 1
    assert league.alive() and league.connected


def test_the_log_of_bad_messages_is_throttled_per_table_and_counts_the_rest(caplog):
    caplog.set_level(logging.WARNING, logger="tablekeeper.club.league")
    now = [0.0]
    throttle = throttled_drops(every=30, clock=lambda: now[0])
    for _ in range(5):
        throttle("mesa-1", "bad one")
    throttle("mesa-2", "bad two")
    now[0] = 31
    throttle("mesa-1", "bad three")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["dropped a message: bad one", "dropped a message: bad two",
                     "dropped a message: bad three (4 more dropped since the last report)"]


def test_live_and_status_keep_the_last_received_whatever_their_time(league, table):
    table.send(contract.STATUS, online=True, at=10.0)
    table.send(contract.LIVE, at=10.0, journal="j-e", game_no=0, game="counters", players=[])
    table.send(contract.LIVE, at=5.0, journal="j-e", game_no=1, game="counters", players=ANA_BEN)  # clock set back
    wait_for(lambda: league.handled == 3, what="all three")
    table.action("j-e", 1, 1)
    wait_for(lambda: league.tables()[0]["game_id"] is not None, what="the live game's id")
    [t] = league.tables()
    assert t["online"] is True and t["live"]["game_no"] == 1 and t["live"]["players"][0]["name"] == "Ana"


def test_a_table_that_dies_is_shown_offline_by_its_last_will(league, broker):
    relay = Relay(broker.host, broker.port)
    # the will is set when the table connects, so it carries an older time than the status sent after
    mesa = FakeTable(relay, "mesa-2", will={"online": False, "at": 100.0})
    try:
        mesa.send(contract.STATUS, online=True, at=101.0)
        wait_for(lambda: [t["online"] for t in league.tables()] == [True], what="the table online")
        before = time.time()
        relay.block()  # no goodbye, and no way back: the broker publishes the will
        wait_for(lambda: [t["online"] for t in league.tables()] == [False], what="the table offline")
        # out of touch since the league heard it go, not since the will's own (connect-time) 100.0
        [t] = league.tables()
        assert t["since"] >= before
        card = render_table_card({**t, "since": time.time() - 3 * 3600 - 5 * 60})
        assert "offline for 3 h 5 min" in card and 'class="on"' not in card
    finally:
        mesa.close()
        relay.close()


def test_a_tables_offline_time_is_when_it_changed_not_when_a_retained_status_is_heard_again(tmp_path):
    """A league that restarts hears each table's retained status again: the card's "offline for" keeps
    the time the status changed; a change back to online starts a new one; a will's own (connect-time)
    "at" never makes a table look offline for longer than it was."""
    league = League(tmp_path / "league.db", BrokerSettings())
    conn = league._writer
    league._store_one(conn, "mesa-1", contract.STATUS, {"online": True, "at": 900.0}, now=950.0)
    league._store_one(conn, "mesa-1", contract.STATUS, {"online": False, "at": 100.0}, now=1000.0)
    assert league.tables()[0]["since"] == 1000.0  # heard going now, though its will says 100
    league._store_one(conn, "mesa-1", contract.STATUS, {"online": False, "at": 100.0}, now=5000.0)
    assert league.tables()[0]["since"] == 1000.0  # the retained will again, after a restart
    league._store_one(conn, "mesa-1", contract.STATUS, {"online": True, "at": 6000.0}, now=6001.0)
    assert league.tables()[0]["since"] == 6001.0 and league.tables()[0]["online"] is True


def test_the_store_survives_a_restart_and_the_session_keeps_what_came_meanwhile(broker, tmp_path, table):
    db = tmp_path / "league.db"
    first = League(db, settings(broker, "league-restart")).start()
    wait_for(lambda: first.connected, what="the first league")
    table.action("j-f", 1, 1)
    table.play("j-f", 1, ANA_BEN, ["Ana"], finished=100.0)
    wait_for(lambda: first.plays(), what="the first play")
    first.close()
    table.action("j-f", 1, 1)  # a copy, while the league is away
    table.play("j-f", 2, ANA_BEN, ["Ben"], finished=200.0)  # new, while the league is away
    second = League(db, settings(broker, "league-restart")).start()
    try:
        wait_for(lambda: len(second.plays()) == 2, what="the play published while the league was down")
        wait_for(lambda: second.stored["duplicates"] >= 1, what="the copy")
        assert [p["game_no"] for p in second.plays()] == [1, 2]
        assert second.counts()["actions"] == 1
    finally:
        second.close()


def test_a_play_finished_again_later_replaces_the_earlier_one(league, table):
    table.play("j-g", 1, ANA_BEN, ["Ana"], finished=100.0)
    wait_for(lambda: league.plays(), what="the play")
    table.play("j-g", 1, ANA_BEN, ["Ben"], finished=50.0)  # older copy: ignored
    table.play("j-g", 1, ANA_BEN, ["Ben"], finished=150.0)  # undone and finished again
    wait_for(lambda: league.plays()[0]["finished"] == 150.0, what="the newer result")
    assert len(league.plays()) == 1 and league.plays()[0]["winners"] == ["Ben"]
    # the ack names the play it holds by its end: a late ack of the first does not stand for the second
    wait_for(lambda: (table.ack_for("j-g", 1) or {}).get("finished") == 150.0, what="the newer play's ack")
    assert table.ack_for("j-g", 1)["play"] is True


def test_a_database_that_cannot_be_written_loses_nothing(league, table, monkeypatch, caplog):
    monkeypatch.setattr(league_module, "RETRY_EVERY", 0.1)
    real = league._store
    acks_while_failing = []

    def failing(batch):
        if len(acks_while_failing) < 3:
            acks_while_failing.append(table.ack_for("j-h", 1))
            raise sqlite3.OperationalError("database or disk is full")
        return real(batch)

    monkeypatch.setattr(league, "_store", failing)
    table.play("j-h", 1, ANA_BEN, ["Ana"])
    wait_for(lambda: league.plays(), what="the play once the disk came back")
    assert acks_while_failing == [None, None, None]  # nothing acknowledged that was not stored
    wait_for(lambda: table.ack_for("j-h", 1), what="the ack after the commit")
    assert table.ack_for("j-h", 1)["play"] is True
    assert "database or disk is full" in caplog.text


# -- standings, against a computation written independently ---------------------------------------
def independent(plays):
    """Points and Elo as docs/club.md states them, written straight from the text."""
    ordered = sorted(plays, key=lambda p: (p["finished"], p["table"], p["journal"], p["game_no"]))
    pools: dict[str, dict] = {}
    for p in ordered:
        for pool in ("*", p["game"]):
            st = pools.setdefault(pool, {"pts": {}, "n": {}, "wins": {}, "elo": {}})
            names = [q["name"] if isinstance(q, dict) else q for q in p["players"]]
            won = set(p["winners"])
            for n in names:
                st["n"][n] = st["n"].get(n, 0) + 1
                if n in won:
                    pts = 1 if p["draw"] else (3 if len(won) == 1 else 2)
                    st["pts"][n] = st["pts"].get(n, 0) + pts
                    st["wins"][n] = st["wins"].get(n, 0) + (0 if p["draw"] else 1)
                else:
                    st["pts"].setdefault(n, 0)
                    st["wins"].setdefault(n, 0)
            before = {n: st["elo"].get(n, 1500.0) for n in names}
            for a in names:
                delta = 0.0
                for b in names:
                    if a == b or (a not in won and b not in won):
                        continue
                    s = 0.5 if (a in won) == (b in won) else float(a in won)
                    delta += s - 1 / (1 + 10 ** ((before[b] - before[a]) / 400))
                st["elo"][a] = before[a] + (32 / (len(names) - 1) * delta if len(names) > 1 else 0)
    return pools


def generated_plays(n: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    people = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]
    out = []
    for i in range(n):
        names = rng.sample(people, rng.randint(1, 6))
        kind = rng.random()
        if kind < 0.1:
            winners, draw = rng.sample(names, min(len(names), 2)), True
        elif kind < 0.2:
            winners, draw = rng.sample(names, min(len(names), 2)), False
        elif kind < 0.25:
            winners, draw = [], False
        else:
            winners, draw = [rng.choice(names)], False
        out.append({"table": f"mesa-{rng.randint(1, 4)}", "journal": "j", "game_no": i,
                    "game": rng.choice(["counters", "other"]), "started": 0.0,
                    "finished": float(rng.randint(0, n // 3)),  # many ties on the finished time
                    "players": [{"name": x} if rng.random() < 0.5 else x for x in names],
                    "winners": winners, "draw": draw})
    return out


def test_standings_equal_an_independent_computation_over_many_plays():
    plays = generated_plays(600)
    got = standings.standings(plays)
    want = independent(plays)
    assert got["plays"] == 600
    for pool, rows in [("*", got["overall"]), *got["games"].items()]:
        st = want[pool]
        assert {r["player"] for r in rows} == set(st["n"])
        for r in rows:
            assert r["plays"] == st["n"][r["player"]]
            assert r["points"] == st["pts"][r["player"]]
            assert r["wins"] == st["wins"][r["player"]]
            assert math.isclose(r["rating"], round(st["elo"][r["player"]], 1), abs_tol=0.051)
        assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)


def test_elo_is_deterministic_whatever_order_the_plays_arrive_in():
    plays = generated_plays(300, seed=11)
    first = standings.standings(plays)
    for seed in range(3):
        shuffled = plays[:]
        random.Random(seed).shuffle(shuffled)
        assert standings.standings(shuffled) == first


def test_elo_figures_as_documented():
    duel = {"players": ["Ana", "Ben"], "winners": ["Ana"], "draw": False}
    assert standings.rating_changes({}, duel) == {"Ana": 16.0, "Ben": -16.0}
    three = {"players": ["Ana", "Ben", "Cai"], "winners": ["Ana"], "draw": False}
    assert standings.rating_changes({}, three) == {"Ana": 16.0, "Ben": -8.0, "Cai": -8.0}  # losers not compared
    shared = {"players": ["Ana", "Ben", "Cai"], "winners": ["Ana", "Ben"], "draw": False}
    assert standings.rating_changes({}, shared) == {"Ana": 8.0, "Ben": 8.0, "Cai": -16.0}
    nobody = {"players": ["Ana", "Ben"], "winners": [], "draw": False}
    assert standings.rating_changes({}, nobody) == {"Ana": 0.0, "Ben": 0.0}
    assert standings.rating_changes({"Ana": 1900.0}, duel)["Ana"] < 3  # the favourite gains little
    assert [standings.POINTS[r] for r in ("win", "shared", "draw", "loss")] == [3, 2, 1, 0]


def test_the_league_standings_over_many_plays_through_the_broker(league, broker):
    plays = generated_plays(120, seed=3)
    tables = {name: FakeTable(broker, name) for name in {p["table"] for p in plays}}
    try:
        for p in plays:
            fields = {k: v for k, v in p.items() if k != "table"}
            tables[p["table"]].send(contract.PLAYS, wait=False, **fields)
        wait_for(lambda: len(league.plays()) == 120, what="all the plays")
    finally:
        for t in tables.values():
            t.close()
    assert league.standings() == standings.standings(plays)


def test_a_message_not_stored_before_the_league_stops_is_delivered_again(broker, tmp_path, table, monkeypatch):
    """The broker's acknowledgement waits for the commit: what the league took but never stored
    (a crash, a disk that never came back) comes again from its session at the next start."""
    monkeypatch.setattr(league_module, "RETRY_EVERY", 0.05)
    db = tmp_path / "league.db"
    first = League(db, settings(broker, "league-crash")).start()
    wait_for(lambda: first.connected, what="the first league")
    tried = []

    def never(batch):
        tried.append(len(batch))
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(first, "_store", never)
    table.play("j-i", 1, ANA_BEN, ["Ana"])
    wait_for(lambda: tried, what="the first league to try")
    first.close()
    assert first.plays() == []
    second = League(db, settings(broker, "league-crash")).start()
    try:
        wait_for(lambda: second.plays(), what="the play delivered again")
        assert [p["journal"] for p in second.plays()] == ["j-i"]
    finally:
        second.close()


#: The commands' environment: an English system locale (the page and the messages follow the locale).
ENGLISH_ENV = {**{k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")},
               "LANG": "C.UTF-8"}


def _config(tmp_path, broker, **extra) -> Path:
    (tmp_path / "league.password").write_text(USERS["league"] + "\n")
    keys = {"host": f'"{broker.host}"', "port": broker.port, "password_file": '"league.password"',
            "db": '"data/league.db"', "http_port": 0, "client_id": '"league-cli"', **extra}
    lines = ["[league]"] + [f"{k} = {v}" for k, v in keys.items()]
    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text("\n".join(lines) + "\n")
    return cfg


@pytest.mark.slow
def test_club_serve_runs_the_league_and_the_page_under_systemd_rules(broker, tmp_path, table):
    cfg = _config(tmp_path, broker)
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(10)
    env = {**ENGLISH_ENV, "NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "2000000"}
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen([sys.executable, "-m", "tablekeeper.ui.cli", "--state-dir", str(tmp_path / "state"),
                             "club", "serve", "--config", str(cfg)], env=env, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        url = re.search(r"page at (http://127\.0\.0\.1:\d+/)", line)
        assert url, line
        messages = []
        while not any("READY=1" in m for m in messages) or not any("WATCHDOG=1" in m for m in messages):
            messages.append(notify.recv(4096).decode())
        table.play("j-cli", 1, ANA_BEN, ["Ana"], finished=1700000000.0)
        wait_for(lambda: "won by Ana" in urllib.request.urlopen(url.group(1), timeout=5).read().decode(),
                 what="the play on the served page")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        rest = proc.stderr.read()
        assert "stopped: 1 play and " in rest, rest
        assert any("STOPPING=1" in m for m in _drain(notify))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        notify.close()
    out = subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "club", "standings", "--config", str(cfg),
                          "--json"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["overall"][0] == {"rank": 1, "player": "Ana", "plays": 1, "wins": 1, "shared": 0,
                                                    "draws": 0, "points": 3, "rating": 1516.0}


def _drain(sock: socket.socket) -> list[str]:
    out = []
    sock.settimeout(0.5)
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except TimeoutError:
        return out


@pytest.mark.slow
def test_club_commands_refuse_a_bad_config_and_a_missing_database_with_a_sentence(broker, tmp_path):
    cfg = _config(tmp_path, broker, http_port='"eighty"')
    out = subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "club", "serve", "--config", str(cfg)],
                         capture_output=True, text=True, timeout=30, env=ENGLISH_ENV)
    assert out.returncode == 1 and "league.http_port: must be a whole number" in out.stderr
    cfg = _config(tmp_path, broker)
    out = subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "club", "standings", "--config", str(cfg)],
                         capture_output=True, text=True, timeout=30, env=ENGLISH_ENV)
    assert out.returncode == 1 and "no league database at" in out.stderr
    # without a password: the docs say it has no default; the broker takes no anonymous client
    nopw = tmp_path / "nopw.toml"
    nopw.write_text(f'[league]\nport = {broker.port}\ndb = "{tmp_path / "n.db"}"\nhttp_port = 0\n')
    out = subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "club", "serve", "--config", str(nopw)],
                         capture_output=True, text=True, timeout=30, env=ENGLISH_ENV)
    assert out.returncode == 1 and "league.password_file (or league.password) is missing" in out.stderr
    assert out.stderr.strip().count("\n") == 0 and not (tmp_path / "n.db").exists()  # before anything


def test_standings_built_one_play_at_a_time_refuse_a_late_play():
    built = standings.Standings()
    built.add({"players": ["Ana", "Ben"], "winners": ["Ana"], "draw": False, "finished": 10.0, "game": "counters"})
    with pytest.raises(ValueError, match="older than the last"):
        built.add({"players": ["Ana", "Ben"], "winners": ["Ben"], "draw": False, "finished": 5.0, "game": "counters"})
    assert built.result()["plays"] == 1


def test_the_league_keeps_its_standings_right_while_plays_arrive_late_and_again(league, table):
    sent = []
    for i, finished in enumerate((300.0, 100.0, 400.0, 200.0)):  # two arrive after a newer one
        winner = ["Ana", "Ben"][i % 2]
        table.play("j-late", i, ANA_BEN, [winner], finished=finished)
        sent.append({"table": "mesa-1", "journal": "j-late", "game_no": i, "game": "counters",
                     "finished": finished, "players": ANA_BEN, "winners": [winner], "draw": False})
        wait_for(lambda n=i + 1: len(league.plays()) == n, what=f"play {i}")
        assert league.standings() == standings.standings(sent)
    table.play("j-late", 0, ANA_BEN, ["Ben"], finished=500.0)  # finished again, later
    sent[0] = {**sent[0], "winners": ["Ben"], "finished": 500.0}
    wait_for(lambda: league.plays()[-1]["finished"] == 500.0, what="the replaced play")
    assert league.standings() == standings.standings(sent)
    assert [p["finished"] for p in league.plays()] == [100.0, 200.0, 400.0, 500.0]


def test_a_league_kept_from_its_broker_says_why_and_keeps_trying(broker, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="tablekeeper.club.league")
    wrong = BrokerSettings(broker.host, broker.port, "league", "not-the-password", client_id="league-wrong")
    with League(tmp_path / "a.db", wrong) as lg:
        wait_for(lambda: lg.problem, what="the refusal")
        assert "refused the league" in lg.problem and "Not authorized" in lg.problem and not lg.connected
        assert lg.alive()
    port = broker.port + 1 if broker.port < 65535 else broker.port - 1
    nowhere = BrokerSettings("127.0.0.1", port, "league", "x", client_id="league-nowhere")
    with League(tmp_path / "b.db", nowhere) as lg:
        wait_for(lambda: lg.problem, what="the failed connection")
        assert lg.problem.startswith("cannot reach the broker at league@127.0.0.1:")
    assert len([r for r in caplog.records if "refused the league" in r.getMessage()]) == 1  # once a minute


def test_a_database_that_cannot_be_opened_is_one_sentence(tmp_path, broker):
    bad = tmp_path / "league.db"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(league_module.LeagueError, match=r"cannot open the league's database .*league\.db: "
                                                        r"file is not a database"):
        League(bad, settings(broker))
    with pytest.raises(league_module.LeagueError, match="cannot read the league's database .*not a database"):
        league_module.stored_plays(bad)  # what `club standings` reads
    (tmp_path / "file").write_text("")
    with pytest.raises(league_module.LeagueError, match="cannot open the league's database"):
        League(tmp_path / "file" / "league.db", settings(broker))  # its folder is a file


def _play(table, journal: str, game_no: int, winner: str, *, actions: int, identity: str | None = None,
          finished: float = 2000.0) -> None:
    extra = {"identity": identity} if identity else {}
    table.send(contract.PLAYS, journal=journal, game_no=game_no, game="counters", started=finished - 600,
               finished=finished, players=ANA_BEN, winners=[winner], draw=False, actions=actions, **extra)


def test_an_action_after_a_plays_last_takes_it_back_and_a_late_copy_of_it_stays_out(league, table):
    for seq in (1, 2, 3):
        table.action("j-u", 1, seq)
    _play(table, "j-u", 1, "Ben", actions=3)
    wait_for(lambda: len(league.plays()) == 1, what="the play")
    table.action("j-u", 1, 4, {"action": "undo"})  # the end undone at the table
    wait_for(lambda: league.stored["retracted"] == 1, what="the play taken back")
    assert league.plays() == [] and league.standings()["plays"] == 0
    _play(table, "j-u", 1, "Ben", actions=3)  # the publisher's resend of the old play, late
    table.action("j-u", 1, 5)
    wait_for(lambda: league.stored["actions"] == 5, what="the next action")
    assert league.plays() == []  # an old copy: the game went on after it
    _play(table, "j-u", 1, "Ana", actions=5, finished=2100.0)  # the game's new end
    wait_for(lambda: len(league.plays()) == 1, what="the new end")
    assert league.plays()[0]["winners"] == ["Ana"]


def test_one_play_from_two_tables_counts_once_and_its_copy_stands_in_when_the_first_is_taken_back(
        league, table, broker):
    other = FakeTable(broker, "mesa-2")
    try:
        for t, journal in ((table, "j-1"), (other, "j-2")):
            t.action(journal, 1, 1)
            _play(t, journal, 1, "Ana", actions=1, identity="same-game")
        wait_for(lambda: league.counts()["plays"] == 2, what="both copies")
        assert [p["journal"] for p in league.plays()] == ["j-1"]
        assert league.standings()["plays"] == 1
        assert len(league_module.stored_plays(league.db_path)) == 1
        table.action("j-1", 1, 2, {"action": "undo"})
        wait_for(lambda: league.stored["retracted"] == 1, what="the first taken back")
        assert [p["journal"] for p in league.plays()] == ["j-2"] and league.standings()["plays"] == 1
    finally:
        other.close()


def _named_play(t, journal: str, names: list[str], winner: str, finished: float) -> None:
    t.action(journal, 1, 1)
    t.send(contract.PLAYS, journal=journal, game_no=1, game="counters", started=finished - 600, finished=finished,
           players=[{"name": n, "counters": {"score": 1}, "out": False} for n in names], winners=[winner],
           draw=False, actions=1)


def test_standings_count_the_names_the_organiser_merged_as_one_person():
    plays = [{"game": "counters", "finished": 1.0, "players": ["Ana María", "Ben"], "winners": ["Ana María"]},
             {"game": "counters", "finished": 2.0, "players": ["Ana", "Cai"], "winners": ["Ana"]},
             {"game": "counters", "finished": 3.0, "players": ["Ana", "Ana María"], "winners": ["Ana"]}]
    rows = {r["player"]: r for r in standings.standings(plays, {"Ana María": "Ana"})["overall"]}
    # the third play named both: two people after all, so it keeps its names
    assert rows["Ana"]["plays"] == 3 and rows["Ana"]["wins"] == 3 and rows["Ana María"]["plays"] == 1
    assert {r["player"] for r in standings.standings(plays)["overall"]} == {"Ana", "Ana María", "Ben", "Cai"}


def test_the_organiser_merges_two_names_of_one_person_and_the_running_league_counts_them_once(
        league, table, broker, tmp_path):
    """«The league ignores the roster: "Ana" and "Ana María" stay two players»: `club merge` counts them as one
    person in the running league's standings and in `club standings`; the plays keep the names the tables
    sent; a merge that cannot be right is refused in one sentence; `club unmerge` splits them again."""
    other = FakeTable(broker, "mesa-2")
    try:
        _named_play(table, "j-m1", ["Ana María", "Ben"], "Ana María", 2000.0)
        _named_play(other, "j-m2", ["Ana", "Cai"], "Ana", 2100.0)
        wait_for(lambda: len(league.plays()) == 2, what="both plays")
        assert {"Ana", "Ana María"} <= {r["player"] for r in league.standings()["overall"]}
        cfg = _config(tmp_path, broker, db='"league/league.db"')

        def club(*argv):
            return subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "club", *argv, "--config", str(cfg)],
                                  capture_output=True, text=True, timeout=30, env=ENGLISH_ENV)

        done = club("merge", "Ana María", "Ana")
        assert done.returncode == 0 and done.stdout.strip() == "Ana María counts as Ana", done.stderr
        rows = {r["player"]: r for r in league.standings()["overall"]}
        assert "Ana María" not in rows and (rows["Ana"]["plays"], rows["Ana"]["wins"]) == (2, 2)
        assert [p["players"][0]["name"] for p in league.plays()] == ["Ana María", "Ana"]  # as the tables sent them
        listed = json.loads(club("standings", "--json").stdout)
        assert {r["player"] for r in listed["overall"]} == {"Ana", "Ben", "Cai"}
        for argv, said in ((("merge", "Ana", "Ana María"), "'Ana' and 'Ana María' are one name already"),
                           (("merge", "Anna", "Ana"), "no play names 'Anna'"),
                           (("merge", "Ben", "Ana María"), "'Ben' and 'Ana María' played together in play"),
                           (("unmerge", "Ben"), "'Ben' is not merged into anyone")):
            refused = club(*argv)
            assert refused.returncode == 1 and said in refused.stderr, (argv, refused.stderr)
            assert refused.stderr.strip().count("\n") == 0
        assert league_module.stored_people(league.db_path) == {"Ana María": "Ana"}  # nothing changed
        undone = club("unmerge", "Ana María")
        assert undone.returncode == 0 and undone.stdout.strip() == "no names merged"
        assert {"Ana", "Ana María"} <= {r["player"] for r in league.standings()["overall"]}
    finally:
        other.close()


def test_the_running_league_and_its_page_follow_a_void_and_a_fix_without_a_restart(league, table, broker, tmp_path):
    """`club void` in another process: the running league's standings drop the play, its page (a live
    event, no reload, no message from any table) says it was voided and why; `club unvoid` counts it
    again; `club fix` changes who won."""
    from tablekeeper.ui.club.web import Page

    _named_play(table, "j-v1", ["Ana", "Ben"], "Ana", 3000.0)
    _named_play(table, "j-v2", ["Ana", "Ben"], "Ana", 3100.0)
    wait_for(lambda: len(league.plays()) == 2, what="both plays")
    page = Page(league, "127.0.0.1", 0).start()
    cfg = _config(tmp_path, broker, db='"league/league.db"')

    def club(*argv):
        return subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "club", *argv, "--config", str(cfg)],
                              capture_output=True, text=True, timeout=30, env=ENGLISH_ENV)

    def shown(path: str) -> str:
        return urllib.request.urlopen(page.url + path, timeout=5).read().decode()

    try:
        gid = league.plays()[1]["id"]
        assert "voided" not in shown(f"plays/{gid}") and "<td>Ana</td><td>2</td><td>2</td>" in shown("")
        version, handled = league.version, league.handled
        done = club("void", str(gid), "--reason", "a practice game")
        assert done.returncode == 0 and done.stdout.strip() == f"play {gid} is void: it no longer counts", done.stderr
        wait_for(lambda: league.version > version, what="the league to notice the void")
        assert league.handled == handled  # no table said anything: the organiser's change alone
        rows = {r["player"]: r for r in league.standings()["overall"]}
        assert (rows["Ana"]["plays"], rows["Ana"]["wins"], rows["Ben"]["plays"]) == (1, 1, 1)
        assert "voided by the organiser: a practice game" in shown(f"plays/{gid}")
        assert "<td>Ana</td><td>1</td><td>1</td>" in shown("")
        assert len(league.plays()) == 2  # kept as the table sent it

        version = league.version
        assert club("unvoid", str(gid)).returncode == 0
        wait_for(lambda: league.version > version, what="the league to notice the unvoid")
        assert {r["player"]: r["plays"] for r in league.standings()["overall"]} == {"Ana": 2, "Ben": 2}
        assert club("fix", str(gid), "--winner", "Ben").returncode == 0
        wait_for(lambda: "result fixed by the organiser: won by Ben" in shown(f"plays/{gid}"), what="the fix")
        assert {r["player"]: r["wins"] for r in league.standings()["overall"]} == {"Ana": 1, "Ben": 1}
    finally:
        page.stop()
