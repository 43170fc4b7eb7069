"""The league: every table's actions and plays, kept once each in SQLite, acknowledged after the commit.

One MQTT client (paho, MQTT 5, a fixed client id and a persistent session, QoS 1) subscribes to every
table's ``status``, ``live``, ``actions`` and ``plays`` (ui/club/contract.py). Messages go, as they
arrive, on a queue; one store thread takes what has queued (up to :data:`BATCH`), checks each one
(``contract.decode`` and the limits below), writes them in one SQLite transaction (WAL,
``synchronous=FULL``: a commit is on the disk), and only then

* acknowledges them to the broker (paho's ``manual_ack``: a league that dies before its commit gets
  them again from its session), and
* publishes one ``ack`` per game touched (``PREFIX/v1/tables/TABLE/ack``): the highest ``seq`` up to
  which it holds every action of that game, and whether it holds the finished play.

De-duplication: an action is kept once by ``(table, journal, game_no, seq)``, a play once by
``(table, journal, game_no)``; a copy is acknowledged again and changes nothing. A play published
again with a later ``finished`` (the table undid the last action and the game ended anew) replaces
the one before. ``status`` and ``live`` keep the last one received, whatever its ``at`` says (a
table's last will carries the time it connected, and a Pi without a clock may restart in the past;
one table's messages on one topic arrive in order).

Nothing a table sends can stop the league: a message that breaks the contract is logged (once per
table and :data:`LOG_EVERY` seconds, with how many were dropped meanwhile), counted in
:attr:`League.dropped` and acknowledged to the broker so that it is not delivered again. A database
that cannot be written (a full disk) loses nothing either: the batch is retried every second and
the broker keeps every message the league has not acknowledged.

Threads: paho's network thread (queues messages), the store thread (the one writer), and any number
of readers (:meth:`League.plays`, :meth:`League.standings`, the page), each with its own connection.

The organiser's changes (``tablekeeper club merge``/``unmerge``, ``void``/``unvoid``/``fix``) are
written to the same database by another process: the ``people`` table, and ``corrections``, a journal
(a row per void, unvoid or fix: who, when, what, why; a play is never deleted). The store thread
notices another connection's commit (``PRAGMA data_version``) within :data:`WATCH_EVERY` seconds and
bumps :attr:`League.version`, so the page shows the change without a restart.
"""
from __future__ import annotations

import bisect
import copy
import json
import logging
import math
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ...engine.errors import TablekeeperError
from ...engine.messages import _
from ...engine.registry import available as available_games
from . import contract
from . import standings as scoring
from .config import BrokerSettings
from .throttle import Throttle

log = logging.getLogger("tablekeeper.club.league")

#: At most this many messages are written in one transaction.
BATCH = 500
#: Seconds between attempts to write a batch the database refused (a full disk, a locked file).
RETRY_EVERY = 1.0
#: A table's bad messages are logged at most once in this many seconds (the rest are counted).
LOG_EVERY = 30.0
#: On every (re)connection the league acknowledges again every game it heard of in this many seconds
#: (an ack lost with the connection would otherwise wait for the table's next reconnection).
REACK_WINDOW = 3600.0
#: Largest number a journal field may carry (JSON's exact integers; SQLite's INTEGER holds them).
MAX_NUMBER = 2**53
#: Longest journal id, game id, or player name accepted (the replay contract's text limit).
MAX_TEXT = 120
#: Most players a play may name: what a table can seat, the most any game takes (the standings compare
#: each pair of a play: a play of thousands of names would hold up every table's acks).
MAX_PLAYERS = max(cls.max_players for cls in available_games().values())
#: Most people a table's roster message may name, and most stored names one person may have.
MAX_PEOPLE = 2000
MAX_ALIASES = 100
#: Seconds between two looks for the organiser's changes (another process's commit) while no message comes.
WATCH_EVERY = 0.5
#: Longest reason a correction may carry.
MAX_REASON = 200
#: Seconds the store thread may spend on one batch before the service's watchdog counts it stuck (a batch of
#: :data:`BATCH` messages takes well under a second; SQLite waits up to 30 s for a lock).
STUCK_AFTER = 90.0
#: The broker keeps the league's session this long while it is away (seconds; MQTT 5 expiry).
SESSION_EXPIRY = 7 * 24 * 3600

SCHEMA = """
PRAGMA user_version = 1;
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    tbl TEXT NOT NULL, journal TEXT NOT NULL, game_no INTEGER NOT NULL,
    game TEXT NOT NULL,
    acked_seq INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL,
    UNIQUE (tbl, journal, game_no));
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
    at REAL NOT NULL, entry TEXT NOT NULL,
    PRIMARY KEY (game, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS plays (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    finished REAL NOT NULL, body TEXT NOT NULL, received REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    online INTEGER, status_at REAL,
    live TEXT, live_at REAL);
CREATE TABLE IF NOT EXISTS people (
    name TEXT PRIMARY KEY,
    person TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY,
    play INTEGER NOT NULL REFERENCES games(id),
    what TEXT NOT NULL CHECK (what IN ('void', 'unvoid', 'fix')),
    winners TEXT, draw INTEGER,
    reason TEXT, who TEXT NOT NULL, at REAL NOT NULL,
    identity TEXT);
CREATE TABLE IF NOT EXISTS rosters (
    tbl TEXT PRIMARY KEY,
    journal TEXT, aliases TEXT NOT NULL, at REAL NOT NULL);
"""


def _schema(conn: sqlite3.Connection) -> None:
    """Make the league's tables, and bring a database made by an earlier version up to them (the
    corrections' ``identity``: a correction follows every table's copy of its play)."""
    conn.executescript(SCHEMA)
    if "identity" not in {row[1] for row in conn.execute("PRAGMA table_info(corrections)")}:
        conn.execute("ALTER TABLE corrections ADD COLUMN identity TEXT")


# -- checks beyond the contract's types -----------------------------------------------------
def _text(body: dict[str, Any], name: str, what: str) -> str:
    value = body[name]
    if not value or len(value) > MAX_TEXT or not value.isprintable():
        raise contract.ContractError(f"{what}: {name!r} must be 1 to {MAX_TEXT} printable characters")
    return value


def _number(body: dict[str, Any], name: str, what: str, low: int = 0) -> int:
    value = body[name]
    if not low <= value < MAX_NUMBER:
        raise contract.ContractError(f"{what}: {name!r} is {value}, not between {low} and 2**53")
    return value


