"""The ``tablekeeper`` command.

``replay`` is a public contract (docs/scripting.md): its arguments, exit
statuses and JSON names are fixed; extend them, never rename them.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..engine import Journal, RuleError, Session, TablekeeperError, available
from ..engine.errors import JournalBusy
from ..engine.game import Game
from ..engine.messages import Msg, _, translated, word
from ..engine.text import shown
from .terminal import catalog_for, err, journal_for, json_out, out, say, say_warnings

EXIT_REFUSED = 2
#: Longest script line or command-line action accepted (characters).
LINE_MAX = 64 * 1024


# -- replay --------------------------------------------------------------------
class ScriptError(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def parse_json(text: str) -> object:
    """``json.loads`` whose every failure is one ValueError sentence (depth, huge numbers, bad text)."""
    if len(text) > LINE_MAX:
        raise ValueError(f"too long ({len(text):,} characters; at most {LINE_MAX:,})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not valid JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise ValueError("not usable JSON: nested too deeply") from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise ValueError(f"not usable JSON: {str(e).split(';')[0]}") from None


def replay_lines(lines, state_dir: str) -> dict:
    """Play a JSONL script in a journal under ``state_dir``; returns the final view.

    Raises :class:`ScriptError` naming the first refused line.
    """
    journal = Journal(state_dir, durable=False)  # throw-away journal: no fsync
    session = None
    try:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                # any JSON: the engine refuses, in words, a setup or an action it cannot take
                obj: Any = parse_json(line)
            except ValueError as e:
                raise ScriptError(number, str(e)) from None
            try:
                if session is None:
                    if not isinstance(obj, dict) or "game" not in obj:
                        raise RuleError('the first line must set the game up, like '
                                        '{"game": "counters", "players": ["Ana", "Ben"]}')
                    players: Any = obj.get("players")  # as is: the engine refuses a missing or bad list
                    session = Session.new(journal, obj["game"], players, obj.get("options"),
                                          **({} if set(obj) <= {"game", "players", "options"}
                                             else _refuse_setup_fields(obj)))
                else:
                    session.apply(obj)
            except TablekeeperError as e:
                raise ScriptError(number, e.args[0] if len(e.args) == 1 else str(e)) from None
        if session is None:
            raise ScriptError(1, "the script is empty; its first line must set the game up")
        return session.view()
    finally:
        journal.close()


def _refuse_setup_fields(obj: dict):
    extra = sorted(set(obj) - {"game", "players", "options"})[0]
    raise RuleError(f"setup: unexpected field {extra!r}")


def cmd_replay(args) -> int:
    try:
        if args.script == "-":
            raw = sys.stdin.buffer.read()
        else:
            raw = Path(args.script).read_bytes()
    except OSError as e:
        err(args, f"cannot read {args.script}: {e.strerror or e}")
        return 1
    lines = []
    for number, chunk in enumerate(raw.splitlines(), start=1):
        try:
            lines.append(chunk.decode("utf-8"))
        except UnicodeDecodeError as e:
            err(args, f"not valid UTF-8 text (byte {e.start + 1})", who=f"line {number}")
            return EXIT_REFUSED
    with tempfile.TemporaryDirectory(prefix="tablekeeper-replay-") as tmp:
        try:
            view = replay_lines(lines, tmp)
        except ScriptError as e:
            err(args, e.message, who=f"line {e.line}")
            return EXIT_REFUSED
    json_out(view, args.indent)
    return 0


# -- games -----------------------------------------------------------------------
def cmd_games(args) -> int:
    """The games, their counters, actions and options with their help.

    ``--json`` is data for scripts: always English. The listing is in the command's
    language (``--lang``, else the system locale); names a script types (ids, counters,
    actions, options) stay as they are.
    """
    games = available()
    described = [games[g].describe_game() for g in games]
    if args.json:
        json_out({"games": described}, 2)
        return 0
    catalog = catalog_for(args)

    def tr(message: Msg) -> str:
        return translated(message, catalog)

    player_label, table_label = tr(_("player counters:")), tr(_("table counters:"))
    width = max(len(player_label), len(table_label)) + 1  # the two lists start in one column
    for d in described:
        lo, hi = d["players"]
        out(args, f"{d['id']}: " + tr(_("{game}, {lo}–{hi} players", game=word("game", d["title"]), lo=lo, hi=hi)))
        out(args, f"  {player_label.ljust(width)}{', '.join(c['name'] for c in d['counters']['player']) or '-'}")
        out(args, f"  {table_label.ljust(width)}{', '.join(c['name'] for c in d['counters']['table']) or '-'}")
        out(args, "  " + tr(_("actions: {names}", names=", ".join(d["actions"] + ["undo", "redo"]))))
        for o in d["options"]:
            out(args, "  " + tr(_("option {name} (default {default}): {doc}", name=o["name"],
                                  default=json.dumps(o["default"]), doc=o["doc"])))
    return 0


# -- stored games ----------------------------------------------------------------
def _session(args, journal) -> Session:
    session: Session | None
    if getattr(args, "game", None) is not None:
        session = Session.load(journal, args.game)
    else:
        session = Session.resume(journal)
        if session is None:
            games = journal.games()
            if not games:
                raise TablekeeperError("no game is stored yet (start one with `tablekeeper new`)")
            session = Session.load(journal, games[-1].id)
    say_warnings(args, journal)
    return session


def cmd_history(args) -> int:
    with journal_for(args) as journal:
        session = _session(args, journal)
        items = session.history()
        if args.json:
            json_out({"game_id": session.game_id, "setup": session.record.setup, "entries": items}, 2)
            return 0
        setup = session.record.setup
        out(args, f"game {session.game_id}: {setup['game']} with {', '.join(setup['players'])}")
        for item in items:
            out(args, f"{item['seq']:>5}  {say(args, item['text'])}")
    return 0


def cmd_list(args) -> int:
    games = available()
    with journal_for(args) as journal:
        for g in journal.games():
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started))
            # the game says its own result (a game of an unknown id: the generic words)
            rules = games.get(g.game, Game)
            status = "unfinished" if g.finished is None else say(args, rules.result_line(g.result or {}))
            players = ", ".join(str(p) for p in g.setup.get("players", []))
            out(args, f"{g.id:>4}  {started}  {shown(g.game):<18} {players}  [{status}]")
    return 0


def cmd_new(args) -> int:
    try:
        # any JSON: the engine refuses options that are not an object
        options: Any = parse_json(args.options) if args.options else {}
    except ValueError as e:
        err(args, f"--options is {e}")
        return EXIT_REFUSED
    with journal_for(args) as journal:
        session = Session.new(journal, args.game_id, args.players, options)
        json_out({"game_id": session.game_id, **session.view()}, args.indent)
    return 0


def cmd_act(args) -> int:
    try:
        entry: Any = parse_json(args.action)  # any JSON: the engine refuses what is not an action
    except ValueError as e:
        err(args, f"the action is {e}")
        return EXIT_REFUSED
    with journal_for(args) as journal:
        session = _session(args, journal)
        outcome = session.apply(entry)
        for ev in outcome.events:
            err(args, ev, who="")
        json_out(outcome.view, args.indent)
    return 0


def cmd_state(args) -> int:
    with journal_for(args) as journal:
        session = _session(args, journal)
        json_out({"game_id": session.game_id, **session.view()}, args.indent)
    return 0


def cmd_demo(args) -> int:
    """Play a short scripted game of counters in the state folder, printing each step."""
    from . import demo

    return demo.run(args.state_dir, delay=args.delay)


def cmd_run(args) -> int:
    """Start the touchscreen app (ui/app.py), or the headless player where there is no display."""
    from . import app

    reason = app.no_display_reason()
    if getattr(args, "headless", False) or reason:
        if reason and not getattr(args, "headless", False):
            err(args, f"{reason}: starting the headless player instead")
        return headless(args)
    return app.main(args)


def cmd_table(args) -> int:
    """The table in this terminal (ui/termtable.py): the pods as pictures, keys for their buttons."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        err(args, _("the terminal table needs a terminal: standard input and output are not one "
                    "(for scripts: `tablekeeper act`, `replay`, or `serve --keys`)"))
        return 2
    from . import termtable

    return termtable.run(args.state_dir, catalog=catalog_for(args))


