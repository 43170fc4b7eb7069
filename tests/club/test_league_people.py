"""People, not names, in the league: a table's roster (``tablekeeper players merge``/``rename`` at the
table) reaches the running league through the real publisher and Mosquitto, and the standings count
its names as one person; the organiser's corrections follow a play whatever table's copy of it
counts, and a fix records the names as the table sent them; a play names no more players than a
table seats; a store stuck on one batch stops the service's watchdog."""
from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine.backup import table_id
from tablekeeper.ui.club import contract, standings
from tablekeeper.ui.club import league as league_module
from tablekeeper.ui.club.config import BrokerSettings
from tablekeeper.ui.club.league import (
    League,
    _Message,
    check,
    correct_play,
    stored_corrections,
    stored_people,
    stored_plays,
    stored_rosters,
)

from .fake_table import wait_for
from .test_league import ENGLISH_ENV
from .test_publisher import RACE, club, league, listening, publisher

pytestmark = pytest.mark.slow


def _won_by(journal: Journal, players: list[str], winner: str) -> None:
    session = Session.new(journal, "counters", players, RACE)
    while not session.state["over"]:
        session.apply({"action": "adjust", "player": winner, "counter": "score", "delta": 1})


def _overall(lg: League) -> dict[str, dict]:
    return {r["player"]: r for r in lg.standings()["overall"]}


def _players(state_dir, *argv: str) -> subprocess.CompletedProcess:
    """``tablekeeper players ...`` at the table, as its owner would type it (another process)."""
    done = subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "--state-dir", str(state_dir), "players",
                           *argv], capture_output=True, text=True, timeout=60, env=ENGLISH_ENV)
    assert done.returncode == 0, done.stderr
    return done


def test_a_merge_and_a_rename_at_the_table_reach_the_running_league(broker, tmp_path):
    """«The league ignores the roster: "Ana" and "Ana María" stay two players after `players merge`»: the
    table's merge makes them one player in the running league's standings and ratings, and in
    `club standings`; a rename follows; the plays keep the names the table sent."""
    folder = tmp_path / "mesa-1"
    journal = Journal(folder, durable=False)
    _won_by(journal, ["Ana María", "Ben"], "Ana María")
    _won_by(journal, ["Ana", "Ben"], "Ana")
    jid = table_id(journal)
    journal.close()
    lg = listening(league(broker, tmp_path / "league").start())
    pub = publisher(club(broker.host, broker.port), folder, jid).start()
    try:
        wait_for(lambda: len(lg.plays()) == 2, what="both plays at the league")
        before = _overall(lg)
        assert {"Ana", "Ana María"} <= set(before) and before["Ana"]["plays"] == 1

        _players(folder, "merge", "Ana", "Ana María")
        wait_for(lambda: "Ana María" not in _overall(lg), what="the merge at the league")
        after = _overall(lg)
        assert (after["Ana"]["plays"], after["Ana"]["wins"], after["Ana"]["points"]) == (2, 2, 6)
        assert after["Ana"]["rating"] != before["Ana"]["rating"]  # one rating for the person
        assert after["Ben"]["plays"] == 2
        assert stored_rosters(lg.db_path) == {"mesa-1": {"Ana María": "Ana"}}
        listed = standings.standings(stored_plays(lg.db_path), stored_people(lg.db_path),
                                     rosters=stored_rosters(lg.db_path))  # what `club standings` reads
        assert {r["player"] for r in listed["overall"]} == {"Ana", "Ben"}
        assert [p["players"][0]["name"] for p in lg.plays()] == ["Ana María", "Ana"]  # as the table sent them

        _players(folder, "rename", "Ana", "Anita")
        wait_for(lambda: "Anita" in _overall(lg), what="the rename at the league")
        assert _overall(lg)["Anita"]["plays"] == 2 and "Ana" not in _overall(lg)
        assert pub.counts.rosters >= 2
    finally:
        pub.stop()
        lg.close()


