"""The exports: CSV (one row per player per play), JSON and BoardGameGeek's plays XML, and each read back;
a page of links that hand each play to BG Stats; the games' BoardGameGeek ids.

The files (CSV headers, JSON names, the BoardGameGeek XML, BG Stats' fields) stay English: they are read by
programs. The BG Stats page's words are for a person: in the command's language.
"""
from __future__ import annotations

import csv
import html
import io
import json
import os
import time
import tomllib
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, NamedTuple

from ...engine import Journal, available
from ...engine import records as rec
from ...engine import roster as people
from ...engine.messages import Catalog, Msg, _
from ...engine.records import Play, Seat
from ..terminal import say, warn
from .cache import load_plays, load_roster

JSON_FORMAT = "tablekeeper-plays"
JSON_VERSION = 1
#: The app's player colours (ui.widgets.PLAYER_COLOURS) by name, for play logs.
COLOUR_NAMES = ("sky blue", "orange", "green", "purple", "yellow", "red", "blue", "grey")
CSV_COLUMNS = ("play", "game", "title", "bgg_id", "started", "finished", "minutes", "turns", "draw",
               "player", "stored_name", "seat", "character", "figure", "win", "new")
#: How a CSV text cell (a name, a game, a title, a character) may not start: a spreadsheet takes such a
#: cell for a formula and runs it (OWASP's "CSV injection": =, +, -, @, tab, carriage return). The
#: exporter writes such a cell after a single quote, which spreadsheets show as text; and a cell that
#: starts with a quote itself too, so that :func:`read_csv` gives every text back exactly as it was.
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def bgg_ids(config: str | os.PathLike[str] | None = None, *, catalog: Catalog | None = None
            ) -> dict[str, int | None]:
    """Each game's BoardGameGeek id: its definition's ``bgg_id``, overridden by the config file's
    ``[app.bgg]`` table (``"<game id>" = 12345``). The config file is the one the pods use
    (``--config``, ``$TABLEKEEPER_CONFIG``, ``~/.config/tablekeeper/tablekeeper.toml``,
    ``/etc/tablekeeper/tablekeeper.toml``). ``catalog``: the language of its warnings."""
    ids: dict[str, int | None] = {g: getattr(cls, "bgg_id", None) for g, cls in available().items()}
    from ...hardware import config as hw_config

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


def _title(game: str) -> str:
    """A game's title as the files have it (English: a contract)."""
    cls = available().get(game)
    return cls.title if cls is not None else game


