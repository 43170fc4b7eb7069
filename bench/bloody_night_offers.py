"""What the Bloody Inn's night turns did, by the situation the first offer is chosen in.

Replays every Bloody Inn story (``bench/stories/*bloody-inn.json`` and the rulebook sets) and, for each
night action (not an annex's extra one), counts what the player did, grouped by the situation — a corpse
to bury or not, cards in hand or none, peasants in the bistro or none — and the pod's first offer then:

    .venv/bin/python bench/bloody_night_offers.py

The first offer is what a pod's main does; docs/benchmarks.md ("fourteenth session") quotes these counts.
"""
from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from stories import load, rules_of  # noqa: E402  (bench/ is not a package)

from tablekeeper.engine.errors import RuleError  # noqa: E402
from tablekeeper.engine.match import Match  # noqa: E402


def _kind(a: dict) -> str:
    k = a["action"] + (" bistro" if "bistro" in a else "") + (" launder" if a.get("checks") else "")
    return k + (f" r{a.get('rank')}" if a["action"] in ("kill", "bribe") and "room" in a else "")


def main() -> int:
    seen: dict[tuple[str, str], Counter] = defaultdict(Counter)
    paths = sorted(HERE.glob("stories/*bloody-inn.json")) + sorted(HERE.glob("stories/rulebook*-actions/bloody-inn.json"))
    for path in paths:
        story = load(path)
        m = Match(rules_of(story))
        for event in story.events:
            for a in event.actions:
                night = m.state["phase"] == "night" and not a.get("extra")
                if a.get("action") in ("kill", "bribe", "bury", "build", "pass") and night:
                    who = a.get("player") or event.who
                    p = next(q for q in m.state["players"] if q["name"] == who)
                    offers = m.rules.seat_actions(m.state, who)
                    first = _kind(offers[0]["action"]) if offers else "–"
                    where = "/".join(("corpses" if p["corpses"] else "no corpse",
                                      "hand" if p["hand"] else "no hand",
                                      "bistro" if m.state["inn"]["bistro"] else "no bistro"))
                    seen[(where, first)][_kind(a)] += 1
                try:
                    m.apply(a)
                except RuleError:
                    pass
    for (where, first), done in sorted(seen.items()):
        print(f"{where:28} first offer {first:16} {sum(done.values()):4}  {dict(done.most_common())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
