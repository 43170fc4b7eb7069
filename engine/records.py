"""Finished plays and their statistics: who played, who won, with what, how long.

A *play* is one finished stored game reduced to what statistics and play logs
need: when it started and ended, how many turns it took, and for each seat the
player's name, final figure, win and character. :func:`summarize` makes one
from a game's journal entries by replaying them (the rules decide the final
state, as everywhere else); :func:`stored_plays` is the thin reading layer over
the journal, reusing summaries already made (``known``) so that only new or
changed games are replayed.

The statistics (:func:`player_stats`, :func:`game_stats`, :func:`head_to_head`,
:func:`statistics`) are pure functions of a list of plays. Names are whatever
the plays say: map stored names to people first (:func:`with_people`, with a
:class:`~.roster.Roster`) so that a renamed or merged player counts as one.

Nothing here runs on the press path or on resume: the statistics read the
journal only when asked.
"""
from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any, NamedTuple

from .errors import TablekeeperError
from .game import Game
from .journal import GameRecord, Journal
from .match import Match
from .registry import known, make_rules

#: The summary format; a stored summary of another version is made again.
SUMMARY_VERSION = 2  # 2: "draw" is set for a shared victory too


class Seat(NamedTuple):
    """One player's part in a play."""

    name: str  # as the journal stores it (or the person, after with_people)
    seat: int  # 1-based place in the setup's player list (the turn order the table was set up in)
    figure: float | None  # the game's main figure at the end (gold, cash + checks, treasure, stall)
    win: bool
    character: str | None = None


class Play(NamedTuple):
    """One finished stored game (immutable: a tuple, cheap to make by the ten thousand)."""

    id: int  # the journal's game number
    game: str  # the game's id (its definition's ``id``)
    started: float  # seconds since the epoch (UTC)
    finished: float
    turns: int | None  # turns taken (a game that counts rounds instead: its rounds); None if unknown
    draw: bool  # a shared result: several winners, or everyone still in lost at once
    seats: tuple[Seat, ...]
    title: str | None = None  # the game the play stands for, when its setup says (counters kept for Catan)
    bgg_id: int | None = None  # that game's BoardGameGeek id, when its setup says

    @property
    def minutes(self) -> float:
        return max(0.0, self.finished - self.started) / 60.0

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.win]

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "game": self.game, "started": self.started, "finished": self.finished,
               "turns": self.turns, "draw": self.draw,
               "seats": [{"name": s.name, "seat": s.seat, "figure": s.figure, "win": s.win,
                          "character": s.character} for s in self.seats]}
        if self.title is not None:
            out["stands_for"] = {"title": self.title, "bgg_id": self.bgg_id}
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Play:
        """The inverse of :meth:`to_dict`; KeyError/TypeError/ValueError on a malformed object."""
        seats = tuple(Seat(str(s["name"]), int(s["seat"]), None if s.get("figure") is None else float(s["figure"]),
                           bool(s["win"]), None if s.get("character") is None else str(s["character"]))
                      for s in d["seats"])
        turns = d.get("turns")
        title, bgg_id = _stands_for(d.get("stands_for") or {})
        return cls(int(d["id"]), str(d["game"]), float(d["started"]), float(d["finished"]),
                   None if turns is None else int(turns), bool(d.get("draw", False)), seats, title, bgg_id)

    def to_row(self) -> list[Any]:
        """The play as a compact JSON list (the summaries' cache): :meth:`from_row` reads it back."""
        row = [self.id, self.game, self.started, self.finished, self.turns, self.draw, [list(s) for s in self.seats]]
        return row + [self.title, self.bgg_id] if self.title is not None else row

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Play:
        """The inverse of :meth:`to_row` (a row this module wrote: only its shape is checked);
        ValueError/TypeError on a row of another shape."""
        pid, game, started, finished, turns, draw, seats, *stands_for = row
        title, bgg_id = stands_for if stands_for else (None, None)
        return cls(pid, game, started, finished, turns, draw, tuple(Seat(*s) for s in seats), title, bgg_id)


