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
* ``plays``: each finished game, in the replay contract's names (:func:`play_payload`);
* ``roster`` (retained): which stored names are one person (the journal's roster, engine/roster.py), at
  every connection and whenever a ``players merge`` or ``rename`` changes it (:func:`roster_payload`).

The league answers on ``ack`` with, per game, the highest ``seq`` up to which it holds every action
and whether it holds the play. Those acks are kept durably in the state folder
(``club-acks.json``, written atomically; not in the journal), so that after a table restart or
hours offline the table publishes again exactly what the acks do not cover, and a game whose play
and actions are all acknowledged is never read again. While it runs, what is out and not
acknowledged goes again when it may have been lost (:meth:`.ledger.Ledger.stall_check`, and a broker
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

import logging
import os
import sqlite3
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...engine import journal as journal_module
from ...engine.journal_rows import JournalRows
from ...engine.roster import META_KEY as ROSTER_KEY
from . import contract
from .ackfile import ACK_FILE as ACK_FILE
from .config import ClubSettings
from .feed import JournalFeed
from .ledger import SAVE_EVERY, Counts, FollowedGame, Ledger
from .payloads import JournalLive, live_payload, play_payload, roster_payload
from .throttle import Throttle

log = logging.getLogger("tablekeeper.club")

#: Messages out at once (published, not yet PUBACKed by the broker).
WINDOW = 100
#: Messages published and not yet acknowledged by the league, at most (a league that lags is not flooded,
#: and what goes again after a loss is bounded).
LEAGUE_WINDOW = 300
#: Seconds between two looks at the journal at least, so that a burst of commits is one look.
MIN_GAP = 0.02
#: Seconds between two lines of the same kind in the log.
LOG_EVERY = 60.0


def _now() -> float:
    return time.time()


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
        self._ledger = Ledger(self.dir / ACK_FILE, self.counts, self._say, resend_after=resend_after,
                              resync_after=resync_after)
        self._feed = JournalFeed(self.journal_path)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._lock = threading.Lock()
        self._outstanding: set[int] = set()  # mids published, not PUBACKed
        self._window_full = False
        self._resync_at: float | None = None  # when to publish again what the acks do not cover
        self._reconnected_at = 0.0
        self._snap: Any = None  # the owner's newest snapshot
        self._owner: Any = None
        self._live_key: Any = None
        self._live_at = 0.0
        self._live_journal = JournalLive()  # no owner: the newest game, replayed from the journal
        self._live_owed = False
        self._roster: str | None = None  # the journal's stored roster (its JSON) at the last look
        self._roster_owed = False  # it changed, or the connection is new: publish it
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
        return self._ledger.acks()

    def settled(self) -> set[int]:
        """Games whose actions and play the league holds (copied)."""
        return self._ledger.settled()

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
        the broker had not acknowledged, and the rules of :meth:`.ledger.Ledger.stall_check` catch anything else."""
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
        self._roster_owed = self._roster is not None  # retained, but a broker may have lost it
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
        self._ledger.inbox.append(body)
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
        if self._ledger.inbox:
            return 0.0
        now = time.monotonic()
        wait = self.poll
        if self._resync_at is not None:
            wait = min(wait, max(0.0, self._resync_at - now))
        if self._ledger.dirty:
            wait = min(wait, max(0.0, self._ledger.saved_at + SAVE_EVERY - now))
        if self._connected.is_set() and self._live_pending():
            wait = min(wait, max(0.0, self._live_at + self.live_every - now))
        return wait

    def _shutdown(self) -> None:
        self._ledger.take_acks(self.journal_id)
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
    def _close_journal(self) -> None:
        self._journal_due = True  # read it all again at the next look
        self._feed.close()

    def _read_journal_id(self) -> None:
        try:
            rows = self._feed.rows()
            value = rows.meta("table_id") if rows is not None else None
        except sqlite3.OperationalError:
            return  # no meta table yet: a journal being created
        if value:
            self.journal_id = str(value)

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
        self._ledger.take_acks(self.journal_id)
        if not self._connected.is_set():
            return
        if self._resync_at is not None and time.monotonic() >= self._resync_at:
            self._resync_at = None
            self._ledger.resend_owed_since(self._reconnected_at)
        self._ledger.stall_check()
        self._publish_roster()
        self._publish_journal()
        self._publish_live(changed)

    def _scan(self) -> bool:
        """Take in new games, new entries and finished games; True when the journal changed."""
        if self._feed.is_open and not self._feed.same_file():
            self._close_journal()
            self._say("journal-replaced", f"club: {self.journal_path} was replaced (repaired); reading the new one")
        rows = self._feed.rows()
        if rows is None:
            return False
        version = rows.data_version()
        if version == self._feed.version and self._games_known:
            return False
        self._ledger.take_in(rows)
        roster = rows.meta(ROSTER_KEY)
        if roster != self._roster:
            self._roster, self._roster_owed = roster, roster is not None
        self._feed.version = version
        self._games_known = True
        return True

    def _room(self) -> int:
        """How many more messages may go now: the broker's window (not yet PUBACKed) and the league's
        (not yet acknowledged by it), so that a league that lags is never flooded."""
        owed = self._ledger.owed()
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
        rows = self._feed.rows()
        if rows is None:
            return
        for g in sorted(self._ledger.games.values(), key=lambda g: g.no):
            if not g.counted:
                continue  # the next look counts it first
            while g.sent < g.total and not g.damaged:
                room = self._room()
                if room <= 0 or not self._connected.is_set():
                    return
                read = rows.actions(g.no, since=g.sent, limit=room)
                for seq, entry, at in read.sound:
                    payload = {"table": self.table, "journal": self.journal_id, "game_no": g.no, "game": g.game,
                               "seq": seq + 1, "at": float(at), "entry": entry}
                    if seq == 0:
                        payload["setup"] = g.setup
                        payload["started"] = g.started
                    if not self._send(contract.ACTIONS, payload):
                        return
                    self._ledger.sent(g, seq + 1)
                    self.counts.actions += 1
                if read.stop is not None:
                    g.damaged = True
                    self._say("damaged", f"club: game {g.no}: entry {read.stop[0]} does not read back; published up "
                                         "to it (the owner repairs the journal)")
                elif not read.sound:
                    break
            if (g.finished is not None and g.sent >= g.total and not g.play_acked and g.play_sent != g.finished
                    and not g.damaged):
                if self._room() <= 0 or not self._connected.is_set():
                    return
                play = self._play(rows, g)
                if play is not None and self._send(contract.PLAYS, play):
                    self._ledger.sent(g, -1)
                    self.counts.plays += 1

    def _publish_roster(self) -> None:
        """The roster, retained, when it changed or the connection is new (it takes no room: one message,
        replaced by the next)."""
        if not self._roster_owed or self._roster is None or not self._connected.is_set():
            return
        try:
            payload = roster_payload(self.table, self.journal_id, self._roster, _now())
        except (ValueError, KeyError, TypeError) as e:
            self._roster_owed = False
            self._say("roster", f"club: the journal's roster is not published: {e}")
            return
        try:
            sent = self._send(contract.ROSTER, payload, retain=True)
        except contract.ContractError as e:  # a roster over the largest payload
            self._roster_owed = False
            self._say("roster", f"club: the journal's roster is not published: {e}")
            return
        if sent:
            self._roster_owed = False
            self.counts.rosters += 1

    def _play(self, rows: JournalRows, g: FollowedGame) -> dict[str, Any] | None:
        read = rows.game(g.no)
        actions = rows.actions(g.no)
        record = read.record if read is not None else None
        if record is None or record.finished is None or actions.stop is not None or len(actions.sound) < g.total:
            return None  # reopened meanwhile, or still being read: the next look
        assert self.journal_id is not None
        return play_payload(self.table, self.journal_id, g.no, g.game, g.setup, g.started, float(record.finished),
                            record.result, actions.entries)

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
            payload_or_none = self._live_journal.payload(self._feed.rows(), self.table, self.journal_id, _now())
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

    # -- the ack file ----------------------------------------------------------------------------
    def _load_acks(self) -> None:
        if self.journal_id is None:
            return
        self._acks_loaded = True
        self._ledger.load(self.journal_id, self.table)

    def _save_acks(self, *, force: bool = False) -> None:
        self._ledger.save(self.journal_id, self.table, force=force)
