"""Real finished games for the play-record tests and the statistics benchmark.

Each game is played through the engine's own rules into a real journal
(``Session.apply``, the same path as a pod press): The Red Dragon Inn, The
Bloody Inn and Dragon Run by a robot that takes, for a seat, one of the
actions its pod offers (``seat_actions``), until the game ends itself; Dale of
Merchants by replaying the table story of bench/stories with the names
changed (its actions need the market cards' values, which only a table knows).
A game the robot does not finish within its step budget stays unfinished in
the journal, as an abandoned game does.

The journal's clock is a fake one that moves 5–90 s per action, so lengths
vary. :func:`generate` returns, for each finished game, what the robot saw at
the end (the live session's state), for a test's independent computation.
"""
from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tablekeeper.engine import Journal, RuleError, Session
from tablekeeper.engine import journal as journal_module

HERE = Path(__file__).resolve().parent
NAMES = ["Ana", "Ben", "Cai", "Dua", "Eli", "Fay"]
RDI_CHARACTERS = ["Serena", "Wizgille", "Phrenk", "Kaylin", "Fiona", "Gerki", "Zot", "Deirdre"]
DRAGON_RUN_CHARACTERS = ["Knight", "Thief", "Wizard", "Dwarf", "Elf", "Barbarian", "Cleric"]
GAMES = ("red-dragon-inn", "bloody-inn", "dragon-run", "dale-of-merchants")
MAX_STEPS = 4000


class FakeClock:
    """Stands in for the journal's ``time`` module: ``time()`` is ``now``; the rest is the real one."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


@contextlib.contextmanager
def fake_clock(start: float) -> Iterator[FakeClock]:
    clock = FakeClock(start)
    real = vars(journal_module)["time"]
    setattr(journal_module, "time", clock)  # noqa: B010 (the module's own name for it, not an attribute of ours)
    try:
        yield clock
    finally:
        setattr(journal_module, "time", real)  # noqa: B010


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


def _dale_story() -> dict[str, Any]:
    story: dict[str, Any] = json.loads((HERE / "stories" / "dale-of-merchants.json").read_text())
    return story


def play_one(journal: Journal, rng: random.Random, clock: FakeClock, game: str,
             players: list[str] | None = None) -> dict[str, Any] | None:
    """Play one game (``players``: at this table, else some of :data:`NAMES`); what its end looked
    like (None: it did not finish)."""
    clock.now += rng.uniform(600, 86400 * 3)  # the next game night
    started = clock.now
    if game == "dale-of-merchants":
        story = _dale_story()
        chosen = rng.sample(NAMES, len(story["players"]))
        names = dict(zip(story["players"], chosen))
        session = Session.new(journal, game, chosen, _renamed(story["options"], names), rng=rng)
        actions = [_renamed(a, names) for e in story["events"] for a in e["actions"]]
        for a in actions:
            clock.now += rng.uniform(5, 90)
            session.apply(a)
    else:
        lo, hi = {"red-dragon-inn": (2, 5), "bloody-inn": (2, 4), "dragon-run": (2, 5)}[game]
        players = list(players) if players else rng.sample(NAMES, rng.randint(lo, hi))
        options: dict[str, Any] = {}
        if game == "red-dragon-inn" and rng.random() < 0.7:
            options["characters"] = dict(zip(players, rng.sample(RDI_CHARACTERS, len(players))))
        if game == "dragon-run" and rng.random() < 0.7:
            options["characters"] = dict(zip(players, rng.sample(DRAGON_RUN_CHARACTERS, len(players))))
        session = Session.new(journal, game, players, options, rng=rng)
        for _step in range(MAX_STEPS):
            if session.state["over"]:
                break
            turn = session.state.get("turn", {}).get("player")
            who = turn if turn in players and rng.random() < 0.8 else rng.choice(players)
            offers = session.rules.seat_actions(session.state, who)
            if not offers:
                continue
            offer = offers[min(int(rng.expovariate(0.8)), len(offers) - 1)]
            clock.now += rng.uniform(5, 90)
            with contextlib.suppress(RuleError):
                session.apply(offer["action"])
    if not session.state["over"]:
        return None
    if rng.random() < 0.1:  # "that was wrong": the last action undone, then done again
        clock.now += rng.uniform(5, 30)
        session.apply({"action": "undo"})
        clock.now += rng.uniform(5, 30)
        session.apply({"action": "redo"})
    state = session.state
    return {"id": session.game_id, "game": game, "players": [p["name"] for p in state["players"]],
            "winners": list(state["winners"]), "draw": bool(state["draw"]), "state": state,
            "started": started, "finished": clock.now}


def generate(journal: Journal, n: int, seed: int = 1, start: float = 1.7e9,
             games: tuple[str, ...] = GAMES) -> list[dict[str, Any]]:
    """Play ``n`` finished games (and whatever unfinished ones the robot leaves) into ``journal``."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    with fake_clock(start) as clock:
        while len(out) < n:
            got = play_one(journal, rng, clock, games[len(out) % len(games)])
            if got is not None:
                out.append(got)
    return out


def finished_game(journal: Journal, game: str, players: list[str], seed: int = 0) -> dict[str, Any]:
    """One finished game of ``game`` among ``players`` (the robot tries until one ends)."""
    rng = random.Random(seed)
    with fake_clock(1.75e9 + 1000 * seed) as clock:
        while True:
            got = play_one(journal, rng, clock, game, players)
            if got is not None:
                return got
