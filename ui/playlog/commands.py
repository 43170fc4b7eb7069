"""The ``stats``, ``export`` and ``players`` commands (``tablekeeper --help``; docs/records.md)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine import Journal, available
from ...engine import roster as people
from ...engine.messages import N_, _
from ..terminal import catalog_for, err, journal_for, json_out, ljust, out, say, warn
from .cache import UnknownName, load_roster, statistics, write_atomic
from .exports import bgg_xml, bgstats_html, csv_text, json_text, plays_to_export
from .plot import plot
from .text import person_line, stats_text


def _with_journal(fn: Callable[[Any, Journal], int]) -> Callable[[Any], int]:
    def run(args: Any) -> int:
        with journal_for(args) as journal:
            return fn(args, journal)
    return run


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
    plays, stored, new, roster, ids = plays_to_export(journal, args.state_dir, args.config, game=args.game,
                                                      player=args.player, catalog=catalog)
    if args.csv:
        path, body = args.csv, csv_text(plays, stored, ids, new)
    elif args.json:
        path, body = args.json, json_text(plays, stored, ids, new)
    elif args.bgstats:
        from .. import i18n

        lang = getattr(args, "lang", None) or i18n.system_language()
        path, body = args.bgstats, bgstats_html(plays, ids, args.location, catalog, lang if catalog else "en")
    else:
        path, body = args.bgg, bgg_xml(plays, ids, new, roster, args.location)
        missing = sorted({p.title or p.game for p in plays if not (p.bgg_id if p.title else ids.get(p.game))})
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
    fmt.add_argument("--bgstats", metavar="FILE.html", default=None, help="a page with a link per play that "
                     "opens BG Stats' import dialog with it (open it on the phone that has BG Stats)")
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
