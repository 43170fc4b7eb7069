"""A real Mosquitto for the club tests: on 127.0.0.1 at a free port, with passwords and the shipped ACL.

Started from the Debian package's ``mosquitto`` (tests/sysdeps.sh installs it), configured like the
shipped ``systemd/mosquitto/tablekeeper.conf`` (no anonymous clients, the shipped ACL file, persistence)
but in a temporary folder and on a port of its own. ``kill()`` is a SIGKILL (what a power cut does to
the broker), ``restart()`` starts it again on the same port with the same persistence file.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_ACL = ROOT / "systemd" / "mosquitto" / "tablekeeper.acl"
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


SHIPPED_CONF = ROOT / "systemd" / "mosquitto" / "tablekeeper.conf"


def _shipped(option: str) -> str:
    """The shipped config's line setting ``option`` (with its newline)."""
    for line in SHIPPED_CONF.read_text().splitlines():
        if line.split(" ", 1)[0] == option:
            return line + "\n"
    raise AssertionError(f"{SHIPPED_CONF.name} does not set {option}")


def watch(host: str, port: int, setup) -> tuple:
    """A paho client set up by ``setup(client)`` (credentials, TLS), connecting to ``host``:``port`` and
    looping: ``(client, {"rc": the CONNACK's reason code once it came, "messages": [(topic, payload)]})``."""
    import threading

    import paho.mqtt.client as mqtt

    got: dict = {"rc": None, "messages": []}
    connected = threading.Event()
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"t-{time.monotonic_ns()}")
    setup(c)

    def on_connect(cl, userdata, flags, rc, props=None):
        got["rc"] = rc
        connected.set()

    c.on_connect = on_connect
    c.on_message = lambda cl, u, m: got["messages"].append((m.topic, m.payload))
    c.connect(host, port)
    c.loop_start()
    connected.wait(5)
    return c, got


def own_and_forged(table, seen: dict, name: str = "mesa-1", other: str = "mesa-2") -> tuple[str, list]:
    """``table`` (a client logged in as ``name``) publishes a play on ``other``'s topic, then one on its own;
    what the league's ``seen`` (from :func:`watch`, subscribed to every table) received: (own topic, messages)."""
    from tablekeeper.ui.club import contract

    own = contract.topic(contract.DEFAULT_PREFIX, name, contract.PLAYS)
    table.publish(contract.topic(contract.DEFAULT_PREFIX, other, contract.PLAYS), b"forged", qos=1).wait_for_publish(5)
    table.publish(own, b"mine", qos=1).wait_for_publish(5)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not seen["messages"]:
        time.sleep(0.05)
    time.sleep(0.3)
    return own, list(seen["messages"])


def available() -> bool:
    return os.access(MOSQUITTO, os.X_OK) and os.access(PASSWD, os.X_OK)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """One Mosquitto process; ``users`` maps user names to passwords (the league and each table)."""

    def __init__(self, folder: Path, users: dict[str, str], *, acl: Path = SHIPPED_ACL, port: int | None = None,
                 ids_are_logins: bool = False):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.users = dict(users)
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.folder / "mosquitto.log"
        passwd = self.folder / "passwd"
        passwd.write_text("")
        for name, password in self.users.items():
            subprocess.run([PASSWD, "-b", str(passwd), name, password], check=True, capture_output=True)
        shutil.copy(acl, self.folder / "acl")
        (self.folder / "data").mkdir(exist_ok=True)
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text(
            ""
            # as root (CI), mosquitto would drop to its own user, which cannot read a test's folder
            + ("user root\n" if os.geteuid() == 0 else "")
            + "per_listener_settings false\n"
            "allow_anonymous false\n"
            f"password_file {passwd}\n"
            f"acl_file {self.folder / 'acl'}\n"
            f"listener {self.port} 127.0.0.1\n"
            # the shipped file's (a test of the client ids uses it; the others give each league a
            # fresh session of its own under one login, which that setting would merge)
            + (_shipped("use_username_as_clientid") if ids_are_logins else "")
            + "set_tcp_nodelay true\n"
            "persistence true\n"
            f"persistence_location {self.folder / 'data'}/\n"
            "autosave_interval 1\n"
            "max_queued_messages 1000000\n"
            "max_inflight_messages 100\n"
            f"log_dest file {self.log}\n"
            "log_type error\nlog_type warning\nlog_type notice\n"
        )

    def add_user(self, name: str, password: str) -> None:
        """A new user (the passwords file is read again when the broker restarts: call before start)."""
        subprocess.run([PASSWD, "-b", str(self.folder / "passwd"), name, password], check=True, capture_output=True)
        self.users[name] = password

    def start(self, timeout: float = 10.0) -> Broker:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited with {self.proc.returncode}: {err}{self.log_text()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout} s: {self.log_text()}")

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: no goodbye to the clients, no last save of the persistence file."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)

    def stop(self) -> None:
        """SIGTERM: the broker saves its persistence file and says goodbye."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self, *, hard: bool = True) -> None:
        self.kill() if hard else self.stop()
        self.start()

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
