"""The app's notify/watchdog protocol against a fake NOTIFY_SOCKET.

The fake is what systemd listens on: a real AF_UNIX datagram socket, bound to
a path or to an abstract name. Messages follow sd_notify(3): newline-
separated VAR=value fields, one datagram per message.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid

import pytest

from tablekeeper.ui import service


class FakeSystemd:
    def __init__(self, address: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(5)

    def messages(self, timeout: float = 0.0) -> list[list[str]]:
        """Every datagram waiting (after ``timeout`` s for the first), each split into its fields."""
        out = []
        if timeout:
            self.sock.settimeout(timeout)
        else:
            self.sock.setblocking(False)
        try:
            while True:
                out.append(self.sock.recv(4096).decode().split("\n"))
                self.sock.setblocking(False)
        except (BlockingIOError, TimeoutError):
            return out

    def close(self):
        self.sock.close()


@pytest.fixture
def path_socket(tmp_path):
    fake = FakeSystemd(str(tmp_path / "notify"))
    yield fake, str(tmp_path / "notify")
    fake.close()


@pytest.fixture
def abstract_socket():
    name = f"tablekeeper-test-{uuid.uuid4().hex}"
    fake = FakeSystemd("\0" + name)
    yield fake, "@" + name
    fake.close()


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("which", ["path_socket", "abstract_socket"])
def test_ready_status_stopping_reach_the_socket(which, request, tmp_path):
    """The app notifies readiness, status and stopping; paths and @abstract NOTIFY_SOCKET names both work."""
    fake, address = request.getfixturevalue(which)
    svc = service.Service(tmp_path / "state", environ={"NOTIFY_SOCKET": address})
    assert svc.notifier.enabled
    assert svc.ready("playing counters, game 1")
    svc.status("game 1 over")
    svc.stopping()
    got = fake.messages(timeout=2)
    assert got == [["READY=1", "STATUS=playing counters, game 1"], ["STATUS=game 1 over"], ["STOPPING=1"]]


def test_watchdog_is_petted_at_half_of_watchdog_usec(path_socket, tmp_path):
    """The main loop pets the watchdog: WATCHDOG=1 every WATCHDOG_USEC/2, not more."""
    fake, address = path_socket
    clock = Clock()
    svc = service.Service(tmp_path / "state", clock=clock,
                          environ={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "20000000"})
    assert svc.limit == 20.0 and svc.pet_every == 10.0
    assert svc.tick_every() == 1.0 and svc.tick_every(10) == 5.0  # the owner's loop calls tick() this often
    sent = []
    for step in range(0, 401):  # 40 s of a main loop turning every 0.1 s
        clock.now = 1000.0 + step / 10
        if svc.tick():
            sent.append(round(clock.now - 1000.0, 1))
    assert sent == [0.0, 10.0, 20.0, 30.0, 40.0]
    assert fake.messages(timeout=2) == [["WATCHDOG=1"]] * 5


def test_no_pet_without_a_watchdog_or_for_another_pid(path_socket, tmp_path):
    """WATCHDOG_USEC absent, zero, or meant for another process (WATCHDOG_PID): tick() sends nothing."""
    fake, address = path_socket
    for env in ({}, {"WATCHDOG_USEC": "0"}, {"WATCHDOG_USEC": "junk"},
                {"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid() + 1)}):
        svc = service.Service(tmp_path / "state", environ={"NOTIFY_SOCKET": address, **env})
        assert not svc.tick()
        assert svc.tick_every() == 1.0
    mine = service.Service(tmp_path / "state",
                           environ={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000",
                                    "WATCHDOG_PID": str(os.getpid())})
    assert mine.tick()
    assert fake.messages(timeout=2) == [["WATCHDOG=1"]]


def test_outside_systemd_everything_is_a_quiet_no_op(tmp_path, capsys):
    """No NOTIFY_SOCKET (a PC, a test run): the calls do nothing, print nothing, raise nothing."""
    svc = service.Service(tmp_path / "state", environ={"WATCHDOG_USEC": "1000000"})
    assert not svc.notifier.enabled
    assert not svc.ready() and not svc.tick() and not svc.status("x")
    svc.stopping()
    assert capsys.readouterr().err == ""


def test_a_vanished_socket_is_reported_once_and_never_raises(tmp_path, capsys):
    """systemd's socket gone: the game goes on; one line on stderr (the journal) says so."""
    svc = service.Service(tmp_path / "state", environ={"NOTIFY_SOCKET": str(tmp_path / "nothing-here")})
    assert not svc.ready()
    assert not svc.status("a")
    err = capsys.readouterr().err
    assert err.count("cannot notify systemd") == 1


def test_the_service_starts_no_thread(path_socket, tmp_path):
    """A free-running petting thread would keep a hung UI alive: none is started."""
    fake, address = path_socket
    before = threading.active_count()
    svc = service.Service(tmp_path / "state", environ={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "100000"})
    svc.boot()
    svc.ready()
    svc.tick()
    assert threading.active_count() == before
    svc.stopping()


CHILD = textwrap.dedent("""
    import sys, time
    from tablekeeper.ui import service
    service.start(sys.argv[1])
    service.ready()
    end = time.monotonic() + 0.6
    while time.monotonic() < end:      # a healthy main loop
        service.tick()
        time.sleep(0.01)
    print("HUNG", flush=True)
    time.sleep(0.6)                    # the loop hangs: nobody calls tick()
    while True:
        service.tick()
        time.sleep(0.01)
""")


@pytest.mark.slow  # a real child process, timed pets and a 0.6 s hang
def test_a_hung_loop_stops_petting(path_socket, tmp_path):
    """A real process: WATCHDOG=1 about every WATCHDOG_USEC/2 while its loop turns, none while it hangs."""
    fake, address = path_socket
    env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="200000")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "state")], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stamps = []
        fake.sock.settimeout(10)
        hung_at = None
        while len(stamps) < 40:
            fields = fake.sock.recv(4096).decode().split("\n")
            now = time.monotonic()
            if fields == ["WATCHDOG=1"]:
                stamps.append(now)
                if hung_at is None and len(stamps) > 3:
                    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
                    if max(gaps) > 0.45:
                        hung_at = len(stamps)
                        break
        assert hung_at is not None, "the hang never showed as a gap in the petting"
        gaps = [b - a for a, b in zip(stamps, stamps[1:])]
        healthy = gaps[:-1]
        assert healthy and all(0.05 <= g <= 0.3 for g in healthy), healthy  # every ~0.1 s (a loaded CI box: 0.3)
        assert gaps[-1] >= 0.45  # the hang: 0.6 s with no pet, longer than the 0.2 s limit
    finally:
        child.kill()
        child.wait(timeout=10)
