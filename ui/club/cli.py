"""``tablekeeper club serve`` (the league service), ``club standings`` (text, ``--csv``, ``--json``; per
season), and the organiser's commands: ``club merge``/``unmerge`` (one person under two names) and
``club void``/``unvoid``/``fix`` (a play that should not count, or counted wrong; journaled in the
league's database).

``serve`` reads ``[league]`` from the config file (ui/club/config.py), runs the :class:`League` and its
page until SIGTERM or Ctrl-C, and lives under systemd like the other services: READY=1 once the page
listens, WATCHDOG=1 from its loop while the store thread and the page are alive and the store makes
progress (no batch of messages held longer than ``league.STUCK_AFTER`` seconds), a STATUS= line
that says whether the broker is connected, STOPPING=1 on the way out
(systemd/tablekeeper-league.service).

What people read (standard error, the STATUS= line, ``standings``) is in the command's language
(``--lang``, else the system locale); the page is in ``[league] lang``, else the same. ``--json`` and
the systemd protocol's words stay English.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from typing import Any

from ...engine.errors import TablekeeperError
from ...engine.messages import N_, Msg, _
from ..terminal import err, json_out, out, say

#: Seconds between two turns of the service's loop (the watchdog is petted from it).
TICK = 1.0


def add_parsers(sub: Any) -> None:
    """``club serve``, ``club standings``, ``club merge``/``unmerge``, ``club void``/``unvoid``/``fix`` and
    ``club init``/``join`` on the command's subparsers."""
    c = sub.add_parser("club", help="club mode: the league service and its standings (docs/club.md)")
    csub = c.add_subparsers(dest="club_command", required=True)
    s = csub.add_parser("serve", help="run the league: keep every table's plays, serve the read-only page",
                        description="Subscribe to every table of the club, keep their actions and plays in "
                                    "SQLite, acknowledge them, and serve the standings page (read-only).")
    s.add_argument("--config", default=None, metavar="PATH", help="the TOML config with [league] (default: the "
                   "config file the pods use)")
    s.add_argument("--run-for", type=float, default=None, metavar="SECONDS", help=argparse.SUPPRESS)
    s.set_defaults(func=cmd_serve)
    t = csub.add_parser("standings", help="the league's standings: per game and overall (from its database)")
    t.add_argument("--config", default=None, metavar="PATH")
    t.add_argument("--game", default=None, help="one game's standings (its id, as `tablekeeper games` lists it)")
    t.add_argument("--season", default=None, metavar="NAME", help="one season's standings (a name of "
                   "[[league.seasons]] in the config; default: every play, all time)")
    form = t.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="as JSON (the rows' keys as in --csv)")
    form.add_argument("--csv", action="store_true", help="as CSV: season, game, rank, player, plays, wins, "
                      "shared, draws, points, rating (game empty: overall; rank empty: not ranked)")
    t.set_defaults(func=cmd_standings)
    v = csub.add_parser("void", help="a play that should not count: out of the standings (journaled; the play "
                        "is kept)", description="Take play PLAY (the number in its page's address, /plays/PLAY) "
                        "out of the standings and the ratings. Kept in the league's database with who, when and "
                        "why; the play's page says so; `club unvoid` counts it again.")
    v.add_argument("play", type=int, metavar="PLAY")
    v.add_argument("--reason", default=None, metavar="TEXT", help="why (shown on the play's page)")
    v.add_argument("--config", default=None, metavar="PATH")
    v.set_defaults(func=cmd_correct)
    uv = csub.add_parser("unvoid", help="count a voided play again")
    uv.add_argument("play", type=int, metavar="PLAY")
    uv.add_argument("--reason", default=None, metavar="TEXT")
    uv.add_argument("--config", default=None, metavar="PATH")
    uv.set_defaults(func=cmd_correct)
    f = csub.add_parser("fix", help="fix a play's result: who won (journaled; the play as sent is kept)",
                        description="Count play PLAY as won by the players named (the names as the table sent "
                                    "them), tied with --draw, or won by nobody with --nobody.")
    f.add_argument("play", type=int, metavar="PLAY")
    who = f.add_mutually_exclusive_group(required=True)
    who.add_argument("--winner", nargs="+", metavar="NAME", help="the winner(s)")
    who.add_argument("--nobody", action="store_true", help="nobody won (the game won)")
    f.add_argument("--draw", action="store_true", help="the winners tied (a draw)")
    f.add_argument("--reason", default=None, metavar="TEXT", help="why (shown on the play's page)")
    f.add_argument("--config", default=None, metavar="PATH")
    f.set_defaults(func=cmd_correct)
    m = csub.add_parser("merge", help="count two names as one person in the standings (the organiser's fix)",
                        description="Count NAME as the person INTO in the league's standings: \"Ana María\" at one "
                                    "table and \"Ana\" at another. The plays keep the names the tables sent; a "
                                    "running league counts the merge at its next standings.")
    m.add_argument("name", metavar="NAME")
    m.add_argument("into", metavar="INTO")
    m.add_argument("--config", default=None, metavar="PATH")
    m.set_defaults(func=cmd_merge)
    u = csub.add_parser("unmerge", help="count a merged name as its own person again")
    u.add_argument("name", metavar="NAME")
    u.add_argument("--config", default=None, metavar="PATH")
    u.set_defaults(func=cmd_merge)
    from .setup import add_parsers as setup_parsers

    setup_parsers(csub)  # club init, club join


