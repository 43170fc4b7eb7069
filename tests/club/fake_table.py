"""A table as the league sees it: a paho client logged in as the table, publishing contract payloads
by hand (no journal, no engine) and collecting the league's acks. The real publisher is tested
elsewhere; this double lets the league's tests send exactly what they mean, garbage included."""
from __future__ import annotations

import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from tablekeeper.ui.club import contract

from .conftest import USERS


def wait_for(predicate, timeout: float = 10.0, what: str = "the condition"):
    """Poll ``predicate`` until it is true; fail with ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


class FakeTable:
    def __init__(self, broker, name: str = "mesa-1", *, prefix: str = contract.DEFAULT_PREFIX,
                 will: dict[str, Any] | None = None):
        """``broker``: anything with ``host`` and ``port`` (a relay too); ``will``: a status sent by the
        broker when the connection dies without a goodbye, as a table's last will."""
        self.name, self.prefix = name, prefix
        self.acks: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"fake-{name}-{time.monotonic_ns()}")
        self.client.username_pw_set(name, USERS[name])
        self.client.reconnect_delay_set(0.1, 1)  # type: ignore[arg-type]  # paho takes a float: quick to stop
        if will is not None:
            self.client.will_set(self.topic(contract.STATUS), contract.encode({"table": name, **will}), qos=1,
                                 retain=True)
        self.client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(self.topic(contract.ACK), qos=1)
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_message = self._on_ack
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert subscribed.wait(5), "the fake table could not subscribe to its acks"

    def topic(self, kind: str) -> str:
        return contract.topic(self.prefix, self.name, kind)

    def _on_ack(self, client, userdata, message) -> None:
        body = contract.decode(contract.ACK, message.payload, self.name)
        with self._lock:
            self.acks.append(body)

    def ack_for(self, journal: str, game_no: int) -> dict[str, Any] | None:
        """The newest ack the league sent for that game."""
        with self._lock:
            found = [a for a in self.acks if a["journal"] == journal and a["game_no"] == game_no]
        return found[-1] if found else None

    def raw(self, kind: str, payload: bytes, qos: int = 1, wait: bool = True) -> None:
        info = self.client.publish(self.topic(kind), payload, qos=qos)
        if wait:
            info.wait_for_publish(5)

    def send(self, kind: str, qos: int = 1, wait: bool = True, **fields: Any) -> None:
        self.raw(kind, contract.encode({"table": self.name, **fields}), qos, wait)

    def action(self, journal: str, game_no: int, seq: int, entry: dict | None = None, game: str = "counters") -> None:
        self.send(contract.ACTIONS, journal=journal, game_no=game_no, game=game, seq=seq, at=1000.0 + seq,
                  entry=entry or {"action": "adjust", "player": "Ana", "counter": "score", "delta": seq})

    def play(self, journal: str, game_no: int, players: list, winners: list, *, draw: bool = False,
             finished: float = 2000.0, game: str = "counters") -> None:
        self.send(contract.PLAYS, journal=journal, game_no=game_no, game=game, started=max(0.0, finished - 600),
                  finished=finished, players=players, winners=winners, draw=draw)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