def _time(body: dict[str, Any], name: str, what: str) -> float:
    value = float(body[name])
    if not math.isfinite(value) or value < 0:
        raise contract.ContractError(f"{what}: {name!r} is not a time (seconds since 1970)")
    return value


def player_name(player: Any) -> str:
    """A play's player as a name: the replay contract's player object (``{"name": ...}``) or a name."""
    name = player.get("name") if isinstance(player, dict) else player
    if not isinstance(name, str) or not name or len(name) > MAX_TEXT or not name.isprintable():
        raise contract.ContractError(f"a player must be a name of 1 to {MAX_TEXT} printable characters, "
                                     f"not {str(name)[:40]!r}")
    return name


def check(kind: str, data: bytes, table: str) -> dict[str, Any]:
    """``contract.decode`` and the league's own limits; ContractError with a sentence for a bad message."""
    body = contract.decode(kind, data, table)
    what = f"{kind} from {table}"
    if kind in (contract.ACTIONS, contract.PLAYS):
        _text(body, "journal", what)
        _text(body, "game", what)
        _number(body, "game_no", what)
    if kind == contract.ACTIONS:
        _number(body, "seq", what, low=1)
        _time(body, "at", what)
    elif kind == contract.PLAYS:
        _time(body, "started", what)
        _time(body, "finished", what)
        for field in ("players", "winners"):  # counted before anything is read of them
            if len(body[field]) > MAX_PLAYERS:
                raise contract.ContractError(f"{what}: {len(body[field])} {field}, over the {MAX_PLAYERS} a table "
                                             "seats")
        try:
            names = [player_name(p) for p in body["players"]]
            winners = [player_name(p) for p in body["winners"]]
        except contract.ContractError as e:
            raise contract.ContractError(f"{what}: {e}") from None
        if not names or len(set(names)) != len(names):
            raise contract.ContractError(f"{what}: the players must be one or more different names")
        if "identity" in body and not (isinstance(body["identity"], str) and 0 < len(body["identity"]) <= MAX_TEXT):
            raise contract.ContractError(f"{what}: identity must be a short text")
        if "actions" in body and not (isinstance(body["actions"], int) and not isinstance(body["actions"], bool)
                                      and body["actions"] >= 0):
            raise contract.ContractError(f"{what}: actions must be a whole number, 0 or more")
        if not set(winners) <= set(names):
            raise contract.ContractError(f"{what}: a winner is not one of the players")
    elif kind in (contract.LIVE, contract.STATUS):
        _time(body, "at", what)
    elif kind == contract.ROSTER:
        _time(body, "at", what)
        body["aliases"] = roster_aliases(body["people"], what)
    return body


def roster_aliases(people: list[Any], what: str) -> dict[str, str]:
    """A ``roster`` message's people as ``{stored name: the person's name}`` (only the names that are not
    their person's own); ContractError for a roster that is not one (a name in two people included)."""
    if len(people) > MAX_PEOPLE:
        raise contract.ContractError(f"{what}: {len(people)} people, over the {MAX_PEOPLE} a roster may name")
    aliases: dict[str, str] = {}
    names: set[str] = set()
    for person in people:
        if not isinstance(person, dict) or not isinstance(person.get("aliases"), list):
            raise contract.ContractError(f"{what}: a person must be {{\"name\": ..., \"aliases\": [...]}}")
        if len(person["aliases"]) > MAX_ALIASES:
            raise contract.ContractError(f"{what}: {len(person['aliases'])} names of one person, over the "
                                         f"{MAX_ALIASES} allowed")
        try:
            name = player_name(person)
            theirs = [player_name(a) for a in person["aliases"]]
        except contract.ContractError as e:
            raise contract.ContractError(f"{what}: {e}") from None
        for alias in dict.fromkeys([name, *theirs]):
            if alias in names:
                raise contract.ContractError(f"{what}: {alias!r} is the name of two people")
            names.add(alias)
            if alias != name:
                aliases[alias] = name
    return aliases


class LeagueError(TablekeeperError, OSError):
    """The league's database cannot be opened or made (the sentence names the file and why)."""


def throttled_drops(every: float = LOG_EVERY, clock: Callable[[], float] = time.monotonic) -> Throttle:
    """The log of dropped messages: a line per table at most every ``every`` seconds, counting the rest."""
    return Throttle(lambda text: log.warning("dropped a message: %s", text), every=every, clock=clock,
                    held="{n} more dropped since the last report")


@dataclass
class _Message:
    topic: str
    payload: bytes
    mid: int
    qos: int
    generation: int  # the connection it came on (an ack for a message of an older connection is not sent)