def _settings(args: Any) -> tuple[Any, str | None]:
    """The league's settings and its page's language (``[league] lang``; None: not said)."""
    from . import config

    doc, source, folder = config.read(args.config)
    settings = config.league_settings(doc, source=source, base=folder, state_dir=getattr(args, "state_dir", None))
    return settings, config.league_language(doc, source=source)


def _no_database(settings: Any) -> TablekeeperError:
    return TablekeeperError(_("no league database at {path} (has `tablekeeper club serve` run with this "
                              "config?)", path=str(settings.db)))


def cmd_merge(args: Any) -> int:
    """``club merge NAME INTO`` / ``club unmerge NAME``: the names counted as one person, then every merge."""
    from .league import merge_people, unmerge_people

    settings, _lang = _settings(args)
    try:
        if args.club_command == "merge":
            people = merge_people(settings.db, args.name, args.into)
        else:
            people = unmerge_people(settings.db, args.name)
    except FileNotFoundError:
        raise _no_database(settings) from None
    for name, person in sorted(people.items()):
        out(args, say(args, _("{name} counts as {person}", name=name, person=person)))
    if not people:
        out(args, say(args, _("no names merged")))
    return 0


def cmd_correct(args: Any) -> int:
    """``club void PLAY`` / ``club unvoid PLAY`` / ``club fix PLAY --winner NAME...``: one row in the
    league's journal of corrections, then what the play counts as now."""
    from .league import correct_play
    from .web import result_text

    settings, _lang = _settings(args)
    what = args.club_command
    winners = [] if getattr(args, "nobody", False) else getattr(args, "winner", None)
    try:
        state = correct_play(settings.db, args.play, what, winners=winners, draw=getattr(args, "draw", False),
                             reason=args.reason)
    except FileNotFoundError:
        raise _no_database(settings) from None
    if state["void"]:
        out(args, say(args, _("play {id} is void: it no longer counts", id=args.play)))
    elif state["fix"] is not None:
        fix = state["fix"]
        out(args, say(args, _("play {id} now counts: {result}", id=args.play,
                              result=result_text({"winners": fix["winners"], "draw": fix["draw"]}))))
    else:
        out(args, say(args, _("play {id} counts again", id=args.play)))
    return 0


#: The columns of ``club standings --csv`` (and the rows' keys in ``--json``), in this order.
CSV_COLUMNS = ("season", "game", "rank", "player", "plays", "wins", "shared", "draws", "points", "rating")


def cmd_standings(args: Any) -> int:
    from . import standings
    from .league import stored_corrections, stored_people, stored_plays, stored_rosters
    from .web import game_title

    settings, _lang = _settings(args)
    season = None
    if args.season is not None:
        season = settings.season(args.season)
        if season is None:
            names = ", ".join(repr(s.name) for s in settings.seasons)
            raise TablekeeperError(_("no season {name!r} in {source} (its seasons: {names})", name=args.season,
                                     source=settings.source, names=names) if names
                                   else _("no season {name!r}: {source} has no [[league.seasons]]",
                                          name=args.season, source=settings.source))
    try:
        plays = stored_plays(settings.db)
        people = stored_people(settings.db)
        corrections = stored_corrections(settings.db)
        rosters = stored_rosters(settings.db)
    except FileNotFoundError:
        raise _no_database(settings) from None
    result = standings.standings(plays, people, settings.scoring, season=season, corrections=corrections,
                                 rosters=rosters)
    if args.game is not None:
        rows = result["games"].get(args.game, [])
        result = {"plays": sum(r["plays"] for r in rows), "games": {args.game: rows}}
    if args.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        tables = ([("", result["overall"])] if "overall" in result else []) + list(result["games"].items())
        for game, rows in tables:
            for r in rows:
                row = {**r, "season": season.name if season else "", "game": game,
                       "rank": "" if r["rank"] is None else r["rank"]}
                writer.writerow([row[c] for c in CSV_COLUMNS])
        return 0
    if args.json:
        json_out({"league": settings.name,
                  "season": {"name": season.name, "start": season.start.isoformat(), "end": season.end.isoformat()}
                  if season else None,
                  "points": settings.scoring.points, "min_plays": settings.scoring.min_plays, **result}, 2)
        return 0
    if settings.name:
        out(args, settings.name)
    if season is not None:
        out(args, say(args, _("season {name}: {start} to {end}", name=season.name, start=season.start.isoformat(),
                              end=season.end.isoformat())))
    sections: list[tuple[Msg | str, list[dict[str, Any]]]] = [(_("overall"), result["overall"])] \
        if "overall" in result else []
    sections += [(game_title(game), rows) for game, rows in result["games"].items()]
    for title, rows in sections:
        out(args, title)
        if not rows:
            out(args, "  " + say(args, _("no plays")))
        said_apart = False
        for r in rows:
            if r["rank"] is None and not said_apart:
                out(args, "  " + say(args, N_("not ranked yet: fewer than {n} play", "not ranked yet: fewer than {n} "
                                              "plays", settings.scoring.min_plays)))
                said_apart = True
            name = r["player"].encode("unicode_escape").decode("ascii") if not r["player"].isprintable() else r["player"]
            rank = f"{r['rank']:>3}." if r["rank"] is not None else "  - "
            out(args, f"  {rank} {name:<14} " + say(args, _(
                "{plays} plays {wins} wins {draws} draws {points} points  rating {rating}",
                plays=f"{r['plays']:>4}", wins=f"{r['wins']:>4}", draws=f"{r['draws']:>3}",
                points=f"{r['points']:>5}", rating=f"{r['rating']:.0f}")))
    return 0


