"""Play records on disk: the summaries' cache, the exports (CSV, JSON, a BoardGameGeek play log),
the statistics' pictures, and the ``stats``, ``export`` and ``players`` commands.

The statistics themselves are pure (engine/records.py); the people are the
journal's roster (engine/roster.py). This module does the files:

* ``plays-cache.json`` in the state folder keeps each finished game's summary
  (its final figures need a replay of the game), so that statistics over
  thousands of stored games read the journal's games table and this file and
  replay only what finished since. It is a cache: lost, damaged or from
  another version, it is made again; a read-only state folder just goes
  without it.
* Every file written goes through :func:`write_atomic` (a temporary file in the
  same folder, fsync, rename, fsync the folder): a USB stick pulled mid-export
  leaves the old file or none under the final name, never half of one.

Every sentence a command prints is a message (engine/messages.py), said in the command's language
(``--lang``, else the system locale: :func:`tablekeeper.ui.cli.catalog_for`); the files written
(CSV headers, JSON names, the BoardGameGeek XML) and ``--json`` stay English: they are read by programs.

Nothing here is imported on the press path or when a game resumes.
"""
from __future__ import annotations

import contextlib
import csv
import gc
import io
import json
import os
import time
import tomllib
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine import Journal, available
from ..engine import records as rec
from ..engine import roster as people
from ..engine.messages import N_, Catalog, Msg, _, listing, translated, word
from ..engine.records import Play, Seat
from .terminal import catalog_for, cut, err, journal_for, json_out, ljust, out, rjust, say, warn, width

CACHE_FILE = "plays-cache.json"
CACHE_FORMAT = 1
#: From how many games to summarize (replay) the command says it is doing so (a few ms each).
SAY_REPLAYS_FROM = 200
JSON_FORMAT = "tablekeeper-plays"
JSON_VERSION = 1
#: The app's player colours (ui.widgets.PLAYER_COLOURS) by name, for play logs.
COLOUR_NAMES = ("sky blue", "orange", "green", "purple", "yellow", "red", "blue", "grey")
#: The same colours' names for people (``tablekeeper players``), translated.
COLOUR_WORDS = (word("colour", "sky blue"), word("colour", "orange"), word("colour", "green"),
                word("colour", "purple"), word("colour", "yellow"), word("colour", "red"), word("colour", "blue"),
                word("colour", "grey"))
CSV_COLUMNS = ("play", "game", "title", "bgg_id", "started", "finished", "minutes", "turns", "draw",
               "player", "stored_name", "seat", "character", "figure", "win", "new")
