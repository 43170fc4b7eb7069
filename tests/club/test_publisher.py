"""The table's publisher on a real Mosquitto: everything comes from the journal, at least once, in the
contract's payloads; the league's acks are kept beside the journal and a restarted table resumes from
them; a dead broker or garbage on the ack topic costs nothing and loses nothing."""
from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import threading

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine.backup import table_id
from tablekeeper.engine.journal_rows import JournalRows
from tablekeeper.hardware.errors import ConfigError
from tablekeeper.ui.club import config, contract
from tablekeeper.ui.club.league import League
from tablekeeper.ui.club.publisher import ACK_FILE, Publisher
from tablekeeper.ui.controller import Keeper

from .conftest import USERS
from .fake_table import wait_for
from .proxy import Relay
from .recorder import Recorder

#: First to 5 wins: a game of a dozen actions.
RACE = {"counters": [{"name": "score", "start": 0, "min": 0, "target": 5}]}


def club(host: str, port: int, name: str = "mesa-1") -> config.ClubSettings:
    settings = config.club_settings({"club": {"table": name, "host": host, "port": port, "password": USERS[name]}})
    assert settings is not None
    return settings


def league(broker, folder) -> League:
    settings = config.league_settings({"league": {"host": broker.host, "port": broker.port,
                                                  "password": USERS["league"]}}, state_dir=folder)
    return League(settings.db, settings.broker, reconnect_max=1)


def listening(lg: League) -> League:
    """The league once the broker has granted its subscriptions (a play published before would miss it)."""
    wait_for(lambda: lg.connected, what="the league to listen to the tables")
    return lg


def publisher(settings: config.ClubSettings, folder, journal_id: str) -> Publisher:
    return Publisher(settings, folder, journal_id=journal_id, reconnect=(1, 1), poll=0.2, resend_after=5)


def first_copies(messages: list[dict]) -> list[dict]:
    """Each action once, as it first arrived (delivery is at least once: a copy may follow)."""
    seen: set[tuple] = set()
    out = []
    for m in messages:
        key = (m["journal"], m["game_no"], m.get("seq"))
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def play(session: Session, rng: random.Random, steps: int | None = None) -> None:
    """Adjust scores at random until the game ends (or for ``steps`` actions)."""
    players = session.record.setup["players"]
    n = 0
    while not session.state["over"] and (steps is None or n < steps):
        session.apply({"action": "adjust", "player": rng.choice(players), "counter": "score", "delta": 1})
        n += 1


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "mesa-1", durable=False)
    yield journal, table_id(journal)
    journal.close()


# -- the config ---------------------------------------------------------------------------------
def test_no_club_table_means_club_mode_is_off():
    assert config.club_settings({"pods": {"backend": "mock"}}) is None


@pytest.mark.parametrize(("club_table", "key", "says"), [
    ({}, "[club]", "missing key 'table'"),
    ({"table": "mesa 1"}, "club.table", "1 to 32 letters"),
    ({"table": "mesa-1", "port": "1883"}, "club.port", "whole number"),
    ({"table": "mesa-1", "port": 70000}, "club.port", "out of range"),
    ({"table": "mesa-1", "host": ""}, "club.host", "text in quotes"),
    ({"table": "mesa-1", "tls": "yes"}, "club.tls", "true, false or a table"),
    ({"table": "mesa-1", "tls": {"ca_file": "no-such.pem"}}, "club.tls.ca_file", "no such file"),
    ({"table": "mesa-1", "tls": {"cafile": "x"}}, "club.tls.cafile", "unknown key"),
    ({"table": "mesa-1", "password": "a", "password_file": "b"}, "club.password", "not both"),
    ({"table": "mesa-1", "password_file": "missing.txt"}, "club.password_file", "no such file"),
    ({"table": "mesa-1", "prefix": "club/#"}, "club.prefix", "no '+', '#'"),
    ({"table": "mesa-1", "colour": "red"}, "club.colour", "unknown key"),
    ({"table": "mesa-1"}, "club.password_file", "missing (or password)"),
])
def test_a_malformed_club_table_is_one_sentence_naming_the_key(tmp_path, club_table, key, says):
    with pytest.raises(ConfigError) as e:
        config.club_settings({"club": club_table}, source="tablekeeper.toml", base=tmp_path)
    assert str(e.value).startswith(f"tablekeeper.toml: {key}"), str(e.value)
    assert says in str(e.value)


