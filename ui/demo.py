"""A headless demo: a scripted game of counters in the real journal, printed step by step.

It resumes where it stopped: kill it and start it again, the game goes on.
"""
from __future__ import annotations

import time
from typing import Any

from ..engine import Journal, RuleError, Session
from .terminal import out, say_warnings

SCRIPT: list[dict[str, Any]] = [
    {"action": "adjust", "player": "Ana", "counter": "life", "delta": -3},
    {"action": "next"},
    {"action": "adjust", "player": "Ben", "counter": "life", "delta": -5},
    {"action": "adjust", "counter": "round", "delta": 1},
    {"action": "transfer", "from": "Cai", "to": "Ana", "counter": "coins", "amount": 2},
    {"action": "undo"},
    {"action": "redo"},
    {"action": "next"},
    {"action": "adjust", "player": "Cai", "counter": "life", "delta": -20},
    {"action": "adjust", "player": "Ben", "counter": "life", "delta": -20},
]

OPTIONS: dict[str, Any] = {
    "counters": [{"name": "life", "start": 20, "min": 0, "out_at": 0}, {"name": "coins", "start": 5, "min": 0}],
    "table": [{"name": "round", "start": 1}],
}


def _show(view: dict) -> None:
    for p in view["players"]:
        counters = "  ".join(f"{k}={v}" for k, v in p["counters"].items())
        mark = " (out)" if p["out"] else (" <" if view.get("turn", {}).get("player") == p["name"] else "")
        out(None, f"    {p['name']:<4} {counters}{mark}")
    if view["over"]:
        out(None, f"    game over: {'draw' if view['draw'] else 'winners'} {', '.join(view['winners'])}")


def run(state_dir=None, *, delay: float = 0.4) -> int:
    with Journal(state_dir) as journal:
        say_warnings(None, journal)
        session = Session.resume(journal)
        if session is None or session.record.game != "counters":
            session = Session.new(journal, "counters", ["Ana", "Ben", "Cai"], OPTIONS)
            out(None, f"new game {session.game_id} in {journal.path}")
        else:
            out(None, f"resuming game {session.game_id} from {journal.path}")
        _show(session.view())
        start = len(session.match.done) + len(session.match.undone)
        for entry in SCRIPT[min(start, len(SCRIPT)):]:
            time.sleep(delay)
            try:
                outcome = session.apply(entry)
            except RuleError as e:
                out(None, f"  refused: {e}")
                continue
            out(None, f"  {outcome.text or entry['action']}"
                  + (f"  — {'; '.join(outcome.events)}" if outcome.events else ""))
            _show(outcome.view)
    return 0