def _named(p: Play, ids: dict[str, int | None]) -> tuple[str, int | None]:
    """The title and BoardGameGeek id a play is exported under: the game its setup says it stands for
    (counters kept for Catan), else its own game's."""
    if p.title is not None:
        return p.title, p.bgg_id
    return _title(p.game), ids.get(p.game)


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
        title, bgg_id = _named(p, ids)
        for s in p.seats:
            w.writerow([p.id, csv_cell(p.game), csv_cell(title), bgg_id or "", _iso(p.started),
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
        game, title = csv_uncell(r["game"]), csv_uncell(r["title"])
        stands_for = (title, int(r["bgg_id"]) if r["bgg_id"] else None) if title != _title(game) else (None, None)
        out.append(Play(pid, game, _from_iso(r["started"]), _from_iso(r["finished"]),
                        int(r["turns"]) if r["turns"] else None, r["draw"] == "1",
                        tuple(Seat(csv_uncell(s["player"]), int(s["seat"]),
                                   float(s["figure"]) if s["figure"] else None, s["win"] == "1",
                                   csv_uncell(s["character"]) or None)
                              for s in sorted(seats, key=lambda s: int(s["seat"]))), *stands_for))
    return out


def json_text(plays: list[Play], stored: dict[tuple[int, int], str], ids: dict[str, int | None],
              new: set[tuple[int, str]]) -> str:
    def one(p: Play) -> dict[str, Any]:
        title, bgg_id = _named(p, ids)
        out = {"id": p.id, "game": p.game, "title": title, "bgg_id": bgg_id, "started": p.started,
               "finished": p.finished, "started_at": _iso(p.started), "finished_at": _iso(p.finished),
               "minutes": round(p.minutes, 1), "turns": p.turns, "draw": p.draw,
               "seats": [{"name": s.name, "stored_name": stored.get((p.id, s.seat), s.name), "seat": s.seat,
                          "figure": s.figure, "win": s.win, "character": s.character, "new": (p.id, s.name) in new}
                         for s in p.seats]}
        if p.title is not None:  # the game the counters were kept for (read back by Play.from_dict)
            out["stands_for"] = {"title": p.title, "bgg_id": p.bgg_id}
        return out

    doc = {"format": JSON_FORMAT, "version": JSON_VERSION, "exported": _iso(time.time()),
           "plays": [one(p) for p in plays]}
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
        title, bgg_id = _named(p, ids)
        item = ET.SubElement(play, "item", {"name": title, "objecttype": "thing", "objectid": str(bgg_id or "")})
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


#: BG Stats' documented way in for another app's play: a link whose ``data`` is the play as URL-encoded
#: JSON; opening it on a phone or tablet with BG Stats shows its import dialog (docs/records.md).
BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html"
#: The fields BG Stats' page documents, of a play, of its ``game`` and of each of its ``players``: an
#: export fills some of them and never writes any other.
BGSTATS_FIELDS = {
    "play": ("board", "durationMin", "comments", "game", "location", "playDate", "players"),
    "game": ("bggId", "highestWins", "name", "noPoints", "sourceGameId"),
    "player": ("startPlayer", "name", "rank", "role", "score", "sourcePlayerId", "winner"),
}


def bgstats_play(p: Play, ids: dict[str, int | None], location: str = "") -> dict[str, Any]:
    """One play in BG Stats' fields (:data:`BGSTATS_FIELDS`): the local date and time it started, its
    length in whole minutes, the game (its title, BoardGameGeek id when known, the game's id as
    ``sourceGameId``, ``noPoints`` when no player has a figure), the location when given, and each player
    (the person's name, also as ``sourcePlayerId``; the first seat as the start player; their figure as
    ``score``; their character as ``role``; ``winner``)."""
    title, bgg_id = _named(p, ids)
    game: dict[str, Any] = {"name": title, "sourceGameId": p.title or p.game,
                            "noPoints": all(s.figure is None for s in p.seats)}
    if bgg_id:
        game["bggId"] = bgg_id
    players = []
    for s in p.seats:
        player: dict[str, Any] = {"name": s.name, "sourcePlayerId": s.name, "startPlayer": s.seat == 1,
                                  "winner": s.win, "role": s.character or ""}
        if s.figure is not None:
            player["score"] = int(s.figure) if float(s.figure).is_integer() else s.figure
        players.append(player)
    play: dict[str, Any] = {"playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(p.started)),
                            "durationMin": round(p.minutes), "game": game, "players": players}
    if location:
        play["location"] = location
    return play


def bgstats_link(p: Play, ids: dict[str, int | None], location: str = "") -> str:
    """The link that hands play ``p`` to BG Stats (:data:`BGSTATS_URL`)."""
    data = json.dumps(bgstats_play(p, ids, location), ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_URL}?data={urllib.parse.quote(data, safe='')}"


def _outcome(p: Play) -> Msg:
    names = ", ".join(p.winners)
    if p.draw:
        return _("draw: {names}", names=names) if names else _("a draw")
    return _("won by {names}", names=names) if names else _("no winner")


def bgstats_html(plays: list[Play], ids: dict[str, int | None], location: str = "",
                 catalog: Catalog | None = None, lang: str = "en") -> str:
    """A page with a link per play (:func:`bgstats_link`), to open on the phone or tablet that has BG
    Stats: each link shows BG Stats' import dialog with that play. Its words in ``catalog``'s language
    (``lang``: its code); every name is escaped."""
    def text(message: Msg | str) -> str:
        return html.escape(say(catalog, message))

    def item(p: Play) -> str:  # markup, not a sentence: the words in it are messages
        name, _bgg = _named(p, ids)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(p.started))
        who = ", ".join(s.name for s in p.seats)
        return (f'<li><a href="{html.escape(bgstats_link(p, ids, location))}">{text(_("add to BG Stats"))}</a> '
                f"{html.escape(when)} · {html.escape(name)} · {html.escape(who)} · {text(_outcome(p))}</li>")

    items = [item(p) for p in plays]
    title = text(_("Plays for BG Stats"))
    intro = text(_("Open this page on the phone or tablet that has BG Stats: each link opens its import dialog "
                   "with that play, to check and save."))
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title></head>\n<body>\n<h1>{title}</h1>\n<p>{intro}</p>\n<ul>\n"
            + "\n".join(items) + "\n</ul>\n</body>\n</html>\n")


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


class ToExport(NamedTuple):
    """What an export writes: the people's plays, the names the journal stores them under ((play, seat)
    → name), each person's first play of each game (:func:`first_plays`), the roster, the games'
    BoardGameGeek ids."""

    plays: list[Play]
    stored: dict[tuple[int, int], str]
    new: set[tuple[int, str]]
    roster: people.Roster
    ids: dict[str, int | None]


def plays_to_export(journal: Journal, state_dir: str | os.PathLike[str] | None = None,
                    config: str | os.PathLike[str] | None = None, *, game: str | None = None,
                    player: str | None = None, catalog: Catalog | None = None) -> ToExport:
    """Every finished play, or a game's, a person's (``tablekeeper export``, the stick's export);
    ``catalog``: the language of what it says on standard error."""
    stored_plays = load_plays(journal, state_dir, catalog=catalog)
    roster, _stored = load_roster(journal, state_dir)
    plays = rec.with_people(stored_plays, roster.person_of)
    new = first_plays(plays)
    stored = {(p.id, s.seat): s.name for p in stored_plays for s in p.seats}
    if game is not None:
        plays = [p for p in plays if p.game == game]
    if player is not None:
        who = roster.person_of(player)
        plays = [p for p in plays if any(s.name == who for s in p.seats)]
    return ToExport(plays, stored, new, roster, bgg_ids(config, catalog=catalog))
