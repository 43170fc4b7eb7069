"""Standings from finished plays: plays, wins, points and an Elo rating, per game and overall. Pure.

A play is what a table publishes (``players``, ``winners``, ``draw``, ``finished``, ``game``, and
``table``/``journal``/``game_no`` for the order); a player is a name or the replay contract's player
object (``{"name": ...}``). A player is a person: the name a table sent, read through that table's
roster (its ``tablekeeper players merge`` and ``rename``: ``rosters``, table -> stored name -> the
person's name), then through the names the league's organiser merged (``tablekeeper club merge``:
``people``). The same name at two tables is the same player.

Points, per play (the league's :class:`Scoring`, ``[league.points]`` in the config; by default):

* a sole win (one winner, not a draw): :data:`WIN_POINTS` (3);
* a shared win (several winners, not a draw): :data:`SHARED_POINTS` (2) each;
* a draw (``draw``: the players in ``winners`` tied): :data:`DRAW_POINTS` (1) each of them;
* anything else (a loss; a play nobody won, like the dragon's win): 0.

A player with fewer plays than :attr:`Scoring.min_plays` (in that table: overall, or one game) is
listed after the ranked players, without a rank (``"rank": None``).

Seasons (:class:`Season`, ``[[league.seasons]]``) are named date ranges: a season's standings are
those of the plays that finished in it (the league machine's local date), ratings starting afresh.
The organiser's corrections (``tablekeeper club void``/``unvoid``/``fix``, :func:`correction_state`)
take a play out of the standings or change its result; :func:`corrected` applies them.

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

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

WIN_POINTS = 3
SHARED_POINTS = 2
DRAW_POINTS = 1
START = 1500.0
K = 32.0


def _name(player: Any) -> str:
    return str(player.get("name")) if isinstance(player, dict) else str(player)


#: Stored names to people, per table: table -> {stored name: the person's name} (the tables' rosters).
Rosters = Mapping[str, Mapping[str, str]]


def person_of(name: str, table: str, people: Mapping[str, str], rosters: Rosters | None = None) -> str:
    """The person a name sent by ``table`` stands for: through the table's roster, then the organiser's
    merges."""
    roster = rosters.get(table) if rosters else None
    if roster:
        name = roster.get(name, name)
    return people.get(name, name)


def as_people(play: dict[str, Any], people: Mapping[str, str], rosters: Rosters | None = None) -> dict[str, Any]:
    """``play`` with each name replaced by its person's (:func:`person_of`): the table's roster says
    "Ana María" is Ana, the organiser merged "Ana M." at another table into Ana: one player. A play naming
    one person twice (two names merged though they played together) keeps its names as sent."""
    table = str(play.get("table", ""))
    if not people and not (rosters and rosters.get(table)):
        return play

    def person(player: Any) -> Any:
        merged = person_of(_name(player), table, people, rosters)
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


@dataclass(frozen=True)
class Scoring:
    """Points per result and the plays a player needs to be ranked (defaults: :data:`POINTS`, everyone)."""

    win: int = WIN_POINTS
    shared: int = SHARED_POINTS
    draw: int = DRAW_POINTS
    loss: int = 0
    min_plays: int = 0

    @property
    def points(self) -> dict[str, int]:
        return {"win": self.win, "shared": self.shared, "draw": self.draw, "loss": self.loss}


@dataclass(frozen=True)
class Season:
    """A named date range, both days included (the league machine's local dates)."""

    name: str
    start: dt.date
    end: dt.date

    def holds(self, play: dict[str, Any]) -> bool:
        """The play finished on a day of this season."""
        return self.start <= finished_day(play) <= self.end


def finished_day(play: dict[str, Any]) -> dt.date:
    """The local date the play finished on."""
    return dt.datetime.fromtimestamp(float(play["finished"])).date()


def current_season(seasons: Sequence[Season], today: dt.date | None = None) -> Season | None:
    """The season ``today`` (default: the local date now) falls in, or None."""
    today = today or dt.date.today()
    return next((s for s in seasons if s.start <= today <= s.end), None)


def in_season(plays: Iterable[dict[str, Any]], season: Season | None) -> list[dict[str, Any]]:
    """The plays of ``season`` (None: every play, all time)."""
    return list(plays) if season is None else [p for p in plays if season.holds(p)]


# -- the organiser's corrections ---------------------------------------------------------------
#: What a correction does: take the play out, count it again, change its result.
VOID, UNVOID, FIX = "void", "unvoid", "fix"


def correction_state(rows: Iterable[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    """Each corrected play's state from the journal of corrections (``rows`` in the order they were made:
    ``play``, ``identity`` (the play's on any table; None: not known), ``what`` (:data:`VOID`,
    :data:`UNVOID`, :data:`FIX`), ``winners`` and ``draw`` for a fix, ``reason``, ``who``, ``at``):
    ``{play id: {"void": bool, "reason": the void's reason or None, "fix": the last fix's row or None,
    "log": [rows]}}``, each state also under its play's identity: a correction follows the play whatever
    table's copy of it counts (a backup restored on another table, a replaced Pi). A void is undone by an
    unvoid; a fix holds until the next fix."""
    state: dict[Any, dict[str, Any]] = {}
    for row in rows:
        identity = row.get("identity")
        key = identity if isinstance(identity, str) and identity else int(row["play"])
        s = state.setdefault(key, {"void": False, "reason": None, "fix": None, "log": []})
        state.setdefault(int(row["play"]), s)
        s["log"].append(row)
        if row["what"] == VOID:
            s["void"], s["reason"] = True, row.get("reason")
        elif row["what"] == UNVOID:
            s["void"], s["reason"] = False, None
        elif row["what"] == FIX:
            s["fix"] = row
    return state


def state_of(play: dict[str, Any], state: Mapping[Any, dict[str, Any]]) -> dict[str, Any] | None:
    """The organiser's corrections of ``play`` (see :func:`correction_state`): by its id, else by its
    identity (another table's copy of it was corrected); None: never corrected."""
    found = state.get(int(play.get("id", -1)))
    identity = play.get("identity")
    if found is None and isinstance(identity, str) and identity:
        found = state.get(identity)
    return found


def corrected(play: dict[str, Any], state: Mapping[Any, dict[str, Any]]) -> dict[str, Any] | None:
    """``play`` as the organiser's corrections leave it: None when void, its result replaced when fixed
    (the fix's winners that are not among its players are ignored), else ``play`` itself."""
    s = state_of(play, state)
    if s is None:
        return play
    if s["void"]:
        return None
    fix = s["fix"]
    if fix is None:
        return play
    names = {_name(p): p for p in play["players"]}
    winners = [names[w] for w in fix.get("winners") or [] if w in names]
    return {**play, "winners": winners, "draw": bool(fix.get("draw")) and bool(winners)}


def apply_corrections(plays: Iterable[dict[str, Any]], state: Mapping[Any, dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays that count, as corrected (see :func:`corrected`)."""
    if not state:
        return list(plays)
    return [c for p in plays if (c := corrected(p, state)) is not None]


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
    def __init__(self, scoring: Scoring) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.ratings: dict[str, float] = {}
        self.scoring = scoring
        self.points = scoring.points

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
            row["points"] += self.points[res]
            self.ratings[name] = self.ratings.get(name, START) + changes[name]

    def copy(self) -> _Table:
        other = _Table(self.scoring)
        other.rows = {name: dict(row) for name, row in self.rows.items()}
        other.ratings = dict(self.ratings)
        return other

    def ranked(self) -> list[dict[str, Any]]:
        rows = [{**row, "rating": round(self.ratings[name], 1)} for name, row in self.rows.items()]
        rows.sort(key=lambda r: (r["plays"] < self.scoring.min_plays, -r["points"], -r["rating"], -r["wins"],
                                 r["player"]))
        rank = 0
        for r in rows:
            ranked = r["plays"] >= self.scoring.min_plays
            rank += ranked
            r["rank"] = rank if ranked else None
        return rows


class Standings:
    """Standings built one play at a time, in the rating's order (:func:`order_key`).

    :meth:`add` refuses a play that sorts before the last one added (ValueError): the ratings would
    depend on the arrival order. Whoever gets plays late builds a new one over the sorted plays.
    """

    def __init__(self, people: Mapping[str, str] | None = None, scoring: Scoring | None = None,
                 rosters: Rosters | None = None) -> None:
        self.scoring = scoring or Scoring()
        self.overall = _Table(self.scoring)
        self.games: dict[str, _Table] = {}
        self.count = 0
        self.last: tuple | None = None
        self.people = dict(people or {})  # names the organiser merged: name -> the person's name
        self.rosters = {t: dict(r) for t, r in (rosters or {}).items()}  # the tables' rosters

    def add(self, play: dict[str, Any]) -> None:
        key = order_key(play)
        if self.last is not None and key < self.last:
            raise ValueError("a play older than the last one added: build the standings again in order")
        self.last = key
        play = as_people(play, self.people, self.rosters)
        self.overall.add(play)
        self.games.setdefault(str(play["game"]), _Table(self.scoring)).add(play)
        self.count += 1

    def copy(self) -> Standings:
        """A copy that can go on counting without changing this one (the names' mappings are shared)."""
        other = Standings.__new__(Standings)
        other.scoring, other.people, other.rosters = self.scoring, self.people, self.rosters
        other.overall = self.overall.copy()
        other.games = {game: table.copy() for game, table in self.games.items()}
        other.count, other.last = self.count, self.last
        return other

    def result(self) -> dict[str, Any]:
        """``{"plays": N, "overall": [row, ...], "games": {game id: [row, ...]}}``, best first.

        A row: ``rank`` (1, 2, ...; None: fewer plays than :attr:`Scoring.min_plays`, listed after the
        ranked), ``player``, ``plays``, ``wins`` (sole and shared), ``shared``, ``draws``, ``points``,
        ``rating`` (rounded to a tenth). Ranked by points, then rating, then wins, then name.
        """
        return {"plays": self.count, "overall": self.overall.ranked(),
                "games": {game: table.ranked() for game, table in sorted(self.games.items())}}


def standings(plays: Iterable[dict[str, Any]], people: Mapping[str, str] | None = None,
              scoring: Scoring | None = None, *, season: Season | None = None,
              corrections: Mapping[Any, dict[str, Any]] | None = None,
              rosters: Rosters | None = None) -> dict[str, Any]:
    """The standings of these plays, in any order (see :meth:`Standings.result`), each name counted as its
    person (the tables' ``rosters``, then the names the organiser merged: ``people``), points and the
    minimum plays of ``scoring``; only the plays of ``season`` (None: all time), as the organiser's
    ``corrections`` (:func:`correction_state`) leave them."""
    built = Standings(people, scoring, rosters)
    for play in sorted(apply_corrections(in_season(plays, season), corrections or {}), key=order_key):
        built.add(play)
    return built.result()
