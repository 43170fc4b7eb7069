"""The publisher's ledger: every game it follows, what of each is out, and what the league holds.

Kept on the publisher's own thread (``acks()`` and ``settled()`` copy under a lock for the others).
The journal says how many actions a game has and whether it is finished; the league's acks say how
many of them it holds and whether it holds the play; the ledger keeps the acks within what the journal
holds (an ack can make nothing unsent forgotten), decides what goes again when it may have been lost
(:meth:`Ledger.stall_check`), and keeps the acks durably in the ack file (:mod:`.ackfile`).
"""
from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine.journal_rows import JournalRows
from .ackfile import ACK_FILE_VERSION, AckFile, ranges

#: Seconds between two writes of the ack file (an ack lost to a crash only costs a resend).
SAVE_EVERY = 1.0
MAX_RESEND_WAIT = 600.0


@dataclass
class FollowedGame:
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
    rosters: int = 0
    acks: int = 0
    bad_acks: int = 0
    resyncs: int = 0  # times something went again (any reason)
    overtaken: int = 0  # ... because a later message was acknowledged first
    stalls: int = 0  # ... because the acks stopped
    connects: int = 0


class Ledger:
    """The games followed and the league's acks of them. ``say(kind, text)``: a problem, told (throttled
    by kind); ``counts``: the publisher's counters; ``resend_after``/``resync_after``: as the
    publisher's (:class:`~tablekeeper.ui.club.publisher.Publisher`)."""

    def __init__(self, ack_path: Path, counts: Counts, say: Callable[[str, str], None], *, resend_after: float,
                 resync_after: float):
        self.ackfile = AckFile(ack_path)
        self.counts = counts
        self._say = say
        self.resend_after = resend_after
        self.resync_after = resync_after
        self._lock = threading.Lock()
        self.inbox: deque[dict[str, Any]] = deque()  # acks from the network thread
        self.games: dict[int, FollowedGame] = {}
        self._settled: set[int] = set()
        # per game as the league said: (seq, the finished time of the play it holds, None: none)
        self._raw_acks: dict[int, tuple[int, float | None]] = {}
        self.first_game: int | None = None
        self._top = 0  # the highest game number seen
        self.dirty = False
        self.saved_at = 0.0
        self._sent_no = 0  # messages of the journal published (their order)
        self._delivered_no = 0  # the latest of them the league has acknowledged
        self._ack_delay = 0.0  # seconds from publishing to the league's ack, smoothed
        self._resend_wait = resend_after

    # -- any thread ------------------------------------------------------------------------------
    def acks(self) -> dict[int, tuple[int, bool]]:
        """Per game still followed (not settled): (actions the league holds, whether it holds the play)."""
        with self._lock:
            return {g.no: (g.acked, g.play_acked) for g in list(self.games.values())}

    def settled(self) -> set[int]:
        """Games whose actions and play the league holds (copied)."""
        with self._lock:
            return set(self._settled)

    # -- the journal's side ----------------------------------------------------------------------
    def take_in(self, rows: JournalRows) -> None:
        """Take in new games, new entries and finished games from the journal."""
        if self.first_game is None:
            # The first run at this journal: from its first game (a table that joins a club brings its
            # past; the league keeps each play once, so nothing is counted twice).
            self.first_game = rows.first_game()
            self.dirty = True
        # Whose entries may have grown: a game not finished, or whose end changed (an undo reopened it).
        # A finished game's entries change only through such a reopening: it is not counted again.
        growing: list[FollowedGame] = []
        for gid, end in rows.finished_of(sorted(self.games)):
            g = self.games[gid]
            if end is None or end != g.finished or not g.counted:
                growing.append(g)
            g.finished = end
        for read in rows.games(after=max(self._top, self.first_game - 1)):
            gid = read.id
            self._top = max(self._top, gid)
            if gid in self._settled or gid in self.games:
                continue
            if read.record is None:
                self._say("setup", f"club: game {gid}: its setup does not decode; it is not published")
                continue
            rec = read.record
            g = FollowedGame(gid, rec.game, rec.setup, rec.started, rec.finished)
            with self._lock:
                self.games[gid] = g
            growing.append(g)
        for g in growing:
            total = rows.next_seq(g.no)
            if total != g.total:
                g.damaged = False  # the owner may have set a damaged row aside meanwhile: read it again
            g.total = total
            g.counted = True
            self._bound(g)

    def _bound(self, g: FollowedGame) -> None:
        """The league's word, within what the journal holds (an ack can make nothing unsent forgotten)."""
        raw_seq, held = self._raw_acks.get(g.no, (0, None))
        acked = min(raw_seq, g.total)
        play = held is not None and held == g.finished  # a game finished anew (an undo, then its end) goes again
        if (acked, play) != (g.acked, g.play_acked):
            g.acked, g.play_acked = acked, play
            self.dirty = True
        g.sent = max(g.sent, g.acked)

    # -- what goes out ---------------------------------------------------------------------------
    def owed(self) -> int:
        """Messages published and not acknowledged by the league yet, of every game."""
        return sum(g.owed for g in self.games.values())

    def sent(self, g: FollowedGame, key: int) -> None:
        """A message of ``g`` went: wire seq ``key`` (-1: the play)."""
        now = time.monotonic()
        if not g.owed:
            g.progress_at = now
        if key >= 0:
            g.sent = key
        else:
            g.play_sent = g.finished
        self._sent_no += 1
        g.out[key] = (self._sent_no, now)

    # -- the league's side -----------------------------------------------------------------------
    def take_acks(self, journal_id: str | None) -> None:
        later = []
        while self.inbox:
            body = self.inbox.popleft()
            if body["journal"] != journal_id:
                self.counts.bad_acks += 1
                self._say("other-journal", f"club: dropped an ack for another journal ({body['journal']!r})")
                continue
            no = body["game_no"]
            g = self.games.get(no)
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
            finished = body.get("finished")
            if body["play"] and isinstance(finished, (int, float)) and not isinstance(finished, bool):
                held = float(finished)  # the play the league says it holds, by its end
            elif body["play"] and g.finished is not None:  # a league that does not say which: the last one sent
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
        self.inbox.extendleft(reversed(later))
        # The newest game stays followed: an undo of its last action reopens it, and what follows goes too.
        for g in [g for g in self.games.values() if g.settled and g.no != self._top]:
            with self._lock:
                del self.games[g.no]
                self._settled.add(g.no)
            self._raw_acks.pop(g.no, None)
            self.dirty = True

    # -- what goes again -------------------------------------------------------------------------
    def resend_from_acks(self, games: list[FollowedGame]) -> None:
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

    def resend_owed_since(self, when: float) -> None:
        """What no ack has covered since ``when`` (a reconnection: the broker may have lost it) goes again."""
        self.resend_from_acks([g for g in self.games.values() if g.owed and g.progress_at < when])

    def stall_check(self) -> None:
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
        for g in self.games.values():
            if g.out and min(no for no, _at in g.out.values()) < self._delivered_no:
                if g.overtaken_at is None:
                    g.overtaken_at = now
                elif now - g.overtaken_at >= self.resync_after:
                    overtaken.append(g)
            else:
                g.overtaken_at = None
        if overtaken:
            self.counts.overtaken += 1
            self.resend_from_acks(overtaken)
        # a league that is slow to answer (a backlog after an outage) is waited for: 4 times its delay
        wait = max(self._resend_wait, 4 * self._ack_delay)
        stalled = [g for g in self.games.values() if g.owed and now - g.progress_at >= wait]
        if stalled:
            self._say("stall", f"club: no ack from the league for {wait:.0f} s; publishing again "
                               f"what it has not acknowledged of {len(stalled)} game(s)")
            self._resend_wait = min(self._resend_wait * 2, MAX_RESEND_WAIT)
            self.counts.stalls += 1
            self.resend_from_acks(stalled)

    # -- the ack file ----------------------------------------------------------------------------
    def load(self, journal_id: str, table: str) -> None:
        """Take in the ack file of this journal and table (one for another, or unusable, starts afresh)."""
        try:
            data = self.ackfile.load()
        except ValueError as e:
            aside = self.ackfile.path.with_name(f"club-acks.unusable-{time.strftime('%Y%m%dT%H%M%S')}.json")
            try:
                os.replace(self.ackfile.path, aside)
            except OSError:
                pass
            self._say("ackfile", f"club: {e}; set aside as {aside.name}: every game is published again "
                                 "(the league keeps each once)")
            self.first_game = 1
            self.dirty = True
            return
        if data is None or data.get("journal") != journal_id or data.get("table") != table:
            if data is not None:
                self._say("ackfile", f"club: {self.ackfile.path} is for another journal or table; starting afresh")
            self.first_game = None  # chosen at the first look at the journal
            self.dirty = True
            return
        self.first_game = int(data["first_game"])
        with self._lock:
            self._settled = {n for lo, hi in data["settled"] for n in range(int(lo), int(hi) + 1)}
        self._raw_acks = {int(k): (int(seq), None if held is None else float(held))
                          for k, (seq, held) in data["games"].items()}

    def save(self, journal_id: str | None, table: str, *, force: bool = False) -> None:
        if not self.dirty or journal_id is None or self.first_game is None:
            return
        now = time.monotonic()
        if not force and now - self.saved_at < SAVE_EVERY:
            return  # the publisher's next wait comes back for it
        games = {str(no): [seq, held] for no, (seq, held) in self._raw_acks.items() if no not in self._settled}
        data = {"v": ACK_FILE_VERSION, "table": table, "journal": journal_id,
                "first_game": self.first_game, "settled": ranges(self._settled), "games": games}
        try:
            self.ackfile.save(data)
        except OSError as e:
            self._say("ackfile-write", f"club: cannot write {self.ackfile.path}: {e.strerror or e} (the acks are "
                                       "kept in memory; a restart publishes those games again)")
            return
        self.dirty = False
        self.saved_at = now