def test_a_roster_that_is_not_one_is_refused_with_a_sentence():
    def roster(people) -> bytes:
        return contract.encode({"table": "mesa-1", "journal": "j", "at": 1.0, "people": people})

    good = check(contract.ROSTER, roster([{"name": "Ana", "aliases": ["Ana María", "Ana"]}]), "mesa-1")
    assert good["aliases"] == {"Ana María": "Ana"}
    for people, says in (([{"name": "Ana", "aliases": ["Ana M"]}, {"name": "Bea", "aliases": ["Ana M"]}],
                          "'Ana M' is the name of two people"),
                         ([{"name": "Ana"}], "a person must be"),
                         ([{"name": "", "aliases": []}], "a player must be a name"),
                         ([{"name": f"P{i}", "aliases": []} for i in range(league_module.MAX_PEOPLE + 1)],
                          "over the 2000 a roster may name")):
        with pytest.raises(contract.ContractError, match=says):
            check(contract.ROSTER, roster(people), "mesa-1")


# -- without a broker: what the league stored, as the store thread stores it ------------------------------
def _play(table: str, journal: str, names: list[str], winner: str, *, identity: str, actions: int = 1) -> dict:
    return {"table": table, "journal": journal, "game_no": 1, "game": "counters", "started": 1000.0,
            "finished": 1600.0, "players": [{"name": n} for n in names], "winners": [{"name": winner}],
            "draw": False, "identity": identity, "actions": actions}


def _message(kind: str, body: dict) -> _Message:
    return _Message(contract.topic(contract.DEFAULT_PREFIX, body["table"], kind), contract.encode(body), 0, 0, 0)


def test_a_correction_follows_the_play_to_its_copy_and_a_fix_records_the_names_as_sent(tmp_path):
    """A backup of mesa-1 restored on mesa-2 sends the same play again: the organiser's void of it holds
    when mesa-2's copy is the one that counts (mesa-1's was taken back by an undo), in the running league
    and in `club standings`; a fix names the person as the standings show them and records the name the
    table sent."""
    lg = League(tmp_path / "league.db", BrokerSettings(client_id="league-copies-test"))
    try:
        first = _play("mesa-1", "j-1", ["Ana María", "Ben"], "Ben", identity="same-game")
        copy = _play("mesa-2", "j-1", ["Ana María", "Ben"], "Ben", identity="same-game")
        roster = {"table": "mesa-1", "journal": "j-1", "at": 1.0,
                  "people": [{"name": "Ana", "aliases": ["Ana", "Ana María"]}]}
        lg._store([_message(contract.PLAYS, first), _message(contract.PLAYS, copy),
                   _message(contract.ROSTER, roster), _message(contract.ROSTER, {**roster, "table": "mesa-2"})])
        assert not lg.dropped and lg.standings()["plays"] == 1
        (held,) = lg.plays()
        correct_play(lg.db_path, held["id"], "void", reason="a practice game", who="ines")
        assert lg.standings()["plays"] == 0
        # an undo at mesa-1 takes its copy back: mesa-2's stands in, void all the same
        lg._store([_message(contract.ACTIONS, {"table": "mesa-1", "journal": "j-1", "game_no": 1, "game": "counters",
                                               "seq": 2, "at": 1700.0, "entry": {"action": "undo"}})])
        (standing,) = lg.plays()
        assert standing["table"] == "mesa-2" and standing["id"] != held["id"]
        assert lg.standings()["plays"] == 0
        assert lg.recent_plays(5)[1][0]["correction"]["void"] is True  # the page's list says so
        assert lg.game(standing["id"])["correction"]["reason"] == "a practice game"  # and the play's page
        counted = standings.standings(stored_plays(lg.db_path), corrections=stored_corrections(lg.db_path))
        assert counted["plays"] == 0  # `club standings` too

        with pytest.raises(league_module.TablekeeperError, match="play .* is void already"):
            correct_play(lg.db_path, standing["id"], "void")  # the copy is the same play
        correct_play(lg.db_path, standing["id"], "unvoid", who="ines")
        state = correct_play(lg.db_path, standing["id"], "fix", winners=["Ana"], reason="misread", who="ines")
        assert state["fix"]["winners"] == ["Ana María"]  # the name mesa-2 sent, not the person's
        rows = _overall(lg)
        assert (rows["Ana"]["wins"], rows["Ben"]["wins"]) == (1, 0) and "Ana María" not in rows
        with pytest.raises(league_module.TablekeeperError, match="'Cai' did not play in play"):
            correct_play(lg.db_path, standing["id"], "fix", winners=["Cai"])
    finally:
        lg.close()


