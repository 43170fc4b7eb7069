"""One game in play, in memory: the rules, the actions done and undone.

Undo and redo are entries of the journal like any action. The state after any
sequence of entries is a pure function of them: the actions still "done", in
order, applied to the setup. To undo without keeping every past state, the
match keeps a copy of the state every :data:`CHECKPOINT_EVERY` done actions
and recomputes from the nearest one (at most that many actions to re-apply).
It also keeps the state just before the last action it computed itself, so
the usual undo (of the action just done) costs one copy, not a recomputation.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import RuleError
from .game import Game
from .messages import _
from .state import clone

CHECKPOINT_EVERY = 64

CONTROL = ("undo", "redo")


@dataclass
class Proposal:
    """The outcome of an action, computed but not yet accepted."""

    kind: str  # "action", "undo", "redo" or "noop"
    entry: dict[str, Any]  # what the journal records
    state: dict[str, Any]
    events: list[str] = field(default_factory=list)


class Match:
    def __init__(self, rules: Game):
        self.rules = rules
        setup = rules.setup_state()
        self.done: list[dict[str, Any]] = []
        self.undone: list[dict[str, Any]] = []
        self._checkpoints: dict[int, dict[str, Any]] = {0: clone(setup)}
        self.state = setup
        # (n, the state after the first n done actions): the state the last proposed action
        # started from; proposals compute on a copy, so nothing changes it afterwards
        self._before: tuple[int, dict[str, Any]] | None = None

    # -- computing ------------------------------------------------------------
    def propose(self, entry: dict[str, Any]) -> Proposal:
        """What ``entry`` would do; raises RuleError and changes nothing if illegal."""
        if not isinstance(entry, dict):
            raise RuleError(_("an action must be a JSON object, not {entry!r}", entry=entry))
        name = entry.get("action")
        if name in CONTROL:
            if set(entry) != {"action"}:
                extra = sorted(set(entry) - {"action"})[0]
                raise RuleError(_("{name}: unexpected field {extra!r}", name=name, extra=extra))
            if name == "undo":
                k = self._undo_point()
                if k is None:
                    raise RuleError(_("nothing to undo"))
                state = self.state_at(k)
                return Proposal("undo", {"action": "undo"}, state,
                                [_("undone: {what}", what=self.rules.describe(self.done[k]))])
            if not self.undone:
                raise RuleError(_("nothing to redo"))
            state, events = self.rules.apply(self.state, self.undone[-1])
            return Proposal("redo", {"action": "redo"}, state,
                            [_("redone: {what}", what=self.rules.describe(self.undone[-1]))] + events)
        state, events = self.rules.apply(self.state, entry)
        if state == self.state:
            return Proposal("noop", entry, state, events or [_("nothing changed")])
        return Proposal("action", entry, state, events)

    def accept(self, p: Proposal) -> None:
        """Make a proposal current (after its journal commit has returned)."""
        if p.kind == "noop":
            return
        if p.kind == "action":
            self._before = (len(self.done), self.state) if p.state is not self.state else None
            self.done.append(p.entry)
            self.undone.clear()
        elif p.kind == "undo":
            k = self._undo_point()
            assert k is not None  # propose refused it otherwise
            self.undone.append(self.done[k])
            del self.done[k:]  # the action and the notes after it
            if self._before is not None and self._before[0] > k:
                self._before = None
            for k in [k for k in self._checkpoints if k > len(self.done)]:
                del self._checkpoints[k]
        elif p.kind == "redo":
            self.done.append(self.undone.pop())
        self.state = p.state
        n = len(self.done)
        if n % CHECKPOINT_EVERY == 0 and n not in self._checkpoints:
            self._checkpoints[n] = clone(self.state)

    def last_move_by(self) -> str | None:
        """Whose is the action an undo would take back: who did it (``Game.actor``: the player it names,
        else the one whose turn it was), else for a correction the player it changed; None for nothing to
        undo or a correction nobody did."""
        k = self._undo_point()
        if k is None:
            return None
        entry = self.done[k]
        who = self.rules.actor(self.state_at(k), entry)  # a game may know better than "player" (a target)
        player = entry.get("player")
        return who if who is not None else player if isinstance(player, str) else None

    def last_move(self) -> tuple[int, dict[str, Any]] | None:
        """The action an undo would take back: its place among the actions done, and its entry (the same
        object while it stays done, an undo and a redo included). None: nothing to undo."""
        k = self._undo_point()
        return None if k is None else (k, self.done[k])

    def _undo_point(self) -> int | None:
        """Where undo goes back to: the last done action that is not a note (its index), or None."""
        return _undo_point(self.done, self.rules)

    def apply(self, entry: dict[str, Any]) -> Proposal:
        p = self.propose(entry)
        self.accept(p)
        return p

    def replay(self, entry: dict[str, Any]) -> None:
        """Apply a journal entry known to have been valid: no copy, no events kept.

        If it fails anyway (a damaged or incompatible journal), the state is
        restored and the RuleError propagates.
        """
        name = entry.get("action") if isinstance(entry, dict) else None
        if name in CONTROL:
            self.accept(self.propose(entry))
            return
        try:
            state, _events = self.rules.apply(self.state, entry, in_place=True)
        except Exception:
            self.state = self.state_at(len(self.done))
            raise
        self.accept(Proposal("action", entry, state))

    def load(self, entries: list[dict[str, Any]]) -> int:
        """Rebuild from journal entries (on a fresh match); returns how many were used.

        Undo and redo are folded over the list first, without any state, so
        each surviving action is applied exactly once. An entry that does not
        replay stops the load there: the match then holds the state just
        before it, and the return value is that entry's index.
        """
        done: list[tuple[int, dict[str, Any]]] = []
        undone: list[tuple[int, dict[str, Any]]] = []
        for i, entry in enumerate(entries):
            name = entry.get("action") if isinstance(entry, dict) else None
            if name == "undo" and set(entry) == {"action"} and \
                    (k := _undo_point([e for _i, e in done], self.rules)) is not None:
                undone.append(done[k])
                del done[k:]
            elif name == "redo" and undone and set(entry) == {"action"}:
                done.append(undone.pop())
            elif name in CONTROL:
                return self._load_prefix(entries, i)
            else:
                done.append((i, entry))
                undone.clear()
        for i, entry in done:
            try:
                self.replay(entry)
            except RuleError:
                return self._load_prefix(entries, i)
        self.undone = [entry for _i, entry in undone]
        return len(entries)

    def _load_prefix(self, entries: list[dict[str, Any]], stop: int) -> int:
        fresh = Match(self.rules)
        fresh.load(entries[:stop])
        self.__dict__.update(fresh.__dict__)
        return stop

    def state_at(self, n: int) -> dict[str, Any]:
        """The state after the first ``n`` done actions (a fresh copy)."""
        if self._before is not None and self._before[0] == n:
            copy: dict[str, Any] = clone(self._before[1])
            return copy
        base = max(k for k in self._checkpoints if k <= n)
        state: dict[str, Any] = clone(self._checkpoints[base])
        for entry in self.done[base:n]:
            state, _events = self.rules.apply(state, entry, in_place=True)
        return state

    def view(self) -> dict[str, Any]:
        return self.rules.view(self.state)


def _undo_point(done: list[dict[str, Any]], rules: Game) -> int | None:
    """The index of the last entry of ``done`` that is not a note, or None (nothing to undo)."""
    for k in range(len(done) - 1, -1, -1):
        if not rules.is_note(done[k]):
            return k
    return None