def _stands_for(options: Mapping[str, Any]) -> tuple[str | None, int | None]:
    """The title and BoardGameGeek id a game's setup gives the play (the counters' ``title`` and ``bgg_id``
    options): (None, None) when it names no other game."""
    title = options.get("title")
    if not isinstance(title, str) or not title.strip():
        return None, None
    bgg = options.get("bgg_id")
    return title.strip(), bgg if isinstance(bgg, int) and not isinstance(bgg, bool) and bgg > 0 else None


# -- from the journal -------------------------------------------------------------------
def main_figure(rules: Game, state: dict[str, Any]) -> dict[str, float | None]:
    """Each player's final figure, as the game counts it.

    In order: the game's own ``final_scores(state)`` if it has one; else the final count a game
    makes at its end (``state["final_count"][player]["total"]``: The Bloody Inn's cash + checks
    − penalties); else the player counter the game says decides it (:attr:`Game.main_counter`,
    else its first counter).
    """
    hook = getattr(rules, "final_scores", None)
    if callable(hook):
        return {str(k): (None if v is None else float(v)) for k, v in hook(state).items()}
    count = state.get("final_count")
    if isinstance(count, dict) and count:
        out: dict[str, float | None] = {}
        for p in state["players"]:
            total = count.get(p["name"], {}).get("total") if isinstance(count.get(p["name"]), dict) else None
            out[p["name"]] = float(total) if isinstance(total, (int, float)) else None
        return out
    counter = rules.main_counter if rules.main_counter in rules.player_counters else next(
        iter(rules.player_counters), None)
    return {p["name"]: (float(p["counters"][counter]) if counter in p["counters"] else None)
            for p in state["players"]}


def turns_taken(rules: Game, state: dict[str, Any]) -> int | None:
    """How many turns a finished game took: the game's ``turns_taken(state)`` if it has one, else its
    turn number (``state["turn"]["number"]``), else its round counter (a game played in rounds)."""
    hook = getattr(rules, "turns_taken", None)
    if callable(hook):
        value = hook(state)
        return int(value) if isinstance(value, int) else None
    turn = state.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("number"), int) and not isinstance(turn["number"], bool):
        return int(turn["number"])
    rounds = state.get("table", {}).get("round")
    return int(rounds) if isinstance(rounds, int) and not isinstance(rounds, bool) else None


def summarize(record: GameRecord, entries: Sequence[dict[str, Any]]) -> Play | None:
    """The play a finished stored game was, from its journal entries; None when it is not finished,
    its game is unknown here, or its entries do not replay to a finished game."""
    if record.finished is None or not known(record.game):
        return None
    try:
        rules = make_rules(record.setup)
    except TablekeeperError:
        return None
    match = Match(rules)
    if match.load(list(entries)) < len(entries) or not match.state.get("over"):
        return None
    state = match.state
    figures = main_figure(rules, state)
    winners = set(state.get("winners") or [])
    seats = tuple(Seat(p["name"], i + 1, figures.get(p["name"]), p["name"] in winners,
                       p.get("character") if isinstance(p.get("character"), str) else None)
                  for i, p in enumerate(state["players"]))
    # a shared result: a shared victory (several winners), or everyone still in losing at once
    shared = bool(state.get("draw")) or len(winners) > 1
    options = record.setup.get("options") if isinstance(record.setup, dict) else None
    title, bgg_id = _stands_for(options if isinstance(options, dict) else {})
    return Play(record.id, record.game, float(record.started), float(record.finished), turns_taken(rules, state),
                shared, seats, title, bgg_id)