class League:
    """The league service's core: subscribe, store once, acknowledge, answer questions.

    ``db_path`` is the SQLite file (its folder is made). ``broker``: how to reach the broker (its
    ``client_id`` is the persistent session's: default ``tablekeeper-league``). ``reconnect_max`` is the
    longest wait between connection attempts (seconds; the first is a quarter of a second). ``rules``:
    the standings' points and minimum plays (default: the standard ones).
    """

    def __init__(self, db_path: str | Path, broker: BrokerSettings, *, reconnect_max: float = 5.0,
                 rules: scoring.Scoring | None = None):
        self.db_path = Path(db_path)
        self.broker = broker
        self.rules = rules or scoring.Scoring()  # the points and the minimum plays ([league] in the config)
        self.prefix = broker.prefix or contract.DEFAULT_PREFIX
        self.reconnect_max = reconnect_max
        self.dropped: dict[str, int] = {}  # table -> messages dropped for breaking the contract
        # since start(), once committed; "retracted": plays an undo at their table took back
        self.stored = {"actions": 0, "plays": 0, "duplicates": 0, "retracted": 0}
        self._counted = dict(self.stored)
        self.handled = 0  # messages stored or dropped since start(), once committed
        self.connected = False
        #: Why the league is not connected, in a sentence, a message (None: connected, or not tried yet).
        self.problem: str | None = None
        self._problems = Throttle(lambda text: log.warning("%s", text), every=60.0,
                                  held="{n} more like this since the last report")
        self.version = 0  # grows after each commit that changed something (the page waits on it)
        self._changed = threading.Condition()
        self._queue: queue.Queue[_Message | None] = queue.Queue()
        self._throttle = throttled_drops()
        self._generation = 0
        self._stop = threading.Event()
        self._readers = threading.local()
        self._store_thread: threading.Thread | None = None
        self._client: mqtt.Client | None = None
        self._cache_lock = threading.Lock()
        self._cache: _PlayCache | None = None  # None: read from the file at the next question
        #: this batch's changes to the plays, in order, for the cache once committed: (game, body or None: gone)
        self._play_changes: list[tuple[int, dict[str, Any] | None]] = []
        self._game_ids: dict[tuple[str, str, int], int] = {}  # the store thread's: (table, journal, game_no) -> id
        self._data_version: int | None = None  # the writer's PRAGMA data_version: another process's commit moves it
        self._busy_since: float | None = None  # monotonic time the store thread took its batch (None: waiting)
        try:
            self.db_path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = self._connect_db()
            _schema(self._writer)
        except (OSError, sqlite3.Error) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise LeagueError(f"cannot open the league's database {self.db_path}: {reason}") from e

    # -- the database ---------------------------------------------------------------------
    def _connect_db(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.db_path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._readers, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.db_path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only=ON")
            self._readers.conn = conn
        return conn

    # -- life -----------------------------------------------------------------------------
    def start(self) -> League:
        """Connect (in the background: a broker that is down is retried) and start storing."""
        if self._store_thread is not None:
            return self
        self._stop.clear()
        self._store_thread = threading.Thread(target=self._store_loop, name="league-store", daemon=True)
        self._store_thread.start()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.broker.client_id or "tablekeeper-league",
                             protocol=mqtt.MQTTv5, manual_ack=True)
        self.broker.configure(client)
        # paho doubles the wait after each failure; it takes floats, and a short first wait makes a
        # broker's restart cost little (and stop() quick: paho sleeps out the wait before it stops)
        client.reconnect_delay_set(min_delay=0.25, max_delay=max(0.25, self.reconnect_max))  # type: ignore[arg-type]
        client.max_queued_messages_set(0)
        client.on_connect = self._on_connect
        client.on_subscribe = self._on_subscribe
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY
        client.connect_async(self.broker.host, self.broker.port, keepalive=self.broker.keepalive, clean_start=False,
                             properties=props)
        client.loop_start()
        self._client = client
        return self

    def stop(self) -> None:
        """Disconnect and stop the store thread (what is queued is stored first). Idempotent."""
        client, self._client = self._client, None
        thread, self._store_thread = self._store_thread, None
        self.connected = False  # a goodbye, not a loss
        if client is not None:
            client.disconnect()
            client.loop_stop()
        if thread is not None:
            self._stop.set()
            self._queue.put(None)
            thread.join(10)
        self.connected = False
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def close(self) -> None:
        self.stop()
        self._writer.close()

    def __enter__(self) -> League:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_change(self, version: int, timeout: float) -> int:
        """Wait until :attr:`version` is past ``version`` (or ``timeout`` s); returns the version now."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def alive(self) -> bool:
        """The store thread runs (the service's watchdog asks this)."""
        return self._store_thread is not None and self._store_thread.is_alive()

    def stuck_for(self) -> float:
        """Seconds the store thread has spent on the batch it has now (0: it is waiting for messages). The
        service's watchdog stops being petted past :data:`STUCK_AFTER`: a store that makes no progress is
        restarted like one that died, and the broker delivers again whatever it had not acknowledged."""
        since = self._busy_since
        return 0.0 if since is None else max(0.0, time.monotonic() - since)

    # -- paho's thread --------------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            self._say_problem(_("the broker at {broker} refused the league: {reason}", broker=self.broker.describe(),
                                 reason=str(reason_code)))
            return
        self._generation += 1
        self.problem = None
        # connected (the page's and the tests' "listening to the tables") once the broker has granted the
        # subscriptions: a table's message published before that would not reach this session
        client.subscribe([(contract.subscription(self.prefix, kind), 1)
                          for kind in contract.TABLE_KINDS])
        log.info("connected to the broker as %s", self.broker.describe())
        self._queue.put(_Message("", b"", 0, 0, -1))  # re-acknowledge the recent games

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties=None) -> None:
        if any(getattr(rc, "is_failure", False) for rc in reason_codes):
            self._say_problem(_("the broker at {broker} refused the league's subscriptions",
                                broker=self.broker.describe()))
            return
        self.connected = True
        self._bump()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if self.connected:
            log.warning("lost the broker (%s); reconnecting", reason_code)
            self.problem = _("lost the broker ({reason}); reconnecting", reason=str(reason_code))
        self.connected = False
        self._bump()

    def _on_connect_fail(self, client, userdata) -> None:
        self._say_problem(_("cannot reach the broker at {broker}; retrying", broker=self.broker.describe()))

    def _say_problem(self, text: str) -> None:
        """What keeps the league from its broker: logged once a minute (it retries every few seconds)."""
        if text != self.problem:
            self.problem = text
            self._bump()
        self._problems("broker", text)

    def _on_message(self, client, userdata, message) -> None:
        self._queue.put(_Message(message.topic, message.payload, message.mid, message.qos, self._generation))

    # -- the store thread -----------------------------------------------------------------
    def _store_loop(self) -> None:
        try:
            self._store_messages()
        except Exception:
            # Not a message's fault (those are dropped one by one): a bug. Crash-only: the service
            # stops (its watchdog sees alive() false), systemd starts it again, and the broker
            # delivers again whatever was not acknowledged.
            log.exception("the league's store thread stopped")
            raise

    def _store_messages(self) -> None:
        pending: list[_Message] = []
        while True:
            self._watch_organiser()
            if not pending:
                try:
                    first = self._queue.get(timeout=WATCH_EVERY)
                except queue.Empty:
                    if self._stop.is_set():
                        return
                    continue
                if first is None:
                    return
                pending.append(first)
            stopping = False
            while len(pending) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                pending.append(item)
            self._busy_since = time.monotonic()
            try:
                touched, changed = self._store(pending)
            except sqlite3.Error as e:
                self._busy_since = None  # waiting to try again is not being stuck: the log says why
                log.error("cannot write the league's database %s (%s); retrying in %s s", self.db_path, e,
                          RETRY_EVERY)
                if self._stop.wait(RETRY_EVERY):
                    return  # unacknowledged: the broker delivers them again after a restart
                continue
            self._acknowledge(pending, touched)
            self._busy_since = None
            pending = []
            if changed:
                self._bump()
            if stopping:
                return

    def _watch_organiser(self) -> None:
        """Another process committed to the database (the organiser's merge, void, unvoid or fix): the
        pages are rendered again (the standings read the organiser's tables at every question)."""
        (version,) = self._writer.execute("PRAGMA data_version").fetchone()
        if version != self._data_version:
            if self._data_version is not None:
                self._bump()
            self._data_version = version

    def _bump(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def _store(self, batch: list[_Message]) -> tuple[set[int], bool]:
        """One transaction for the batch; returns the games whose acks are due and whether anything changed."""
        conn = self._writer
        touched: set[int] = set()
        changed = False
        now = time.time()
        self._counted = dict.fromkeys(self.stored, 0)
        self._play_changes = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for m in batch:
                if m.generation == -1:
                    touched.update(r[0] for r in conn.execute("SELECT id FROM games WHERE updated > ?",
                                                              (now - REACK_WINDOW,)))
                    continue
                try:
                    table, kind = contract.parse_topic(self.prefix, m.topic)
                    body = check(kind, m.payload, table)
                except contract.ContractError as e:
                    self._drop(m.topic, str(e))
                    continue
                except Exception as e:  # JSON nested too deeply for the parser, and whatever else a sender finds
                    self._drop(m.topic, f"{m.topic.rsplit('/', 1)[-1]}: unreadable ({type(e).__name__}: {e})")
                    continue
                try:
                    # no savepoint: every statement is atomic, and a game row left without its action is harmless
                    game, did = self._store_one(conn, table, kind, body, now)
                except sqlite3.OperationalError:
                    raise  # the database, not the message (a full disk): the whole batch is tried again
                except Exception as e:
                    self._drop(m.topic, f"{kind} from {table}: cannot be stored ({type(e).__name__}: {e})")
                    continue
                changed = changed or did
                if game is not None:
                    touched.add(game)
            for game in touched:
                self._advance(conn, game, now)
            conn.execute("COMMIT")
            for name, n in self._counted.items():
                self.stored[name] += n  # counted once committed (tests and the page read them)
            self.handled += sum(1 for m in batch if m.generation != -1)
            if self._play_changes:
                with self._cache_lock:
                    if self._cache is not None:
                        for gid, change in self._play_changes:
                            if change is None:
                                self._cache.remove(gid)
                            else:
                                self._cache.put(gid, change)
        except BaseException:
            self._game_ids.clear()  # ids of games inserted in this transaction are gone with it
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return touched, changed

    def _drop(self, topic: str, reason: str) -> None:
        table = topic.split("/")[3] if topic.count("/") >= 4 else "?"
        self.dropped[table] = self.dropped.get(table, 0) + 1
        self._throttle(table, reason)

    def _game_id(self, conn: sqlite3.Connection, table: str, body: dict[str, Any], now: float) -> int:
        key = (table, body["journal"], body["game_no"])
        gid = self._game_ids.get(key)
        if gid is not None:
            return gid
        row = conn.execute("SELECT id FROM games WHERE tbl=? AND journal=? AND game_no=?", key).fetchone()
        if row is None:
            row = conn.execute("INSERT INTO games (tbl, journal, game_no, game, updated) VALUES (?,?,?,?,?) "
                               "RETURNING id", (*key, body["game"], now)).fetchone()
        if len(self._game_ids) > 100_000:
            self._game_ids.clear()
        self._game_ids[key] = gid = int(row[0])
        return gid

    def _store_one(self, conn: sqlite3.Connection, table: str, kind: str, body: dict[str, Any],
                   now: float) -> tuple[int | None, bool]:
        if kind == contract.ACTIONS:
            game = self._game_id(conn, table, body, now)
            cur = conn.execute("INSERT OR IGNORE INTO actions VALUES (?,?,?,?)",
                               (game, body["seq"], float(body["at"]), json.dumps(body["entry"], ensure_ascii=False)))
            new = cur.rowcount > 0
            self._counted["actions" if new else "duplicates"] += 1
            if new:
                # An action past a finished play's last: an undo at the table reopened the game. The play
                # is taken back (the table sends it again when the game ends again).
                row = conn.execute("SELECT json_extract(body, '$.actions') FROM plays WHERE game=?",
                                   (game,)).fetchone()
                if row is not None and isinstance(row[0], int) and body["seq"] > row[0]:
                    conn.execute("DELETE FROM plays WHERE game=?", (game,))
                    self._counted["retracted"] += 1
                    self._play_changes.append((game, None))
            return game, new
        if kind == contract.PLAYS:
            game = self._game_id(conn, table, body, now)
            if isinstance(body.get("actions"), int):
                (top,) = conn.execute("SELECT max(seq) FROM actions WHERE game=?", (game,)).fetchone()
                if top is not None and top > body["actions"]:
                    self._counted["duplicates"] += 1  # an old copy: the game went on after it (an undo)
                    return game, False
            text = json.dumps(body, ensure_ascii=False, sort_keys=True)
            cur = conn.execute(
                "INSERT INTO plays VALUES (?,?,?,?) ON CONFLICT (game) DO UPDATE SET "
                "finished=excluded.finished, body=excluded.body, received=excluded.received "
                "WHERE excluded.finished > plays.finished", (game, float(body["finished"]), text, now))
            new = cur.rowcount > 0
            self._counted["plays" if new else "duplicates"] += 1
            if new:
                self._play_changes.append((game, body))
            return game, new
        if kind == contract.STATUS:
            # When the status last changed, by the league's clock: a table's will ("offline") was written
            # when it connected, so its own "at" is not when it went; a retained status heard again (the
            # league restarted) keeps the time it first changed. A table first heard of: its own time.
            cur = conn.execute(
                "INSERT INTO tables (name, online, status_at) VALUES (?,?,?) ON CONFLICT (name) DO UPDATE SET "
                "online=excluded.online, status_at=CASE WHEN tables.online IS excluded.online "
                "THEN tables.status_at ELSE ? END",
                (table, int(body["online"]), min(float(body["at"]), now), now))
            return None, cur.rowcount > 0
        if kind == contract.ROSTER:
            journal = body.get("journal") if isinstance(body.get("journal"), str) else None
            cur = conn.execute(
                "INSERT INTO rosters (tbl, journal, aliases, at) VALUES (?,?,?,?) ON CONFLICT (tbl) DO UPDATE SET "
                "journal=excluded.journal, aliases=excluded.aliases, at=excluded.at "
                "WHERE rosters.aliases IS NOT excluded.aliases",
                (table, journal, json.dumps(body["aliases"], ensure_ascii=False, sort_keys=True), float(body["at"])))
            return None, cur.rowcount > 0
        if kind == contract.LIVE:
            cur = conn.execute(
                "INSERT INTO tables (name, live, live_at) VALUES (?,?,?) ON CONFLICT (name) DO UPDATE SET "
                "live=excluded.live, live_at=excluded.live_at",
                (table, json.dumps(body, ensure_ascii=False), float(body["at"])))
            return None, cur.rowcount > 0
        raise contract.ContractError(f"the league does not store {kind!r}")  # the subscription prevents it

    @staticmethod
    def _advance(conn: sqlite3.Connection, game: int, now: float) -> None:
        """Move the game's ``acked_seq`` over every action now held without a gap; the game was heard of now."""
        (acked,) = conn.execute("SELECT acked_seq FROM games WHERE id=?", (game,)).fetchone()
        for (seq,) in conn.execute("SELECT seq FROM actions WHERE game=? AND seq > ? ORDER BY seq", (game, acked)):
            if seq != acked + 1:
                break
            acked = seq
        conn.execute("UPDATE games SET acked_seq=?, updated=? WHERE id=?", (acked, now, game))

    def _acknowledge(self, batch: list[_Message], games: set[int]) -> None:
        client = self._client
        if client is None:
            return
        for m in batch:
            if m.qos > 0 and m.generation == self._generation:
                client.ack(m.mid, m.qos)
        if not games:
            return
        marks = ",".join("?" * len(games))
        rows = self._writer.execute(
            f"SELECT g.tbl, g.journal, g.game_no, g.acked_seq, p.game IS NOT NULL, p.finished FROM games g "
            f"LEFT JOIN plays p ON p.game = g.id WHERE g.id IN ({marks})", sorted(games)).fetchall()
        for table, journal, game_no, seq, play, finished in rows:
            # which play it holds (its end): a game finished anew after an undo is another play, and an ack of
            # the earlier one, late, must not stand for it
            held = {"finished": finished} if play else {}
            payload = contract.encode({"table": table, "journal": journal, "game_no": game_no, "seq": seq,
                                       "play": bool(play), **held})
            client.publish(contract.topic(self.prefix, table, contract.ACK), payload, qos=1)

    # -- questions (any thread) -----------------------------------------------------------
    def _plays_cache(self) -> _PlayCache:
        """The plays in memory (call with ``_cache_lock`` held): read once, then kept by the store thread."""
        if self._cache is None:
            cache = _PlayCache(self.rules)
            for body in _plays(self._reader(), copies=True):  # the cache keeps copies aside
                cache.put(body["id"], body)
            self._cache = cache
        return self._cache

    def plays(self) -> list[dict[str, Any]]:
        """Every finished play as the table sent it (without ``"v"``), plus the league's ``"id"``.

        In the rating's order: by ``finished``, then table, journal and game number.
        """
        with self._cache_lock:
            return [dict(p) for p in self._plays_cache().plays]

    def recent_plays(self, n: int, season: scoring.Season | None = None) -> tuple[int, list[dict[str, Any]]]:
        """How many plays there are (in ``season``; None: all time), and the last ``n`` in the rating's
        order (the page's list), each as the organiser's corrections leave it and its names as the
        standings count them (:func:`~.standings.as_people`), with ``"correction"``: the play's state
        (:func:`~.standings.correction_state`; None: never corrected)."""
        conn = self._reader()
        state = scoring.correction_state(_corrections(conn))
        people, rosters = _people(conn), _rosters(conn)
        with self._cache_lock:
            plays = scoring.in_season(self._plays_cache().plays, season)
            last = [dict(p) for p in plays[-n:]] if n > 0 else []
        for i, p in enumerate(last):
            found = scoring.state_of(p, state)
            last[i] = {**scoring.as_people(scoring.corrected(p, state) or p, people, rosters), "correction": found}
        return len(plays), last

    def standings(self, season: scoring.Season | None = None) -> dict[str, Any]:
        """Standings per game and overall (ui/club/standings.py: plays, wins, points, rating), of the plays
        of ``season`` (None: all time).

        Kept up to date one play at a time while plays arrive in order; a play that arrives late
        (it finished before the newest one held) has them counted again from the copy kept before it
        (:class:`_Builder`), and every play is counted again for
        names the organiser merged or split since, plays the organiser voided, counted again or
        fixed (``tablekeeper club merge``, ``club void``..., another process), and a table's roster
        that changed (its ``players merge`` or ``rename``).
        """
        conn = self._reader()
        people, rosters = _people(conn), _rosters(conn)
        state = scoring.correction_state(_corrections(conn))
        with self._cache_lock:
            cache = self._plays_cache()
            if cache.people != people or cache.corrections != state or cache.rosters != rosters:
                cache.reset(people, state, rosters)
            return copy.deepcopy(cache.result(season))

    def tables(self) -> list[dict[str, Any]]:
        """Every table heard of: ``name``, ``online`` (None: no status yet), ``since`` (when that status
        began, by the league's clock, or None), ``live`` (its last live payload or None) and ``game_id``
        (the league's id of the game being played, if known)."""
        conn = self._reader()
        out = []
        for name, online, since, live in conn.execute(
                "SELECT name, online, status_at, live FROM tables ORDER BY name").fetchall():
            body = json.loads(live) if live else None
            gid = None
            if body and isinstance(body.get("journal"), str) and isinstance(body.get("game_no"), int):
                row = conn.execute("SELECT id FROM games WHERE tbl=? AND journal=? AND game_no=?",
                                   (name, body["journal"], body["game_no"])).fetchone()
                gid = row[0] if row else None
            out.append({"name": name, "online": None if online is None else bool(online), "since": since,
                        "live": body, "game_id": gid})
        return out

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One game the league heard of: table, journal, game_no, game, its actions in order
        (``seq``, ``at``, ``entry``), its play as the table sent it (None while it is not finished) and
        the organiser's ``correction`` of it (see :func:`~.standings.correction_state`; None: none);
        None if unknown."""
        conn = self._reader()
        row = conn.execute("SELECT tbl, journal, game_no, game, acked_seq FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            return None
        actions = [{"seq": s, "at": at, "entry": json.loads(e)} for s, at, e in
                   conn.execute("SELECT seq, at, entry FROM actions WHERE game=? ORDER BY seq", (game_id,))]
        play = conn.execute("SELECT body FROM plays WHERE game=?", (game_id,)).fetchone()
        body = json.loads(play[0]) if play else None
        correction = scoring.state_of({**(body or {}), "id": game_id},
                                      scoring.correction_state(_corrections(conn, game_id)))
        return {"id": game_id, "table": row[0], "journal": row[1], "game_no": row[2], "game": row[3],
                "acked_seq": row[4], "actions": actions, "play": body,
                "correction": correction}

    def counts(self) -> dict[str, int]:
        """How much the database holds: games, actions, plays, tables."""
        conn = self._reader()
        return {name: int(conn.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
                for name in ("games", "actions", "plays", "tables")}


#: The standings kept in memory take a copy of themselves every this many plays, so that a play that
#: arrives late (it finished before plays held) is counted from the copy before it, not from the first play;
#: past :data:`MAX_MARKS` copies, every other one goes and the copies are twice as far apart (the memory
#: stays bounded; a late play costs at most twice as many plays before it).
MARK_EVERY = 64
MAX_MARKS = 48


class _Builder:
    """The standings of the plays held (of one season, or all time), built one play at a time in the
    rating's order, with a copy every :data:`MARK_EVERY` plays: ``upto`` plays of the cache's list are
    counted; a play put in or taken out at position ``i`` costs the plays from the copy before ``i``."""

    def __init__(self, season: scoring.Season | None) -> None:
        self.season = season
        self.built: scoring.Standings | None = None
        self.upto = 0  # the plays of the cache's list (0..upto) counted in ``built``
        self.stale = False  # ``built`` counted plays past ``upto`` that changed since
        self.marks: list[tuple[int, scoring.Standings]] = []  # (position, the standings of plays[:position])
        self.every = MARK_EVERY  # plays between two copies
        self.result: dict[str, Any] | None = None

    def changed_at(self, i: int) -> None:
        """The play at position ``i`` was put in or taken out: what counted plays from ``i`` on is stale."""
        if i < self.upto:
            self.upto = i
            self.stale = True
            self.marks = [(pos, mark) for pos, mark in self.marks if pos <= i]
        self.result = None

    def bring_up(self, cache: _PlayCache) -> dict[str, Any]:
        """The standings of every play held, counting only those not counted yet (from the copy before the
        first play that changed, when a play was put in or taken out before the last one counted)."""
        plays = cache.plays
        if self.built is None or self.stale:
            pos, mark = next(((p, m) for p, m in reversed(self.marks) if p <= self.upto), (0, None))
            self.built = mark.copy() if mark is not None else scoring.Standings(cache.people, cache.rules,
                                                                                 cache.rosters)
            self.upto, self.stale = pos, False
        for i in range(self.upto, len(plays)):
            play = plays[i]
            if self.season is None or self.season.holds(play):
                counted = scoring.corrected(play, cache.corrections)
                if counted is not None:
                    self.built.add(counted)
            if i + 1 - (self.marks[-1][0] if self.marks else 0) >= self.every:
                self.marks.append((i + 1, self.built.copy()))
                if len(self.marks) > MAX_MARKS:
                    self.marks, self.every = self.marks[1::2], self.every * 2
            self.result = None
        self.upto = len(plays)
        if self.result is None:
            self.result = self.built.result()
        return self.result


class _PlayCache:
    """Every play in the rating's order, and the standings built over them (:class:`_Builder`, all time
    and each season asked for).

    A play is counted once whatever table sends it: a copy with the ``identity`` of one held (the
    same game restored from a backup on another table, or on a replacement Pi) is kept aside, and
    takes the place of the one held if that one is taken back.
    """

    def __init__(self, rules: scoring.Scoring) -> None:
        self.rules = rules
        self.corrections: dict[Any, dict[str, Any]] = {}  # the organiser's: play id (and identity) -> its state
        self.plays: list[dict[str, Any]] = []
        self.keys: list[tuple] = []
        self.by_id: dict[int, dict[str, Any]] = {}
        self.holder: dict[str, int] = {}  # identity -> the game whose play is counted
        self.aside: dict[int, dict[str, Any]] = {}  # copies of a counted play, by game
        self.people: dict[str, str] = {}  # names the organiser merged: name -> the person's name
        self.rosters: dict[str, dict[str, str]] = {}  # the tables': table -> stored name -> the person's name
        self.builders: dict[scoring.Season | None, _Builder] = {}  # all time (None) and each season asked

    def reset(self, people: dict[str, str], corrections: dict[Any, dict[str, Any]],
              rosters: dict[str, dict[str, str]]) -> None:
        """The organiser's merges or corrections, or a table's roster, changed: every standing is built again."""
        self.people, self.corrections, self.rosters = people, corrections, rosters
        self.builders.clear()

    def put(self, gid: int, body: dict[str, Any]) -> None:
        play = {k: v for k, v in body.items() if k != "v"}
        play["id"] = gid
        old = self.by_id.get(gid)
        if old == play:
            return  # already read from the file
        self.aside.pop(gid, None)
        if old is not None:
            self._take_out(gid)
        identity = play.get("identity")
        held = self.holder.get(identity) if isinstance(identity, str) else None
        if held is not None and held != gid:
            self.aside[gid] = play  # the same play from another table: counted once
            return
        self._put_in(gid, play)

    def remove(self, gid: int) -> None:
        """The play of game ``gid`` was taken back (an undo reopened the game at its table)."""
        self.aside.pop(gid, None)
        old = self.by_id.get(gid)
        if old is None:
            return
        self._take_out(gid)
        identity = old.get("identity")
        copy_gid = next((g for g, p in sorted(self.aside.items()) if p.get("identity") == identity), None)
        if isinstance(identity, str) and copy_gid is not None:
            self._put_in(copy_gid, self.aside.pop(copy_gid))  # a copy still stands for the play

    def _take_out(self, gid: int) -> None:
        old = self.by_id.pop(gid)
        i = bisect.bisect_left(self.keys, scoring.order_key(old))
        while self.plays[i] is not old:
            i += 1
        del self.plays[i], self.keys[i]
        if isinstance(old.get("identity"), str) and self.holder.get(old["identity"]) == gid:
            del self.holder[old["identity"]]
        for builder in self.builders.values():
            builder.changed_at(i)

    def _put_in(self, gid: int, play: dict[str, Any]) -> None:
        key = scoring.order_key(play)
        i = bisect.bisect_right(self.keys, key)
        self.plays.insert(i, play)
        self.keys.insert(i, key)
        self.by_id[gid] = play
        if isinstance(play.get("identity"), str):
            self.holder[play["identity"]] = gid
        for builder in self.builders.values():
            builder.changed_at(i)  # in order (the usual case): nothing counted is stale

    def result(self, season: scoring.Season | None = None) -> dict[str, Any]:
        builder = self.builders.get(season)
        if builder is None:
            builder = self.builders[season] = _Builder(season)
        return builder.bring_up(self)


def _plays(conn: sqlite3.Connection, *, copies: bool = False) -> list[dict[str, Any]]:
    """The plays counted, in the rating's order: of the copies of one play (the same ``identity`` from
    several tables) the first in that order; ``copies``: the others too."""
    rows = conn.execute("SELECT g.id, p.body FROM plays p JOIN games g ON g.id = p.game "
                        "ORDER BY p.finished, g.tbl, g.journal, g.game_no").fetchall()
    seen: set[str] = set()
    out = []
    for gid, text in rows:
        body = json.loads(text)
        identity = body.get("identity")
        if isinstance(identity, str):
            if identity in seen and not copies:
                continue
            seen.add(identity)
        body.pop("v", None)
        body["id"] = gid
        out.append(body)
    return out


def _people(conn: sqlite3.Connection) -> dict[str, str]:
    """The names the organiser merged: name -> the person's name (a database from before: none)."""
    try:
        return dict(conn.execute("SELECT name, person FROM people").fetchall())
    except sqlite3.OperationalError:  # no such table: a league database made before merges
        return {}


