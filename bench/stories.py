"""Table stories: what physically happens at a game table, and what it costs on paper.

A story (``bench/stories/<game>.json``) is written from the rulebook, not from
any interface: each event is something people do at the table ("Ana buys Ben
a drink; Ben drinks a Dragon Breath Ale with a Water chaser"), with the
device's record of it (``actions``: the engine actions, as in a replay
script) and, where it helps, the figures the table shows afterwards
(``expect``). The turn-cost benchmark plays the same events through the pods'
buttons and the touchscreen and counts presses and touches; this module
loads a story, checks that its actions reproduce its expectations, and counts
what paper needs for each event.

Format::

    {"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"], "options": {},
     "source": "seeds/red-dragon-inn.es.txt",
     "paper": {"player": ["gold", "alcohol", "fortitude"], "table": {"pot": "gold", "inn": "gold"}},
     "events": [
       {"say": "Ana pays 1 gold to the inn for a drink", "who": "Ana",
        "rule": "«...» (the rulebook's words, or its section)",
        "routine": true,
        "actions": [{"action": "...", ...}],
        "expect": {"players": {"Ana": {"gold": 9}}, "table": {"pot": 0}, "over": false},
        "paper_moves": 2}
     ],
     "expect": {"over": true, "winners": ["Cai"], "players": {"Ben": {"out": true}}},
     "rounds": 4}

``who``: whose pod records the event (the player who acts at the table).
``rounds`` (optional): how many rounds (every player's turn once) the story
covers, for the per-round figures; left out, the benchmark counts how often
the first player's turn starts.
``routine`` (default true): an event of ordinary play; false for what a
table does once a game before the first turn (a setup, like Dale of
Merchants' opening market) and for the rare corrections a story may show.
The turn-cost goals (median, max) are over routine events; the others are
reported apart, and their presses count in the presses per round. ``paper_moves`` overrides the counted moves
where tokens do not tell the whole story (a card put on a track).

Paper moves are counted from the state, per token kind: ``paper.player``
names the players' counters that are tokens on paper, ``paper.table`` maps
each table counter that is a place for tokens to the kind it holds (the pot
holds gold; a list names counters that are their own kind, like a track).
For each kind, the larger of what was added and what was taken over every
player and table place: 3 gold from Ana to Ben is 3 coins moved, not 6; an
ante of 1 gold each into the pot is 3; 2 alcohol from the supply is 2
tokens.

``python bench/stories.py [FILE...]`` checks the stories (all by default) and
prints each event's paper moves.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
STORIES = HERE / "stories"


@dataclass
class Event:
    say: str
    who: str
    actions: list[dict[str, Any]]
    routine: bool = True
    rule: str = ""
    expect: dict[str, Any] = field(default_factory=dict)
    paper_moves: int | None = None


@dataclass
class Story:
    path: Path
    game: str
    players: list[str]
    options: dict[str, Any]
    paper: dict[str, Any]  # {"player": [kinds], "table": {table counter: kind}}
    events: list[Event]
    expect: dict[str, Any]
    title: str = ""
    rounds: int | None = None  # rounds the story covers (None: counted from the turns)

    @property
    def key(self) -> str:
        """The game as the benchmark's figures name it (``red_dragon_inn``)."""
        return self.game.replace("-", "_")


class StoryError(Exception):
    pass