def stored_plays(journal: Journal, known: Mapping[int, Play] | None = None,
                 on_new: Callable[[Play], None] | None = None,
                 replaying: Callable[[int], None] | None = None) -> list[Play]:
    """Every finished game of the journal as a play, oldest first.

    ``known``: plays summarized before (by game number); one whose game still ended at the same
    moment is reused as it is, the others are replayed from the journal (and given to ``on_new``,
    so that the caller can keep them). A game finishes again at a new moment after an undo of its
    last action, so a reused play is never stale. Only the games table's numbers are read for the
    known ones (no setup decoded). ``replaying(n)`` is told, before, how many games will be replayed
    (a first reading of a large journal takes a while: a few milliseconds a game).
    """
    known = known or {}
    out = []
    missing = []
    for gid, game, finished in journal._rows(
            "SELECT id, game, finished FROM games WHERE finished IS NOT NULL ORDER BY id"):
        old = known.get(gid)
        if old is not None and old.finished == float(finished) and old.game == game:
            out.append(old)
        else:
            missing.append(gid)
    if missing:
        if replaying is not None:
            replaying(len(missing))
        wanted = set(missing)
        for record in journal.games():
            if record.id not in wanted or record.finished is None:
                continue
            play = summarize(record, [entry for _seq, entry in journal.entries(record.id)])
            if play is not None:
                out.append(play)
                if on_new is not None:
                    on_new(play)
    out.sort(key=_by_finish)
    return out


def with_people(plays: Iterable[Play], person: Callable[[str], str]) -> list[Play]:
    """The plays with each stored name replaced by its person's name (``person(stored) -> name``)."""
    plays = list(plays)
    names = {s.name for p in plays for s in p.seats}
    renamed = {n: m for n in names if (m := person(n)) != n}
    if not renamed:
        return plays
    out: list[Play] = []
    append = out.append
    for p in plays:
        seats = p.seats
        for s in seats:
            if s.name in renamed:
                break
        else:
            append(p)
            continue
        append(p._replace(seats=tuple(
            Seat(renamed[s.name], s.seat, s.figure, s.win, s.character) if s.name in renamed else s
            for s in seats)))
    return out


# -- statistics ----------------------------------------------------------------------
def _mean(values: Iterable[float | None]) -> float | None:
    vs = [v for v in values if v is not None]
    return sum(vs) / len(vs) if vs else None


def _rate(wins: int, plays: int) -> float | None:
    return wins / plays if plays else None


def _ordered(plays: Iterable[Play]) -> list[Play]:
    return sorted(plays, key=_by_finish)


_by_finish = attrgetter("finished", "id")


