"""``tablekeeper doctor``: look at the state folder, the journal and the config, say what is found.

It opens the journal the way every command does (so a damaged file is
repaired, and the repair said), then reports in plain words: the folder
(where, who may read it, free space), the journal (its check, its games and
whether each still replays, actions set aside in the quarantine, past
repairs, damaged copies kept aside, unsafe shutdowns), and the pod config.
``--export DIR`` writes every game it can read as a ``tablekeeper replay``
script (one JSON line per action, the setup first), so a game survives even
a journal nobody wants to open again; ``--file PATH`` reads another journal
file (a damaged copy, a backup) through a private copy, never changing it.

Exit status: 0 when the journal is sound and writable, 1 when something
needs a person (read-only, unreadable games, quarantined actions).
"""
from __future__ import annotations

import json
import shutil
import stat
import tempfile
from pathlib import Path

from ..engine import Journal, RuleError, TablekeeperError
from ..engine.journal import FILENAME
from ..engine.match import Match
from ..engine.registry import make_rules
from .terminal import out


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


class Report:
    """What doctor finds, a line each on standard output (English: it is read beside the logs)."""

    def __init__(self) -> None:
        self.problems = 0

    def ok(self, text: str) -> None:
        out(None, f"  ok       {text}")

    def note(self, text: str) -> None:
        out(None, f"  note     {text}")

    def problem(self, text: str) -> None:
        self.problems += 1
        out(None, f"  PROBLEM  {text}")

    def head(self, text: str) -> None:
        out(None, text)


def check_folder(folder: Path, r: Report) -> None:
    r.head(f"state folder {folder}")
    if not folder.exists():
        r.note("it does not exist yet (the first game creates it)")
        return
    st = folder.stat()
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077:
        r.note(f"others may read it (mode {mode:o}); games and backups are private with 700: chmod 700 {folder}")
    else:
        r.ok(f"private to its owner (mode {mode:o})")
    usage = shutil.disk_usage(folder)
    if usage.free < 16 << 20:
        r.problem(f"only {_size(usage.free)} free on its disk: a full disk stops saving (nothing is lost)")
    else:
        r.ok(f"{_size(usage.free)} free on its disk")
    try:
        aside = sorted(p for p in folder.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-journal",
                                                                                                     "-wal", "-shm")))
    except OSError as e:
        r.problem(f"its files cannot be listed ({e.strerror or e}): give it back to the user tablekeeper runs as "
                  f"(chmod 700 {folder}, chown)")
        return
    for p in aside:
        r.note(f"damaged copy kept aside: {p.name} ({_size(p.stat().st_size)}); "
               f"`tablekeeper doctor --file {p} --export DIR` reads it")


def check_journal(journal: Journal, r: Report, export: Path | None, *, repair: bool = True) -> None:
    """``repair``: write back what can be worked out again (False for ``--file``: a private copy)."""
    r.head(f"journal {journal.path}")
    for w in journal.take_warnings():
        r.note(f"on opening: {w}")
    if journal.readonly:
        r.problem(f"it cannot be written ({journal.readonly}): games can be read, not played")
    problems = journal.quick_check()
    if problems:
        r.problem("SQLite's check: " + "; ".join(problems[:3]))
    else:
        r.ok("SQLite's integrity check passes")
    mode = journal.conn.execute("PRAGMA journal_mode").fetchone()[0]
    if mode == "wal":
        r.ok("journal mode wal (one fsync per action)")
    elif journal.readonly:
        r.note(f"journal mode {mode} (read-only)")
    else:
        r.problem(f"journal mode {mode}: the journal should be in WAL mode; it is set on the next start")
    for when, what in journal.repairs():
        r.note(f"repaired {when}: {what}")
    n = journal.unsafe_shutdowns()
    if n:
        r.note(f"{n} unsafe shutdown(s) so far (power cuts, crashes); each was resumed from the journal")
    games = journal.games()
    r.ok(f"{len(games)} game(s) stored") if games else r.note("no game stored")
    for g in games:
        entries = journal.entries(g.id)
        state = "finished" if g.finished is not None else "unfinished"
        try:
            match = Match(make_rules(g.setup))
            used = match.load([e for _, e in entries])
        except RuleError as e:
            r.problem(f"game {g.id} ({g.game}): its setup no longer loads: {e}")
            continue
        who = ", ".join(g.setup.get("players", []))
        if g.finished is not None and g.result is None and used == len(entries):
            if repair:
                _mend_result(journal, g.id, match, r)
            else:
                r.problem(f"game {g.id}: its stored result is damaged; `tablekeeper doctor` on the journal itself "
                          "works it out again from its actions")
        if used < len(entries):
            r.problem(f"game {g.id} ({g.game}, {who}): replays only {used} of {len(entries)} actions")
        else:
            r.ok(f"game {g.id} ({g.game}, {who}, {state}): {len(entries)} actions replay")
        if export is not None:
            path = export / f"game-{g.id}-{g.game}.jsonl"
            lines = [json.dumps({"game": g.setup["game"], "players": g.setup["players"],
                                 "options": g.setup.get("options", {})}, ensure_ascii=False)]
            lines += [json.dumps(e, ensure_ascii=False) for _, e in entries[:used]]
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            r.ok(f"exported game {g.id} to {path} ({used} actions; `tablekeeper replay {path}` plays it)")
    for gid in sorted(set(journal.games_with_actions()) - {g.id for g in games}):
        entries = journal.entries(gid)
        r.problem(f"game {gid}: its setup is lost or unreadable; its {len(entries)} action(s) are kept"
                  + ("" if export is not None else " (`tablekeeper doctor --export DIR` writes them out)"))
        if export is not None:
            path = export / f"game-{gid}-actions-without-setup.jsonl"
            path.write_text("".join(json.dumps({"seq": seq, "entry": e}, ensure_ascii=False) + "\n"
                                    for seq, e in entries), encoding="utf-8")
            r.ok(f"exported the actions of game {gid} to {path}")
    for w in journal.take_warnings():
        r.note(w)
    held = journal.quarantined()
    if held:
        by_game: dict[int, list] = {}
        for q in held:
            by_game.setdefault(q["game"], []).append(q)
        for gid, rows in sorted(by_game.items()):
            readable = sum(1 for q in rows if q["entry"] is not None)
            r.problem(f"game {gid}: {len(rows)} action(s) set aside in the quarantine ({readable} still readable), "
                      f"first {rows[0]['seq']}: {rows[0]['reason']}")
            if export is not None:
                path = export / f"game-{gid}-quarantine.jsonl"
                path.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in rows), encoding="utf-8")
                r.ok(f"exported the set-aside actions of game {gid} to {path}")


