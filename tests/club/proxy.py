"""A TCP relay between clients and the broker that can cut every connection at once.

What a flaky café Wi-Fi does to a table: the socket dies mid-stream with no MQTT goodbye, and
whatever was in flight is lost. ``cut()`` closes both ends of every relayed connection; new
connections are relayed again at once (``block()``/``unblock()`` refuse them for a while).
"""
from __future__ import annotations

import contextlib
import selectors
import socket
import threading


class Relay:
    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(128)
        self.host, self.port = self.server.getsockname()
        self._pairs: set[tuple[socket.socket, socket.socket]] = set()
        self._lock = threading.Lock()
        self._blocked = False
        self._stop = False
        self.cuts = 0
        self._thread = threading.Thread(target=self._accept, name="relay-accept", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self._blocked:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                client.close()  # broker down: the client sees a refused/closed connection
                continue
            upstream.settimeout(None)
            pair = (client, upstream)
            with self._lock:
                self._pairs.add(pair)
            threading.Thread(target=self._pump, args=(pair,), name="relay-pump", daemon=True).start()

    def _pump(self, pair: tuple[socket.socket, socket.socket]) -> None:
        a, b = pair
        sel = selectors.DefaultSelector()
        sel.register(a, selectors.EVENT_READ, b)
        sel.register(b, selectors.EVENT_READ, a)
        try:
            while True:
                for key, _ in sel.select(timeout=0.5):
                    src = key.fileobj
                    dst = key.data
                    data = src.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    dst.sendall(data)
                with self._lock:
                    if pair not in self._pairs:
                        return
        except OSError:
            return
        finally:
            sel.close()
            self._drop(pair)

    def _drop(self, pair: tuple[socket.socket, socket.socket]) -> None:
        with self._lock:
            self._pairs.discard(pair)
        for s in pair:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def cut(self) -> int:
        """Close every relayed connection now; returns how many were cut."""
        with self._lock:
            pairs = list(self._pairs)
        for pair in pairs:
            self._drop(pair)
        self.cuts += len(pairs)
        return len(pairs)

    def block(self) -> None:
        self._blocked = True
        self.cut()

    def unblock(self) -> None:
        self._blocked = False

    def close(self) -> None:
        self._stop = True
        self.server.close()
        self.cut()
