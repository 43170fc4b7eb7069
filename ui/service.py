"""Life under systemd: readiness, the watchdog, the boot check, unsafe shutdowns, backups.

The owner of the game (the Kivy app's main loop, or ``tablekeeper serve``'s
headless loop) makes these calls, in this order::

    from tablekeeper.ui import service

    report = service.start(state_dir)   # before the game is opened: boot check
    ...                                 # open the journal, build the window / the pods
    service.ready()                     # after the first frame is on screen
    service.tick()                      # from the main loop, at least every service.tick_every() s
    service.game_finished()             # after an action that ended a game (a backup)
    service.stopping()                  # on a clean exit (SIGTERM, Quit): clears the marker

Everything is a no-op outside systemd (no ``$NOTIFY_SOCKET``) except the
boot check, the unsafe-shutdown marker and the backups, which work the same
on a PC. Nothing here starts a thread: the watchdog is petted only when the
owner's loop calls :func:`tick`, so a hung loop stops petting and systemd
restarts it (``WatchdogSec=`` in systemd/tablekeeper.service).

Protocol: sd_notify(3) — one datagram per message on the AF_UNIX socket
named by ``$NOTIFY_SOCKET`` (a path, or ``@name`` for the abstract
namespace); ``WATCHDOG_USEC`` is the watchdog limit in microseconds, and
``WATCHDOG_PID``, when set, names the process it is meant for.
"""
from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import JournalError
from ..engine.journal import Journal, default_state_dir

#: Backups of the journal live here inside the state folder unless the config says otherwise.
BACKUP_FOLDER = "backups"
#: How many backups are kept (the newest); ``[appliance] backups = N`` in the config file changes it.
DEFAULT_BACKUPS = 3
#: Where the shared config lives on the appliance (hardware/config.py reads its pod sections).
SYSTEM_CONFIG = Path("/etc/tablekeeper/tablekeeper.toml")
BOOT_ID_PATH = Path("/proc/sys/kernel/random/boot_id")


def _warn(text: str) -> None:
    print(f"tablekeeper service: {text}", file=sys.stderr, flush=True)


# -- sd_notify ---------------------------------------------------------------------
class Notifier:
    """Sends sd_notify messages; silent and harmless when not under systemd.

    A failed send is reported once on standard error (the journal) and never
    raises: the game must not stop because systemd's socket went away.
    """

    def __init__(self, environ=None):
        env = os.environ if environ is None else environ
        raw = env.get("NOTIFY_SOCKET") or ""
        self.address: str | None = None
        if raw.startswith("@"):
            self.address = "\0" + raw[1:]  # abstract namespace
        elif raw.startswith("/"):
            self.address = raw
        elif raw:
            _warn(f"NOTIFY_SOCKET={raw!r} is neither a path nor @abstract; not notifying")
        self._sock: socket.socket | None = None
        self._complained = False

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *fields: str) -> bool:
        """Send ``fields`` (``"READY=1"``, ``"STATUS=..."``) as one message; True if it was sent."""
        if self.address is None or not fields:
            return False
        message = "\n".join(fields).encode("utf-8")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message, self.address)
            return True
        except OSError as e:
            if not self._complained:
                self._complained = True
                _warn(f"cannot notify systemd on {self.address.lstrip(chr(0))!r}: {e.strerror or e}")
            return False

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


class StopSignals:
    """A long-running command's stop: SIGTERM or SIGINT (and, with ``run_for``, that many seconds)
    set :attr:`event`; :meth:`restore` gives the signals back their handlers."""

    def __init__(self, run_for: float | None = None):
        self.event = threading.Event()
        self._old = {sig: signal.signal(sig, lambda signum, frame: self.event.set())
                     for sig in (signal.SIGTERM, signal.SIGINT)}
        if run_for is not None:
            timer = threading.Timer(run_for, self.event.set)
            timer.daemon = True
            timer.start()

    def restore(self) -> None:
        for sig, handler in self._old.items():
            signal.signal(sig, handler)


def watchdog_limit(environ=None) -> float | None:
    """The watchdog limit in seconds from ``$WATCHDOG_USEC``; None when there is no watchdog for us."""
    env = os.environ if environ is None else environ
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid.strip() != str(os.getpid()):
        return None  # meant for another process (e.g. our parent)
    return usec / 1_000_000