def _corrections(conn: sqlite3.Connection, play: int | None = None) -> list[dict[str, Any]]:
    """The organiser's corrections in the order they were made (of one play and every table's copy of it,
    or all), each with its play's ``identity`` (as recorded, else as its play says); a database from
    before them: none."""
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(corrections)")}
        if not columns:
            return []  # a league database made before corrections
        # a database from before identities were recorded: its plays say theirs
        identity = "COALESCE(c.identity, json_extract(p.body, '$.identity'))" if "identity" in columns \
            else "json_extract(p.body, '$.identity')"
        where: str = ""
        args: tuple[Any, ...] = ()
        if play is not None:
            row = conn.execute("SELECT json_extract(body, '$.identity') FROM plays WHERE game=?", (play,)).fetchone()
            where, args = f"WHERE c.play=? OR {identity}=?", (play, row[0] if row else None)
        rows = conn.execute(f"SELECT c.id, c.play, c.what, c.winners, c.draw, c.reason, c.who, c.at, {identity} "
                            f"FROM corrections c LEFT JOIN plays p ON p.game = c.play {where} ORDER BY c.id",
                            args).fetchall()
    except sqlite3.OperationalError:  # no such table: a league database made before corrections
        return []
    return [{"id": i, "play": p, "what": what, "winners": json.loads(w) if w is not None else None,
             "draw": bool(d), "reason": reason, "who": who, "at": at,
             "identity": ident if isinstance(ident, str) and ident else None}
            for i, p, what, w, d, reason, who, at, ident in rows]


