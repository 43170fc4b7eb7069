"""A table's publisher: the journal is the outbox, the league's acks say what it may forget.

Everything a table tells its club comes from its journal, read on this module's own thread with its
own read-only SQLite connection (one short read at a time, never on the owner's thread and never a
write: the journal keeps its one writer). It publishes, with QoS 1 over a persistent session (a
fixed client id, ``clean_session`` false), to the topics of :mod:`.contract`:

* ``status`` (retained): online, and the last will says offline;
* ``live`` (retained): the game on the table now, from the owner's snapshots (or, without an owner,
  the newest game replayed from the journal);
* ``actions``: every journal entry of every game, in order. An
  action's ``seq`` counts from 1 (the journal's first entry of a game is ``seq`` 1), so that an
  ack's ``seq`` is the number of the game's actions the league holds;
* ``plays``: each finished game, in the replay contract's names (:func:`play_payload`).

The league answers on ``ack`` with, per game, the highest ``seq`` up to which it holds every action
and whether it holds the play. Those acks are kept durably in the state folder
(``club-acks.json``, written atomically; not in the journal), so that after a table restart or
hours offline the table publishes again exactly what the acks do not cover, and a game whose play
and actions are all acknowledged is never read again. While it runs, what is out and not
acknowledged goes again when it may have been lost (:meth:`Publisher._stall_check`, and a broker
that lost the table's session), never merely because the league is slow: at most
:data:`LEAGUE_WINDOW` messages wait for its acks. An ack that claims more actions than the journal
holds is dropped, and the play of an unfinished game is not taken as held: nothing a league says
can make the table forget something it never sent.

Every game of the journal is published, those played before club mode was first on included
(the league keeps each once).

A press never waits for any of it: the owner's only part is a snapshot listener that keeps a
reference and sets an event. A dead broker costs an ``online`` flag and a log line a minute.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import ssl
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine import journal as journal_module
from ...engine.backup import write_atomic
from . import contract
from .config import ClubSettings
from .throttle import Throttle

log = logging.getLogger("tablekeeper.club")

ACK_FILE = "club-acks.json"
ACK_FILE_VERSION = 1
#: Messages out at once (published, not yet PUBACKed by the broker).
WINDOW = 100
#: Messages published and not yet acknowledged by the league, at most (a league that lags is not flooded,
#: and what goes again after a loss is bounded).
LEAGUE_WINDOW = 300
#: Seconds between two writes of the ack file (an ack lost to a crash only costs a resend).
SAVE_EVERY = 1.0
#: Seconds between two looks at the journal at least, so that a burst of commits is one look.
MIN_GAP = 0.02
#: Seconds between two lines of the same kind in the log.
LOG_EVERY = 60.0
MAX_RESEND_WAIT = 600.0


def _now() -> float:
    return time.time()


@dataclass
class _Game:
    """One unsettled game as the publisher follows it (its own thread only)."""

    no: int
    game: str
    setup: dict[str, Any]
    started: float
    finished: float | None = None
    total: int = 0  # entries in the journal
    counted: bool = False  # ``total`` was read (a look cut short by a locked journal leaves it unread)
    sent: int = 0  # actions published (wire seqs 1..sent) since the last resync
    play_sent: float | None = None  # the finished time of the play published since the last resync
    acked: int = 0  # actions the league holds (1..acked), at most ``total``
    play_acked: bool = False
    damaged: bool = False  # an entry whose checksum or text does not hold: published up to it
    progress_at: float = 0.0  # monotonic time of the last ack that moved, or since when something is owed
    #: The messages out (wire seq, -1 for the play) -> (the order they were sent in, when: monotonic).
    out: dict[int, tuple[int, float]] = field(default_factory=dict)
    overtaken_at: float | None = None  # since when a later message of the table is acknowledged and not this

    @property
    def owed(self) -> int:
        """Messages published and not acknowledged by the league yet."""
        return max(0, self.sent - self.acked) + (self.play_sent is not None and not self.play_acked)

    @property
    def settled(self) -> bool:
        return self.counted and self.finished is not None and self.play_acked and self.acked >= self.total


@dataclass
class Counts:
    actions: int = 0
    plays: int = 0
    lives: int = 0
    acks: int = 0
    bad_acks: int = 0
    resyncs: int = 0  # times something went again (any reason)
    overtaken: int = 0  # ... because a later message was acknowledged first
    stalls: int = 0  # ... because the acks stopped
    connects: int = 0


# -- payloads ------------------------------------------------------------------------------------
def live_payload(table: str, journal_id: str | None, snap_table: Any, at: float) -> dict[str, Any]:
    """The ``live`` message from an owner's :class:`~tablekeeper.ui.controller.Table` (None: no game)."""
    if snap_table is None:
        return {"table": table, "at": at, "journal": journal_id, "game_no": None, "game": None}
    from ..controller import main_counter

    return _live(table, journal_id, snap_table.game_id, snap_table.game, snap_table.rules, snap_table.state,
                 len(snap_table.done), at, main_counter(snap_table.rules))


