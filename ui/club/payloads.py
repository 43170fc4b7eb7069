"""What the table publishes, built: the ``live`` message of a game and the ``plays`` message of a finished one.

:func:`live_payload` builds ``live`` from an owner's snapshot; without an owner, :class:`JournalLive`
replays the journal's newest game as it grows (through the engine's reader of journal rows).
"""
from __future__ import annotations

from typing import Any

from ...engine.journal_rows import JournalRows


def live_payload(table: str, journal_id: str | None, snap_table: Any, at: float) -> dict[str, Any]:
    """The ``live`` message from an owner's :class:`~tablekeeper.ui.controller.Table` (None: no game)."""
    if snap_table is None:
        return {"table": table, "at": at, "journal": journal_id, "game_no": None, "game": None}
    from ..controller import main_counter

    return live_body(table, journal_id, snap_table.game_id, snap_table.game, snap_table.rules, snap_table.state,
                 len(snap_table.done), at, main_counter(snap_table.rules))


def live_body(table: str, journal_id: str | None, game_no: int, game: str, rules: Any, state: dict[str, Any],
              actions: int, at: float, main: str | None) -> dict[str, Any]:
    """The ``live`` message of a game in ``state`` after ``actions`` actions, its ``main`` counter named."""
    turn = state.get("turn")
    return {
        "table": table, "at": at, "journal": journal_id, "game_no": game_no, "game": game,
        "title": str(getattr(rules, "title", "") or game),
        "players": [{"name": p["name"], "counters": dict(p.get("counters", {})), "out": bool(p.get("out", False)),
                     **({"character": p["character"]} if isinstance(p.get("character"), str) else {})}
                    for p in state["players"]],
        "main_counter": main,
        "turn": turn.get("player") if isinstance(turn, dict) else None,
        "table_counters": dict(state.get("table", {})),
        "over": bool(state.get("over")), "winners": list(state.get("winners") or []),
        "draw": bool(state.get("draw")), "actions": actions,
    }


def play_payload(table: str, journal_id: str, game_no: int, game: str, setup: dict[str, Any], started: float,
                 finished: float, result: dict[str, Any] | None, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``plays`` message of a finished game, in the names of ``tablekeeper replay``'s JSON and of the
    journal's games table: ``players`` in seat order, each with ``name``, ``seat``, ``figure`` (the game's
    main figure at the end), ``win``, ``counters``, ``out`` and ``character``; ``winners``, ``draw``,
    ``turns``, ``result`` (what the journal stored), ``started``/``finished`` (seconds since the epoch),
    ``identity`` (the game's on any table) and ``actions`` (how many it ended with).

    The rules replay the entries; a game unknown here keeps the stored result and the setup's names.
    """
    from ...engine.backup import game_identity
    from ...engine.match import Match
    from ...engine.records import main_figure, turns_taken
    from ...engine.registry import make_rules

    # ``identity``: the same game on any table (a backup restored elsewhere): the league counts it once.
    # ``actions``: how many it ended with; an action after them at the league is an undo that took it back.
    body: dict[str, Any] = {"table": table, "journal": journal_id, "game_no": game_no, "game": game,
                            "identity": game_identity(game, setup, started),
                            "started": started, "finished": finished, "result": result, "actions": len(entries)}
    try:
        rules = make_rules(setup)
        match = Match(rules)
        if match.load(list(entries)) < len(entries) or not match.state.get("over"):
            raise ValueError("does not replay to its end")
    except Exception:  # an unknown or changed game: what the journal stored is the play
        winners = [str(w) for w in (result or {}).get("winners") or []]
        body.update(players=[{"name": str(n), "seat": i + 1, "figure": None, "win": str(n) in winners}
                             for i, n in enumerate(setup.get("players") or [])],
                    winners=winners, draw=bool((result or {}).get("draw")), turns=None)
        return body
    state = match.state
    figures = main_figure(rules, state)
    winners = [str(w) for w in state.get("winners") or []]
    body.update(
        players=[{"name": p["name"], "seat": i + 1, "figure": figures.get(p["name"]), "win": p["name"] in winners,
                  "counters": dict(p.get("counters", {})), "out": bool(p.get("out", False)),
                  "character": p.get("character") if isinstance(p.get("character"), str) else None}
                 for i, p in enumerate(state["players"])],
        winners=winners, draw=bool(state.get("draw")), turns=turns_taken(rules, state),
        table_counters=dict(state.get("table", {})),
    )
    return body


class JournalLive:
    """Without an owner: the ``live`` message of the journal's newest game, replayed incrementally (only
    the actions committed since the last look are applied)."""

    def __init__(self) -> None:
        self._match: tuple[int, Any, int] | None = None  # (game, Match, actions applied)

    def payload(self, rows: JournalRows | None, table: str, journal_id: str | None,
                at: float) -> tuple[Any, dict[str, Any]] | None:
        """(what identifies it, the message) of the newest game; None when there is none to show."""
        from ...engine.match import Match
        from ...engine.registry import make_rules
        from ..controller import main_counter

        read = rows.newest_game() if rows is not None else None
        if rows is None or read is None or read.record is None:
            return None
        gid = read.id
        if self._match is None or self._match[0] != gid:
            try:
                match = Match(make_rules(read.record.setup))
            except Exception:
                return None
            self._match = (gid, match, 0)
        _gid, match, applied = self._match
        for _seq, entry, _at in rows.actions(gid, since=applied).sound:
            try:
                match.replay(entry)
            except Exception:
                break
            applied += 1
        self._match = (gid, match, applied)
        key = ("journal", gid, applied)
        return key, live_body(table, journal_id, gid, read.record.game, match.rules, match.state, len(match.done),
                              at, main_counter(match.rules))


def roster_payload(table: str, journal_id: str | None, stored: str, at: float) -> dict[str, Any]:
    """The ``roster`` message from the journal's stored roster (its JSON, engine/roster.py): the people
    whose stored names are more than their own name, each with every name that is theirs. ValueError
    when the stored roster does not decode (or is a newer version's)."""
    from ...engine.roster import Roster

    roster = Roster.from_json(stored)
    people = [{"name": p.name, "aliases": list(p.aliases)} for p in roster.people
              if any(a != p.name for a in p.aliases)]
    return {"table": table, "journal": journal_id, "at": at, "people": people}