def player_stats(plays: Iterable[Play]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per player, per game (and ``"*"``: all games): plays, wins, win rate, average final figure,
    average length in minutes and in turns, longest and current win streak (in order of finish)."""
    # one pass, in order of finish; per (player, game): plays, wins, figure sum and count, minutes,
    # turns sum and count, current run, longest run
    acc: dict[tuple[str, str], list[float]] = {}
    for play in _ordered(plays):
        minutes = play.minutes
        turns = play.turns
        seen: set[str] = set()
        for seat in play.seats:
            if seat.name in seen:  # two stored names of one person at one table: the play counts once
                continue
            seen.add(seat.name)
            for key in ((seat.name, play.game), (seat.name, "*")):
                a = acc.get(key)
                if a is None:
                    a = acc[key] = [0, 0, 0.0, 0, 0.0, 0, 0, 0, 0]
                a[0] += 1
                a[4] += minutes
                if turns is not None:
                    a[5] += turns
                    a[6] += 1
                if seat.figure is not None:
                    a[2] += seat.figure
                    a[3] += 1
                if seat.win:
                    a[1] += 1
                    a[7] += 1
                    if a[7] > a[8]:
                        a[8] = a[7]
                else:
                    a[7] = 0
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for (name, game), a in sorted(acc.items()):
        n, wins = int(a[0]), int(a[1])
        out.setdefault(name, {})[game] = {
            "plays": n, "wins": wins, "win_rate": wins / n,
            # a figure is in the game's own unit: no average across games
            "average_figure": a[2] / a[3] if a[3] and game != "*" else None,
            "average_minutes": a[4] / n,
            "average_turns": a[5] / a[6] if a[6] else None,
            "longest_streak": int(a[8]), "current_streak": int(a[7]),
        }
    return out


def game_stats(plays: Iterable[Play], player: str | None = None) -> dict[str, dict[str, Any]]:
    """Per game: plays, average length (minutes, turns), the most frequent winner(s), and win rates by
    character (where the players had characters) and by seat — of ``player``'s own seats when given."""
    by: dict[str, list[Play]] = {}
    for play in _ordered(plays):
        by.setdefault(play.game, []).append(play)
    out: dict[str, dict[str, Any]] = {}
    for game, rows in sorted(by.items()):
        wins = Tally(s.name for p in rows for s in p.seats if s.win)
        best = max(wins.values(), default=0)
        chars: dict[str, list[int]] = {}
        seats: dict[int, list[int]] = {}
        for p in rows:
            for s in p.seats:
                if player is not None and s.name != player:
                    continue
                if s.character is not None:
                    c = chars.setdefault(s.character, [0, 0])
                    c[0] += 1
                    c[1] += s.win
                k = seats.setdefault(s.seat, [0, 0])
                k[0] += 1
                k[1] += s.win
        out[game] = {
            "plays": len(rows),
            "average_minutes": _mean(p.minutes for p in rows),
            "average_turns": _mean(p.turns for p in rows),
            "most_wins": {"names": sorted(n for n, w in wins.items() if w == best), "wins": best} if best else None,
            "by_character": {c: {"plays": n, "wins": w, "win_rate": _rate(w, n)} for c, (n, w) in sorted(chars.items())},
            "by_seat": {str(k): {"plays": n, "wins": w, "win_rate": _rate(w, n)} for k, (n, w) in sorted(seats.items())},
        }
    return out


def head_to_head(plays: Iterable[Play], a: str, b: str) -> dict[str, Any]:
    """``a`` against ``b`` over the plays they both sat in: per game and in all (``"*"``): plays
    together, each one's wins, shared wins (both won), and those neither won; and, where both have a
    final figure, how often each finished ahead of the other."""
    out: dict[str, dict[str, int]] = {}
    if a == b:
        return {"a": a, "b": b, "games": {}}
    for play in plays:  # counts only: the order does not matter
        sa = sb = None
        for s in play.seats:
            if s.name == a:
                sa = s
            elif s.name == b:
                sb = s
        if sa is None or sb is None:
            continue
        for key in (play.game, "*"):
            row = out.setdefault(key, {"plays": 0, "a_wins": 0, "b_wins": 0, "both_won": 0, "neither_won": 0,
                                       "a_ahead": 0, "b_ahead": 0})
            row["plays"] += 1
            if sa.win and sb.win:
                row["both_won"] += 1
            elif sa.win:
                row["a_wins"] += 1
            elif sb.win:
                row["b_wins"] += 1
            else:
                row["neither_won"] += 1
            if sa.figure is not None and sb.figure is not None:
                row["a_ahead"] += sa.figure > sb.figure
                row["b_ahead"] += sb.figure > sa.figure
    return {"a": a, "b": b, "games": dict(sorted(out.items()))}


def statistics(plays: Iterable[Play], *, game: str | None = None, player: str | None = None) -> dict[str, Any]:
    """Everything ``tablekeeper stats --json`` shows, over the plays of ``game`` and/or with ``player``
    (None: all)."""
    chosen = [p for p in plays if (game is None or p.game == game)
              and (player is None or any(s.name == player for s in p.seats))]
    players = player_stats(chosen)
    if player is not None:
        players = {player: players[player]} if player in players else {}
    return {"plays": len(chosen), "players": players, "games": game_stats(chosen, player)}