# -- the boot check and the unsafe-shutdown marker -----------------------------------
@dataclass
class BootReport:
    """What the boot check found; :meth:`lines` says it in sentences for the log and the settings screen."""

    state_dir: Path
    problems: list[str] = field(default_factory=list)  # PRAGMA quick_check complaints (after recovery)
    warnings: list[str] = field(default_factory=list)  # the journal's own recovery warnings
    unsafe_shutdowns: int = 0
    unsafe_now: bool = False  # this start found the last run's marker
    backup: Path | None = None
    #: the pid of another tablekeeper process running on this journal now (its marker is not a crash)
    other_process: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and not self.warnings

    def lines(self) -> list[str]:
        out = list(self.warnings) + [f"journal check: {p}" for p in self.problems]
        if self.other_process is not None:
            out.append(f"another tablekeeper process (pid {self.other_process}) is running on this journal; "
                       f"both write to it (not a crash: nothing counted)")
        if self.unsafe_now:
            out.append(f"the last run did not stop cleanly (power cut or crash); "
                       f"{self.unsafe_shutdowns} unsafe shutdown(s) so far")
        if self.backup is not None:
            out.append(f"finished games backed up to {self.backup}")
        return out


def live_holder(marker: str | None) -> int | None:
    """The pid of the run that left ``marker`` (a :func:`run_token`) if it is still running: this boot,
    its process alive and a tablekeeper one (a pid the kernel gave to something else is not). None:
    no marker, or a run that is gone (a power cut, a crash, a kill)."""
    if not marker:
        return None
    parts = marker.split()
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    boot, _invocation, pid_text = parts
    pid = int(pid_text)
    if pid == os.getpid() or boot != run_token(pid).split()[0]:
        return None
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None  # no such process (or no /proc): gone
    return pid if b"tablekeeper" in cmdline else None


def run_token(pid: int | None = None) -> str:
    """This run: the boot, systemd's invocation of the unit, the process.

    A marker left by the same run is not an unsafe shutdown; one left by a
    process that had the same pid before a power cut is (the boot id differs,
    and under systemd every start has a new ``$INVOCATION_ID``).
    """
    try:
        boot = BOOT_ID_PATH.read_text().strip() or "-"
    except OSError:
        boot = "-"
    invocation = os.environ.get("INVOCATION_ID") or "-"
    return f"{boot} {invocation} {os.getpid() if pid is None else pid}"


# -- backups ---------------------------------------------------------------------------
def appliance_config(path: str | os.PathLike | None = None) -> dict:
    """The ``[appliance]`` table of the shared config file ({} when there is none or it is unreadable)."""
    candidates = [Path(path)] if path else []
    env = os.environ.get("TABLEKEEPER_CONFIG")
    if env:
        candidates.append(Path(env))
    candidates.append(SYSTEM_CONFIG)
    for p in candidates:
        if p.is_file():
            try:
                table = tomllib.loads(p.read_text(encoding="utf-8")).get("appliance", {})
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
                _warn(f"{p}: cannot read the [appliance] settings ({e}); defaults are used")
                return {}
            return table if isinstance(table, dict) else {}
    return {}


def backup_finished_games(journal: Journal, folder: Path, keep: int = DEFAULT_BACKUPS) -> Path | None:
    """Back the journal up when a game has finished since the last backup; returns the new file or None.

    The copy is the whole journal (every game, so a restore is copying one
    file back), taken with SQLite's online backup API and written atomically
    by :meth:`Journal.backup`. Only the newest ``keep`` backups are kept.
    """
    finished = journal.last_finished_id()
    if finished is None:
        return None
    done = journal.meta_get("backup_finished_upto")
    if done is not None and int(done) >= finished and _backups(folder):
        return None
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    dest = folder / f"journal-{stamp}-game{finished}.db"
    journal.backup(dest)
    journal.meta_set("backup_finished_upto", str(finished))
    for old in _backups(folder)[:-max(1, keep)]:
        try:
            old.unlink()
        except OSError as e:
            _warn(f"cannot remove the old backup {old}: {e.strerror or e}")
    return dest


def _backups(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("journal-*.db") if p.is_file())