def test_a_config_file_gives_both_sides_their_settings(tmp_path, monkeypatch):
    (tmp_path / "club.password").write_text("s3cret\n")
    (tmp_path / "ca.pem").write_text("a CA\n")
    path = tmp_path / "tablekeeper.toml"
    path.write_text('[club]\ntable = "mesa-2"\nhost = "10.0.0.5"\npassword_file = "club.password"\n'
                    'tls = { ca_file = "ca.pem" }\n\n[league]\npassword = "pw"\nhttp_port = 8088\n')
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    table = config.club_settings(path)
    assert table is not None and table.table == "mesa-2"
    b = table.broker
    assert (b.host, b.port, b.username, b.password, b.tls, b.ca_file) == (
        "10.0.0.5", config.TLS_PORT, "mesa-2", "s3cret", True, tmp_path / "ca.pem")
    assert b.client_id == "tablekeeper-table-mesa-2"  # fixed: the broker keeps its session
    assert "s3cret" not in repr(table)
    lg = config.league_settings(path, state_dir=tmp_path / "state")
    assert (lg.broker.username, lg.broker.password, lg.http_host, lg.http_port, lg.db) == (
        "league", "pw", "127.0.0.1", 8088, tmp_path / "state" / "league.db")
    with pytest.raises(ConfigError, match=r"league\.http_port: 70000 is out of range"):
        config.league_settings({"league": {"http_port": 70000}})


