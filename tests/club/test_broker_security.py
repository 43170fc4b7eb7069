"""The shipped Mosquitto settings, checked on a real broker: no anonymous clients, each table writes
only its own topics, the league reads them all and writes only acks."""
from __future__ import annotations

import time

import paho.mqtt.client as mqtt
import pytest

from tablekeeper.ui.club import contract

from .broker import own_and_forged, watch
from .conftest import USERS

pytestmark = pytest.mark.slow


def client(broker, user: str | None, password: str | None = None) -> tuple[mqtt.Client, dict]:
    def setup(c):
        if user is not None:
            c.username_pw_set(user, password if password is not None else USERS[user])

    return watch(broker.host, broker.port, setup)


def test_anonymous_and_wrong_password_are_refused(broker):
    for user, password in ((None, None), ("mesa-1", "not-the-password"), ("stranger", "x")):
        c, got = client(broker, user, password)
        c.loop_stop()
        c.disconnect()
        assert got["rc"] is not None and got["rc"].is_failure, (user, got["rc"])


def test_a_table_writes_only_its_own_topics_and_the_league_reads_them(broker):
    league, seen = client(broker, "league")
    assert not seen["rc"].is_failure
    league.subscribe(contract.subscription(contract.DEFAULT_PREFIX), qos=1)
    time.sleep(0.3)
    table, _ = client(broker, "mesa-1")
    own, messages = own_and_forged(table, seen)
    assert messages == [(own, b"mine")]  # the forged one never reached the league
    for c in (league, table):
        c.loop_stop()
        c.disconnect()


def test_a_table_reads_its_own_acks_only(broker):
    table, got = client(broker, "mesa-1")
    table.subscribe(contract.topic(contract.DEFAULT_PREFIX, "mesa-1", contract.ACK), qos=1)
    table.subscribe(contract.topic(contract.DEFAULT_PREFIX, "mesa-2", contract.ACK), qos=1)
    time.sleep(0.3)
    league, _ = client(broker, "league")
    for name in ("mesa-2", "mesa-1"):
        league.publish(contract.topic(contract.DEFAULT_PREFIX, name, contract.ACK), name.encode(), qos=1) \
            .wait_for_publish(5)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not got["messages"]:
        time.sleep(0.05)
    time.sleep(0.3)
    assert [p for _, p in got["messages"]] == [b"mesa-1"]
    for c in (league, table):
        c.loop_stop()
        c.disconnect()


def test_a_tables_login_cannot_take_the_leagues_client_id(tmp_path):
    """«Client ids are not tied to users»: any table's login connecting with the league's client id
    kicked the league off and wiped its persistent session (61 kicks in 20 s, 53 of 61 messages gone).
    With the shipped ``use_username_as_clientid`` the id is the login: the league stays, and what a
    table sends meanwhile is stored."""
    from tablekeeper.ui.club.config import BrokerSettings
    from tablekeeper.ui.club.league import League

    from .broker import Broker
    from .fake_table import FakeTable, wait_for

    with Broker(tmp_path / "broker", USERS, ids_are_logins=True) as b:
        lg = League(tmp_path / "league.db", BrokerSettings(b.host, b.port, "league", USERS["league"],
                                                           client_id="tablekeeper-league")).start()
        try:
            wait_for(lambda: lg.connected, what="the league to connect")
            version = lg.version
            intruders = []
            for _ in range(5):  # a table's password, the league's client id, again and again
                c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="tablekeeper-league")
                c.username_pw_set("mesa-2", USERS["mesa-2"])
                c.connect(b.host, b.port)
                c.loop_start()
                intruders.append(c)
                time.sleep(0.1)
            table = FakeTable(b, "mesa-1")
            table.action("j", 1, 1)
            wait_for(lambda: lg.stored["actions"] == 1, what="the table's action")
            assert lg.connected and lg.version - version <= 2  # stored, never disconnected
            table.close()
            for c in intruders:
                c.loop_stop()
                c.disconnect()
        finally:
            lg.close()


def test_contract_checks_topics_and_payloads():
    assert contract.parse_topic("tablekeeper", "tablekeeper/v1/tables/mesa-3/plays") == ("mesa-3", "plays")
    for bad in ("tablekeeper/v2/tables/mesa-3/plays", "tablekeeper/v1/tables/mesa+3/plays",
                "tablekeeper/v1/tables/mesa-3/other", "other/v1/tables/mesa-3/plays"):
        with pytest.raises(contract.ContractError):
            contract.parse_topic("tablekeeper", bad)
    with pytest.raises(contract.ContractError, match="table's name"):
        contract.topic("tablekeeper", "mesa/3", contract.LIVE)
    ack = contract.encode({"table": "mesa-3", "journal": "ab", "game_no": 4, "seq": 9, "play": False})
    assert contract.decode(contract.ACK, ack, "mesa-3")["seq"] == 9
    with pytest.raises(contract.ContractError, match="says it is from"):
        contract.decode(contract.ACK, ack, "mesa-4")
    with pytest.raises(contract.ContractError, match="version"):
        contract.decode(contract.ACK, b'{"v": 2, "table": "mesa-3"}', "mesa-3")
    with pytest.raises(contract.ContractError, match="game_no"):
        contract.decode(contract.ACK, b'{"v": 1, "table": "mesa-3", "journal": "ab", "game_no": true}', "mesa-3")
    with pytest.raises(contract.ContractError, match="JSON"):
        contract.decode(contract.PLAYS, b"\xff\xfe", "mesa-3")
    with pytest.raises(contract.ContractError, match="too deep"):
        contract.decode(contract.PLAYS, b"[" * 100_000 + b"]" * 100_000, "mesa-3")