def _live(table: str, journal_id: str | None, game_no: int, game: str, rules: Any, state: dict[str, Any],
          actions: int, at: float, main: str | None) -> dict[str, Any]:
    turn = state.get("turn")
    return {
        "table": table, "at": at, "journal": journal_id, "game_no": game_no, "game": game,
        "title": str(getattr(rules, "title", "") or game),
        "players": [{"name": p["name"], "counters": dict(p.get("counters", {})), "out": bool(p.get("out", False)),
                     **({"character": p["character"]} if isinstance(p.get("character"), str) else {})}
                    for p in state["players"]],
        "main_counter": main,
        "turn": turn.get("player") if isinstance(turn, dict) else None,
        "table_counters": dict(state.get("table", {})),
        "over": bool(state.get("over")), "winners": list(state.get("winners") or []),
        "draw": bool(state.get("draw")), "actions": actions,
    }


def play_payload(table: str, journal_id: str, game_no: int, game: str, setup: dict[str, Any], started: float,
                 finished: float, result: dict[str, Any] | None, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``plays`` message of a finished game, in the names of ``tablekeeper replay``'s JSON and of the
    journal's games table: ``players`` in seat order, each with ``name``, ``seat``, ``figure`` (the game's
    main figure at the end), ``win``, ``counters``, ``out`` and ``character``; ``winners``, ``draw``,
    ``turns``, ``result`` (what the journal stored), ``started``/``finished`` (seconds since the epoch).

    The rules replay the entries; a game unknown here keeps the stored result and the setup's names.
    """
    from ...engine.match import Match
    from ...engine.records import main_figure, turns_taken
    from ...engine.registry import make_rules

    body: dict[str, Any] = {"table": table, "journal": journal_id, "game_no": game_no, "game": game,
                            "started": started, "finished": finished, "result": result, "actions": len(entries)}
    try:
        rules = make_rules(setup)
        match = Match(rules)
        if match.load(list(entries)) < len(entries) or not match.state.get("over"):
            raise ValueError("does not replay to its end")
    except Exception:  # an unknown or changed game: what the journal stored is the play
        winners = [str(w) for w in (result or {}).get("winners") or []]
        body.update(players=[{"name": str(n), "seat": i + 1, "figure": None, "win": str(n) in winners}
                             for i, n in enumerate(setup.get("players") or [])],
                    winners=winners, draw=bool((result or {}).get("draw")), turns=None)
        return body
    state = match.state
    figures = main_figure(rules, state)
    winners = [str(w) for w in state.get("winners") or []]
    body.update(
        players=[{"name": p["name"], "seat": i + 1, "figure": figures.get(p["name"]), "win": p["name"] in winners,
                  "counters": dict(p.get("counters", {})), "out": bool(p.get("out", False)),
                  "character": p.get("character") if isinstance(p.get("character"), str) else None}
                 for i, p in enumerate(state["players"])],
        winners=winners, draw=bool(state.get("draw")), turns=turns_taken(rules, state),
        table_counters=dict(state.get("table", {})),
    )
    return body


# -- the ack file --------------------------------------------------------------------------------
def _ranges(numbers: Iterable[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for n in sorted(set(numbers)):
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


class _AckFile:
    """What the league acknowledged, kept beside the journal: ``{"v", "table", "journal", "first_game",
    "settled": [[from, to], ...], "games": {"N": [acked seq, finished time of the play held or null]}}``."""

    def __init__(self, path: Path):
        self.path = path

    def load(self) -> dict[str, Any] | None:
        """The file's content; None when there is none; ValueError with a sentence when it is unusable."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise ValueError(f"{self.path}: cannot read it: {e.strerror or e}") from None
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict) or data.get("v") != ACK_FILE_VERSION:
                raise ValueError("not an ack file of version 1")
            int(data["first_game"])
            for lo, hi in data["settled"]:
                int(lo), int(hi)
            for k, (seq, held) in data["games"].items():
                int(k), int(seq), None if held is None else float(held)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
            raise ValueError(f"{self.path}: not a usable ack file ({e})") from None
        return data

    def save(self, data: dict[str, Any]) -> None:
        write_atomic(self.path, json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8"))


# -- the publisher -------------------------------------------------------------------------------
class Publisher:
    """Publishes one table's journal to its club's broker; ``start()``, ``stop()``, ``online``.

    ``state_dir``: the folder of the journal (and of the ack file). ``journal_id``: the journal's own
    id (:func:`tablekeeper.engine.backup.table_id`); None: read from the journal, or asked of the owner
    given to :meth:`attach`. ``report(text)``: where problems are told (throttled: a line a minute
    per kind). ``resend_after``: seconds without an ack before the uncovered part is published again.
    ``reconnect``: (first, longest) seconds between two connection attempts. ``resync_after``: seconds
    after a reconnection to a broker that lost the session, or after a message was overtaken, before
    what the acks do not cover is published again. ``min_gap``: seconds between
    two looks at the journal at least, so that a burst of commits is taken in one look.
    """

    def __init__(self, club: ClubSettings, state_dir: str | os.PathLike[str], *, journal_id: str | None = None,
                 report: Callable[[str], None] | None = None, resend_after: float = 30.0,
                 reconnect: tuple[int, int] = (1, 10), poll: float = 1.0, live_every: float = 0.2,
                 window: int = WINDOW, league_window: int = LEAGUE_WINDOW, resync_after: float = 3.0,
                 min_gap: float = MIN_GAP):
        self.club = club
        self.table = club.table
        self.broker = club.broker
        self.dir = Path(state_dir)
        self.journal_path = self.dir / journal_module.FILENAME
        self.journal_id = journal_id
        self.resend_after = resend_after
        self.resync_after = resync_after
        self.min_gap = min_gap
        self.reconnect = reconnect
        self.poll = poll
        self.live_every = live_every
        self.window = window
        self.league_window = league_window
        self.counts = Counts()
        self._say = Throttle(report or (lambda text: log.warning("%s", text)), every=LOG_EVERY)
        self._tell = Throttle(report or (lambda text: log.info("%s", text)), every=LOG_EVERY)  # good news: connected
        self._ackfile = _AckFile(self.dir / ACK_FILE)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._conn: sqlite3.Connection | None = None
        self._file: tuple[int, int] | None = None  # (device, inode) of the journal the connection reads
        self._lock = threading.Lock()
        self._outstanding: set[int] = set()  # mids published, not PUBACKed
        self._window_full = False
        self._inbox: deque[dict[str, Any]] = deque()  # acks from the network thread
        self._resync_at: float | None = None  # when to publish again what the acks do not cover
        self._games: dict[int, _Game] = {}
        self._settled: set[int] = set()
        # per game as the league said: (seq, the finished time of the play it holds, None: none)
        self._raw_acks: dict[int, tuple[int, float | None]] = {}
        self._first_game: int | None = None
        self._top = 0  # the highest game number seen
        self._data_version: int | None = None
        self._dirty = False
        self._saved_at = 0.0
        self._reconnected_at = 0.0
        self._sent_no = 0  # messages of the journal published (their order)
        self._delivered_no = 0  # the latest of them the league has acknowledged
        self._ack_delay = 0.0  # seconds from publishing to the league's ack, smoothed
        self._resend_wait = resend_after
        self._snap: Any = None  # the owner's newest snapshot
        self._owner: Any = None
        self._live_key: Any = None
        self._live_at = 0.0
        self._live_match: tuple[int, Any, int] | None = None  # (game, Match, entries applied): no owner
        self._live_owed = False
        self._journal_due = True  # a commit since the last look (or none yet)
        self._scanned_at = 0.0
        self._games_known = False
        self._acks_loaded = False
        self.problem: str | None = None  # the last connection problem, in words

    # -- any thread ----------------------------------------------------------------------------
    @property
    def online(self) -> bool:
        """Connected to the broker now (what the app's status shows)."""
        return self._connected.is_set()

    def status_text(self) -> str:
        if self.online:
            return f"club: {self.table} online"
        return f"club: {self.table} offline" + (f" ({self.problem})" if self.problem else "")

    def wake(self) -> None:
        """Look at the journal now (after a commit); never blocks."""
        self._journal_due = True
        self._wake.set()

    def attach(self, keeper: Any) -> Publisher:
        """Follow an owner (:class:`~tablekeeper.ui.controller.Keeper`): its snapshots wake the publisher
        (the listener only keeps a reference), and the journal's id is asked of it once."""
        self._owner = keeper
        keeper.listeners.append(self._on_snapshot)
        if self.journal_id is None:
            from ...engine.backup import table_id

            keeper.call(lambda k: table_id(k.journal) if k.journal is not None else None,
                        self._got_journal_id, quiet=True)
        return self

    def _on_snapshot(self, snap: Any) -> None:  # the owner's thread: keep it this small
        self._snap = snap
        self._journal_due = True
        self._wake.set()

    def _got_journal_id(self, value: str | None) -> None:
        if value and self.journal_id is None:
            self.journal_id = value
            self._wake.set()

    def acks(self) -> dict[int, tuple[int, bool]]:
        """Per game still followed (not settled): (actions the league holds, whether it holds the play)."""
        with self._lock:
            return {g.no: (g.acked, g.play_acked) for g in list(self._games.values())}

    def settled(self) -> set[int]:
        """Games whose actions and play the league holds (copied)."""
        with self._lock:
            return set(self._settled)

    def start(self) -> Publisher:
        if self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name=f"club-{self.table}", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Say offline (retained), disconnect, save the acks; idempotent."""
        if self._owner is not None:
            try:
                self._owner.listeners.remove(self._on_snapshot)
            except ValueError:
                pass
        if self._thread is not None:
            self._stopping.set()
            self._wake.set()
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> Publisher:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the network thread (paho's callbacks) -------------------------------------------------------
    def _topic(self, kind: str) -> str:
        return contract.topic(self.broker.prefix, self.table, kind)

    def _make_client(self) -> Any:
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.broker.client_id,
                             clean_session=False, protocol=mqtt.MQTTv311)
        try:
            self.broker.configure(client)
        except (ssl.SSLError, OSError) as e:
            files = ", ".join(f"{name} {path}" for name, path in (("ca_file", self.broker.ca_file),
                              ("cert_file", self.broker.cert_file), ("key_file", self.broker.key_file)) if path)
            reason = getattr(e, "reason", None)  # ssl.SSLError's: NO_CERTIFICATE_OR_CRL_FOUND
            why = str(reason).replace("_", " ").lower() if reason else (e.strerror or e)
            raise ValueError(f"[club] tls: {files or 'the system certificates'} cannot be used: {why}") from None
        client.will_set(self._topic(contract.STATUS), contract.encode(
            {"table": self.table, "online": False, "at": _now(), "journal": self.journal_id}), qos=1, retain=True)
        client.reconnect_delay_set(*self.reconnect)
        client.max_inflight_messages_set(self.window)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        return client

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        """Connected: say online, listen to the acks. A broker that lost this table's session (a restart
        without its persistence file) may have lost what it had not delivered yet: after ``resync_after``
        seconds, what no ack has covered since goes again. With the session kept, paho sends again what
        the broker had not acknowledged, and the rules of :meth:`_stall_check` catch anything else."""
        if rc.is_failure:
            self.problem = f"the broker refused the connection: {rc}"
            self._say("refused", f"club: {self.broker.describe()} refused {self.table}: {rc} "
                                 "(check [club] username and password, and the broker's password file)")
            return
        self.counts.connects += 1
        self.problem = None
        client.subscribe(self._topic(contract.ACK), qos=1)
        client.publish(self._topic(contract.STATUS), contract.encode(
            {"table": self.table, "online": True, "at": _now(), "journal": self.journal_id}), qos=1, retain=True)
        # Whatever the acks do not cover goes again, once the acks in flight had a moment to arrive (the
        # league acknowledges again on its own reconnection): what it holds is not sent twice.
        self._reconnected_at = time.monotonic()
        if not getattr(flags, "session_present", False):
            self._resync_at = self._reconnected_at + self.resync_after
        self._live_key = None
        self._journal_due = True
        self._connected.set()
        self._tell("connected", f"club: {self.table} connected to {self.broker.describe()}")
        self._wake.set()

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self.problem = f"cannot reach {self.broker.host}:{self.broker.port}"
        self._say("unreachable", f"club: cannot reach the broker {self.broker.describe()}; the journal keeps "
                                 "everything and it is published when the broker is back")

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        was = self._connected.is_set()
        self._connected.clear()
        with self._lock:
            self._outstanding.clear()  # paho sends them again on reconnection; the acks decide anyway
        if was and not self._stopping.is_set():
            self.problem = f"connection lost ({rc})"
            self._say("lost", f"club: lost the broker {self.broker.describe()} ({rc}); reconnecting")

    def _on_publish(self, client: Any, userdata: Any, mid: int, rc: Any = None, props: Any = None) -> None:
        with self._lock:
            self._outstanding.discard(mid)
            full = self._window_full
            self._window_full = False
        if full:  # a look was waiting for room: go on
            self._wake.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            body = contract.decode(contract.ACK, message.payload, self.table)
            if body["seq"] < 0:
                raise contract.ContractError(f"ack from the league: seq {body['seq']} is negative")
        except contract.ContractError as e:
            self.counts.bad_acks += 1
            self._say("bad-ack", f"club: dropped a message on {message.topic}: {e}")
            return
        self._inbox.append(body)
        self._wake.set()

    # -- the publisher's thread --------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._load_acks()
            self._client = self._make_client()
            self._client.connect_async(self.broker.host, self.broker.port, keepalive=self.broker.keepalive)
            self._client.loop_start()
        except Exception as e:  # a bad TLS file, a host name that does not resolve: said, and the table plays on
            self.problem = str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}"
            self._say("start", f"club: cannot start publishing: {self.problem}")
            self._client = None
            return
        try:
            last = 0.0
            while not self._stopping.is_set():
                self._wake.wait(self._next_wait())
                # At most one look per ``min_gap``: a burst of commits (a catch-up, another process's
                # script) is taken in one look, while a single press is published at once.
                self._stopping.wait(max(0.0, last + self.min_gap - time.monotonic()))
                last = time.monotonic()
                self._wake.clear()
                if self._stopping.is_set():
                    break
                try:
                    self._cycle()
                except sqlite3.Error as e:
                    self._close_journal()
                    self._say("journal", f"club: cannot read the journal {self.journal_path}: {e}; trying again")
                except Exception as e:
                    log.exception("club publisher")
                    self._say("bug", f"club: {type(e).__name__}: {e}")
                self._save_acks()
        finally:
            self._shutdown()

    def _next_wait(self) -> float:
        """Seconds to sleep unless woken: the poll for commits of other processes, or sooner for an ack
        file to write or a live message held back by ``live_every``."""
        if self._inbox:
            return 0.0
        now = time.monotonic()
        wait = self.poll
        if self._resync_at is not None:
            wait = min(wait, max(0.0, self._resync_at - now))
        if self._dirty:
            wait = min(wait, max(0.0, self._saved_at + SAVE_EVERY - now))
        if self._connected.is_set() and self._live_pending():
            wait = min(wait, max(0.0, self._live_at + self.live_every - now))
        return wait

    def _shutdown(self) -> None:
        self._take_acks()
        self._save_acks(force=True)
        client = self._client
        if client is not None:
            if self._connected.is_set():
                try:
                    client.publish(self._topic(contract.STATUS), contract.encode(
                        {"table": self.table, "online": False, "at": _now(), "journal": self.journal_id}),
                        qos=1, retain=True).wait_for_publish(2.0)
                except (RuntimeError, ValueError, OSError):
                    pass
            client.disconnect()
            client.loop_stop()
        self._connected.clear()
        self._close_journal()

    # -- the journal, read only --------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection | None:
        if self._conn is None:
            try:
                st = os.stat(self.journal_path)
            except FileNotFoundError:
                return None
            self._conn = sqlite3.connect(f"file:{self.journal_path}?mode=ro", uri=True, isolation_level=None,
                                         check_same_thread=False, timeout=journal_module.BUSY_WAIT)
            self._file = (st.st_dev, st.st_ino)
        return self._conn

    def _same_file(self) -> bool:
        """Whether the journal is still the file this connection reads: a damaged journal repaired on
        opening is replaced by a fresh file (engine/journal.py), and the old one must not be read on."""
        try:
            st = os.stat(self.journal_path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self._file

    def _close_journal(self) -> None:
        self._journal_due = True  # read it all again at the next look
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._data_version = None

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        db = self._db()
        return db.execute(sql, params).fetchall() if db is not None else []

    def _read_journal_id(self) -> None:
        try:
            rows = self._rows("SELECT value FROM meta WHERE key=?", ("table_id",))
        except sqlite3.OperationalError:
            return  # no meta table yet: a journal being created
        if rows and rows[0][0]:
            self.journal_id = str(rows[0][0])

    # -- one look --------------------------------------------------------------------------------
    def _cycle(self) -> None:
        if self.journal_id is None:
            self._read_journal_id()
            if self.journal_id is None:
                return  # the owner makes it; its answer wakes us
        if not self._acks_loaded:
            self._load_acks()
        # The journal is looked at after a commit (a snapshot, a wake) or a poll, not when only an ack came:
        # a read at that moment could meet the next press's commit.
        now = time.monotonic()
        changed = False
        if self._journal_due or now - self._scanned_at >= self.poll or not self._games_known:
            self._journal_due = False
            self._scanned_at = now
            changed = self._scan()
        self._take_acks()
        if not self._connected.is_set():
            return
        if self._resync_at is not None and time.monotonic() >= self._resync_at:
            self._resync_at = None
            # what no ack has covered since the reconnection (the broker may have lost it) goes again
            self._resend_from_acks([g for g in self._games.values()
                                    if g.owed and g.progress_at < self._reconnected_at])
        self._stall_check()
        self._publish_journal()
        self._publish_live(changed)

    def _scan(self) -> bool:
        """Take in new games, new entries and finished games; True when the journal changed."""
        if self._conn is not None and not self._same_file():
            self._close_journal()
            self._say("journal-replaced", f"club: {self.journal_path} was replaced (repaired); reading the new one")
        db = self._db()
        if db is None:
            return False
        version = db.execute("PRAGMA data_version").fetchone()[0]
        if version == self._data_version and self._games_known:
            return False
        if self._first_game is None:
            self._first_game = self._choose_first_game()
        # Whose entries may have grown: a game not finished, or whose end changed (an undo reopened it).
        # A finished game's entries change only through such a reopening: it is not counted again.
        growing: list[_Game] = []
        followed = sorted(self._games)
        if followed:
            marks = ",".join("?" * len(followed))
            for gid, finished in self._rows(f"SELECT id, finished FROM games WHERE id IN ({marks})",
                                            tuple(followed)):
                g = self._games[gid]
                end = float(finished) if finished is not None else None
                if end is None or end != g.finished or not g.counted:
                    growing.append(g)
                g.finished = end
        for gid, game, setup, started, finished in self._rows(
                "SELECT id, game, CAST(setup AS BLOB), started, finished FROM games WHERE id>? ORDER BY id",
                (max(self._top, self._first_game - 1),)):
            self._top = max(self._top, gid)
            if gid in self._settled or gid in self._games:
                continue
            try:
                setup_obj = json.loads(bytes(setup).decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                self._say("setup", f"club: game {gid}: its setup does not decode; it is not published")
                continue
            g = _Game(gid, str(game), setup_obj, float(started), float(finished) if finished is not None else None)
            with self._lock:
                self._games[gid] = g
            growing.append(g)
        for g in growing:
            total = int(self._rows("SELECT coalesce(max(seq) + 1, 0) FROM entries WHERE game=?", (g.no,))[0][0])
            if total != g.total:
                g.damaged = False  # the owner may have set a damaged row aside meanwhile: read it again
            g.total = total
            g.counted = True
            self._bound(g)
        self._data_version = version
        self._games_known = True
        return True

    def _choose_first_game(self) -> int:
        """The first run at this journal: from its first game (a table that joins a club brings its past;
        the league keeps each play once, so nothing is counted twice)."""
        rows = self._rows("SELECT coalesce(min(id), 1) FROM games")
        self._dirty = True
        return int(rows[0][0]) if rows else 1

    def _bound(self, g: _Game) -> None:
        """The league's word, within what the journal holds (an ack can make nothing unsent forgotten)."""
        raw_seq, held = self._raw_acks.get(g.no, (0, None))
        acked = min(raw_seq, g.total)
        play = held is not None and held == g.finished  # a game finished anew (an undo, then its end) goes again
        if (acked, play) != (g.acked, g.play_acked):
            g.acked, g.play_acked = acked, play
            self._dirty = True
        g.sent = max(g.sent, g.acked)

    def _take_acks(self) -> None:
        later = []
        while self._inbox:
            body = self._inbox.popleft()
            if body["journal"] != self.journal_id:
                self.counts.bad_acks += 1
                self._say("other-journal", f"club: dropped an ack for another journal ({body['journal']!r})")
                continue
            no = body["game_no"]
            g = self._games.get(no)
            if g is not None and not g.counted:
                later.append(body)  # taken in once the game's actions are counted
                continue
            if g is not None and body["seq"] > g.total:
                # more than the journal holds: not an ack of anything this table sent
                self.counts.bad_acks += 1
                self._say("bad-ack", f"club: dropped an ack for game {no}: it claims {body['seq']} actions, "
                                     f"the journal holds {g.total}")
                continue
            self.counts.acks += 1
            if g is None:
                continue  # a settled game (acked again after a reconnection), or one this journal lacks
            old = self._raw_acks.get(no, (0, None))
            # The play held is the one last published (or, after a restart, the one the journal has); a
            # game that is not finished (any more: an undo reopened it) has none to hold.
            held = old[1]
            if body["play"] and g.finished is not None:
                held = g.play_sent if g.play_sent is not None else g.finished
            new = (max(old[0], body["seq"]), held)
            if new == old:
                continue
            self._raw_acks[no] = new
            before = (g.acked, g.play_acked)
            self._bound(g)
            if (g.acked, g.play_acked) != before:
                g.progress_at = time.monotonic()
                self._resend_wait = self.resend_after
                now = time.monotonic()
                for key in [k for k in g.out if (k <= g.acked if k >= 0 else g.play_acked)]:
                    no, at = g.out.pop(key)
                    self._delivered_no = max(self._delivered_no, no)
                    self._ack_delay += (now - at - self._ack_delay) / 8  # how long acks take now (smoothed)
        self._inbox.extendleft(reversed(later))
        # The newest game stays followed: an undo of its last action reopens it, and what follows goes too.
        for g in [g for g in self._games.values() if g.settled and g.no != self._top]:
            with self._lock:
                del self._games[g.no]
                self._settled.add(g.no)
            self._raw_acks.pop(g.no, None)
            self._dirty = True

    def _resend_from_acks(self, games: list[_Game]) -> None:
        if not games:
            return
        self.counts.resyncs += 1
        now = time.monotonic()
        for g in games:
            g.sent = g.acked
            g.play_sent = None
            g.progress_at = now
            g.out.clear()
            g.overtaken_at = None

    def _stall_check(self) -> None:
        """What the league has not acknowledged goes again, of a game

        * whose oldest message out was sent before one the league has acknowledged since, for
          ``resync_after`` seconds (the league takes a table's messages in the order they were sent: one
          that is overtaken was lost, or its ack was), or
        * whose acks have not moved for ``resend_after`` seconds although messages are out (then twice as
          long, up to 10 minutes, while the league stays silent; and never less than 4 times the time
          the league's acks take lately: a league working through a backlog is not sent it twice).
        """
        now = time.monotonic()
        overtaken = []
        for g in self._games.values():
            if g.out and min(no for no, _at in g.out.values()) < self._delivered_no:
                if g.overtaken_at is None:
                    g.overtaken_at = now
                elif now - g.overtaken_at >= self.resync_after:
                    overtaken.append(g)
            else:
                g.overtaken_at = None
        if overtaken:
            self.counts.overtaken += 1
            self._resend_from_acks(overtaken)
        # a league that is slow to answer (a backlog after an outage) is waited for: 4 times its delay
        wait = max(self._resend_wait, 4 * self._ack_delay)
        stalled = [g for g in self._games.values() if g.owed and now - g.progress_at >= wait]
        if stalled:
            self._say("stall", f"club: no ack from the league for {wait:.0f} s; publishing again "
                               f"what it has not acknowledged of {len(stalled)} game(s)")
            self._resend_wait = min(self._resend_wait * 2, MAX_RESEND_WAIT)
            self.counts.stalls += 1
            self._resend_from_acks(stalled)

    def _room(self) -> int:
        """How many more messages may go now: the broker's window (not yet PUBACKed) and the league's
        (not yet acknowledged by it), so that a league that lags is never flooded."""
        owed = sum(g.owed for g in self._games.values())
        with self._lock:
            room = self.window - len(self._outstanding)
            self._window_full = room <= 0  # the broker's next PUBACK wakes the publisher
            return min(room, self.league_window - owed)

    def _send(self, kind: str, payload: dict[str, Any], *, retain: bool = False) -> bool:
        info = self._client.publish(self._topic(kind), contract.encode(payload), qos=1, retain=retain)
        if info.rc == 0:
            with self._lock:
                if not info.is_published():
                    self._outstanding.add(info.mid)
        # Not 0: the connection went meanwhile. Paho keeps the message queued, but what goes again after
        # the reconnection is what the acks do not cover, so nothing is counted as sent.
        return info.rc == 0

    def _publish_journal(self) -> None:
        for g in sorted(self._games.values(), key=lambda g: g.no):
            if not g.counted:
                continue  # the next look counts it first
            while g.sent < g.total and not g.damaged:
                room = self._room()
                if room <= 0 or not self._connected.is_set():
                    return
                rows = self._rows("SELECT seq, CAST(body AS BLOB), crc, at FROM entries WHERE game=? AND seq>=? "
                                  "ORDER BY seq LIMIT ?", (g.no, g.sent, room))
                if not rows:
                    break
                for seq, raw, crc, at in rows:
                    entry = _decode(raw, crc)
                    if seq != g.sent or entry is None:
                        g.damaged = True
                        self._say("damaged", f"club: game {g.no}: entry {seq} does not read back; published up "
                                             "to it (the owner repairs the journal)")
                        break
                    payload = {"table": self.table, "journal": self.journal_id, "game_no": g.no, "game": g.game,
                               "seq": seq + 1, "at": float(at), "entry": entry}
                    if seq == 0:
                        payload["setup"] = g.setup
                        payload["started"] = g.started
                    if not self._send(contract.ACTIONS, payload):
                        return
                    if not g.owed:
                        g.progress_at = time.monotonic()
                    g.sent = seq + 1
                    self._sent_no += 1
                    g.out[seq + 1] = (self._sent_no, time.monotonic())
                    self.counts.actions += 1
            if (g.finished is not None and g.sent >= g.total and not g.play_acked and g.play_sent != g.finished
                    and not g.damaged):
                if self._room() <= 0 or not self._connected.is_set():
                    return
                play = self._play(g)
                if play is not None and self._send(contract.PLAYS, play):
                    if not g.owed:
                        g.progress_at = time.monotonic()
                    g.play_sent = g.finished
                    self._sent_no += 1
                    g.out[-1] = (self._sent_no, time.monotonic())
                    self.counts.plays += 1

    def _entries(self, game_no: int) -> list[dict[str, Any]] | None:
        out: list[dict[str, Any]] = []
        for seq, raw, crc in self._rows("SELECT seq, CAST(body AS BLOB), crc FROM entries WHERE game=? ORDER BY seq",
                                        (game_no,)):
            entry = _decode(raw, crc)
            if entry is None or seq != len(out):
                return None
            out.append(entry)
        return out

    def _play(self, g: _Game) -> dict[str, Any] | None:
        rows = self._rows("SELECT finished, CAST(result AS BLOB) FROM games WHERE id=?", (g.no,))
        entries = self._entries(g.no)
        if not rows or rows[0][0] is None or entries is None or len(entries) < g.total:
            return None  # reopened meanwhile, or still being read: the next look
        result = None
        if rows[0][1]:
            try:
                result = json.loads(bytes(rows[0][1]).decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                result = None
        assert self.journal_id is not None
        return play_payload(self.table, self.journal_id, g.no, g.game, g.setup, g.started, float(rows[0][0]),
                            result, entries)

    # -- live ------------------------------------------------------------------------------------
    def _publish_live(self, journal_changed: bool) -> None:
        now = time.monotonic()
        if now - self._live_at < self.live_every:
            self._live_owed = self._live_owed or journal_changed
            return  # _next_wait comes back for it
        if self._owner is None and not (journal_changed or self._live_owed or self._live_key is None):
            return  # nothing new to replay (and no read of the journal for it)
        if self._owner is not None:
            snap = self._snap
            if snap is None:
                return
            key = ("owner", snap.serial)
            if key == self._live_key:
                return
            payload = live_payload(self.table, self.journal_id, snap.table, _now())
        else:
            payload_or_none = self._live_from_journal()
            if payload_or_none is None:
                return
            key, payload = payload_or_none
            if key == self._live_key:
                return
        if self._room() <= 0:
            return
        if self._send(contract.LIVE, payload, retain=True):
            self._live_key = key
            self._live_at = now
            self._live_owed = False
            self.counts.lives += 1

    def _live_pending(self) -> bool:
        if self._owner is not None:
            snap = self._snap
            return snap is not None and ("owner", snap.serial) != self._live_key
        return self._live_owed

    def _live_from_journal(self) -> tuple[Any, dict[str, Any]] | None:
        """Without an owner: the newest game, replayed incrementally from the journal."""
        from ...engine.match import Match
        from ...engine.registry import make_rules
        from ..controller import main_counter

        rows = self._rows("SELECT id, game, CAST(setup AS BLOB) FROM games ORDER BY id DESC LIMIT 1")
        if not rows:
            return None
        gid, game, setup = rows[0]
        if self._live_match is None or self._live_match[0] != gid:
            try:
                match = Match(make_rules(json.loads(bytes(setup).decode("utf-8"))))
            except Exception:
                return None
            self._live_match = (gid, match, 0)
        _gid, match, applied = self._live_match
        new = self._rows("SELECT seq, CAST(body AS BLOB), crc FROM entries WHERE game=? AND seq>=? ORDER BY seq",
                         (gid, applied))
        for seq, raw, crc in new:
            entry = _decode(raw, crc)
            if entry is None or seq != applied:
                break
            try:
                match.replay(entry)
            except Exception:
                break
            applied += 1
        self._live_match = (gid, match, applied)
        key = ("journal", gid, applied)
        return key, _live(self.table, self.journal_id, gid, str(game), match.rules, match.state, len(match.done),
                          _now(), main_counter(match.rules))

    # -- the ack file ----------------------------------------------------------------------------
    def _load_acks(self) -> None:
        if self.journal_id is None:
            return
        self._acks_loaded = True
        try:
            data = self._ackfile.load()
        except ValueError as e:
            aside = self._ackfile.path.with_name(f"club-acks.unusable-{time.strftime('%Y%m%dT%H%M%S')}.json")
            try:
                os.replace(self._ackfile.path, aside)
            except OSError:
                pass
            self._say("ackfile", f"club: {e}; set aside as {aside.name}: every game is published again "
                                 "(the league keeps each once)")
            self._first_game = 1
            self._dirty = True
            return
        if data is None or data.get("journal") != self.journal_id or data.get("table") != self.table:
            if data is not None:
                self._say("ackfile", f"club: {self._ackfile.path} is for another journal or table; starting afresh")
            self._first_game = None  # chosen at the first look at the journal
            self._dirty = True
            return
        self._first_game = int(data["first_game"])
        with self._lock:
            self._settled = {n for lo, hi in data["settled"] for n in range(int(lo), int(hi) + 1)}
        self._raw_acks = {int(k): (int(seq), None if held is None else float(held))
                          for k, (seq, held) in data["games"].items()}

    def _save_acks(self, *, force: bool = False) -> None:
        if not self._dirty or self.journal_id is None or self._first_game is None:
            return
        now = time.monotonic()
        if not force and now - self._saved_at < SAVE_EVERY:
            return  # _next_wait comes back for it
        games = {str(no): [seq, held] for no, (seq, held) in self._raw_acks.items() if no not in self._settled}
        data = {"v": ACK_FILE_VERSION, "table": self.table, "journal": self.journal_id,
                "first_game": self._first_game, "settled": _ranges(self._settled), "games": games}
        try:
            self._ackfile.save(data)
        except OSError as e:
            self._say("ackfile-write", f"club: cannot write {self._ackfile.path}: {e.strerror or e} (the acks are "
                                       "kept in memory; a restart publishes those games again)")
            return
        self._dirty = False
        self._saved_at = now




def _decode(raw: Any, crc: Any) -> dict[str, Any] | None:
    """A journal row's entry, or None when its checksum or text does not hold."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if not isinstance(raw, bytes) or zlib.crc32(raw) != crc:
        return None
    try:
        entry = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None
