"""``tablekeeper club init`` and ``club join``, checked on a real Mosquitto started with what init wrote: the
tables reach it over TLS with the club's own authority, each with its own login, and nothing else does."""
from __future__ import annotations

import dataclasses
import os
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import paho.mqtt.client as mqtt
import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine.backup import table_id
from tablekeeper.ui.club import config, contract
from tablekeeper.ui.club.league import League
from tablekeeper.ui.club.publisher import Publisher
from tablekeeper.ui.club.setup import SetupError, add_tables, init, join
from tablekeeper.ui.club.web import Page

from .broker import MOSQUITTO, SHIPPED_ACL, free_port, own_and_forged, watch
from .fake_table import wait_for

pytestmark = pytest.mark.slow


def _acl_rules(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


@pytest.fixture
def club(tmp_path):
    """A club made by init for mesa-1, mesa-2 and mesa-3, its broker running on 127.0.0.1 with init's settings."""
    port = free_port()
    made = init(tmp_path / "club", "127.0.0.1", ["mesa-1", "mesa-2", "mesa-3"], port=port,
                broker_dir=tmp_path / "club" / "broker", listen="127.0.0.1")
    conf = tmp_path / "mosquitto.conf"
    log = tmp_path / "mosquitto.log"
    # as root (CI), mosquitto would drop to its own user, which cannot read a test's folder
    conf.write_text(("user root\n" if os.geteuid() == 0 else "") + f"log_dest file {log}\n"
                    + (made.folder / "broker" / "tablekeeper.conf").read_text())
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while True:
        if proc.poll() is not None:
            pytest.fail(f"mosquitto exited: {proc.stderr.read().decode() if proc.stderr else ''} "
                        f"{log.read_text() if log.exists() else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail("mosquitto did not listen")
            time.sleep(0.05)
    yield SimpleNamespace(**dataclasses.asdict(made), proc=proc)  # what init made, and its broker
    proc.terminate()
    proc.wait(5)


def connect(settings: config.BrokerSettings, *, username: str | None = None, password: str | None = None):
    """A paho client set up as the services set theirs up (``BrokerSettings.configure``); its connect result."""
    def setup(c):
        settings.configure(c)
        if username is not None:
            c.username_pw_set(username, password)

    return watch(settings.host, settings.port, setup)


def test_init_makes_a_broker_the_tables_reach_over_tls_each_with_its_own_login(club):
    folder = club.folder
    league = config.league_settings(folder / "league" / "tablekeeper.toml", state_dir=folder / "league")
    table = config.club_settings(folder / "tables" / "mesa-1" / "tablekeeper.toml")
    assert league.broker.tls and table.broker.tls and table.broker.port == club.port
    assert table.table == "mesa-1" and table.broker.username == "mesa-1"
    lc, seen = connect(league.broker)
    assert seen["rc"] is not None and not seen["rc"].is_failure, seen["rc"]
    lc.subscribe(contract.subscription(contract.DEFAULT_PREFIX), qos=1)
    time.sleep(0.3)
    tc, got = connect(table.broker)
    assert got["rc"] is not None and not got["rc"].is_failure, got["rc"]
    own, messages = own_and_forged(tc, seen)
    assert messages == [(own, b"mine")]  # the ACL kept mesa-1 off mesa-2's topics
    # mesa-1's password is not mesa-2's; the league's login needs the league's password
    mesa2 = config.club_settings(folder / "tables" / "mesa-2" / "tablekeeper.toml")
    for who, password in (("mesa-2", table.broker.password), ("league", table.broker.password),
                          ("mesa-2", mesa2.broker.password + "x")):
        c, r = connect(table.broker, username=who, password=password)
        c.loop_stop()
        c.disconnect()
        assert r["rc"] is not None and r["rc"].is_failure, (who, r["rc"])
    for c in (lc, tc):
        c.loop_stop()
        c.disconnect()


def test_the_broker_takes_no_plain_connection_and_no_certificate_but_the_clubs(club, tmp_path):
    table = config.club_settings(club.folder / "tables" / "mesa-1" / "tablekeeper.toml")
    plain = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="plain")
    plain.username_pw_set("mesa-1", table.broker.password)
    with pytest.raises((OSError, mqtt.WebsocketConnectionError, ValueError)):
        plain.connect("127.0.0.1", club.port, keepalive=5)
        plain.loop_start()
        for _ in range(50):  # a plain CONNECT to a TLS listener is dropped: never connected
            if plain.is_connected():
                break
            time.sleep(0.05)
        plain.loop_stop()
        if not plain.is_connected():
            raise OSError("not connected")
    # a client that trusts another authority refuses the broker's certificate
    other = tmp_path / "other-ca"
    init(other, "127.0.0.1", ["mesa-1"], port=free_port(), broker_dir=other / "broker")
    stranger = config.club_settings(other / "tables" / "mesa-1" / "tablekeeper.toml")
    with pytest.raises(ssl.SSLError):
        connect(dataclasses.replace(stranger.broker, port=club.port))


def test_the_generated_acl_is_the_shipped_one():
    """One set of rules: what init writes and systemd/mosquitto/tablekeeper.acl (install.sh --club-broker) agree."""
    from tablekeeper.ui.club.setup import acl_text

    assert _acl_rules(acl_text()) == _acl_rules(SHIPPED_ACL.read_text())


def test_init_never_overwrites_a_club(tmp_path):
    folder = tmp_path / "club"
    init(folder, "192.168.1.10", ["mesa-1"], broker_dir=folder / "broker")
    key = (folder / "ca" / "ca.key").read_bytes()
    with pytest.raises(SetupError, match="not empty"):
        init(folder, "192.168.1.10", ["mesa-1"])
    assert (folder / "ca" / "ca.key").read_bytes() == key
    assert oct((folder / "ca" / "ca.key").stat().st_mode & 0o777) == "0o600"
    assert oct((folder / "tables" / "mesa-1" / "club.password").stat().st_mode & 0o777) == "0o600"
    with pytest.raises(SetupError, match="league"):
        init(tmp_path / "two", "192.168.1.10", ["league"])


def test_init_makes_the_club_whole_or_not_at_all(tmp_path, monkeypatch):
    """A step that fails (or a power cut) half-way leaves no half-made club that init would then refuse
    to overwrite: the club is made in a folder beside it, synced, and renamed to its name at the end."""
    from tablekeeper.ui.club import setup

    folder = tmp_path / "club"
    real_add = setup._add

    def failing(*args, **kw):
        raise SetupError("the table step failed")

    monkeypatch.setattr(setup, "_add", failing)
    with pytest.raises(SetupError, match="table step failed"):
        init(folder, "192.168.1.10", ["mesa-1"], broker_dir=folder / "broker")
    assert not folder.exists() and list(tmp_path.iterdir()) == []  # nothing beside it either
    (tmp_path / ".club.init-a8b9" / "ca").mkdir(parents=True)  # what a power cut half-way leaves
    (tmp_path / ".club.init-a8b9" / "ca" / "ca.key").write_text("never used\n")
    (tmp_path / ".other.init-a8b9").mkdir()  # another club's: not this init's to remove
    monkeypatch.setattr(setup, "_add", real_add)
    synced = []
    real_fsync = setup.fsync
    monkeypatch.setattr(setup, "fsync", lambda path: (synced.append(Path(path)), real_fsync(path)))
    folder.mkdir()  # an empty folder is taken as it is
    made = init(folder, "192.168.1.10", ["mesa-1"], broker_dir=folder / "broker")
    assert made.folder == folder and (folder / "tables" / "mesa-1" / "club.password").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.init-a8b9", "club"]  # the cut's leftover gone
    assert synced[-1] == tmp_path  # the rename made durable, after every file and folder of the club
    assert sum(p.name == "ca.key" for p in synced) == 1
    assert oct(folder.stat().st_mode & 0o777) != "0o700"  # a folder as mkdir makes it, not mkdtemp's


def test_join_adds_the_table_to_a_config_beside_what_is_there_and_refuses_a_second_club(tmp_path):
    folder = tmp_path / "club"
    init(folder, "192.168.1.10", ["mesa-1", "mesa-2"], broker_dir=folder / "broker")
    target = tmp_path / "etc" / "tablekeeper.toml"
    target.parent.mkdir()
    target.write_text('[pods]\ncount = 4\n')
    section, dest = join(folder / "tables" / "mesa-1", target)
    assert section == "club" and dest == target
    text = target.read_text()
    assert text.startswith("[pods]\ncount = 4\n")  # kept as it was
    settings = config.club_settings(target)
    assert settings.table == "mesa-1" and settings.broker.host == "192.168.1.10"
    assert settings.broker.ca_file == target.parent / "club-ca.crt" and settings.broker.port == 8883
    assert settings.broker.password == (folder / "tables" / "mesa-1" / "club.password").read_text().strip()
    with pytest.raises(SetupError, match=r"already has a \[club\]"):
        join(folder / "tables" / "mesa-2", target)
    assert config.club_settings(target).table == "mesa-1"
    # the league joins its own config on the broker's machine
    section, dest = join(folder / "league", tmp_path / "league" / "tablekeeper.toml")
    league = config.league_settings(dest, state_dir=tmp_path / "league")
    assert section == "league" and league.broker.username == "league" and league.broker.tls
    with pytest.raises(SetupError, match="not a folder"):
        join(tmp_path / "nothing", tmp_path / "x.toml")


def test_club_init_on_the_command_line_says_what_to_copy_where(tmp_path, capsys):
    from tablekeeper.ui.cli import main

    assert main(["club", "init", str(tmp_path / "c"), "--host", "192.168.1.10", "--tables", "3"]) == 0
    said = capsys.readouterr().out
    assert "3 tables" in said and "192.168.1.10:8883" in said
    assert "club join" in said and "mesa-3" in said
    assert sorted(p.name for p in (tmp_path / "c" / "tables").iterdir()) == ["mesa-1", "mesa-2", "mesa-3"]
    conf = (tmp_path / "c" / "broker" / "tablekeeper.conf").read_text()
    assert "listener 8883\n" in conf and "allow_anonymous false" in conf and "use_username_as_clientid true" in conf
    assert f"cafile {Path('/etc/mosquitto/tablekeeper/club-ca.crt')}" in conf


def test_a_newcomer_sets_up_a_league_and_three_tables_and_their_plays_are_standings(club, tmp_path):
    """The whole setup as docs/club.md tells it: init (the fixture), `club join` on the league's machine
    and on each table, and each table's first finished game reaches the league's standings over TLS and
    its page. docs/club.md gives this run's time (`pytest --durations`)."""
    _section, league_conf = join(club.folder / "league", tmp_path / "league" / "tablekeeper.toml")
    settings = config.league_settings(league_conf, state_dir=tmp_path / "league")
    league = League(settings.db, settings.broker, reconnect_max=1).start()
    page = Page(league, "127.0.0.1", 0).start()
    publishers = []
    said: list[str] = []
    try:
        wait_for(lambda: league.connected, what="the league to listen over TLS")
        for i, name in enumerate(club.tables):
            _section, conf = join(club.folder / "tables" / name, tmp_path / name / "etc" / "tablekeeper.toml")
            table = config.club_settings(conf)
            state = tmp_path / name / "state"
            journal = Journal(state, durable=False)
            game = Session.new(journal, "counters", ["Ana", "Ben"],
                               {"counters": [{"name": "score", "start": 0, "min": 0, "target": 2}]})
            winner = ("Ana", "Ben")[i % 2]
            for _ in range(2):
                game.apply({"action": "adjust", "player": winner, "counter": "score", "delta": 1})
            jid = table_id(journal)  # the journal's identity, as the table's owner makes it
            journal.close()
            publishers.append(Publisher(table, state, journal_id=jid, reconnect=(1, 1), poll=0.2,
                                        report=said.append).start())
        wait_for(lambda: len(league.plays()) == 3, timeout=30,
                 what=f"three tables' plays in the league (the publishers said {said})")
        assert sorted(p["table"] for p in league.plays()) == ["mesa-1", "mesa-2", "mesa-3"]
        overall = {r["player"]: r for r in league.standings()["overall"]}
        assert (overall["Ana"]["wins"], overall["Ben"]["wins"]) == (2, 1)
        with urllib.request.urlopen(page.url, timeout=30) as r:  # what the club sees on its page
            body = r.read().decode()
        assert all(name in body for name in ("mesa-1", "mesa-2", "mesa-3", "Ana", "Ben"))
    finally:
        for pub in publishers:
            pub.stop()
        page.stop()
        league.stop()


@pytest.mark.skipif(os.geteuid() != 0, reason="the services' group is given as root, as install.sh runs it")
def test_join_as_root_gives_the_password_to_the_services_group(tmp_path, monkeypatch):
    """systemd/tablekeeper-league.service runs as the tablekeeper user: a password file only root reads
    would stop it at its start."""
    import grp

    group = grp.struct_group(("tablekeeper", "x", 4242, []))
    monkeypatch.setattr(grp, "getgrnam", lambda name: group if name == "tablekeeper" else grp.getgrgid(-1))
    folder = tmp_path / "club"
    init(folder, "192.168.1.10", ["mesa-1"], broker_dir=folder / "broker")
    _section, dest = join(folder / "tables" / "mesa-1", tmp_path / "etc" / "tablekeeper.toml")
    st = (dest.parent / "club.password").stat()
    assert (st.st_gid, oct(st.st_mode & 0o777)) == (4242, "0o640")


def _publishing(folder: Path, name: str, state: Path, winner: str, said: list[str]) -> Publisher:
    """A table of the club, joined from its folder, with one finished game, publishing."""
    _section, conf = join(folder / "tables" / name, state.parent / "etc" / "tablekeeper.toml")
    journal = Journal(state, durable=False)
    game = Session.new(journal, "counters", ["Ana", "Ben"],
                       {"counters": [{"name": "score", "start": 0, "min": 0, "target": 1}]})
    game.apply({"action": "adjust", "player": winner, "counter": "score", "delta": 1})
    jid = table_id(journal)
    journal.close()
    return Publisher(config.club_settings(conf), state, journal_id=jid, reconnect=(1, 1), poll=0.2,
                     report=said.append).start()


def test_a_table_added_to_a_running_club_publishes_and_the_others_keep_theirs(club, tmp_path):
    """`club add-table`: the new table's login goes into the broker's password file beside the others (a
    reload, no restart), its folder joins like the others; the authority, the broker's certificate, the
    ACL and the other logins are as they were, and a table already connected goes on publishing."""
    folder = club.folder
    kept = {path: path.read_bytes() for path in [*folder.glob("ca/*"), *folder.glob("broker/*"),
                                                  *folder.glob("tables/*/*"), *folder.glob("league/*")]
            if path.name != "tablekeeper.passwd"}
    logins = dict(line.split(":", 1) for line in (folder / "broker" / "tablekeeper.passwd").read_text().splitlines())
    _section, league_conf = join(folder / "league", tmp_path / "league" / "tablekeeper.toml")
    settings = config.league_settings(league_conf, state_dir=tmp_path / "league")
    league = League(settings.db, settings.broker, reconnect_max=1).start()
    said: list[str] = []
    publishers = []
    try:
        wait_for(lambda: league.connected, what="the league to listen over TLS")
        publishers.append(_publishing(folder, "mesa-1", tmp_path / "mesa-1" / "state", "Ana", said))
        wait_for(lambda: len(league.plays()) == 1, what="mesa-1's play")

        added = add_tables(folder, ["mesa-4"])
        assert (added.tables, added.host, added.port) == (("mesa-4",), "127.0.0.1", club.port)
        now = dict(line.split(":", 1) for line in (folder / "broker" / "tablekeeper.passwd").read_text().splitlines())
        assert set(now) == set(logins) | {"mesa-4"} and all(now[user] == logins[user] for user in logins)
        assert all(path.read_bytes() == data for path, data in kept.items())  # nothing else rewritten
        club.proc.send_signal(signal.SIGHUP)  # `systemctl reload mosquitto`: the password file read again

        publishers.append(_publishing(folder, "mesa-4", tmp_path / "mesa-4" / "state", "Ben", said))
        wait_for(lambda: len(league.plays()) == 2, timeout=30,
                 what=f"the new table's play at the league (the publishers said {said})")
        assert sorted(p["table"] for p in league.plays()) == ["mesa-1", "mesa-4"]
        # mesa-1, connected all along, still publishes: a second game reaches the league
        journal = Journal(tmp_path / "mesa-1" / "state", durable=False)
        game = Session.new(journal, "counters", ["Ana", "Cai"],
                           {"counters": [{"name": "score", "start": 0, "min": 0, "target": 1}]})
        game.apply({"action": "adjust", "player": "Cai", "counter": "score", "delta": 1})
        journal.close()
        publishers[0].wake()
        wait_for(lambda: len(league.plays()) == 3, timeout=30, what=f"mesa-1's next play (said {said})")
        assert publishers[0].counts.connects == 1  # never cut off by the reload
        with pytest.raises(SetupError, match="mesa-1 is a table of this club already"):
            add_tables(folder, ["mesa-1"])
        with pytest.raises(SetupError, match="not a folder `tablekeeper club init` made"):
            add_tables(tmp_path / "league", ["mesa-5"])
    finally:
        for pub in publishers:
            pub.stop()
        league.stop()


def test_a_table_added_half_way_is_not_taken_for_one_the_club_has(tmp_path, monkeypatch):
    """A table's folder is made beside its name and renamed once whole: a table whose config could not be
    written (here a failing step; a power cut alike) leaves no folder, so adding it again works, and its
    login gets the new password in the broker's file."""
    from tablekeeper.ui.club import setup

    folder = tmp_path / "club"
    init(folder, "192.168.1.10", ["mesa-1"], broker_dir=folder / "broker")
    real = setup._client_toml
    monkeypatch.setattr(setup, "_client_toml", lambda *a, **kw: (_ for _ in ()).throw(OSError("disk gone")))
    with pytest.raises(OSError, match="disk gone"):
        add_tables(folder, ["mesa-2"])
    assert sorted(p.name for p in (folder / "tables").iterdir()) == ["mesa-1"]
    cut = folder / "tables" / ".mesa-2.add-x1y2"  # what a power cut in the middle of the step leaves
    (cut / "sub").mkdir(parents=True)
    (cut / "sub" / "club.password").write_text("never used\n")
    monkeypatch.setattr(setup, "_client_toml", real)
    added = add_tables(folder, ["mesa-2"])
    assert added.tables == ("mesa-2",)
    password = (folder / "tables" / "mesa-2" / "club.password").read_text().strip()
    assert config.club_settings(folder / "tables" / "mesa-2" / "tablekeeper.toml").broker.password == password
    users = [line.split(":")[0] for line in (folder / "broker" / "tablekeeper.passwd").read_text().splitlines()]
    assert users.count("mesa-2") == 1
    assert sorted(p.name for p in (folder / "tables").iterdir()) == ["mesa-1", "mesa-2"]  # the cut's leftover gone


def test_club_add_table_on_the_command_line_says_what_to_copy_where(tmp_path, capsys):
    from tablekeeper.ui.cli import main

    assert main(["club", "init", str(tmp_path / "c"), "--host", "192.168.1.10", "--tables", "2"]) == 0
    capsys.readouterr()
    assert main(["--lang", "en", "club", "add-table", str(tmp_path / "c"), "mesa-3", "bar"]) == 0
    said = capsys.readouterr().out
    assert "2 tables added" in said and "systemctl reload mosquitto" in said and "mesa-3" in said
    assert config.club_settings(tmp_path / "c" / "tables" / "bar" / "tablekeeper.toml").broker.host == "192.168.1.10"
    assert main(["--lang", "en", "club", "add-table", str(tmp_path / "c"), "league"]) == 1
    assert "the league's login" in capsys.readouterr().err