def _rosters(conn: sqlite3.Connection) -> dict[str, dict[str, str]]:
    """The tables' rosters as the league last heard them: table -> {stored name: the person's name}
    (a database from before rosters: none)."""
    try:
        return {table: json.loads(text) for table, text in conn.execute("SELECT tbl, aliases FROM rosters")}
    except sqlite3.OperationalError:  # no such table
        return {}


def _names(play: dict[str, Any], key: str = "players") -> list[str]:
    return [player_name(p) for p in play[key]]


def merge_people(db_path: str | Path, name: str, into: str) -> dict[str, str]:
    """Count ``name`` as the person ``into`` in the standings (the organiser's fix for "Ana María" at one
    table and "Ana" at another); names merged into ``name`` before follow it. Written to the league's
    database, which a running league reads at its next standings. Returns every merge.

    Refused, with a sentence, when the two are one person already (``into`` merged into ``name``
    included), when no play names ``name``, or when the two played in one play (two people)."""
    path = Path(db_path)
    if not path.is_file():
        raise FileNotFoundError(f"no league database at {path}")
    name, into = name.strip(), into.strip()
    try:
        conn = sqlite3.connect(str(path), timeout=30)
        try:
            _schema(conn)
            people = _people(conn)
            target = people.get(into, into)
            if name == target or not name:
                raise TablekeeperError(_("{name!r} and {into!r} are one name already", name=name, into=into))
            plays = _plays(conn)
            rosters = _rosters(conn)

            def named(play: dict[str, Any]) -> set[str]:  # as sent, and as the table's roster reads them
                sent = _names(play)
                return set(sent) | {scoring.person_of(n, str(play.get("table", "")), {}, rosters) for n in sent}

            if not any(name in named(p) for p in plays):
                raise TablekeeperError(_("no play names {name!r}: nothing to merge (names are as the tables "
                                         "sent them: `tablekeeper club standings`)", name=name))
            moved = {n for n, person in people.items() if person == name} | {name}
            joined = {n for n, person in people.items() if person == target} | {target}
            for play in plays:
                names = named(play)
                if names & moved and names & joined:
                    raise TablekeeperError(_("{name!r} and {into!r} played together in play {id}: two people, "
                                             "not merged", name=name, into=into, id=play["id"]))
            with conn:
                conn.execute("UPDATE people SET person=? WHERE person=?", (target, name))
                conn.execute("INSERT OR REPLACE INTO people (name, person) VALUES (?, ?)", (name, target))
            return _people(conn)
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise LeagueError(f"cannot write the league's database {path}: {e}") from e


