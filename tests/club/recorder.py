"""What reaches the league's side of the broker, recorded raw: a paho client logged in as the league.

It subscribes to every table's topics, keeps each message's topic, payload and retain flag, and can
publish on the ack topics what the league may (a real ack, or garbage). It acknowledges nothing by
itself: the tests that need acks run the real league (ui/club/league.py) beside it.
"""
from __future__ import annotations

import threading
import time
from typing import Any, NamedTuple

import paho.mqtt.client as mqtt

from tablekeeper.ui.club import contract

from .conftest import USERS


class Received(NamedTuple):
    table: str
    kind: str
    payload: bytes
    retain: bool


class Recorder:
    def __init__(self, host: str, port: int, *, prefix: str = contract.DEFAULT_PREFIX):
        self.prefix = prefix
        self.messages: list[Received] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"recorder-{time.monotonic_ns()}")
        self.client.username_pw_set("league", USERS["league"])
        self.client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(contract.subscription(prefix), qos=1)
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect(host, port)
        self.client.loop_start()
        assert subscribed.wait(5), "the recorder could not subscribe"

    def _on_message(self, client, userdata, message) -> None:
        table, kind = contract.parse_topic(self.prefix, message.topic)
        with self._lock:
            self.messages.append(Received(table, kind, bytes(message.payload), bool(message.retain)))

    def of(self, kind: str, table: str | None = None) -> list[dict[str, Any]]:
        """Every message of a kind so far, decoded by the contract (a payload that breaks it fails here)."""
        with self._lock:
            got = [m for m in self.messages if m.kind == kind and (table is None or m.table == table)]
        return [contract.decode(kind, m.payload, m.table) for m in got]

    def ack(self, table: str, payload: bytes) -> None:
        self.client.publish(contract.topic(self.prefix, table, contract.ACK), payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()  # first: the network loop then ends at once, not after its 1 s wait
        self.client.loop_stop()
