"""Standings from finished plays: plays, wins, points and an Elo rating, per game and overall. Pure.

A play is what a table publishes (``players``, ``winners``, ``draw``, ``finished``, ``game``, and
``table``/``journal``/``game_no`` for the order); a player is a name or the replay contract's player
object (``{"name": ...}``). A player is their name as the tables send it: the same name at two
tables is the same player, and names the league's organiser merged (``tablekeeper club merge``) are
one person, under the name merged into.

Points, per play:

* a sole win (one winner, not a draw): :data:`WIN_POINTS` (3);
* a shared win (several winners, not a draw): :data:`SHARED_POINTS` (2) each;
* a draw (``draw``: the players in ``winners`` tied): :data:`DRAW_POINTS` (1) each of them;
* anything else (a loss; a play nobody won, like the dragon's win): 0.

Rating: Elo, multiplayer as pairwise duels, every player starting at :data:`START` (1500).
In one play of ``n`` players each pair is one duel when the result orders them: a winner against
a non-winner is a win (1) and a loss (0); two winners (a shared win, or the tied players of a draw)
are a draw (0.5 each); two non-winners are not compared (the result does not say who did better).
Each player's change is ``K / (n - 1) × Σ (score − expected)`` over their duels, with
:data:`K` = 32 and ``expected = 1 / (1 + 10 ** ((opponent − own) / 400))``, all from the ratings
before the play (so a play of two is plain Elo, and one play moves a rating by at most K).
Plays count in the order they finished (``finished``), ties broken by table, journal and game
number, so the same plays always give the same ratings. The overall rating is one pool over every
game; each game also has its own.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

WIN_POINTS = 3
SHARED_POINTS = 2
DRAW_POINTS = 1
START = 1500.0
K = 32.0


def _name(player: Any) -> str:
    return str(player.get("name")) if isinstance(player, dict) else str(player)


def as_people(play: dict[str, Any], people: Mapping[str, str]) -> dict[str, Any]:
    """``play`` with each name the organiser merged (``people``: name → the person's name) replaced by
    the person's: "Ana María" at one table and "Ana" at another count as one player. A play naming one
    person twice (two names merged though they played together) keeps its names as sent."""
    if not people:
        return play

    def person(player: Any) -> Any:
        name = _name(player)
        merged = people.get(name, name)
        return {**player, "name": merged} if isinstance(player, dict) else merged

    players = [person(p) for p in play["players"]]
    if len({_name(p) for p in players}) < len(players):
        return play
    return {**play, "players": players, "winners": [person(w) for w in play["winners"]]}


def order_key(play: dict[str, Any]) -> tuple:
    """The rating's order: finished time, then table, journal, game number."""
    return (float(play["finished"]), str(play.get("table", "")), str(play.get("journal", "")),
            int(play.get("game_no", 0)))


def result(play: dict[str, Any]) -> dict[str, str]:
    """Each player's result in one play: ``"win"``, ``"shared"``, ``"draw"`` or ``"loss"``."""
    names = [_name(p) for p in play["players"]]
    winners = {_name(w) for w in play["winners"]}
    if play.get("draw"):
        won = "draw"
    elif len(winners) > 1:
        won = "shared"
    else:
        won = "win"
    return {n: (won if n in winners else "loss") for n in names}


POINTS = {"win": WIN_POINTS, "shared": SHARED_POINTS, "draw": DRAW_POINTS, "loss": 0}


def rating_changes(ratings: dict[str, float], play: dict[str, Any]) -> dict[str, float]:
    """Each player's Elo change for one play, from ``ratings`` before it (missing: :data:`START`)."""
    outcome = result(play)
    names = list(outcome)
    if len(names) < 2:
        return {n: 0.0 for n in names}
    scale = K / (len(names) - 1)
    out = {}
    for me in names:
        mine = ratings.get(me, START)
        total = 0.0
        for other in names:
            if other == me:
                continue
            i_won, they_won = outcome[me] != "loss", outcome[other] != "loss"
            if not i_won and not they_won:
                continue  # two non-winners: not ordered by the result
            score = 0.5 if i_won and they_won else (1.0 if i_won else 0.0)
            expected = 1.0 / (1.0 + 10 ** ((ratings.get(other, START) - mine) / 400.0))
            total += score - expected
        out[me] = scale * total
    return out


class _Table:
    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.ratings: dict[str, float] = {}

    def add(self, play: dict[str, Any]) -> None:
        outcome = result(play)
        changes = rating_changes(self.ratings, play)
        for name, res in outcome.items():
            row = self.rows.setdefault(name, {"player": name, "plays": 0, "wins": 0, "shared": 0, "draws": 0,
                                              "points": 0})
            row["plays"] += 1
            row["wins"] += res in ("win", "shared")
            row["shared"] += res == "shared"
            row["draws"] += res == "draw"
            row["points"] += POINTS[res]
            self.ratings[name] = self.ratings.get(name, START) + changes[name]

    def ranked(self) -> list[dict[str, Any]]:
        rows = [{**row, "rating": round(self.ratings[name], 1)} for name, row in self.rows.items()]
        rows.sort(key=lambda r: (-r["points"], -r["rating"], -r["wins"], r["player"]))
        return rows


class Standings:
    """Standings built one play at a time, in the rating's order (:func:`order_key`).

    :meth:`add` refuses a play that sorts before the last one added (ValueError): the ratings would
    depend on the arrival order. Whoever gets plays late builds a new one over the sorted plays.
    """

    def __init__(self, people: Mapping[str, str] | None = None) -> None:
        self.overall = _Table()
        self.games: dict[str, _Table] = {}
        self.count = 0
        self.last: tuple | None = None
        self.people = dict(people or {})  # names the organiser merged: name -> the person's name

    def add(self, play: dict[str, Any]) -> None:
        key = order_key(play)
        if self.last is not None and key < self.last:
            raise ValueError("a play older than the last one added: build the standings again in order")
        self.last = key
        play = as_people(play, self.people)
        self.overall.add(play)
        self.games.setdefault(str(play["game"]), _Table()).add(play)
        self.count += 1

    def result(self) -> dict[str, Any]:
        """``{"plays": N, "overall": [row, ...], "games": {game id: [row, ...]}}``, best first.

        A row: ``player``, ``plays``, ``wins`` (sole and shared), ``shared``, ``draws``, ``points``,
        ``rating`` (rounded to a tenth). Ranked by points, then rating, then wins, then name.
        """
        return {"plays": self.count, "overall": self.overall.ranked(),
                "games": {game: table.ranked() for game, table in sorted(self.games.items())}}


def standings(plays: Iterable[dict[str, Any]], people: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The standings of these plays, in any order (see :meth:`Standings.result`), the names the organiser
    merged (``people``) counted as their person."""
    built = Standings(people)
    for play in sorted(plays, key=order_key):
        built.add(play)
    return built.result()