def cmd_serve(args: Any) -> int:
    from .. import i18n, service
    from .league import STUCK_AFTER, League
    from .web import Page

    settings, lang = _settings(args)  # the config, checked whole, before anything connects
    if settings.broker.password is None:  # the shipped broker takes no anonymous client: say so now
        raise TablekeeperError(_("{source}: league.password_file (or league.password) is missing: the broker "
                                 "takes no anonymous client, and the league's password has no default",
                                 source=settings.source or "the config"))
    lang = lang or getattr(args, "lang", None) or i18n.system_language()
    signals = service.StopSignals(args.run_for)
    stop = signals.event
    notifier = service.Notifier()
    limit = service.watchdog_limit()
    league = League(settings.db, settings.broker, rules=settings.scoring).start()
    page = None
    try:
        try:
            page = Page(league, settings.http_host, settings.http_port, lang=lang, name=settings.name,
                        seasons=settings.seasons).start()
        except OSError as e:
            raise TablekeeperError(_("the page cannot listen on {address}: {error}",
                                     address=f"{settings.http_host}:{settings.http_port}",
                                     error=e.strerror or str(e))) from None
        err(args, _("page at {url} (read-only); database {path}; broker {broker}", url=page.url,
                     path=str(settings.db), broker=settings.broker.describe()))
        notifier.notify("READY=1", "STATUS=" + say(args, _("waiting for the broker")))
        last_pet = 0.0
        said = None
        while not stop.wait(min(TICK, limit / 4) if limit else TICK):
            stuck = league.stuck_for()
            healthy = league.alive() and page.alive() and stuck < STUCK_AFTER
            now = time.monotonic()
            if limit and healthy and now - last_pet >= limit / 2:
                notifier.notify("WATCHDOG=1")
                last_pet = now
            status = say(args, _("connected; {plays}, {actions}",
                                   plays=N_("{n} new play", "{n} new plays", league.stored["plays"]),
                                   actions=N_("{n} new action", "{n} new actions", league.stored["actions"]))
                           if league.connected else (league.problem or _("waiting for the broker")))
            if status != said:
                notifier.notify("STATUS=" + status)
                said = status
            if not healthy and stuck >= STUCK_AFTER:
                raise TablekeeperError(_("the league's store has been on one batch of messages for {seconds} s; "
                                         "exiting so that systemd restarts it", seconds=round(stuck)))
            if not healthy:
                raise TablekeeperError(_("the league's store thread or page stopped; exiting so that systemd "
                                         "restarts it"))
        notifier.notify("STOPPING=1", "STATUS=" + say(args, _("stopping")))
        return 0
    finally:
        if page is not None:
            page.stop()
        league.close()
        counts = league.stored
        dropped = sum(league.dropped.values())
        err(args, _("stopped: {plays} and {actions} stored, {copies}, {dropped}",
                     plays=N_("{n} play", "{n} plays", counts["plays"]),
                     actions=N_("{n} action", "{n} actions", counts["actions"]),
                     copies=N_("{n} copy ignored", "{n} copies ignored", counts["duplicates"]),
                     dropped=N_("{n} bad message dropped", "{n} bad messages dropped", dropped)))
        notifier.close()
        signals.restore()
