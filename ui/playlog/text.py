"""What ``tablekeeper stats`` and ``players`` print: the statistics as text tables, a person's line; a
game's title for people. Every sentence is a message, in the command's language.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import available
from ...engine import roster as people
from ...engine.messages import N_, Catalog, Msg, _, listing, translated, word
from ..terminal import cut, ljust, rjust, width

#: The app's player colours' names for people (``tablekeeper players``), translated.
COLOUR_WORDS = (word("colour", "sky blue"), word("colour", "orange"), word("colour", "green"),
                word("colour", "purple"), word("colour", "yellow"), word("colour", "red"), word("colour", "blue"),
                word("colour", "grey"))


def game_name(game: str) -> Msg | str:
    """A game's title for people: the game's own word, translated ("La Posada del Dragón Rojo")."""
    cls = available().get(game)
    return word("game", cls.title) if cls is not None else game


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


#: The columns of the statistics' tables: (heading, the column's least width); the numbers line up
#: under headings of any language (a longer heading widens its column).
PLAYER_COLUMNS = ((word("column", "plays"), 6), (word("column", "wins"), 6), (word("column", "rate"), 6),
                  (word("column", "figure"), 8), (word("column", "min"), 7), (word("column", "turns"), 7),
                  (word("column", "best run"), 9), (word("column", "run"), 5))
OVERALL_COLUMNS = ((word("column", "plays"), 6), (word("column", "wins"), 6), (word("column", "rate"), 6),
                   (word("column", "best run"), 9), (word("column", "run"), 5))
NAME_WIDTH = 16  # a person's name: at most 15 columns shown, and a space


def _table(head: str, indented: bool, columns: Iterable[tuple[str, int]],
           rows: Iterable[tuple[str, Sequence[str]]]) -> list[str]:
    """A text table: ``head`` over the names (``indented``: the heading starts two columns in, as the
    names do; else at the margin, over the indent too), each column right-aligned to its width."""
    columns = list(columns)
    name_w = max(NAME_WIDTH, width(head) + 1 - (0 if indented else 2))
    widths = [max(w, width(label) + 1) for label, w in columns]
    lines = [("  " + ljust(head, name_w) if indented else ljust(head, name_w + 2))
             + "".join(rjust(label, w) for (label, _w), w in zip(columns, widths))]
    for name, values in rows:
        lines.append("  " + ljust(cut(name, NAME_WIDTH - 1), name_w) + "".join(rjust(v, w) for v, w in zip(values, widths)))
    return lines


def stats_text(stats: dict[str, Any], vs: dict[str, Any] | None = None, catalog: Catalog | None = None) -> str:
    """``tablekeeper stats`` as text, in ``catalog``'s language (None: English)."""
    def tr(message: Any) -> str:
        return str(translated(message, catalog))

    lines: list[str] = []
    if vs is not None:
        a, b = vs["a"], vs["b"]
        lines.append(tr(_("{a} against {b}", a=a, b=b)))
        if not vs["games"]:
            lines.append("  " + tr(_("never at the same table")))
        for game, r in vs["games"].items():
            lines.append("  " + tr(_("{game}: {together}; {a} won {a_wins}, {b} won {b_wins}, both {both}, "
                                     "neither {neither}; ahead at the end: {a} {a_ahead}, {b} {b_ahead}",
                                     game=_("all games") if game == "*" else game_name(game),
                                     together=N_("{n} together", "{n} together", r["plays"]), a=a, b=b,
                                     a_wins=r["a_wins"], b_wins=r["b_wins"], both=r["both_won"],
                                     neither=r["neither_won"], a_ahead=r["a_ahead"], b_ahead=r["b_ahead"])))
        return "\n".join(lines)
    if not stats["plays"]:
        return tr(_("no finished plays yet"))
    player_columns = [(tr(label), w) for label, w in PLAYER_COLUMNS]
    for game, g in stats["games"].items():
        best = g["most_wins"]
        lines.append(tr(_("{game}: {plays}, {minutes} min and {turns} turns on average; most wins: {best}",
                          game=game_name(game), plays=N_("{n} play", "{n} plays", g["plays"]),
                          minutes=_num(g["average_minutes"]), turns=_num(g["average_turns"]),
                          best=_("{names} ({wins})", names=", ".join(best["names"]), wins=best["wins"])
                          if best else _("nobody"))))
        rows = [(name, [str(s["plays"]), str(s["wins"]), _pct(s["win_rate"]), _num(s["average_figure"]),
                        _num(s["average_minutes"]), _num(s["average_turns"]), str(s["longest_streak"]),
                        str(s["current_streak"])])
                for name, per in stats["players"].items() if (s := per.get(game)) is not None]
        lines += _table(tr(word("column", "player")), True, player_columns, rows)
        if g["by_character"]:
            lines.append("  " + tr(_("by character: {shares}", shares=listing(
                _("{character} {rate} of {plays}", character=c, rate=_pct(r["win_rate"]), plays=r["plays"])
                for c, r in g["by_character"].items()))))
        lines.append("  " + tr(_("by seat: {shares}", shares=listing(
            _("{seat}: {rate} of {plays}", seat=k, rate=_pct(r["win_rate"]), plays=r["plays"])
            for k, r in g["by_seat"].items()))))
        lines.append("")
    rows = [(name, [str(s["plays"]), str(s["wins"]), _pct(s["win_rate"]), str(s["longest_streak"]),
                    str(s["current_streak"])])
            for name, per in stats["players"].items() for s in (per["*"],)]
    lines += _table(tr(_("all games")), False, [(tr(label), w) for label, w in OVERALL_COLUMNS], rows)
    return "\n".join(lines)


def person_line(p: people.Person) -> Msg:
    """What ``tablekeeper players`` says of a person after their name: colour, usual seat, other names."""
    parts = [_("colour {colour} ({name}), seat {seat}", colour=p.colour, name=COLOUR_WORDS[p.colour],
               seat=p.seat or "-")]
    others = [a for a in p.aliases if a != p.name]
    if others:
        parts.append(_("also stored as {names}", names=", ".join(others)))
    if p.bgg_user:
        parts.append(_("BoardGameGeek: {user}", user=p.bgg_user))
    return listing(parts)