#: How a CSV text cell (a name, a game, a title, a character) may not start: a spreadsheet takes such a
#: cell for a formula and runs it (OWASP's "CSV injection": =, +, -, @, tab, carriage return). The
#: exporter writes such a cell after a single quote, which spreadsheets show as text; and a cell that
#: starts with a quote itself too, so that :func:`read_csv` gives every text back exactly as it was.
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# -- writing files ------------------------------------------------------------------
def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a power cut or a pulled stick leaves the old file or the new
    one, never half of one (:func:`tablekeeper.engine.backup.write_atomic`; readable by all: exports
    are for other programs)."""
    from ..engine.backup import write_atomic as write

    return write(path, data, mode=0o644)


# -- the plays, with their cache ----------------------------------------------------
def _read_cache(path: Path) -> dict[int, Play]:
    """The cached summaries; {} for a cache that is missing, of another version, or damaged (its
    checksum does not hold). The first line is a header (format, summary version, CRC-32 of the
    rest), the rest a JSON list of plays as :meth:`Play.to_row` makes them."""
    try:
        raw = path.read_bytes()
        head, _, body = raw.partition(b"\n")
        meta = json.loads(head)
        if (meta.get("format") != CACHE_FORMAT or meta.get("summary") != rec.SUMMARY_VERSION
                or meta.get("crc") != zlib.crc32(body)):
            return {}
        plays = (Play.from_row(row) for row in json.loads(body))
        return {p.id: p for p in plays}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def load_plays(journal: Journal, state_dir: str | os.PathLike[str] | None = None, *,
               catalog: Catalog | None = None) -> list[Play]:
    """Every finished stored game as a play (stored names, oldest first), through the cache.
    ``catalog``: the language of what it says on standard error (None: English)."""
    folder = Path(state_dir) if state_dir is not None else journal.dir
    path = folder / CACHE_FILE
    known = _read_cache(path)
    fresh: list[Play] = []

    def say_how_many(n: int) -> None:
        if n >= SAY_REPLAYS_FROM:
            err(catalog, N_("summarizing {n} finished game once (kept in {path} for next time)...",
                            "summarizing {n} finished games once (kept in {path} for next time)...", n,
                            path=str(path)), who="")

    plays = rec.stored_plays(journal, known, fresh.append, say_how_many)
    if (fresh or len(known) != len(plays)) and journal.readonly is None:
        try:
            write_atomic(path, cache_bytes(plays))
        except OSError as e:
            warn(catalog, _("cannot keep the plays' summaries in {path} ({error}); they are made again next time",
                            path=str(path), error=e.strerror or str(e)))
    return plays


def cache_bytes(plays: Iterable[Play]) -> bytes:
    """The summaries' cache file for ``plays`` (see :func:`_read_cache`)."""
    body = json.dumps([p.to_row() for p in plays], separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    head = json.dumps({"format": CACHE_FORMAT, "summary": rec.SUMMARY_VERSION, "crc": zlib.crc32(body)})
    return head.encode("ascii") + b"\n" + body


def people_plays(journal: Journal, state_dir: str | os.PathLike[str] | None = None, *,
                 catalog: Catalog | None = None) -> tuple[list[Play], people.Roster]:
    """The plays with each stored name as its person's (the roster's), and the roster."""
    roster = people.read(journal)  # not load(): names it does not know count as themselves anyway
    return rec.with_people(load_plays(journal, state_dir, catalog=catalog), roster.person_of), roster


def load_roster(journal: Journal, state_dir: str | os.PathLike[str] | None = None
                ) -> tuple[people.Roster, bool]:
    """:func:`engine.roster.load`, with each person it takes in from the stored games given the colour
    the app gave them in their latest game (the settings file's per-game colours), where it did."""
    before = {p.name for p in people.read(journal).people}
    roster, stored = people.load(journal)
    new = [p for p in roster.people if p.name not in before]
    if not new:
        return roster, stored
    from .settings import COLOURS, Settings

    chosen = Settings(Path(state_dir) if state_dir is not None else journal.dir).data.get("colours")
    if not isinstance(chosen, dict):
        return roster, stored
    for person in new:
        for gid in sorted(chosen, key=lambda k: int(k) if str(k).isdigit() else -1, reverse=True):
            game = chosen[gid]
            colour = game.get(person.name) if isinstance(game, dict) else None
            if isinstance(colour, int) and not isinstance(colour, bool) and 0 <= colour < COLOURS:
                person.colour = colour
                break
    return roster, stored


# -- BoardGameGeek ids ----------------------------------------------------------------
def bgg_ids(config: str | os.PathLike[str] | None = None, *, catalog: Catalog | None = None
            ) -> dict[str, int | None]:
    """Each game's BoardGameGeek id: its definition's ``bgg_id``, overridden by the config file's
    ``[app.bgg]`` table (``"<game id>" = 12345``). The config file is the one the pods use
    (``--config``, ``$TABLEKEEPER_CONFIG``, ``~/.config/tablekeeper/tablekeeper.toml``,
    ``/etc/tablekeeper/tablekeeper.toml``). ``catalog``: the language of its warnings."""
    ids: dict[str, int | None] = {g: getattr(cls, "bgg_id", None) for g, cls in available().items()}
    from ..hardware import config as hw_config

    try:
        path = hw_config.find(config)
    except hw_config.ConfigError as e:
        raise SystemExit("tablekeeper: " + say(catalog, e)) from None
    if path is None:
        return ids
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("app", {}).get("bgg", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError) as e:
        warn(catalog, _("{path}: cannot read [app.bgg] ({error}); the games' own BoardGameGeek ids are used",
                        path=str(path), error=str(e)))
        return ids
    if isinstance(table, dict):
        for game, value in table.items():
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                ids[str(game)] = value
            else:
                warn(catalog, _("{path}: [app.bgg] {game} = {value} is not a BoardGameGeek id (a whole number)",
                                path=str(path), game=str(game), value=repr(value)))
    return ids


# -- exports -------------------------------------------------------------------------
def _title(game: str) -> str:
    """A game's title as the files have it (English: a contract)."""
    cls = available().get(game)
    return cls.title if cls is not None else game


def game_name(game: str) -> Msg | str:
    """A game's title for people: the game's own word, translated ("La Posada del Dragón Rojo")."""
    cls = available().get(game)
    return word("game", cls.title) if cls is not None else game


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _from_iso(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _number(x: float | None) -> str:
    if x is None:
        return ""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def first_plays(plays: Iterable[Play]) -> set[tuple[int, str]]:
    """(play, person) of each person's first play of each game: BoardGameGeek's "new"."""
    seen: set[tuple[str, str]] = set()
    out = set()
    for p in sorted(plays, key=lambda p: (p.finished, p.id)):
        for s in p.seats:
            if (p.game, s.name) not in seen:
                seen.add((p.game, s.name))
                out.add((p.id, s.name))
    return out


def csv_cell(text: str) -> str:
    """A text cell as the CSV export writes it: after a single quote when a spreadsheet would run it as a
    formula (:data:`CSV_FORMULA_STARTS`) or when it starts with a quote; as it is otherwise. Only text
    is written so: the numbers the exporter writes (a figure of -2) stay numbers."""
    return "'" + text if text.startswith(CSV_FORMULA_STARTS + ("'",)) else text


def csv_uncell(cell: str) -> str:
    """A text cell of the CSV export as it was before :func:`csv_cell`."""
    return cell[1:] if cell.startswith("'") else cell


class _RowsEndingInLF(io.StringIO):
    """What a ``csv.writer(..., lineterminator="\\r\\n")`` writes, each row ending in ``\\n`` instead.

    The writer quotes a cell holding a character of its line terminator (and Python 3.11's only those):
    with ``\\r\\n`` a cell holding a carriage return or a line feed is quoted, and stays one cell when
    read back, while the file keeps the ``\\n`` line ends it always had."""

    def write(self, row: str) -> int:  # the writer writes each row, its terminator last, in one call
        return super().write(row[:-2] + "\n" if row.endswith("\r\n") else row)


def csv_text(plays: list[Play], stored: dict[tuple[int, int], str], ids: dict[str, int | None],
             new: set[tuple[int, str]]) -> str:
    """One row per player per play. ``stored``: (play, seat) → the name the journal stores. Every text
    cell goes through :func:`csv_cell`: a player called ``=1+1`` is not a formula in a spreadsheet."""
    out = _RowsEndingInLF()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for p in plays:
        for s in p.seats:
            w.writerow([p.id, csv_cell(p.game), csv_cell(_title(p.game)), ids.get(p.game) or "", _iso(p.started),
                        _iso(p.finished), f"{p.minutes:.1f}", "" if p.turns is None else p.turns, int(p.draw),
                        csv_cell(s.name), csv_cell(stored.get((p.id, s.seat), s.name)), s.seat,
                        csv_cell(s.character or ""), _number(s.figure), int(s.win), int((p.id, s.name) in new)])
    return out.getvalue()


def read_csv(text: str) -> list[Play]:
    """Plays back from :func:`csv_text` (people's names; each text cell as it was before :func:`csv_cell`).
    ``text`` as the file holds it: read with ``newline=""``, as the csv module wants (else a carriage
    return in a cell comes back as a line feed)."""
    rows: dict[int, list[dict[str, str]]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        rows.setdefault(int(row["play"]), []).append(row)
    out = []
    for pid, seats in rows.items():
        r = seats[0]
        out.append(Play(pid, csv_uncell(r["game"]), _from_iso(r["started"]), _from_iso(r["finished"]),
                        int(r["turns"]) if r["turns"] else None, r["draw"] == "1",
                        tuple(Seat(csv_uncell(s["player"]), int(s["seat"]),
                                   float(s["figure"]) if s["figure"] else None, s["win"] == "1",
                                   csv_uncell(s["character"]) or None)
                              for s in sorted(seats, key=lambda s: int(s["seat"])))))
    return out


def json_text(plays: list[Play], stored: dict[tuple[int, int], str], ids: dict[str, int | None],
              new: set[tuple[int, str]]) -> str:
    doc = {"format": JSON_FORMAT, "version": JSON_VERSION, "exported": _iso(time.time()), "plays": [
        {"id": p.id, "game": p.game, "title": _title(p.game), "bgg_id": ids.get(p.game), "started": p.started,
         "finished": p.finished, "started_at": _iso(p.started), "finished_at": _iso(p.finished),
         "minutes": round(p.minutes, 1), "turns": p.turns, "draw": p.draw,
         "seats": [{"name": s.name, "stored_name": stored.get((p.id, s.seat), s.name), "seat": s.seat,
                    "figure": s.figure, "win": s.win, "character": s.character, "new": (p.id, s.name) in new}
                   for s in p.seats]}
        for p in plays]}
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def read_json(text: str) -> list[Play]:
    """Plays back from :func:`json_text`; ValueError for a file that is not one (or of a newer version)."""
    doc = json.loads(text)
    if not isinstance(doc, dict) or doc.get("format") != JSON_FORMAT:
        raise ValueError(_("not a tablekeeper plays file"))
    if not isinstance(doc.get("version"), int) or doc["version"] > JSON_VERSION:
        raise ValueError(_("plays file version {version}; this version reads {reads}", version=repr(doc.get("version")),
                           reads=JSON_VERSION))
    return [Play.from_dict(p) for p in doc["plays"]]


def bgg_xml(plays: list[Play], ids: dict[str, int | None], new: set[tuple[int, str]],
            roster: people.Roster | None = None, location: str = "") -> str:
    """The plays as BoardGameGeek's plays export has them (``<plays><play><item/><players>``)."""
    root = ET.Element("plays", {"username": "", "total": str(len(plays)), "page": "1"})
    for p in plays:
        play = ET.SubElement(root, "play", {
            "id": str(p.id), "date": time.strftime("%Y-%m-%d", time.localtime(p.started)), "quantity": "1",
            "length": str(round(p.minutes)), "incomplete": "0", "nowinstats": "0", "location": location})
        item = ET.SubElement(play, "item", {"name": _title(p.game), "objecttype": "thing",
                                            "objectid": str(ids.get(p.game) or "")})
        ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", {"value": "boardgame"})
        players = ET.SubElement(play, "players")
        for s in p.seats:
            person = roster.find(s.name) if roster is not None else None
            ET.SubElement(players, "player", {
                "username": person.bgg_user if person else "", "userid": "0", "name": s.name,
                "startposition": str(s.seat), "color": COLOUR_NAMES[person.colour] if person else "",
                "score": _number(s.figure), "new": str(int((p.id, s.name) in new)), "rating": "0",
                "win": str(int(s.win))})
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def read_bgg(text: str, ids: dict[str, int | None]) -> list[dict[str, Any]]:
    """A BoardGameGeek plays file's plays: ``{"id", "game", "date", "minutes", "location", "players":
    [{"name", "username", "seat", "score", "win", "new"}]}`` (the game by its BoardGameGeek id)."""
    by_id = {v: k for k, v in ids.items() if v}
    out = []
    for play in ET.fromstring(text).iter("play"):
        item = play.find("item")
        objectid = item.get("objectid", "") if item is not None else ""
        out.append({
            "id": int(play.get("id", "0")), "game": by_id.get(int(objectid)) if objectid.isdigit() else None,
            "date": play.get("date"), "minutes": int(play.get("length", "0")), "location": play.get("location", ""),
            "players": [{"name": pl.get("name"), "username": pl.get("username", ""),
                         "seat": int(pl.get("startposition", "0")),
                         "score": float(pl.get("score")) if pl.get("score") else None,  # type: ignore[arg-type]
                         "win": pl.get("win") == "1", "new": pl.get("new") == "1"}
                        for pl in play.iter("player")]})
    return out


# -- pictures ------------------------------------------------------------------------
def plot(plays: list[Play], path: str | os.PathLike[str], catalog: Catalog | None = None) -> None:
    """Win-rate bars per player and each game's length over time, in one PNG (matplotlib), its words in
    ``catalog``'s language (None: English).

    ImportError when matplotlib is not installed (it is optional on the Pi)."""
    import importlib

    # imported by name: matplotlib is optional (the dev extra), and the types check without it
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")
    dates: Any = importlib.import_module("matplotlib.dates")

    def tr(message: Msg) -> str:
        return translated(message, catalog)

    players = rec.player_stats(plays)
    overall = sorted(((n, g["*"]) for n, g in players.items()), key=lambda x: (-(x[1]["win_rate"] or 0), x[0]))
    fig, (bars, lengths) = plt.subplots(2, 1, figsize=(8, 8), constrained_layout=True)
    names = [n for n, _s in overall]
    rates = [100 * (s["win_rate"] or 0) for _n, s in overall]
    bars.barh(names[::-1], rates[::-1], color="#56b4e9")
    for y, (rate, (_n, s)) in enumerate(zip(rates[::-1], overall[::-1])):
        bars.text(rate + 1, y, tr(_("{rate} of {plays}", rate=_pct(rate / 100), plays=s["plays"])), va="center",
                  fontsize=8)
    bars.set_xlim(0, 110)
    bars.set_xlabel(tr(_("win rate (%)")))
    bars.set_title(tr(_("Who wins")))
    for game in sorted({p.game for p in plays}):
        rows = [p for p in plays if p.game == game]
        lengths.plot([datetime.fromtimestamp(p.started) for p in rows], [p.minutes for p in rows], marker="o",
                     markersize=3, linewidth=1, label=translated(game_name(game), catalog))
    lengths.set_ylabel(tr(_("minutes")))
    lengths.set_title(tr(_("How long a play takes")))
    if plays:
        lengths.legend(fontsize=8)
    lengths.xaxis.set_major_formatter(dates.DateFormatter("%Y-%m-%d"))
    lengths.tick_params(axis="x", labelrotation=30)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    write_atomic(path, buf.getvalue())


# -- the commands -------------------------------------------------------------------
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


def _with_journal(fn: Callable[[Any, Journal], int]) -> Callable[[Any], int]:
    def run(args: Any) -> int:
        with journal_for(args) as journal:
            return fn(args, journal)
    return run


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while tens of thousands of plays are made: they are tuples of
    text and numbers (no cycles), and the collector's passes over them cost a third of the time."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class UnknownName(LookupError):
    """A player name that no stored play and no roster entry knows."""


def statistics(journal: Journal, state_dir: str | os.PathLike[str] | None = None, *, game: str | None = None,
               player: str | None = None, vs: tuple[str, str] | None = None,
               catalog: Catalog | None = None) -> tuple[dict[str, Any], list[Play]]:
    """What ``tablekeeper stats --json`` prints: :func:`engine.records.statistics` over the people's
    plays (names as the roster says), and ``"vs"``: the head-to-head of two players if asked; with
    the plays it counted (the pictures draw them).
    A name may be a person's or any name their games are stored under; UnknownName for one that
    nobody has (a stats screen can call this as the command does). ``catalog``: the language of
    what it says on standard error while it reads."""
    with _collector_paused():
        plays, roster = people_plays(journal, state_dir, catalog=catalog)
        names = {s.name for p in plays for s in p.seats}
        for name in ([player] if player is not None else []) + list(vs or ()):
            if roster.find(name) is None and name not in names:
                raise UnknownName(name)
        chosen = [p for p in plays if game is None or p.game == game]
        out = rec.statistics(chosen, player=None if player is None else roster.person_of(player))
        if vs is not None:
            out["vs"] = rec.head_to_head(chosen, roster.person_of(vs[0]), roster.person_of(vs[1]))
        if player is not None:
            who = roster.person_of(player)
            chosen = [p for p in chosen if any(s.name == who for s in p.seats)]
        return out, chosen


@_with_journal
def cmd_stats(args: Any, journal: Journal) -> int:
    catalog = catalog_for(args)
    if args.game is not None and args.game not in available():
        err(args, _("unknown game {game} (games: {games})", game=repr(args.game), games=", ".join(available())))
        return 2
    try:
        stats, chosen = statistics(journal, args.state_dir, game=args.game, player=args.player,
                                   vs=(args.vs[0], args.vs[1]) if args.vs else None, catalog=catalog)
    except UnknownName as e:
        err(args, _("nobody called {name} has finished a play", name=repr(e.args[0])))
        return 2
    if args.json:
        json_out(stats, 2)
    else:
        out(catalog, stats_text(stats, stats.get("vs"), catalog))
    if args.plot:
        try:
            plot(chosen, args.plot, catalog)
        except ImportError:
            err(args, _("--plot needs matplotlib, which is not installed here (pip install matplotlib); "
                           "nothing was drawn"))
            return 1
    return 0


@_with_journal
def cmd_export(args: Any, journal: Journal) -> int:
    catalog = catalog_for(args)
    stored_plays = load_plays(journal, args.state_dir, catalog=catalog)
    roster, _stored = load_roster(journal, args.state_dir)
    plays = rec.with_people(stored_plays, roster.person_of)
    new = first_plays(plays)
    stored = {(p.id, s.seat): s.name for p in stored_plays for s in p.seats}
    if args.game is not None:
        plays = [p for p in plays if p.game == args.game]
    if args.player is not None:
        who = roster.person_of(args.player)
        plays = [p for p in plays if any(s.name == who for s in p.seats)]
    ids = bgg_ids(args.config, catalog=catalog)
    if args.csv:
        path, body = args.csv, csv_text(plays, stored, ids, new)
    elif args.json:
        path, body = args.json, json_text(plays, stored, ids, new)
    else:
        path, body = args.bgg, bgg_xml(plays, ids, new, roster, args.location)
        missing = sorted({p.game for p in plays if not ids.get(p.game)})
        if missing:
            warn(catalog, N_("no BoardGameGeek id for {games}; give it in the config file's [app.bgg] table",
                             "no BoardGameGeek ids for {games}; give them in the config file's [app.bgg] table",
                             len(missing), games=", ".join(missing)))
    try:
        write_atomic(path, body.encode("utf-8"))
    except OSError as e:
        err(args, _("cannot write {path}: {error} (no file was left half-written)", path=str(path),
                       error=e.strerror or str(e)))
        return 1
    out(args, N_("{n} play written to {path}", "{n} plays written to {path}", len(plays), path=str(path)))
    return 0


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


@_with_journal
def cmd_players(args: Any, journal: Journal) -> int:
    roster, stored = load_roster(journal, args.state_dir)
    what = args.players_command or "list"
    try:
        if what == "add":
            roster.add(args.name, args.colour, args.seat, args.bgg_user or "")
        elif what == "set":
            roster.update(args.name, colour=args.colour, seat=args.seat, bgg_user=args.bgg_user)
        elif what == "rename":
            roster.rename(args.old, args.new)
        elif what == "merge":
            roster.merge(args.keep, args.other, people.stored_players(journal))
        if what != "list" or not stored:
            if journal.readonly is None and roster.read_only is None:
                people.save(journal, roster)
            elif what != "list":
                why = roster.read_only or _("{dir} cannot be written ({reason})", dir=str(journal.dir),
                                            reason=journal.readonly)
                err(args, _("{why}; nothing was changed", why=why))
                return 1
    except people.RosterError as e:
        err(args, e)
        return 2
    if getattr(args, "json", False):
        json_out({"people": [p.to_dict() for p in roster.people]}, 2)
    elif what == "list":
        for p in roster.people:
            out(args, ljust(p.name, 20) + " " + say(args, person_line(p)))
    return 0


def add_parsers(sub: Any) -> None:
    """``stats``, ``export`` and ``players`` on the command's subparsers."""
    s = sub.add_parser("stats", help="statistics of the finished plays: wins, figures, lengths, streaks")
    s.add_argument("--json", action="store_true")
    s.add_argument("--game", default=None, help="one game's plays only (its id, as `tablekeeper games` lists it)")
    s.add_argument("--player", default=None, help="one player's plays only")
    s.add_argument("--vs", nargs=2, metavar=("A", "B"), default=None, help="head-to-head of two players")
    s.add_argument("--plot", metavar="FILE.png", default=None, help="also draw the win rates and lengths "
                   "(needs matplotlib)")
    s.set_defaults(func=cmd_stats)

    e = sub.add_parser("export", help="write every finished play to a file: CSV, JSON or a BoardGameGeek play log")
    fmt = e.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", metavar="FILE", default=None, help="one row per player per play")
    fmt.add_argument("--json", metavar="FILE", default=None)
    fmt.add_argument("--bgg", metavar="FILE", default=None, help="BoardGameGeek's plays XML")
    fmt.add_argument("--stick", action="store_true", help="the plays (CSV, JSON, BoardGameGeek) and a "
                     "backup of everything onto the USB stick")
    e.add_argument("--game", default=None)
    e.add_argument("--player", default=None)
    e.add_argument("--location", default="", help="where the plays took place (BoardGameGeek's location)")
    e.add_argument("--config", default=None, metavar="PATH", help="the TOML config whose [app.bgg] table "
                   "overrides the games' BoardGameGeek ids")
    e.set_defaults(func=cmd_export)  # ui/backups.py takes --stick over

    p = sub.add_parser("players", help="the roster: players as people (list, add, set, rename, merge)")
    p.add_argument("--json", action="store_true")
    psub = p.add_subparsers(dest="players_command")
    psub.add_parser("list", help="everyone, with colour, usual seat and the names their games are stored under")
    for name, text in (("add", "a new player"), ("set", "change a player's colour, usual seat or BGG name")):
        a = psub.add_parser(name, help=text)
        a.add_argument("name")
        a.add_argument("--colour", type=int, default=None, help="0–7, the app's player colours")
        a.add_argument("--seat", type=int, default=None, help="the seat (pod) they usually take, 1–8")
        a.add_argument("--bgg-user", default=None, help="their BoardGameGeek user name")
    r = psub.add_parser("rename", help="call a player something else; their stored games follow")
    r.add_argument("old")
    r.add_argument("new")
    m = psub.add_parser("merge", help="two names are one person: OTHER's games become KEEP's")
    m.add_argument("keep")
    m.add_argument("other")
    p.set_defaults(func=cmd_players)