def load(path: str | Path) -> Story:
    path = Path(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    events = []
    for i, e in enumerate(raw["events"]):
        unknown = set(e) - {"say", "who", "actions", "routine", "rule", "expect", "paper_moves"}
        if unknown:
            raise StoryError(f"{path.name}: event {i + 1}: unknown keys {sorted(unknown)}")
        if e["who"] not in raw["players"]:
            raise StoryError(f"{path.name}: event {i + 1}: {e['who']!r} is not a player")
        events.append(Event(e["say"], e["who"], list(e["actions"]), bool(e.get("routine", True)),
                            e.get("rule", ""), dict(e.get("expect", {})), e.get("paper_moves")))
    return Story(path, raw["game"], list(raw["players"]), dict(raw.get("options", {})),
                 _paper(raw.get("paper", {})),
                 events, dict(raw.get("expect", {})), raw.get("title", ""), _rounds(path, raw.get("rounds")))


def _rounds(path: Path, value: Any) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise StoryError(f"{path.name}: rounds must be a whole number of at least 1, not {value!r}")
    return value


def _paper(raw: dict[str, Any]) -> dict[str, Any]:
    table = raw.get("table", {})
    if isinstance(table, list):
        table = {name: name for name in table}
    return {"player": list(raw.get("player", [])), "table": dict(table)}


def all_stories() -> list[Story]:
    return [load(p) for p in sorted(STORIES.glob("*.json"))]


def rules_of(story: Story):
    from tablekeeper.engine.registry import make_rules

    return make_rules({"game": story.game, "players": story.players, "options": story.options})


def mismatches(state: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    """What in ``state`` differs from ``expect`` (players' counters and flags, table counters, top-level keys)."""
    out = []
    players = {p["name"]: p for p in state["players"]}
    for name, want in expect.get("players", {}).items():
        p = players.get(name)
        if p is None:
            out.append(f"no player {name!r}")
            continue
        for key, value in want.items():
            have = p["counters"].get(key) if key in p["counters"] else p.get(key)
            if have != value:
                out.append(f"{name}.{key} is {have!r}, expected {value!r}")
    for key, value in expect.get("table", {}).items():
        have = state["table"].get(key)
        if have != value:
            out.append(f"table.{key} is {have!r}, expected {value!r}")
    for key, value in expect.items():
        if key in ("players", "table"):
            continue
        if state.get(key) != value:
            out.append(f"{key} is {state.get(key)!r}, expected {value!r}")
    return out


def paper_moves(story: Story, before: dict[str, Any], after: dict[str, Any]) -> int:
    """Tokens moved on paper between two states (see the module doc)."""
    total = 0
    places: dict[str, list[str]] = {}
    for name, kind in story.paper["table"].items():
        places.setdefault(kind, []).append(name)
    for kind in dict.fromkeys(list(story.paper["player"]) + list(places)):
        deltas = []
        if kind in story.paper["player"]:
            deltas += [q["counters"].get(kind, 0) - p["counters"].get(kind, 0)
                       for p, q in zip(before["players"], after["players"])]
        deltas += [after["table"].get(name, 0) - before["table"].get(name, 0) for name in places.get(kind, ())]
        total += max(sum(d for d in deltas if d > 0), -sum(d for d in deltas if d < 0))
    return total


def play(story: Story, check: bool = True) -> list[tuple[Event, dict[str, Any], dict[str, Any]]]:
    """Apply every event's actions in order: ``[(event, state before, state after)]``.

    Raises :class:`StoryError` when an action is refused or an expectation fails.
    """
    from tablekeeper.engine.errors import RuleError

    rules = rules_of(story)
    state = rules.setup_state()
    out = []
    for i, event in enumerate(story.events, 1):
        before = state
        for action in event.actions:
            try:
                state, _ = rules.apply(state, action)
            except RuleError as e:
                raise StoryError(f"{story.path.name}: event {i} ({event.say}): {action}: {e}") from None
        if check:
            bad = mismatches(state, event.expect)
            if bad:
                raise StoryError(f"{story.path.name}: event {i} ({event.say}): " + "; ".join(bad))
        out.append((event, before, state))
    if check:
        bad = mismatches(state, story.expect)
        if bad:
            raise StoryError(f"{story.path.name}: at the end: " + "; ".join(bad))
    return out


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(STORIES.glob("*.json"))
    status = 0
    for path in paths:
        try:
            story = load(path)
            played = play(story)
        except (StoryError, KeyError, ValueError) as e:
            print(f"{path.name}: {e}", file=sys.stderr)
            status = 1
            continue
        print(f"== {path.name}: {len(story.events)} events, all checks hold")
        for n, (event, before, after) in enumerate(played, 1):
            moves = event.paper_moves if event.paper_moves is not None else paper_moves(story, before, after)
            print(f"  {n:3} {event.who:>6} paper {moves:3}  {event.say}")
    return status


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    sys.exit(main(sys.argv[1:]))