def _mend_result(journal: Journal, gid: int, match: Match, r: Report) -> None:
    """A finished game whose stored result is damaged: work it out again from its actions, write it back."""
    if not match.state.get("over"):
        r.problem(f"game {gid}: its stored result is damaged and its actions do not end the game; "
                  "it is listed as finished with no result")
        return
    try:
        aside = journal.mend_result(gid, match.rules.outcome(match.state))
    except TablekeeperError as e:
        r.problem(f"game {gid}: its stored result is damaged and cannot be written again: {e}")
        return
    kept = f"; the journal as it was is kept as {aside.name}" if aside else ""
    r.ok(f"game {gid}: its damaged result was worked out again from its actions and written back{kept}")


def check_config(option, r: Report) -> None:
    try:
        from ..hardware import config as configuration
    except ImportError:  # a build without the pods
        return
    path = configuration.find(option)
    r.head("config")
    if path is None:
        r.note("no config file: mock pods on a PC, none on the appliance (docs/hardware.md)")
        return
    try:
        cfg = configuration.load(path)
    except (configuration.ConfigError, OSError) as e:
        r.problem(f"{path}: {e}")
        return
    r.ok(f"{path}: {len(cfg.seats)} seat(s), valid")


def run(args) -> int:
    r = Report()
    export = Path(args.export) if args.export else None
    if export is not None:
        export.mkdir(parents=True, exist_ok=True)
    if args.file:
        source = Path(args.file)
        with tempfile.TemporaryDirectory(prefix="tablekeeper-doctor-") as tmp:
            for suffix in ("", "-journal", "-wal"):
                if Path(f"{source}{suffix}").exists():
                    shutil.copyfile(f"{source}{suffix}", Path(tmp) / f"{FILENAME}{suffix}")
            try:
                with Journal(tmp) as journal:
                    journal.path = source  # name the file the person asked about
                    check_journal(journal, r, export, repair=False)
            except TablekeeperError as e:
                r.problem(str(e))
    else:
        folder = Path(args.state_dir) if args.state_dir else None
        journal = None
        try:
            journal = Journal(folder)
            check_folder(journal.dir, r)
            check_journal(journal, r, export)
        except TablekeeperError as e:
            if journal is None:
                from ..engine.journal import default_state_dir

                check_folder(folder or default_state_dir(), r)
            r.problem(str(e))
        finally:
            if journal is not None:
                journal.close()
        check_config(getattr(args, "config", None), r)
    out(None, "nothing needs a person" if not r.problems else f"{r.problems} thing(s) need a person", flush=True)
    return 0 if not r.problems else 1


def add_parser(sub) -> None:
    d = sub.add_parser("doctor", help="check the state folder, the journal and the config; export readable games")
    d.add_argument("--export", metavar="DIR", default=None,
                   help="write every readable game as a replay script in DIR (and what the quarantine holds)")
    d.add_argument("--file", metavar="PATH", default=None,
                   help="look at another journal file (a damaged copy, a backup) through a private copy")
    d.add_argument("--config", default=None, help="the pod config to check (default: where serve looks)")
    d.set_defaults(func=run)