def unmerge_people(db_path: str | Path, name: str) -> dict[str, str]:
    """Count ``name`` as its own person again (undoes :func:`merge_people` for it). Returns every merge."""
    path = Path(db_path)
    if not path.is_file():
        raise FileNotFoundError(f"no league database at {path}")
    try:
        conn = sqlite3.connect(str(path), timeout=30)
        try:
            _schema(conn)
            if name not in _people(conn):
                raise TablekeeperError(_("{name!r} is not merged into anyone", name=name))
            with conn:
                conn.execute("DELETE FROM people WHERE name=?", (name,))
            return _people(conn)
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise LeagueError(f"cannot write the league's database {path}: {e}") from e


def correct_play(db_path: str | Path, play: int, what: str, *, winners: list[str] | None = None,
                 draw: bool = False, reason: str | None = None, who: str | None = None) -> dict[str, Any]:
    """The organiser voids play ``play`` (``what`` "void": it no longer counts), counts it again ("unvoid")
    or fixes its result ("fix": ``winners``, each a name as the table sent it or as the standings show
    it (its person: the table's roster, the organiser's merges), tied if ``draw``; none: nobody won). One
    row in the journal of corrections (who: ``who``, else the login; when; what; why: ``reason``; the
    play's identity, so that the correction holds for every table's copy of the play); a fix records
    the winners by the names the table sent. The play itself is kept as the table sent it. A running
    league takes it in at once. Returns the play's state (:func:`~.standings.correction_state`).

    Refused, with a sentence and nothing written: no finished play of that number, a void of a void
    play, an unvoid of a play that counts, a winner who did not play in it, a draw of fewer than two,
    a fix that changes nothing, a reason too long."""
    path = Path(db_path)
    if not path.is_file():
        raise FileNotFoundError(f"no league database at {path}")
    reason = reason.strip() if reason else None
    if reason is not None and (len(reason) > MAX_REASON or not reason.isprintable()):
        raise TablekeeperError(_("the reason must be at most {n} printable characters", n=MAX_REASON))
    try:
        conn = sqlite3.connect(str(path), timeout=30)
        try:
            _schema(conn)
            row = conn.execute("SELECT body FROM plays WHERE game=?", (play,)).fetchone()
            if row is None:
                raise TablekeeperError(_("no finished play {id} in the league (a play's number is in its page's "
                                         "address: /plays/{id})", id=play))
            body = {**json.loads(row[0]), "id": play}
            state = scoring.state_of(body, scoring.correction_state(_corrections(conn, play)))
            void = bool(state and state["void"])
            record: tuple[str | None, bool] = (None, False)
            if what == scoring.VOID and void:
                raise TablekeeperError(_("play {id} is void already", id=play))
            if what == scoring.UNVOID and not void:
                raise TablekeeperError(_("play {id} is not void: it counts", id=play))
            if what == scoring.FIX:
                chosen = _as_sent(body, [w.strip() for w in winners or []], _people(conn), _rosters(conn))
                if draw and len(chosen) < 2:
                    raise TablekeeperError(_("a draw needs two or more winners (the players who tied)"))
                now = scoring.corrected(body, {play: state} if state else {}) or body
                if (sorted(_names(now, "winners")), bool(now.get("draw"))) == (sorted(chosen), draw):
                    raise TablekeeperError(_("play {id} has that result already", id=play))
                record = (json.dumps(chosen, ensure_ascii=False), draw)
            elif what not in (scoring.VOID, scoring.UNVOID):
                raise ValueError(f"no such correction {what!r}")
            with conn:
                identity = body.get("identity") if isinstance(body.get("identity"), str) else None
                conn.execute("INSERT INTO corrections (play, what, winners, draw, reason, who, at, identity) "
                             "VALUES (?,?,?,?,?,?,?,?)", (play, what, record[0], int(record[1]), reason,
                                                           who or _login(), time.time(), identity))
            found = scoring.state_of(body, scoring.correction_state(_corrections(conn, play)))
            assert found is not None
            return found
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise LeagueError(f"cannot write the league's database {path}: {e}") from e