def headless(args) -> int:
    """The headless player: the terminal table on a terminal; else ``tablekeeper serve`` if the
    hardware package has it (standard input's lines are its presses, and its end stops the run), else
    the demo."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        from . import termtable

        return termtable.run(getattr(args, "state_dir", None), catalog=catalog_for(args))
    try:
        importlib.import_module("tablekeeper.hardware.cli")
    except ModuleNotFoundError:
        from . import demo

        return demo.run(getattr(args, "state_dir", None), delay=getattr(args, "delay", 0.4))
    from ..engine import Journal

    argv = ["serve", "--show", "text"]  # the pods' screens as text on this terminal
    state_dir = getattr(args, "state_dir", None)
    with Journal(state_dir) as journal:
        unfinished = journal.last_unfinished()
    if unfinished is None:  # a first run: something to look at rather than a wait
        if state_dir is None and not os.environ.get("TABLEKEEPER_STATE_DIR"):  # not the user's game: the app would resume it
            state_dir = tempfile.mkdtemp(prefix="tablekeeper-demo-")
            out(args, _("a demo game in a scratch folder, {folder} (give --state-dir to keep one)",
                        folder=state_dir), flush=True)
        argv += ["--new", "counters", "Ana", "Ben", "--options",
                 '{"counters": [{"name": "life", "start": 20, "min": 0, "out_at": 0}, "coins"]}']
    if state_dir:
        argv = ["--state-dir", str(state_dir)] + argv
    if sys.stdin.isatty():
        out(args, "mock pod buttons: type SEAT BUTTON [hold [N]], e.g. `1 up`, `2 main`, `1 select hold`, "
            "`1 up hold 5`; Ctrl-C stops", flush=True)
        argv.append("--keys")
    else:  # piped or closed: its lines are the presses (a script), and the end of them ends the run
        err(args, _("standard input is not a terminal: its lines are pod presses (SEAT BUTTON [hold [N]]) and the "
                    "run stops at its end; on a terminal `tablekeeper table` shows the table"))
        argv += ["--keys", "--stop-at-eof"]
    return main(argv)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablekeeper", description="Bookkeeping for card games played with real cards.")
    p.add_argument("--state-dir", default=None,
                   help="folder of the journal (default: $TABLEKEEPER_STATE_DIR, else $XDG_STATE_HOME/tablekeeper)")
    p.add_argument("--lang", default=None, choices=("en", "es"),
                   help="language of messages and pods (default: the system locale; replay: English)")
    # --state-dir works before or after the subcommand.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--state-dir", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", required=True)
    _add = sub.add_parser

    def add_parser(*a, **kw):
        return _add(*a, parents=[common], **kw)

    # Patched on this one object, so that every subcommand gets --state-dir, also those that
    # doctor.py and hardware/cli.py add to it.
    sub.add_parser = add_parser  # type: ignore[method-assign]

    r = sub.add_parser("replay", help="play a JSONL script in a temporary journal, print the final state as JSON")
    r.add_argument("script", help="the script file, or - for standard input")
    r.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")
    r.set_defaults(func=cmd_replay)

    g = sub.add_parser("games", help="list the games, their player ranges, counters and options")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=cmd_games)

    h = sub.add_parser("history", help="the current stored game's journal, readable")
    h.add_argument("--game", type=int, default=None, help="a stored game's number (default: the current one)")
    h.add_argument("--json", action="store_true")
    h.set_defaults(func=cmd_history)

    ls = sub.add_parser("list", help="stored games and their results")
    ls.set_defaults(func=cmd_list)

    n = sub.add_parser("new", help="start a stored game")
    n.add_argument("game_id")
    n.add_argument("players", nargs="+")
    n.add_argument("--options", default=None, help="options as a JSON object")
    n.add_argument("--indent", type=int, default=None)
    n.set_defaults(func=cmd_new)

    a = sub.add_parser("act", help="apply one action (JSON) to the current game; prints the new state")
    a.add_argument("action")
    a.add_argument("--game", type=int, default=None)
    a.add_argument("--indent", type=int, default=None)
    a.set_defaults(func=cmd_act)

    s = sub.add_parser("state", help="the current game's state as JSON")
    s.add_argument("--game", type=int, default=None)
    s.add_argument("--indent", type=int, default=None)
    s.set_defaults(func=cmd_state)

    from . import doctor

    doctor.add_parser(sub)

    from . import playlog  # the play records: statistics, exports, the roster

    playlog.add_parsers(sub)

    from .club import cli as club_cli  # club mode: the league service and its standings

    club_cli.add_parsers(sub)

    from . import backups  # backup, restore, and export --stick

    backups.add_parsers(sub)

    for name, func, text in (("demo", cmd_demo, "play a scripted demo game, printing the state"),
                             ("run", cmd_run, "start the app on this machine's hardware (mock on a PC)")):
        d = sub.add_parser(name, help=text)
        d.add_argument("--delay", type=float, default=0.4, help="seconds between demo steps")
        d.set_defaults(func=func)
        if name == "run":
            from . import app  # its options; it imports Kivy only when the app starts

            app.add_arguments(d)
    t = sub.add_parser("table", help="the table in this terminal: every pod as its picture, keys for its buttons")
    # before or after the subcommand, as --state-dir (a default here would undo the one given before)
    t.add_argument("--lang", choices=("en", "es"), default=argparse.SUPPRESS,
                   help="the pods' and the table's language (default: the system locale)")
    t.set_defaults(func=cmd_table)
    _register_hardware(sub)
    return p


def _register_hardware(sub) -> None:
    """The pods' commands: ``serve`` (the owner without a touchscreen) and ``hw check``/``hw message``."""
    from ..hardware import cli as hardware_cli

    s = sub.add_parser(
        "serve", help="run a game with the seat pods and the journal, no touchscreen (mock pods on a PC)",
        description="Run the current game (or a new one) with the seat pods: buttons in, screens out, every "
                    "action journalled. Without a config file every player gets a mock pod.")
    from . import serve

    serve.add_arguments(s)
    s.set_defaults(func=lambda args: serve.main(args))
    hardware_cli.register(sub)


def main(argv=None) -> int:
    # Text that cannot be encoded (a broken name from an old journal) is escaped, never a crash.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (RuleError, JournalBusy) as e:
        err(args, e)
        return EXIT_REFUSED
    except TablekeeperError as e:
        err(args, e)
        return 1
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
