"""The one owner: one worker thread owns the journal, the session and the seats' pods.

Every engine call and every journal read or write happens on that thread, one
at a time, in the order asked (touches, pod buttons, anything). The caller
never waits: :meth:`Keeper.submit` queues an action, :meth:`Keeper.press` a
pod's button event, and both return. After each job the worker publishes an
immutable :class:`Snapshot` to its listeners (called on the worker thread):
the open game, and each seat's pod view computed once
(:class:`tablekeeper.ui.pod.seats.Seats`). Everyone who shows the game
subscribes to it: the Kivy app (one coalesced clock trigger; its virtual pods
draw the snapshot's views), the wired and serial pods
(:mod:`tablekeeper.ui.podlink`) and ``tablekeeper serve``
(:mod:`tablekeeper.ui.serve`). Messages for the player (a refused action's
reason, what an action caused, journal warnings) go to a queue of
:class:`Notice` that the UI drains.

So a slow commit (an SD card's fsync) delays only the moment the change is
shown — never a frame — and nothing is shown before its commit returned.

No Kivy here: tests drive it directly.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..engine import Journal, Session, TablekeeperError, WouldEnd, registry
from ..engine.messages import _ as msg
from ..engine.state import clone

log = logging.getLogger("tablekeeper.ui")


@dataclass(frozen=True)
class GameSummary:
    """One stored game, as the home screen lists it."""

    id: int
    game: str
    players: tuple[str, ...]
    started: float
    finished: float | None
    result: dict | None

    @property
    def title(self) -> str:
        return registry.title(self.game) or self.game


@dataclass(frozen=True)
class HistoryItem:
    seq: int
    kind: str  # "action", "undo", "redo"
    text: str
    entry: dict


@dataclass(frozen=True)
class Table:
    """The open game at one moment (never changed after publication)."""

    game_id: int
    game: str
    rules: Any  # the engine's Game instance (pure, not mutated)
    setup: dict
    state: dict
    view: dict
    history: tuple[HistoryItem, ...]
    done: tuple[dict, ...]
    can_undo: bool
    can_redo: bool
    version: int = 0  # changes with every action, undo and redo (Session.version)
    #: Each seat's pod view (hardware.pod.PodView) by seat number; empty when the owner keeps no pods.
    pods: Mapping[int, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def players(self) -> list[str]:
        return [p["name"] for p in self.state["players"]]

    @property
    def over(self) -> bool:
        return bool(self.state["over"])


@dataclass(frozen=True)
class Snapshot:
    serial: int
    games: tuple[GameSummary, ...]
    table: Table | None


@dataclass(frozen=True)
class Notice:
    """A message for the player: kind is "refused", "events", "warning" or "error"."""

    kind: str
    text: str
    lines: tuple[str, ...] = ()
    at: float = field(default_factory=time.monotonic)
    #: the player the action named (the card it came from on the touchscreen): the message faces them
    who: str | None = None


_STOP = object()


def _named(action: dict) -> str | None:
    """The player an action names (on the touchscreen: the card it came from): its messages face them."""
    player = action.get("player")
    return player if isinstance(player, str) else None


class Keeper:
    """Owner of the journal and the open session, on its own thread.

    ``listeners`` are called with each new :class:`Snapshot` on the worker
    thread; they must only hand it over (e.g. fire a Kivy trigger) or do the
    pods' own I/O. ``rng``: passed to sessions (tests give a seeded one).
    ``pods``: keep the seats' pods (their input maps and views, in every
    snapshot); ``catalog``: the pods' language; ``numbering(game_id, players)
    -> {player: pod number}``: which pod each player uses (default: seat order).
    """

    def __init__(self, state_dir=None, *, durable: bool = True, rng=None, pods: bool = False, catalog=None,
                 numbering: Callable[[int, list[str]], Mapping[str, int]] | None = None,
                 clock: Callable[[], float] = time.monotonic, report: Callable[[str], None] | None = None,
                 follow: bool = False):
        self.state_dir = state_dir
        #: Open a game another process starts on the journal (``tablekeeper new``): the headless
        #: player and the terminal table do; the touchscreen keeps what its players opened.
        self.follow = follow
        self._top_game = 0  # the newest game number this keeper knows of (opened, made, or there at the start)
        self.durable = durable
        self.rng = rng
        self.keeps_pods = pods
        self.catalog = catalog
        self.numbering = numbering
        self.clock = clock
        self.report = report or (lambda text: log.warning("%s", text))
        self.seats: Any = None  # pod.seats.Seats of the open game, when keeping pods
        # the actions a pod applied, by their place among the actions done: (the seat whose pod pressed it,
        # the entry), so that pod may undo each in turn (a held main's two hits, undone one by one)
        self._pressed: dict[int, tuple[int, dict]] = {}
        self.listeners: list[Callable[[Snapshot], None]] = []
        #: Called on the worker with each pod event before it is answered (not a stuck button's
        #: repeats): the pods' own care, such as waking a dimmed display.
        self.pressed: list[Callable[[Any], None]] = []
        self._jobs: queue.Queue = queue.Queue()
        self._notices: deque[Notice] = deque(maxlen=50)
        self._lock = threading.Lock()
        self._snapshot = Snapshot(0, (), None)
        self._pending = 0  # jobs queued or running
        self._owed = False  # a job changed what is shown and its snapshot is not published yet
        self._idle = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._inline = False  # started with thread=False: pump() runs the jobs
        self.journal: Journal | None = None
        self.session: Session | None = None
        self._history: list[HistoryItem] = []
        # the texts of what an undo, a redo would take back, do again (newest last): history words
        self._done_texts: list[tuple[str, bool]] = []  # (what was done, whether it is a note)
        self._undone_texts: list[str] = []
        self._games_key = object()  # what the stored games' list was read for
        self.commit_times: deque[float] = deque(maxlen=1000)  # seconds per acknowledged action

    # -- lifecycle (any thread) ------------------------------------------------------
    def start(self, *, resume: bool = True, thread: bool = True, session: Session | None = None) -> Keeper:
        """Open the journal on the worker and, if ``resume``, the last unfinished game.

        ``thread=False``: no worker thread; the caller's thread is the worker and runs the queued
        jobs when it calls :meth:`pump` (tests and benchmarks: the same owner, driven in step).
        ``session``: play this open session, on its own journal, instead of opening the state folder.
        """
        if not thread:
            self._inline = True
            self._enqueue(lambda: self._open(resume, session))
            self.pump()
            return self
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tablekeeper-journal", daemon=True)
            self._thread.start()
            self._enqueue(lambda: self._open(resume, session))
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the queued jobs, close the journal; idempotent."""
        if self._inline:
            self.pump()
            if self.journal is not None:
                self.journal.close()
                self.journal = None
            return
        if self._thread is not None and self._thread.is_alive():
            self._jobs.put(_STOP)
            self._thread.join(timeout)
        self._thread = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- asking (any thread; never blocks) ----------------------------------------------
    def submit(self, action: dict, done: Callable[[Any], None] | None = None) -> None:
        """Apply an action to the open game; never waits.

        Its result arrives as a snapshot and notices; ``done`` (if given) is
        also called on the worker with the :class:`~tablekeeper.engine.Outcome`
        or with the :class:`TablekeeperError` that refused it.
        """
        def job():
            try:
                outcome = self._apply(action)
            except TablekeeperError as e:
                if done:
                    done(e)
                raise
            if done:
                done(outcome)
        job.who = _named(action)  # type: ignore[attr-defined]
        self._enqueue(job)

    def new_game(self, game: str, players: list[str], options: dict | None = None,
                 then: Callable[[int], None] | None = None) -> None:
        def job():
            session = Session.new(self._opened_journal(), game, list(players), options or {}, **self._kw())
            if then:  # first: it may store which pod each player uses, read when the seats are bound
                then(session.game_id)
            self._set_session(session)
        self._enqueue(job)

    def open_with(self, make: Callable[[Journal], Session | None],
                  done: Callable[[Session | None | TablekeeperError], None] | None = None) -> None:
        """Open the game ``make(journal)`` returns, on the worker (None: no game to open; it stays as it is);
        ``done`` gets the session, None, or the error that refused it."""
        def job():
            try:
                session = make(self._opened_journal())
            except TablekeeperError as e:
                if done:
                    done(e)
                return
            if session is not None:
                self._set_session(session)
            if done:
                done(session)
        self._enqueue(job)

    def open_game(self, game_id: int) -> None:
        self._enqueue(lambda: self._set_session(Session.load(self._opened_journal(), game_id, **self._kw())))

    def close_game(self) -> None:
        def job():
            self.session = None
            self._history = []
            self._games_key = object()
        self._enqueue(job)

    def press(self, event) -> None:
        """A pod's button event (hardware.pod.InputEvent), from any thread; never waits.

        On the worker: the seats answer what it means, the keeper applies the action, if any, once
        (the engine, the journal) and tells the seats how it went; one snapshot follows."""
        def job():
            if self.seats is None or self.session is None:
                return
            seats, session = self.seats, self.session
            now = self.clock()
            before = session.state  # the game once for the press: the seats answer in it
            intent = seats.answer(event, before, now)
            if intent is not None and intent.held:
                vars(job)["quiet"] = True  # a stuck button's repeats change nothing: no snapshot, no pod woken
                return
            for hook in self.pressed:
                hook(event)
            if intent is None:
                return
            if intent.action is None and not intent.message and not intent.changed:
                vars(job)["quiet"] = True  # the half of a click that does nothing (a press, or its release)
                return
            if intent.action is not None:
                try:
                    if intent.action.get("action") == "undo":
                        self._undo_own(event.seat)
                    outcome = self._apply(intent.action, short_of_end=intent.short_of_end)
                except WouldEnd:  # nothing written: its player confirms it first
                    seats.short_of_end(event.seat, now)
                except TablekeeperError as e:  # refused by the rules, or not written: nothing changed
                    seats.refuse(event.seat, e, now)
                else:
                    # whose pod did it: that pod may undo it, whoever the action names (a play-tester's Cai hit
                    # Ben from his own pod and could not take it back there: "the last action is Ben's")
                    if outcome.kind == "action":
                        done = self.session.match.done
                        self._pressed[len(done) - 1] = (event.seat, done[-1])
                    seats.took(event.seat, before, outcome.state, now, intent.action, outcome.events)
                    if outcome.kind in ("undo", "redo"):
                        # the pod that undid says what it took back ("undone: Ana: cash −3"): its counters
                        # alone may not show it (an undone offer of another player's)
                        seats.say(event.seat, self._history[-1].text, now)
            if intent.message:
                seats.say(event.seat, intent.message, now)
        self._enqueue(job)

    def _undo_own(self, seat: int) -> None:
        """A pod takes back its own player's last action (or a correction nobody did), not another's: a player
        out of the game, or one looking through the menu, cannot undo Ana's move behind her back; the
        touchscreen undoes anything; the pod that pressed the last action may undo it whoever it names (a hit
        on Ben from Cai's pod). Raises a RuleError for another's."""
        if self.session is None:
            return
        last = self.session.match.last_move()
        if last is not None:
            pressed = self._pressed.get(last[0])
            if pressed is not None and pressed[0] == seat and pressed[1] is last[1]:
                return  # this pod's own press (a later action in its place would be another entry)
        player = self.seats.player(seat) if self.seats is not None else None
        whose = self.session.match.last_move_by()
        if whose is not None and whose != player:
            from .pod.seats import others_undo

            raise others_undo(whose)

    def backlog(self) -> int:
        """How many jobs wait for the worker now (a serial pod drops its events beyond a limit when
        the owner is stuck). Any thread."""
        return self._jobs.qsize()

    def notify_pods(self, text: str, seconds: float = 10.0) -> None:
        """Show ``text`` on every pod for ``seconds`` (a repaired journal)."""
        def job():
            if self.seats is not None:
                self.seats.notify_all(text, seconds)
        self._enqueue(job)

    def set_catalog(self, catalog) -> None:
        """The pods' language changed (the settings screen)."""
        def job():
            self.catalog = catalog
            if self.seats is not None:
                self.seats.catalog = catalog
        self._enqueue(job)

    def call(self, fn: Callable[[Keeper], Any], done: Callable[[Any], None] | None = None, *,
             quiet: bool = False) -> None:
        """Run ``fn(keeper)`` on the worker; ``done(result)`` is called there too.

        ``quiet``: ``fn`` changes nothing a snapshot shows (the pods' own care), so none is published.
        """
        def job():
            result = fn(self)
            if done:
                done(result)
        vars(job)["quiet"] = quiet
        self._enqueue(job)

    # -- reading (any thread) ------------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._snapshot

    def notices(self) -> list[Notice]:
        """Take the messages not yet shown (oldest first)."""
        out = []
        while True:
            try:
                out.append(self._notices.popleft())
            except IndexError:
                return out

    def pump(self) -> int:
        """Run every queued job on this thread, then publish what changed by itself (a pod's
        message that expired, actions another process saved). Only for a keeper started with
        ``thread=False``; returns how many jobs ran."""
        if not self._inline:
            raise RuntimeError("pump() drives a keeper started with thread=False")
        ran = 0
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is _STOP:
                continue
            self._do(job)
            ran += 1
        if self._catch_up() or self._pods_changed():
            self._publish()
        return ran

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until every queued job ran (for tests and benchmarks only)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._pending > 0

    # -- the worker -------------------------------------------------------------------
    def _opened_journal(self) -> Journal:
        """The journal, opened by the first job (an error if it could not be). Worker thread only."""
        if self.journal is None:
            raise RuntimeError("the journal is not open")
        return self.journal

    def _kw(self) -> dict:
        return {"rng": self.rng} if self.rng is not None else {}

    def _enqueue(self, job) -> None:
        with self._lock:
            self._pending += 1
        self._jobs.put(job)

    def _run(self) -> None:
        next_look = time.monotonic() + self.LOOK_ELSEWHERE
        while True:
            wait = max(0.0, min(self._idle_wait(), next_look - time.monotonic()))
            try:
                job = self._jobs.get(timeout=wait)
            except queue.Empty:
                job = None
            if job is _STOP:
                break
            if job is not None:
                self._do(job)
            try:
                changed = False
                if time.monotonic() >= next_look:  # even when busy: a tick job every second must not starve it
                    next_look = time.monotonic() + self.LOOK_ELSEWHERE
                    changed = self._catch_up()
                if (changed or (job is None and self._pods_changed())) and self._jobs.qsize() == 0:
                    self._publish()
            except Exception as e:  # as below: say it, keep going
                log.exception("catching up failed")
                self._notice("error", f"{type(e).__name__}: {e}")
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def _do(self, job) -> None:
        quiet = False
        try:
            job()
            quiet = getattr(job, "quiet", False)  # set when queued, or by the job itself
        except TablekeeperError as e:
            self._notice("refused", e.args[0] if len(e.args) == 1 else str(e), who=getattr(job, "who", None))
        except Exception as e:  # a bug must not kill the worker: say it, keep going
            log.exception("job failed")
            self._notice("error", f"{type(e).__name__}: {e}")
        finally:
            # Publish before the job counts as done: whoever waits for "idle"
            # (tests, the benchmark) then finds the snapshot already there.
            # A burst of jobs publishes once; a quiet job (the pods' care) changes nothing shown.
            # A quiet job after a burst still owes the burst its publication.
            self._owed = self._owed or not quiet
            if self._jobs.qsize() == 0 and self._owed:
                self._owed = False
                self._publish()
            with self._idle:
                self._pending -= 1
                self._idle.notify_all()

    #: Seconds between looks for actions another process saved (a command-line ``act``).
    LOOK_ELSEWHERE = 1.0

    def _idle_wait(self) -> float:
        """How long the worker may sleep: until the next look elsewhere, or a pod's message expires."""
        if self.seats is None or self.session is None:
            return self.LOOK_ELSEWHERE
        due = self.seats.due  # as of the views last published (each change publishes them again)
        return self.LOOK_ELSEWHERE if due is None else min(self.LOOK_ELSEWHERE, max(0.0, due - self.clock()) + 0.001)

    def _pods_changed(self) -> bool:
        """A pod's view differs from the published one (a message expired). Worker thread only."""
        table = self._snapshot.table
        if self.seats is None or self.session is None or table is None:
            return False
        return dict(table.pods) != self.seats.views()

    def _catch_up(self) -> bool:
        """Take in what another process journalled for the open game; True if anything changed.
        Worker thread only."""
        if self.journal is None or not self.journal.changed_elsewhere():
            return False
        if self.follow and self._open_newer():
            return True
        if self.session is None:
            return False
        changed = self.session.refresh()
        if changed:
            self.report(f"game {self.session.game_id}: took in actions saved by another process")
            self._history = []
            self._done_texts, self._undone_texts = [], []
            for h in self.session.history():
                self._history.append(self._history_item(h["seq"], h["entry"], h["text"]))
        for w in self.journal.take_warnings():
            self._notice("warning", w)
            changed = True
        return changed

    def _open_newer(self) -> bool:
        """Open the newest unfinished game another process started since this keeper last knew (the
        open one stays in the journal as it is). Worker thread only; True if one was opened."""
        assert self.journal is not None
        games = self.journal.games()
        fresh = [g.id for g in games if g.id > self._top_game and g.finished is None]
        self._top_game = max([self._top_game, *(g.id for g in games)])
        if not fresh:
            return False
        self._set_session(Session.load(self.journal, fresh[-1], **self._kw()))
        self.report(f"game {fresh[-1]}: started by another process; opened")
        self._notice("events", msg("game {number} started elsewhere: opened here", number=fresh[-1]))
        return True

    def _notice(self, kind: str, text: str, lines=(), who: str | None = None) -> None:
        self._notices.append(Notice(kind, text, tuple(lines), who=who))

    def _open(self, resume: bool, session: Session | None = None) -> None:
        if session is not None:
            self.journal = session.journal
            self._set_session(session)
            return
        self.journal = Journal(self.state_dir, durable=self.durable)
        for w in self.journal.take_warnings():
            self._notice("warning", w)
        if self.follow:
            self.journal.changed_elsewhere()  # from now on: a game made before this is not new
            self._top_game = max((g.id for g in self.journal.games()), default=0)
        if resume:
            session = Session.resume(self.journal, **self._kw())
            if session is not None:
                self._set_session(session)

    def _set_session(self, session: Session) -> None:
        self.session = session
        self._pressed = {}
        self._top_game = max(self._top_game, session.game_id)
        if self.keeps_pods:
            if self.seats is None:
                from ..hardware.render import message_pages
                from .pod.seats import Seats

                self.seats = Seats(session.rules, session.state, session.version, catalog=self.catalog, clock=self.clock, pages=message_pages,
                                   numbering=self._numbers, report=self.report,
                                   notice=lambda text: self._notice("warning", text))
            else:
                self.seats.use(session.rules, session.state, session.version)
        self._history = []
        self._done_texts, self._undone_texts = [], []
        for h in session.history():
            self._history.append(self._history_item(h["seq"], h["entry"], h["text"]))
        for w in session.journal.take_warnings():
            self._notice("warning", w)

    def _history_item(self, seq: int, entry: dict, text: str, note: bool | None = None) -> HistoryItem:
        """One journal entry in words; an undo names what it undid (like the live events do)."""
        name = entry.get("action")
        if name == "undo":
            # undo takes back the last action with the notes after it (a payment check: engine/match.py)
            while self._done_texts and self._done_texts[-1][1]:
                self._done_texts.pop()
            what = self._done_texts.pop()[0] if self._done_texts else ""
            self._undone_texts.append(what)
            return HistoryItem(seq, "undo", msg("undone: {what}", what=what), entry)
        if name == "redo":
            what = self._undone_texts.pop() if self._undone_texts else ""
            self._done_texts.append((what, False))
            return HistoryItem(seq, "redo", msg("redone: {what}", what=what), entry)
        if note is None:  # a live action's outcome says it; the journal read back is asked
            note = self.session is not None and self.session.rules.is_note(entry)
        self._done_texts.append((text, note))
        self._undone_texts.clear()
        return HistoryItem(seq, "action", text, entry)

    def _numbers(self, players: list[str]) -> Mapping[str, int]:
        if self.numbering is None or self.session is None:
            return {name: i + 1 for i, name in enumerate(players)}
        return self.numbering(self.session.game_id, players)

    def _apply(self, action: dict, short_of_end: bool = False):
        if self.session is None:
            raise TablekeeperError("no game is open")
        t0 = time.perf_counter()
        outcome = self.session.apply(action, short_of_end=short_of_end)
        who = _named(action)
        if outcome.kind == "noop":
            self._notice("events", msg("nothing changed"), outcome.events, who=who)
            return outcome
        self.commit_times.append(time.perf_counter() - t0)
        assert outcome.seq is not None  # journalled: only a no-op (returned above) has none
        entry = outcome.entry
        described = outcome.text if outcome.kind == "action" else ""
        item = self._history_item(outcome.seq, entry, described, outcome.note)
        self._history.append(item)
        text = item.text
        shown = outcome.events[1:] if outcome.kind in ("undo", "redo") else outcome.events
        if shown:
            self._notice("events", text, shown, who=who)
        return outcome

    def _publish(self) -> None:
        s = self.session
        image = s.image() if s is not None else None
        # The stored games' list changes only with a new game, another one opened, or the open
        # one ending or reopening: read it then, not after every action.
        games_key = (image.game_id, image.state["over"]) if image is not None else None
        games = self._snapshot.games
        if self.journal is not None and (games_key != self._games_key or not games):
            self._games_key = games_key
            games = tuple(GameSummary(g.id, g.game, tuple(g.setup.get("players", [])), g.started,
                                      g.finished, g.result) for g in self.journal.games())
        table = None
        if image is not None:
            table = Table(**image._asdict(), history=tuple(self._history),
                          # the seats read the match's own state (what they remember is kept by it), the
                          # snapshot's copy is for other threads
                          pods=MappingProxyType(self.seats.views(s.state, image.version)
                                                if self.seats is not None and s is not None else {}))
        with self._lock:
            self._snapshot = Snapshot(self._snapshot.serial + 1, games, table)
            snap = self._snapshot
        for listener in list(self.listeners):
            try:
                listener(snap)
            except Exception:
                log.exception("snapshot listener failed")


def main_counter(rules) -> str | None:
    """The counter the end-of-game chart follows: the one the game says decides it, else its first."""
    if rules.main_counter in rules.player_counters:
        return rules.main_counter
    return next(iter(rules.player_counters), None)


def series(rules, setup_state: dict, done: tuple[dict, ...], counters: list[str]) -> dict[str, dict[str, list[int]]]:
    """Each player's ``counters`` after every done action: ``{player: {counter: [values...]}}``.

    Pure: replays the actions on a copy of the setup state (the journal is not read).
    """
    state = clone(setup_state)
    out = {p["name"]: {c: [p["counters"].get(c, 0)] for c in counters} for p in state["players"]}
    for entry in done:
        state, _ = rules.apply(state, entry, in_place=True)
        for p in state["players"]:
            for c in counters:
                out[p["name"]][c].append(p["counters"].get(c, 0))
    return out
