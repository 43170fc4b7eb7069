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

Nothing here is imported on the press path or when a game resumes.
"""
from __future__ import annotations

import contextlib
import csv
import gc
import io
import json
import os
import sys
import time
import tomllib
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine import Journal, available
from ..engine import records as rec
from ..engine import roster as people
from ..engine.records import Play, Seat

CACHE_FILE = "plays-cache.json"
CACHE_FORMAT = 1
#: From how many games to summarize (replay) the command says it is doing so (a few ms each).
SAY_REPLAYS_FROM = 200
JSON_FORMAT = "tablekeeper-plays"
JSON_VERSION = 1
#: The app's player colours (ui.widgets.PLAYER_COLOURS) by name, for play logs.
COLOUR_NAMES = ("sky blue", "orange", "green", "purple", "yellow", "red", "blue", "grey")
CSV_COLUMNS = ("play", "game", "title", "bgg_id", "started", "finished", "minutes", "turns", "draw",
               "player", "stored_name", "seat", "character", "figure", "win", "new")


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


def load_plays(journal: Journal, state_dir: str | os.PathLike[str] | None = None) -> list[Play]:
    """Every finished stored game as a play (stored names, oldest first), through the cache."""
    folder = Path(state_dir) if state_dir is not None else journal.dir
    path = folder / CACHE_FILE
    known = _read_cache(path)
    fresh: list[Play] = []

    def say_how_many(n: int) -> None:
        if n >= SAY_REPLAYS_FROM:
            print(f"summarizing {n} finished game(s) once (kept in {path} for next time)...", file=sys.stderr,
                  flush=True)

    plays = rec.stored_plays(journal, known, fresh.append, say_how_many)
    if (fresh or len(known) != len(plays)) and journal.readonly is None:
        try:
            write_atomic(path, cache_bytes(plays))
        except OSError as e:
            print(f"warning: cannot keep the plays' summaries in {path} ({e.strerror or e}); "
                  "they are made again next time", file=sys.stderr)
    return plays


def cache_bytes(plays: Iterable[Play]) -> bytes:
    """The summaries' cache file for ``plays`` (see :func:`_read_cache`)."""
    body = json.dumps([p.to_row() for p in plays], separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    head = json.dumps({"format": CACHE_FORMAT, "summary": rec.SUMMARY_VERSION, "crc": zlib.crc32(body)})
    return head.encode("ascii") + b"\n" + body


def people_plays(journal: Journal, state_dir: str | os.PathLike[str] | None = None
                 ) -> tuple[list[Play], people.Roster]:
    """The plays with each stored name as its person's (the roster's), and the roster."""
    roster = people.read(journal)  # not load(): names it does not know count as themselves anyway
    return rec.with_people(load_plays(journal, state_dir), roster.person_of), roster


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
def bgg_ids(config: str | os.PathLike[str] | None = None) -> dict[str, int | None]:
    """Each game's BoardGameGeek id: its definition's ``bgg_id``, overridden by the config file's
    ``[app.bgg]`` table (``"<game id>" = 12345``). The config file is the one the pods use
    (``--config``, ``$TABLEKEEPER_CONFIG``, ``~/.config/tablekeeper/tablekeeper.toml``,
    ``/etc/tablekeeper/tablekeeper.toml``)."""
    ids: dict[str, int | None] = {g: getattr(cls, "bgg_id", None) for g, cls in available().items()}
    from ..hardware import config as hw_config

    try:
        path = hw_config.find(config)
    except hw_config.ConfigError as e:
        raise SystemExit(f"tablekeeper: {e}") from None
    if path is None:
        return ids
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("app", {}).get("bgg", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError) as e:
        print(f"warning: {path}: cannot read [app.bgg] ({e}); the games' own BoardGameGeek ids are used",
              file=sys.stderr)
        return ids
    if isinstance(table, dict):
        for game, value in table.items():
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                ids[str(game)] = value
            else:
                print(f"warning: {path}: [app.bgg] {game} = {value!r} is not a BoardGameGeek id (a whole number)",
                      file=sys.stderr)
    return ids


# -- exports -------------------------------------------------------------------------
def _title(game: str) -> str:
    cls = available().get(game)
    return cls.title if cls is not None else game


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


def csv_text(plays: list[Play], stored: dict[tuple[int, int], str], ids: dict[str, int | None],
             new: set[tuple[int, str]]) -> str:
    """One row per player per play. ``stored``: (play, seat) → the name the journal stores."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for p in plays:
        for s in p.seats:
            w.writerow([p.id, p.game, _title(p.game), ids.get(p.game) or "", _iso(p.started), _iso(p.finished),
                        f"{p.minutes:.1f}", "" if p.turns is None else p.turns, int(p.draw), s.name,
                        stored.get((p.id, s.seat), s.name), s.seat, s.character or "", _number(s.figure),
                        int(s.win), int((p.id, s.name) in new)])
    return out.getvalue()


def read_csv(text: str) -> list[Play]:
    """Plays back from :func:`csv_text` (people's names)."""
    rows: dict[int, list[dict[str, str]]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        rows.setdefault(int(row["play"]), []).append(row)
    out = []
    for pid, seats in rows.items():
        r = seats[0]
        out.append(Play(pid, r["game"], _from_iso(r["started"]), _from_iso(r["finished"]),
                        int(r["turns"]) if r["turns"] else None, r["draw"] == "1",
                        tuple(Seat(s["player"], int(s["seat"]), float(s["figure"]) if s["figure"] else None,
                                   s["win"] == "1", s["character"] or None)
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
        raise ValueError("not a tablekeeper plays file")
    if not isinstance(doc.get("version"), int) or doc["version"] > JSON_VERSION:
        raise ValueError(f"plays file version {doc.get('version')!r}; this version reads {JSON_VERSION}")
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
def plot(plays: list[Play], path: str | os.PathLike[str]) -> None:
    """Win-rate bars per player and each game's length over time, in one PNG (matplotlib).

    ImportError when matplotlib is not installed (it is optional on the Pi)."""
    import importlib

    # imported by name: matplotlib is optional (the dev extra), and the types check without it
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")
    dates: Any = importlib.import_module("matplotlib.dates")

    players = rec.player_stats(plays)
    overall = sorted(((n, g["*"]) for n, g in players.items()), key=lambda x: (-(x[1]["win_rate"] or 0), x[0]))
    fig, (bars, lengths) = plt.subplots(2, 1, figsize=(8, 8), constrained_layout=True)
    names = [n for n, _s in overall]
    rates = [100 * (s["win_rate"] or 0) for _n, s in overall]
    bars.barh(names[::-1], rates[::-1], color="#56b4e9")
    for y, (rate, (_n, s)) in enumerate(zip(rates[::-1], overall[::-1])):
        bars.text(rate + 1, y, f"{rate:.0f}% of {s['plays']}", va="center", fontsize=8)
    bars.set_xlim(0, 110)
    bars.set_xlabel("win rate (%)")
    bars.set_title("Who wins")
    for game in sorted({p.game for p in plays}):
        rows = [p for p in plays if p.game == game]
        lengths.plot([datetime.fromtimestamp(p.started) for p in rows], [p.minutes for p in rows], marker="o",
                     markersize=3, linewidth=1, label=_title(game))
    lengths.set_ylabel("minutes")
    lengths.set_title("How long a play takes")
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


def stats_text(stats: dict[str, Any], vs: dict[str, Any] | None = None) -> str:
    lines: list[str] = []
    if vs is not None:
        a, b = vs["a"], vs["b"]
        lines.append(f"{a} against {b}")
        if not vs["games"]:
            lines.append("  never at the same table")
        for game, r in vs["games"].items():
            label = "all games" if game == "*" else _title(game)
            lines.append(f"  {label}: {r['plays']} together; {a} won {r['a_wins']}, {b} won {r['b_wins']}, "
                         f"both {r['both_won']}, neither {r['neither_won']}; ahead at the end: "
                         f"{a} {r['a_ahead']}, {b} {r['b_ahead']}")
        return "\n".join(lines)
    if not stats["plays"]:
        return "no finished plays yet"
    for game, g in stats["games"].items():
        best = g["most_wins"]
        lines.append(f"{_title(game)}: {g['plays']} plays, {_num(g['average_minutes'])} min and "
                     f"{_num(g['average_turns'])} turns on average; most wins: "
                     + (f"{', '.join(best['names'])} ({best['wins']})" if best else "nobody"))
        head = f"  {'player':<16}{'plays':>6}{'wins':>6}{'rate':>6}{'figure':>8}{'min':>7}{'turns':>7}" \
               f"{'best run':>9}{'run':>5}"
        lines.append(head)
        for name, per in stats["players"].items():
            s = per.get(game)
            if s is None:
                continue
            lines.append(f"  {name[:15]:<16}{s['plays']:>6}{s['wins']:>6}{_pct(s['win_rate']):>6}"
                         f"{_num(s['average_figure']):>8}{_num(s['average_minutes']):>7}{_num(s['average_turns']):>7}"
                         f"{s['longest_streak']:>9}{s['current_streak']:>5}")
        if g["by_character"]:
            lines.append("  by character: " + ", ".join(f"{c} {_pct(r['win_rate'])} of {r['plays']}"
                                                       for c, r in g["by_character"].items()))
        lines.append("  by seat: " + ", ".join(f"{k}: {_pct(r['win_rate'])} of {r['plays']}"
                                              for k, r in g["by_seat"].items()))
        lines.append("")
    lines.append(f"{'all games':<18}{'plays':>6}{'wins':>6}{'rate':>6}{'best run':>9}{'run':>5}")
    for name, per in stats["players"].items():
        s = per["*"]
        lines.append(f"  {name[:15]:<16}{s['plays']:>6}{s['wins']:>6}{_pct(s['win_rate']):>6}"
                     f"{s['longest_streak']:>9}{s['current_streak']:>5}")
    return "\n".join(lines)


def _open(args: Any) -> Journal:
    return Journal(args.state_dir)


def _say(journal: Journal) -> None:
    for w in journal.take_warnings():
        print(f"warning: {w}", file=sys.stderr)


def _with_journal(fn: Callable[[Any, Journal], int]) -> Callable[[Any], int]:
    def run(args: Any) -> int:
        journal = _open(args)
        try:
            _say(journal)
            return fn(args, journal)
        finally:
            _say(journal)
            journal.close()
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
               player: str | None = None, vs: tuple[str, str] | None = None) -> tuple[dict[str, Any], list[Play]]:
    """What ``tablekeeper stats --json`` prints: :func:`engine.records.statistics` over the people's
    plays (names as the roster says), and ``"vs"``: the head-to-head of two players if asked; with
    the plays it counted (the pictures draw them).
    A name may be a person's or any name their games are stored under; UnknownName for one that
    nobody has (a stats screen can call this as the command does)."""
    with _collector_paused():
        plays, roster = people_plays(journal, state_dir)
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
    if args.game is not None and args.game not in available():
        print(f"tablekeeper stats: unknown game {args.game!r} (games: {', '.join(available())})", file=sys.stderr)
        return 2
    try:
        stats, chosen = statistics(journal, args.state_dir, game=args.game, player=args.player,
                                   vs=(args.vs[0], args.vs[1]) if args.vs else None)
    except UnknownName as e:
        print(f"tablekeeper stats: nobody called {e.args[0]!r} has finished a play", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        print(stats_text(stats, stats.get("vs")))
    if args.plot:
        try:
            plot(chosen, args.plot)
        except ImportError:
            print("tablekeeper stats: --plot needs matplotlib, which is not installed here "
                  "(pip install matplotlib); nothing was drawn", file=sys.stderr)
            return 1
    return 0


def _export(args: Any) -> int:
    """``export --stick`` writes the plays and a backup to the stick (ui/backups.py); else one file."""
    if getattr(args, "stick", False):
        from .backups import cmd_export_stick

        return cmd_export_stick(args)
    return cmd_export(args)


@_with_journal
def cmd_export(args: Any, journal: Journal) -> int:
    stored_plays = load_plays(journal, args.state_dir)
    roster, _stored = load_roster(journal, args.state_dir)
    plays = rec.with_people(stored_plays, roster.person_of)
    new = first_plays(plays)
    stored = {(p.id, s.seat): s.name for p in stored_plays for s in p.seats}
    if args.game is not None:
        plays = [p for p in plays if p.game == args.game]
    if args.player is not None:
        who = roster.person_of(args.player)
        plays = [p for p in plays if any(s.name == who for s in p.seats)]
    ids = bgg_ids(args.config)
    if args.csv:
        path, body = args.csv, csv_text(plays, stored, ids, new)
    elif args.json:
        path, body = args.json, json_text(plays, stored, ids, new)
    else:
        path, body = args.bgg, bgg_xml(plays, ids, new, roster, args.location)
        missing = sorted({p.game for p in plays if not ids.get(p.game)})
        if missing:
            print(f"warning: no BoardGameGeek id for {', '.join(missing)}; give it in the config file's [app.bgg] "
                  "table", file=sys.stderr)
    try:
        write_atomic(path, body.encode("utf-8"))
    except OSError as e:
        print(f"tablekeeper export: cannot write {path}: {e.strerror or e} (no file was left half-written)",
              file=sys.stderr)
        return 1
    print(f"{len(plays)} play(s) written to {path}")
    return 0


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
                why = roster.read_only or f"{journal.dir} cannot be written ({journal.readonly})"
                print(f"tablekeeper players: {why}; nothing was changed", file=sys.stderr)
                return 1
    except people.RosterError as e:
        print(f"tablekeeper players: {e}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps({"people": [p.to_dict() for p in roster.people]}, ensure_ascii=False, indent=2))
    elif what == "list":
        for p in roster.people:
            others = [a for a in p.aliases if a != p.name]
            print(f"{p.name:<20} colour {p.colour} ({COLOUR_NAMES[p.colour]}), seat {p.seat or '-'}"
                  + (f", also stored as {', '.join(others)}" if others else "")
                  + (f", BoardGameGeek: {p.bgg_user}" if p.bgg_user else ""))
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
    e.set_defaults(func=_export)

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
