"""``tablekeeper club serve`` (the league service) and ``tablekeeper club standings``.

``serve`` reads ``[league]`` from the config file (ui/club/config.py), runs the :class:`League` and its
page until SIGTERM or Ctrl-C, and lives under systemd like the other services: READY=1 once the page
listens, WATCHDOG=1 from its loop while the store thread and the page are alive, a STATUS= line
that says whether the broker is connected, STOPPING=1 on the way out
(systemd/tablekeeper-league.service).
"""
from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from typing import Any

from ...engine.errors import TablekeeperError

#: Seconds between two turns of the service's loop (the watchdog is petted from it).
TICK = 1.0


def _err(text: str) -> None:
    print(f"tablekeeper club: {text}", file=sys.stderr, flush=True)


def add_parsers(sub: Any) -> None:
    """``club serve`` and ``club standings`` on the command's subparsers."""
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
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=cmd_standings)


def _settings(args: Any) -> Any:
    from . import config

    return config.league_settings(args.config, state_dir=getattr(args, "state_dir", None))


def cmd_standings(args: Any) -> int:
    from . import standings
    from .league import stored_plays
    from .web import title_of

    settings = _settings(args)
    try:
        plays = stored_plays(settings.db)
    except FileNotFoundError:
        raise TablekeeperError(f"no league database at {settings.db} (has `tablekeeper club serve` run "
                               "with this config?)") from None
    result = standings.standings(plays)
    if args.game is not None:
        rows = result["games"].get(args.game, [])
        result = {"plays": sum(r["plays"] for r in rows), "games": {args.game: rows}}
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    sections = [("overall", result["overall"])] if "overall" in result else []
    sections += [(title_of(game), rows) for game, rows in result["games"].items()]
    for title, rows in sections:
        print(f"{title}")
        if not rows:
            print("  no plays")
        for i, r in enumerate(rows, 1):
            name = r["player"].encode("unicode_escape").decode("ascii") if not r["player"].isprintable() else r["player"]
            print(f"  {i:>3}. {name:<14} {r['plays']:>4} plays {r['wins']:>4} wins {r['draws']:>3} draws "
                  f"{r['points']:>5} points  rating {r['rating']:.0f}")
    return 0


def cmd_serve(args: Any) -> int:
    from .. import service
    from .league import League
    from .web import Page

    settings = _settings(args)  # the config, checked whole, before anything connects
    stop = threading.Event()
    old = {sig: signal.signal(sig, lambda signum, frame: stop.set()) for sig in (signal.SIGTERM, signal.SIGINT)}
    if args.run_for is not None:
        timer = threading.Timer(args.run_for, stop.set)
        timer.daemon = True
        timer.start()
    notifier = service.Notifier()
    limit = service.watchdog_limit()
    league = League(settings.db, settings.broker).start()
    page = None
    try:
        try:
            page = Page(league, settings.http_host, settings.http_port).start()
        except OSError as e:
            raise TablekeeperError(f"the page cannot listen on {settings.http_host}:{settings.http_port}: "
                                   f"{e.strerror or e}") from None
        _err(f"page at {page.url} (read-only); database {settings.db}; broker {settings.broker.describe()}")
        notifier.notify("READY=1", "STATUS=waiting for the broker")
        last_pet = 0.0
        said = None
        while not stop.wait(min(TICK, limit / 4) if limit else TICK):
            healthy = league.alive() and page.alive()
            now = time.monotonic()
            if limit and healthy and now - last_pet >= limit / 2:
                notifier.notify("WATCHDOG=1")
                last_pet = now
            status = (f"connected; {league.stored['plays']} new plays, {league.stored['actions']} new actions"
                      if league.connected else (league.problem or "waiting for the broker"))
            if status != said:
                notifier.notify(f"STATUS={status}")
                said = status
            if not healthy:
                raise TablekeeperError("the league's store thread or page stopped; exiting so that systemd restarts it")
        notifier.notify("STOPPING=1", "STATUS=stopping")
        return 0
    finally:
        if page is not None:
            page.stop()
        league.close()
        counts = league.stored
        _err(f"stopped: {counts['plays']} plays and {counts['actions']} actions stored, {counts['duplicates']} "
             f"copies ignored, {sum(league.dropped.values())} bad messages dropped")
        notifier.close()
        for sig, handler in old.items():
            signal.signal(sig, handler)