# -- the service -----------------------------------------------------------------------
class Service:
    """One owner's life under systemd. Make it once per process (see the module doc).

    ``clock`` (seconds, monotonic) and ``environ`` are for tests.
    """

    def __init__(self, state_dir: str | os.PathLike | None = None, *, environ=None, clock=time.monotonic,
                 config: str | os.PathLike | None = None):
        self.state_dir = Path(state_dir) if state_dir is not None else default_state_dir()
        self.notifier = Notifier(environ)
        self.clock = clock
        self.limit = watchdog_limit(environ)  # seconds, or None
        self._last_pet: float | None = None
        self._token = run_token()
        settings = appliance_config(config)
        folder = settings.get("backup_dir")
        self.backup_dir = Path(folder) if isinstance(folder, str) and folder else self.state_dir / BACKUP_FOLDER
        keep = settings.get("backups", DEFAULT_BACKUPS)
        self.keep = keep if isinstance(keep, int) and not isinstance(keep, bool) and keep >= 1 else DEFAULT_BACKUPS
        self.report: BootReport | None = None

    # -- watchdog ---------------------------------------------------------------
    @property
    def pet_every(self) -> float | None:
        """Seconds between WATCHDOG=1 messages: half of ``$WATCHDOG_USEC`` (None: no watchdog)."""
        return None if self.limit is None else self.limit / 2

    def tick_every(self, default: float = 1.0) -> float:
        """How often the owner's loop should call :meth:`tick`: a quarter of the limit, at most ``default``."""
        return default if self.limit is None else min(default, self.limit / 4)

    def tick(self) -> bool:
        """Pet the watchdog if half the limit has passed since the last pet; cheap, call it every loop turn.

        Returns True when a WATCHDOG=1 was sent.
        """
        if self.limit is None or not self.notifier.enabled:
            return False
        now = self.clock()
        if self._last_pet is not None and now - self._last_pet < self.limit / 2:
            return False
        self._last_pet = now
        return self.notifier.notify("WATCHDOG=1")

    # -- state changes ----------------------------------------------------------
    def boot(self) -> BootReport:
        """The boot check; call before the game is opened.

        Opens the journal (which runs ``PRAGMA quick_check`` and moves a
        damaged file aside, keeping what can be read), runs ``quick_check``
        again on the result, counts an unsafe shutdown when the last run left
        its "running" marker, sets this run's marker, and backs up finished
        games not backed up yet. The journal is closed again: the owner opens
        its own.
        """
        self.notifier.notify("STATUS=checking the journal")
        self.tick()
        report = BootReport(self.state_dir)
        with Journal(self.state_dir) as journal:
            report.warnings = list(journal.warnings)
            report.problems = journal.quick_check()
            before = journal.unsafe_shutdowns()
            report.other_process = live_holder(journal.meta_get("running"))
            if report.other_process is not None:
                report.unsafe_shutdowns = before  # its marker stays: it clears it when it stops
            else:
                try:
                    report.unsafe_shutdowns = journal.mark_running(self._token)
                except JournalError as e:  # a read-only or full card: say so, play on
                    report.warnings.append(str(e))
                    report.unsafe_shutdowns = before
            report.unsafe_now = report.unsafe_shutdowns > before
            self.tick()
            try:
                report.backup = backup_finished_games(journal, self.backup_dir, self.keep)
            except OSError as e:  # a full card must not stop the game
                report.warnings.append(f"the backup of finished games failed: {e.strerror or e}")
        for line in report.lines():
            _warn(line)
        self.report = report
        self.tick()
        return report

    def ready(self, status: str | None = None) -> bool:
        """READY=1: call once the first frame is on the screen (or on the pods)."""
        fields = ["READY=1"] + ([f"STATUS={status}"] if status else [])
        sent = self.notifier.notify(*fields)
        self.tick()
        return sent

    def status(self, text: str) -> bool:
        """STATUS=: one line ``systemctl status`` shows (for example "playing Red Dragon Inn, game 4")."""
        return self.notifier.notify(f"STATUS={text}")

    def game_finished(self) -> Path | None:
        """Call after an acknowledged action ended a game: backs the journal up (see :func:`backup_finished_games`)."""
        try:
            with Journal(self.state_dir) as journal:
                return backup_finished_games(journal, self.backup_dir, self.keep)
        except OSError as e:
            _warn(f"the backup of finished games failed: {e.strerror or e}")
            return None

    def stopping(self, status: str | None = None) -> None:
        """A clean exit: STOPPING=1, then clear the "running" marker (the next start is not unsafe)."""
        self.notifier.notify("STOPPING=1", *([f"STATUS={status}"] if status else []))
        try:
            with Journal(self.state_dir) as journal:
                journal.mark_stopped(self._token)
        except Exception as e:  # exiting anyway: say why the next start will count an unsafe shutdown
            _warn(f"cannot clear the running marker: {e}")
        self.notifier.close()


def unsafe_shutdowns(state_dir: str | os.PathLike | None = None) -> int:
    """How many runs ended without a clean exit (power cuts, crashes, watchdog restarts): for the settings screen."""
    with Journal(state_dir) as journal:
        return journal.unsafe_shutdowns()


# -- the process-wide service: module-level calls for the app and serve ----------------
_current: Service | None = None


def start(state_dir: str | os.PathLike | None = None, **kw) -> BootReport:
    """Make this process's :class:`Service` and run its boot check."""
    global _current
    _current = Service(state_dir, **kw)
    return _current.boot()


def current() -> Service:
    """This process's service (made without a boot check if :func:`start` was not called)."""
    global _current
    if _current is None:
        _current = Service()
    return _current


def ready(status: str | None = None) -> bool:
    return current().ready(status)


def tick() -> bool:
    return current().tick()


def tick_every(default: float = 1.0) -> float:
    return current().tick_every(default)


def status(text: str) -> bool:
    return current().status(text)


def game_finished() -> Path | None:
    return current().game_finished()


def stopping(status: str | None = None) -> None:
    if _current is not None:
        _current.stopping(status)