def test_a_tls_file_that_is_no_certificate_is_said_and_the_table_plays_on(tmp_path):
    (tmp_path / "ca.pem").write_text("not a certificate\n")
    settings = config.club_settings({"club": {"table": "mesa-1", "password": "x", "tls": {"ca_file": "ca.pem"}}},
                                    base=tmp_path)
    assert settings is not None
    said: list[str] = []
    keeper = Keeper(tmp_path / "mesa-1", durable=False).start(resume=False)
    pub = Publisher(settings, tmp_path / "mesa-1", report=said.append).attach(keeper).start()
    keeper.new_game("counters", ["Ana", "Ben"], RACE)
    keeper.submit({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
    assert keeper.wait_idle(5) and keeper.snapshot.table.state["players"][0]["counters"]["score"] == 1
    wait_for(lambda: pub.problem, what="the problem said")
    assert not pub.online and said == [f"club: cannot start publishing: [club] tls: ca_file {tmp_path / 'ca.pem'} "
                                       "cannot be used: no certificate or crl found"]
    pub.stop()
    keeper.stop()


# -- publishing ---------------------------------------------------------------------------------
def test_every_action_and_the_finished_play_reach_the_league_in_the_contracts_payloads(broker, tmp_path, table):
    journal, jid = table
    seen = Recorder(broker.host, broker.port)
    lg = listening(league(broker, tmp_path).start())
    session = Session.new(journal, "counters", ["Ana", "Ben", "Cai"], RACE)
    play(session, random.Random(1))
    total = journal.next_seq(session.game_id)
    with publisher(club(broker.host, broker.port), tmp_path / "mesa-1", jid) as pub:
        wait_for(lambda: session.game_id in pub.settled() or pub.acks().get(session.game_id) == (total, True),
                 what="the league's ack of every action and the play")
        wait_for(lambda: len(seen.of(contract.PLAYS)) == 1, what="the play on the broker")
    actions = first_copies(seen.of(contract.ACTIONS, "mesa-1"))
    assert [a["seq"] for a in actions] == list(range(1, total + 1))  # in order, counted from 1
    assert [a["entry"] for a in actions] == [e for _s, e in journal.entries(session.game_id)]
    assert {(a["journal"], a["game_no"], a["game"]) for a in actions} == {(jid, session.game_id, "counters")}
    assert actions[0]["setup"]["players"] == ["Ana", "Ben", "Cai"]
    (body,) = first_copies(seen.of(contract.PLAYS, "mesa-1"))
    state = session.state
    assert body["winners"] == state["winners"] and body["draw"] is False
    assert [(p["name"], p["figure"], p["win"]) for p in body["players"]] == [
        (p["name"], float(p["counters"]["score"]), p["name"] in state["winners"]) for p in state["players"]]
    record = journal.game(session.game_id)
    assert record is not None and (body["started"], body["finished"]) == (record.started, record.finished)
    assert body["result"] == record.result
    assert [(p["game_no"], p["winners"]) for p in lg.plays()] == [(session.game_id, state["winners"])]
    # said on a clean stop (retained); the observer gets it a moment after the stop returns
    wait_for(lambda: seen.of(contract.STATUS)[-1]["online"] is False, what="the offline status on the broker")
    live = seen.of(contract.LIVE)[-1]  # no owner here: the newest game, replayed from the journal
    assert (live["game_no"], live["over"], live["winners"], live["actions"]) == (
        session.game_id, True, state["winners"], total)
    assert [p["counters"] for p in live["players"]] == [p["counters"] for p in state["players"]]
    lg.stop()
    seen.close()


def test_a_restarted_table_publishes_only_what_its_ack_file_does_not_cover(broker, tmp_path, table):
    journal, jid = table
    folder = tmp_path / "mesa-1"
    lg = listening(league(broker, tmp_path).start())
    rng = random.Random(2)
    first = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    play(first, rng)
    second = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    play(second, rng, steps=3)
    with publisher(club(broker.host, broker.port), folder, jid) as pub:
        wait_for(lambda: pub.acks().get(second.game_id) == (3, False), what="the first three actions acked")
        wait_for(lambda: first.game_id in pub.settled(), what="the finished game settled")
    saved = json.loads((folder / ACK_FILE).read_text())
    assert saved["journal"] == jid and saved["settled"] == [[first.game_id, first.game_id]]
    assert saved["games"][str(second.game_id)][0] == 3
    play(second, rng)  # the table plays on while its publisher is down (a reboot)
    total = journal.next_seq(second.game_id)
    seen = Recorder(broker.host, broker.port)
    with publisher(club(broker.host, broker.port), folder, jid) as pub:
        wait_for(lambda: pub.acks().get(second.game_id) == (total, True), what="the rest of the game acked")
        wait_for(lambda: seen.of(contract.PLAYS), what="the second play on the broker")
    sent = [(a["game_no"], a["seq"]) for a in first_copies(seen.of(contract.ACTIONS))]
    assert sent == [(second.game_id, s) for s in range(4, total + 1)]  # nothing acknowledged went again
    assert {p["game_no"] for p in seen.of(contract.PLAYS)} == {second.game_id}
    assert sorted(p["game_no"] for p in lg.plays()) == [first.game_id, second.game_id]
    lg.stop()
    seen.close()


def test_an_unusable_ack_file_is_set_aside_and_everything_goes_again(broker, tmp_path, table):
    journal, jid = table
    folder = tmp_path / "mesa-1"
    session = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    play(session, random.Random(7))
    (folder / ACK_FILE).write_text('{"v": 1, "table": "mesa-1", "journal": "' + jid + '", "games": {"1": [')
    said: list[str] = []
    lg = listening(league(broker, tmp_path).start())
    with Publisher(club(broker.host, broker.port), folder, journal_id=jid, report=said.append, poll=0.2) as pub:
        wait_for(lambda: pub.acks().get(session.game_id) == (journal.next_seq(session.game_id), True),
                 what="the game published and acked from the start")
    assert [p.name for p in folder.glob("club-acks.unusable-*.json")] and json.loads((folder / ACK_FILE).read_text())
    assert any("not a usable ack file" in line and "published again" in line for line in said)
    lg.stop()


@pytest.mark.slow  # waits for real reconnection timers (a second each)
def test_a_dead_broker_costs_a_press_nothing_and_loses_nothing(broker, tmp_path):
    broker.kill()  # down before the table starts, and for the whole game
    keeper = Keeper(tmp_path / "mesa-1", durable=False).start(resume=False)
    pub = Publisher(club(broker.host, broker.port), tmp_path / "mesa-1", reconnect=(1, 1), poll=0.2)
    pub.attach(keeper).start()
    keeper.new_game("counters", ["Ana", "Ben"], {"counters": [{"name": "score", "start": 0, "target": 20}]})
    keeper.wait_idle()
    for _i in range(20):  # the 20th ends the game; each press is taken in (none waits on the broker)
        keeper.submit({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
        assert keeper.wait_idle(5)
    # what publishing costs a press is a figure, not a test: bench/bench_club_table.py (club_press_*)
    # the publisher's first try may come after the presses (its own thread, a loaded machine): waited for
    wait_for(lambda: pub.problem and "cannot reach" in pub.problem, timeout=60, what="the publisher's sentence")
    assert not pub.online
    assert "offline" in pub.status_text()
    assert keeper.snapshot.table.over
    total = keeper.journal.next_seq(keeper.session.game_id)
    broker.start()
    lg = listening(league(broker, tmp_path).start())
    wait_for(lambda: pub.online, what="the publisher reconnecting")
    wait_for(lambda: len(lg.plays()) == 1, what="the play reaching the league")
    wait_for(lambda: pub.acks().get(1) == (total, True), what="every action and the play acked")
    pub.stop()
    keeper.stop()
    lg.stop()


def test_garbage_on_the_ack_topic_is_dropped_and_loses_nothing(broker, tmp_path, table):
    journal, jid = table
    session = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    play(session, random.Random(3), steps=3)
    seen = Recorder(broker.host, broker.port)
    lg = listening(league(broker, tmp_path).start())
    with publisher(club(broker.host, broker.port), tmp_path / "mesa-1", jid) as pub:
        wait_for(lambda: pub.acks().get(session.game_id) == (3, False), what="the first actions acked")
        ack = {"table": "mesa-1", "journal": jid, "game_no": session.game_id}
        garbage = [b"not json", b"\xff\xfe", contract.encode({**ack, "seq": 3}).replace(b'"v":1', b'"v":9'),
                   contract.encode({**ack, "seq": "3", "play": False}),
                   contract.encode({**ack, "table": "mesa-2", "seq": 3, "play": False}),
                   contract.encode({**ack, "seq": -1, "play": False}),
                   contract.encode({**ack, "seq": 10**6, "play": True}),  # more than the journal holds
                   contract.encode({**ack, "journal": "another", "seq": 3, "play": True})]
        for payload in garbage:
            seen.ack("mesa-1", payload)
        wait_for(lambda: pub.counts.bad_acks == len(garbage), what="every bad ack counted")
        acks = pub.counts.acks
        seen.ack("mesa-1", contract.encode({**ack, "seq": 3, "play": True}))  # the play of an unfinished game
        wait_for(lambda: pub.counts.acks > acks, what="the last ack taken in")
        assert pub.acks().get(session.game_id) == (3, False)  # nothing believed beyond what the journal holds
        assert pub.online
        play(session, random.Random(3))
        pub.wake()
        total = journal.next_seq(session.game_id)
        wait_for(lambda: pub.acks().get(session.game_id) == (total, True), what="the real league's acks")
    assert [p["game_no"] for p in lg.plays()] == [session.game_id]
    assert [a["seq"] for a in first_copies(seen.of(contract.ACTIONS))] == list(range(1, total + 1))
    lg.stop()
    seen.close()


def test_a_look_at_the_journal_cut_short_by_a_lock_loses_nothing(broker, tmp_path, table, monkeypatch):
    journal, jid = table
    rng = random.Random(5)
    sessions = [Session.new(journal, "counters", ["Ana", "Ben"], RACE) for _ in range(3)]
    for s in sessions:
        play(s, rng)
    real = JournalRows.next_seq
    failed = []

    def locked_once(self, game_id):
        # the journal is busy just when the publisher counts the games' actions
        if threading.current_thread().name.startswith("club-") and not failed:
            failed.append(game_id)
            raise sqlite3.OperationalError("database is locked")
        return real(self, game_id)

    monkeypatch.setattr(JournalRows, "next_seq", locked_once)
    said: list[str] = []
    lg = listening(league(broker, tmp_path).start())
    pub = Publisher(club(broker.host, broker.port), tmp_path / "mesa-1", journal_id=jid, report=said.append,
                    poll=0.2)
    with pub:
        wait_for(lambda: len(lg.plays()) == 3 and all(pub.acks().get(s.game_id, (0, True))[1] or
                                                      s.game_id in pub.settled() for s in sessions),
                 what="every play acked")
        wait_for(lambda: lg.counts()["actions"] == sum(journal.next_seq(s.game_id) for s in sessions),
                 what="every action held")
    assert failed and any("cannot read the journal" in line and "locked" in line for line in said)
    lg.stop()


def test_a_journal_replaced_by_its_repair_is_read_anew(broker, tmp_path, table):
    journal, jid = table
    rng = random.Random(8)
    first = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    play(first, rng)
    lg = listening(league(broker, tmp_path).start())
    with publisher(club(broker.host, broker.port), tmp_path / "mesa-1", jid) as pub:
        wait_for(lambda: [p["game_no"] for p in lg.plays()] == [first.game_id], what="the first play")
        # what a repair on opening does: a fresh file (here: a copy, played on) renamed over the journal
        (tmp_path / "fresh").mkdir()
        journal.backup(tmp_path / "fresh" / "journal.db")
        with Journal(tmp_path / "fresh", durable=False) as fresh:
            second = Session.new(fresh, "counters", ["Ana", "Ben"], RACE)
            play(second, rng)
        journal.close()
        os.replace(tmp_path / "fresh" / "journal.db", tmp_path / "mesa-1" / "journal.db")
        pub.wake()
        wait_for(lambda: sorted(p["game_no"] for p in lg.plays()) == [first.game_id, second.game_id],
                 what="the repaired journal's new game published")
    lg.stop()


def test_a_damaged_entry_is_where_publishing_stops_until_the_owner_sets_it_aside(broker, tmp_path, table):
    journal, jid = table
    session = Session.new(journal, "counters", ["Ana", "Ben"], {"counters": [{"name": "score", "target": 9}]})
    for _ in range(4):
        session.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
    with sqlite3.connect(journal.path) as raw:  # the third entry's bytes go bad on the card
        raw.execute("UPDATE entries SET crc = (crc | 3) - (crc & 3) WHERE game = ? AND seq = 2", (session.game_id,))
    said: list[str] = []
    lg = listening(league(broker, tmp_path).start())
    with Publisher(club(broker.host, broker.port), tmp_path / "mesa-1", journal_id=jid, report=said.append,
                   poll=0.2) as pub:
        wait_for(lambda: any("entry 2 does not read back" in line for line in said), what="the damage said")
        wait_for(lambda: pub.acks().get(session.game_id) == (2, False), what="the two sound entries acked")
        # the owner reads the game again: the damaged entry and those after it go to the quarantine,
        # and the game goes on from the last sound one
        resumed = Session.load(journal, session.game_id)
        assert journal.next_seq(session.game_id) == 2
        for _ in range(7):
            resumed.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
        assert resumed.state["over"]
        pub.wake()
        wait_for(lambda: pub.acks().get(session.game_id) == (9, True), what="the rest of the repaired game")
    assert [p["winners"] for p in lg.plays()] == [["Ana"]]
    lg.stop()


def test_an_action_with_one_flipped_bit_reaches_the_league_as_the_journal_puts_it_right(broker, tmp_path, table):
    journal, jid = table
    seen = Recorder(broker.host, broker.port)
    session = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    play(session, random.Random(4))
    total = journal.next_seq(session.game_id)
    with sqlite3.connect(journal.path) as raw:  # one bit of the third entry goes bad on the card: '1' ^ '3'
        raw.execute("UPDATE entries SET body = replace(body, '\"delta\":1', '\"delta\":3') WHERE game = ? AND seq = 2",
                    (session.game_id,))
    said: list[str] = []
    lg = listening(league(broker, tmp_path).start())
    with Publisher(club(broker.host, broker.port), tmp_path / "mesa-1", journal_id=jid, report=said.append,
                   poll=0.2) as pub:
        wait_for(lambda: pub.acks().get(session.game_id) == (total, True), what="every action and the play held")
    actions = first_copies(seen.of(contract.ACTIONS, "mesa-1"))
    assert [a["entry"] for a in actions] == [e for _s, e in journal.entries(session.game_id)]  # as put right
    assert [a["entry"]["delta"] for a in actions] == [1] * total
    assert not any("does not read back" in line for line in said)
    assert [p["winners"] for p in lg.plays()] == [session.state["winners"]]
    lg.stop()
    seen.close()


def test_live_is_retained_with_the_players_counters_and_whose_turn(broker, tmp_path):
    keeper = Keeper(tmp_path / "mesa-1", durable=False).start(resume=False)
    with Publisher(club(broker.host, broker.port), tmp_path / "mesa-1", poll=0.2, live_every=0.05) as pub:
        pub.attach(keeper)
        keeper.new_game("counters", ["Ana", "Ben"], RACE)
        keeper.submit({"action": "adjust", "player": "Ben", "counter": "score", "delta": 2})
        keeper.submit({"action": "next"})
        keeper.wait_idle()
        wait_for(lambda: pub.counts.lives and pub._live_key == ("owner", keeper.snapshot.serial),
                 what="the newest snapshot published")
        late = Recorder(broker.host, broker.port)  # a page opened now gets the retained messages
        wait_for(lambda: late.of(contract.LIVE) and late.of(contract.STATUS), what="the retained live and status")
        live = late.of(contract.LIVE)[-1]
        assert late.of(contract.STATUS)[-1]["online"] is True
    assert (live["game"], live["game_no"], live["main_counter"], live["turn"]) == ("counters", 1, "score", "Ben")
    assert [(p["name"], p["counters"]["score"]) for p in live["players"]] == [("Ana", 0), ("Ben", 2)]
    assert live["journal"] == pub.journal_id and live["over"] is False
    keeper.stop()
    late.close()


@pytest.mark.slow  # waits for a real reconnection timer
def test_a_cut_connection_says_offline_by_its_last_will_and_comes_back(broker, tmp_path, table):
    journal, jid = table
    relay = Relay(broker.host, broker.port)
    seen = Recorder(broker.host, broker.port)
    with publisher(club(relay.host, relay.port), tmp_path / "mesa-1", jid) as pub:
        wait_for(lambda: pub.online, what="connected through the relay")
        relay.block()  # the Wi-Fi goes: no goodbye
        wait_for(lambda: [s["online"] for s in seen.of(contract.STATUS)][-1:] == [False],
                 what="the broker publishing the last will")
        session = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
        play(session, random.Random(4), steps=2)
        relay.unblock()
        wait_for(lambda: [s["online"] for s in seen.of(contract.STATUS)][-1:] == [True], what="online again")
        pub.wake()
        wait_for(lambda: {a["seq"] for a in seen.of(contract.ACTIONS)} == {1, 2}, what="the actions after it")
    relay.close()
    seen.close()


@pytest.mark.slow  # waits for a real reconnection timer
def test_a_broker_that_lost_everything_gets_everything_again(broker, tmp_path, table):
    journal, jid = table
    lg = listening(league(broker, tmp_path).start())
    wait_for(lambda: lg.connected, what="the league's session made at the broker")
    lg.stop()  # away: the broker keeps what comes for it ...
    session = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    play(session, random.Random(6))
    total = journal.next_seq(session.game_id)
    pub = Publisher(club(broker.host, broker.port), tmp_path / "mesa-1", journal_id=jid, reconnect=(1, 1),
                    poll=0.2, resync_after=0.5).start()  # resend_after stays 30 s: not what saves it here
    wait_for(lambda: pub.counts.actions == total and pub.counts.plays == 1, what="everything published once")
    broker.kill()  # ... until it dies, and comes back without its persistence file: every session gone
    shutil.rmtree(broker.folder / "data")
    (broker.folder / "data").mkdir()
    broker.start()
    lg = listening(league(broker, tmp_path).start())
    wait_for(lambda: pub.acks().get(session.game_id) == (total, True), what="the table publishing it all again")
    assert [p["game_no"] for p in lg.plays()] == [session.game_id] and lg.counts()["actions"] == total
    assert pub.counts.stalls == 0  # it was the lost session, not the 30 s timer
    pub.stop()
    lg.stop()


# -- the wiring ---------------------------------------------------------------------------------
def _serve(tmp_path, config_text: str, *extra: str):
    from ..conftest import TABLEKEEPER

    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text('[pods]\nbackend = "mock"\n' + config_text)
    return subprocess.run([str(TABLEKEEPER), "--state-dir", str(tmp_path / "state"), "serve", "--mock",
                           "--config", str(cfg), *extra], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


@pytest.mark.slow  # a serve subprocess
def test_serve_with_a_club_publishes_its_game_and_says_offline_when_it_stops(broker, tmp_path):
    seen = Recorder(broker.host, broker.port)
    r = _serve(tmp_path, f'[club]\ntable = "mesa-1"\nport = {broker.port}\npassword = "{USERS["mesa-1"]}"\n',
               "--new", "counters", "Ana", "Ben", "--run-for", "1.5")
    assert r.returncode == 0, r.stderr
    assert "club: publishing as table mesa-1" in r.stderr
    wait_for(lambda: seen.of(contract.LIVE) and [s["online"] for s in seen.of(contract.STATUS)] == [True, False],
             what="live, then online and offline")
    live = seen.of(contract.LIVE)[-1]
    assert [p["name"] for p in live["players"]] == ["Ana", "Ben"] and live["game_no"] == 1
    seen.close()


@pytest.mark.slow  # a serve subprocess
def test_serve_with_a_malformed_club_table_stops_naming_the_key(tmp_path):
    r = _serve(tmp_path, '[club]\ntable = "mesa-1"\nport = "one"\n', "--new", "counters", "Ana", "Ben",
               "--run-for", "1")
    assert r.returncode == 1
    assert "club.port: must be a whole number 1-65535, not 'one'" in r.stderr
    assert not (tmp_path / "state" / "journal.db").exists()  # checked before anything started


# -- a play taken back, a play restored elsewhere ---------------------------------------------------
def test_an_undone_end_takes_the_play_out_of_the_league_until_the_game_ends_again(broker, tmp_path, table):
    """«won by Ben» above a history ending in `undo` was the league's word after an undo at the table:
    the end undone, the play leaves the standings and the game's page; the game's new end counts."""
    journal, jid = table
    lg = listening(league(broker, tmp_path).start())
    session = Session.new(journal, "counters", ["Ana", "Ben"], RACE)
    for _ in range(5):
        session.apply({"action": "adjust", "player": "Ben", "counter": "score", "delta": 1})
    assert session.state["winners"] == ["Ben"]
    with publisher(club(broker.host, broker.port), tmp_path / "mesa-1", jid):
        wait_for(lambda: [p["winners"] for p in lg.plays()] == [["Ben"]], what="Ben's win at the league")
        (gid,) = [p["id"] for p in lg.plays()]
        session.apply({"action": "undo"})  # "that was not the fifth point"
        assert not session.state["over"]
        wait_for(lambda: lg.plays() == [], what="the play taken back")
        assert lg.standings()["overall"] == [] and lg.game(gid)["play"] is None
        assert lg.game(gid)["actions"][-1]["entry"]["action"] == "undo"
        assert lg.stored["retracted"] == 1
        for _ in range(5):
            session.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
        wait_for(lambda: [p["winners"] for p in lg.plays()] == [["Ana"]], what="the game's new end")
    (row,) = lg.standings()["overall"][:1]
    assert (row["player"], row["plays"], row["wins"]) == ("Ana", 1, 1)
    lg.stop()


def test_a_backup_restored_on_another_table_is_one_play_at_the_league(broker, tmp_path):
    """A Pi replaced from its backup, or a stick restored on the next table, publishes the same games
    under another journal: the league counts each play once (9 plays and 9 wins for 6 before)."""
    from tablekeeper.engine import backup

    one = Journal(tmp_path / "mesa-1", durable=False)
    for winner in ("Ana", "Ben", "Ana"):
        session = Session.new(one, "counters", ["Ana", "Ben"], RACE)
        for _ in range(5):
            session.apply({"action": "adjust", "player": winner, "counter": "score", "delta": 1})
    path = backup.back_up(one, tmp_path / "stick").path
    two = Journal(tmp_path / "mesa-2", durable=False)
    backup.restore(two, path)
    assert len(two.games()) == 3 and table_id(one) != table_id(two)
    lg = listening(league(broker, tmp_path).start())
    with publisher(club(broker.host, broker.port), tmp_path / "mesa-1", table_id(one)) as first, \
            publisher(club(broker.host, broker.port, "mesa-2"), tmp_path / "mesa-2", table_id(two)) as second:
        for pub, journal in ((first, one), (second, two)):
            wait_for(lambda pub=pub, journal=journal: all(
                g.id in pub.settled() or pub.acks().get(g.id, (0, False))[1] for g in journal.games()),
                what="the league's acks of every play of both tables")
    assert lg.counts()["plays"] == 6  # both tables' messages are kept...
    assert len(lg.plays()) == 3  # ... and each play counted once
    overall = {r["player"]: (r["plays"], r["wins"]) for r in lg.standings()["overall"]}
    assert overall == {"Ana": (3, 2), "Ben": (3, 1)}
    lg.stop()
    one.close()
    two.close()


def test_a_late_ack_of_a_play_an_undo_replaced_does_not_stand_for_the_new_one(tmp_path):
    """A game ends (play 1 published), its end is undone and done again (play 2, a later end, published):
    an ack of play 1 arriving late — the league has since taken play 1 back for the undo, and play 2 may
    be lost with a broker restart — must not settle play 2. The league names the play it holds by its end
    ("finished"); the twenty-table fault test once lost a play to such a late ack."""
    from tablekeeper.ui.club.ledger import Counts, FollowedGame, Ledger

    ledger = Ledger(tmp_path / ACK_FILE, Counts(), lambda _kind, _text: None, resend_after=30.0, resync_after=3.0)
    g = FollowedGame(1, "counters", {}, started=10.0, finished=100.0, total=5, counted=True)
    ledger.games[1], ledger._top = g, 2
    ledger.sent(g, 4)
    ledger.sent(g, -1)  # play 1
    g.finished, g.total = 200.0, 7  # undo and redo: the game ends anew
    ledger.sent(g, 6)
    ledger.sent(g, -1)  # play 2
    ledger.inbox.append({"journal": "J", "game_no": 1, "seq": 7, "play": True, "finished": 100.0})
    ledger.take_acks("J")
    assert g.acked == 7 and not g.play_acked and 1 not in ledger.settled()  # play 2 still owed: it goes again
    ledger.inbox.append({"journal": "J", "game_no": 1, "seq": 7, "play": True, "finished": 200.0})
    ledger.take_acks("J")
    assert g.play_acked and 1 in ledger.settled()