def test_a_play_of_thousands_of_names_is_dropped_with_its_reason_and_the_next_play_counts(tmp_path, caplog):
    lg = League(tmp_path / "league.db", BrokerSettings(client_id="league-cap-test"))
    try:
        hostile = {**_play("mesa-1", "j-h", ["Ana", "Ben"], "Ana", identity="h"),
                   "players": [{"name": f"P{i}"} for i in range(3000)], "winners": [{"name": "P0"}]}
        caplog.set_level("WARNING", logger="tablekeeper.club.league")
        lg._store([_message(contract.PLAYS, hostile),
                   _message(contract.PLAYS, _play("mesa-1", "j-n", ["Ana", "Ben"], "Ana", identity="n"))])
        assert lg.dropped == {"mesa-1": 1} and len(lg.plays()) == 1
        assert "3000 players, over the 8 a table seats" in caplog.text
        assert _overall(lg)["Ana"]["wins"] == 1
    finally:
        lg.close()


def test_a_store_stuck_on_one_batch_is_told_and_one_that_waits_is_not(tmp_path, monkeypatch):
    lg = League(tmp_path / "league.db", BrokerSettings(client_id="league-stuck-test"))
    release = threading.Event()
    entered = threading.Event()
    real = lg._store

    def stuck(batch):
        entered.set()
        release.wait()
        return real(batch)

    monkeypatch.setattr(lg, "_store", stuck)
    lg._store_thread = threading.Thread(target=lg._store_loop, daemon=True)
    lg._store_thread.start()
    try:
        assert lg.stuck_for() == 0.0  # waiting for messages is not being stuck
        lg._queue.put(_message(contract.PLAYS, _play("mesa-1", "j-s", ["Ana", "Ben"], "Ana", identity="s")))
        assert entered.wait(10)
        first = lg.stuck_for()
        wait_for(lambda: lg.stuck_for() > first, what="the time stuck to grow")
        release.set()
        wait_for(lambda: lg.stuck_for() == 0.0 and len(lg.plays()) == 1, what="the batch stored")
    finally:
        release.set()
        lg.close()


def test_club_serve_exits_for_systemd_when_its_store_makes_no_progress(tmp_path, monkeypatch, capsys):
    """The watchdog noticed a dead store thread only: one stuck on a batch kept it petted. Now serve stops
    petting it and exits with a sentence, so that systemd starts the league again (the broker delivers
    again whatever was not acknowledged). No broker is needed: the league keeps trying to reach it."""
    from types import SimpleNamespace

    from tablekeeper.ui.cli import main

    from .broker import free_port

    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text(f'[league]\nhost = "127.0.0.1"\nport = {free_port()}\npassword = "pw"\ndb = "league.db"\n'
                   'http_port = 0\n')

    def stuck(self, batch):
        while not self._stop.wait(0.05):
            pass  # never done with the batch, until the service stops the league
        return set(), False

    real_start = League.start

    def start_with_a_message(self):
        real_start(self)
        self._queue.put(_message(contract.PLAYS, _play("mesa-1", "j-w", ["Ana", "Ben"], "Ana", identity="w")))
        return self

    monkeypatch.setattr(League, "_store", stuck)
    monkeypatch.setattr(League, "start", start_with_a_message)
    monkeypatch.setattr(league_module, "STUCK_AFTER", 0.5)
    pets = []
    monkeypatch.setattr("tablekeeper.ui.service.Notifier", lambda: SimpleNamespace(
        notify=lambda *words: pets.extend(words), close=lambda: None))
    monkeypatch.setenv("WATCHDOG_USEC", "60000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert main(["--lang", "en", "club", "serve", "--config", str(cfg), "--run-for", "120"]) == 1
    said = capsys.readouterr().err
    assert "the league's store has been on one batch of messages for" in said, said
    assert "READY=1" in pets and "STOPPING=1" not in pets  # a failure, for systemd to restart
