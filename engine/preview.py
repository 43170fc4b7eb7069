"""One preview of an action for every screen: what it would change, before anything is journalled.

The pods' preview ("OK?") and the touchscreen's dialogs ask the same question — what would this
action do now? — and get the same answer from :meth:`tablekeeper.engine.game.Game.preview`:

* refused: the :class:`~tablekeeper.engine.errors.RuleError` the action would meet;
* ``changes``: every counter it changes (a player's or the table's), before → after;
* ``decided``: the fields the device itself draws when the action is applied (a die, a random
  card): the preview tries several draws and keeps in ``changes`` only what every draw gives;
  what depends on the draw is in ``uncertain``, so no screen shows one possible roll as if it
  were the result.

Pure and deterministic: the draws come from fixed seeds, the state is never touched.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .errors import RuleError

#: The seeds a preview draws with when the device decides something: enough to tell a die's
#: outcome from what every roll gives.
SEEDS = (0, 1, 2, 3)


@dataclass(frozen=True)
class Change:
    player: str | None  # None: the table's counter
    counter: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class Preview:
    after: dict[str, Any]  # the state after it, with the first draw when the device decides something
    events: tuple[Any, ...]  # what the rules announce (with the first draw)
    changes: tuple[Change, ...]  # what it changes, the same whatever the device draws
    decided: tuple[str, ...]  # the fields the device draws when it is applied
    uncertain: tuple[tuple[str | None, str], ...]  # (player or None, counter) that depend on the draw

    @property
    def certain(self) -> bool:
        """Everything it would change is known now (no draw changes the outcome)."""
        return not self.uncertain


def counters_of(state: dict[str, Any]) -> dict[tuple[str | None, str], int]:
    """Every counter of a state: each player's, then the table's (whole numbers only)."""
    out: dict[tuple[str | None, str], int] = {}
    for p in state["players"]:
        for k, v in p["counters"].items():
            if isinstance(v, int):
                out[(p["name"], k)] = v
    for k, v in state["table"].items():
        if isinstance(v, int) and not isinstance(v, bool):
            out[(None, k)] = v
    return out


def preview(rules: Any, state: dict[str, Any], action: dict[str, Any]) -> Preview:
    """What ``action`` would do to ``state``; raises the RuleError that would refuse it."""
    first = rules.prepare(state, dict(action), random.Random(SEEDS[0]))
    decided = tuple(sorted(set(first) - set(action)))
    after, events = rules.apply(state, first)
    outcomes = [counters_of(after)]
    if decided:
        for seed in SEEDS[1:]:
            entry = rules.prepare(state, dict(action), random.Random(seed))
            try:
                outcomes.append(counters_of(rules.apply(state, entry)[0]))
            except RuleError:  # a draw the rules refuse says nothing about the others
                continue
    before = counters_of(state)
    changes, uncertain = [], []
    for key in dict.fromkeys(k for o in outcomes for k in o):
        values = {o.get(key) for o in outcomes}
        old = before.get(key)
        if len(values) > 1:
            uncertain.append(key)
            continue
        (new,) = values
        if new is not None and new != old:
            changes.append(Change(key[0], key[1], 0 if old is None else old, new))
    return Preview(after, tuple(events), tuple(changes), decided, tuple(uncertain))