def _as_sent(play: dict[str, Any], chosen: list[str], people: dict[str, str],
             rosters: dict[str, dict[str, str]]) -> list[str]:
    """The names ``chosen`` (each as the table sent it, or its person's as the standings show it) as the
    table sent them; TablekeeperError for a name that is nobody's in the play, or more than one player's."""
    names = _names(play)
    table = str(play.get("table", ""))
    out: list[str] = []
    for name in dict.fromkeys(chosen):
        if name in names:
            sent = [name]
        else:
            sent = [n for n in names if scoring.person_of(n, table, people, rosters) == name]
        if not sent:
            raise TablekeeperError(_("{name!r} did not play in play {id} (its players: {players})",
                                     name=name, id=play["id"], players=", ".join(names)))
        if len(sent) > 1:
            raise TablekeeperError(_("{name!r} is {names} in play {id}: name one of them",
                                     name=name, names=", ".join(sent), id=play["id"]))
        if sent[0] not in out:
            out.append(sent[0])
    return out


def _login() -> str:
    """Who runs the command: the login name, else the user id."""
    import getpass
    import os

    try:
        return getpass.getuser()
    except Exception:  # no login name (a container's bare uid)
        return f"uid {os.getuid()}"


def stored_corrections(db_path: str | Path) -> dict[int, dict[str, Any]]:
    """The organiser's corrections in a league database, read only: play id -> its state
    (:func:`~.standings.correction_state`)."""
    return scoring.correction_state(_read_only(db_path, _corrections))


def stored_rosters(db_path: str | Path) -> dict[str, dict[str, str]]:
    """The tables' rosters in a league database, read only: table -> {stored name: the person's name}."""
    return _read_only(db_path, _rosters)


def stored_people(db_path: str | Path) -> dict[str, str]:
    """The names merged in a league database, read only: name -> the person's name."""
    return _read_only(db_path, _people)


def _read_only(db_path: str | Path, read: Callable[[sqlite3.Connection], Any]) -> Any:
    """``read`` on a read-only connection to a league database (nothing written, no broker).

    FileNotFoundError when there is no such database, LeagueError when it cannot be read."""
    path = Path(db_path)
    if not path.is_file():
        raise FileNotFoundError(f"no league database at {path}")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            return read(conn)
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise LeagueError(f"cannot read the league's database {path}: {e}") from e


def stored_plays(db_path: str | Path) -> list[dict[str, Any]]:
    """The plays of a league database, read only (no broker, nothing written): :meth:`League.plays`.

    FileNotFoundError when there is no such database, LeagueError when it cannot be read.
    """
    return _read_only(db_path, _plays)
