"""``tablekeeper backup``, ``tablekeeper restore`` and ``tablekeeper export --stick``, and the same
for the app: :func:`export_to_stick` (the plays and a backup onto the stick, the "export plays"
and "back up everything" buttons), :func:`engine.backup.restore`.

The files are written as every file of the play records is: whole or not at all
(engine/backup.py's ``write_atomic``). What the commands and the app say is a message, in the
command's language (``--lang``, the system locale) or the app's.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Journal
from ..engine import backup as bk
from ..engine.errors import JournalError
from ..engine.messages import N_, Catalog, Msg, _, listing
from . import playlog
from . import stick as sticks
from .terminal import catalog_for, err, journal_for, json_out, out, said, warn

EXIT_REFUSED = 2
PLAY_FILES = ("plays.csv", "plays.json", "plays-bgg.xml")


@dataclass
class StickExport:
    """What :func:`export_to_stick` wrote."""

    folder: Path
    plays: int = 0
    files: list[Path] = field(default_factory=list)  # the play records
    backup: bk.BackupInfo | None = None

    def sentence(self) -> Msg:
        written = N_("{n} play written to {path}", "{n} plays written to {path}", self.plays, path=str(self.folder))
        if self.backup is None:
            return written
        return _("{written}; everything backed up as {file}", written=written, file=self.backup.path.name)



def export_plays(journal: Journal, folder: str | os.PathLike[str], state_dir: str | os.PathLike[str] | None = None,
                 config: str | os.PathLike[str] | None = None, *, game: str | None = None,
                 player: str | None = None, location: str = "", catalog: Catalog | None = None
                 ) -> tuple[int, list[Path]]:
    """Every finished play (or a game's, a person's) as ``plays.csv``, ``plays.json`` and
    ``plays-bgg.xml`` in ``folder`` (made if missing), each written atomically; (plays, files).
    OSError when the folder cannot be written (no file is left half-written). ``catalog``: the
    language of its warnings on standard error."""
    folder = Path(folder)
    plays, stored, new, roster, ids = playlog.plays_to_export(journal, state_dir, config, game=game,
                                                              player=player, catalog=catalog)
    bodies = (playlog.csv_text(plays, stored, ids, new), playlog.json_text(plays, stored, ids, new),
              playlog.bgg_xml(plays, ids, new, roster, location))
    folder.mkdir(parents=True, exist_ok=True)
    files = [playlog.write_atomic(folder / name, body.encode("utf-8")) for name, body in zip(PLAY_FILES, bodies)]
    return len(plays), files


def export_to_stick(journal: Journal, stick: str | os.PathLike[str], state_dir: str | os.PathLike[str] | None = None,
                    config: str | os.PathLike[str] | None = None, *, backup: bool = True, **filters: Any) -> StickExport:
    """The plays (:func:`export_plays`) and, with ``backup``, a backup of everything, in the stick's
    ``tablekeeper/`` folder. OSError / BackupError (a sentence) when the stick cannot be written."""
    folder = sticks.stick_folder(Path(stick))
    n, files = export_plays(journal, folder, state_dir, config, **filters)
    out = StickExport(folder, n, files)
    if backup:
        out.backup = bk.back_up(journal, folder)
    return out


# -- the commands ----------------------------------------------------------------------------
def _where(args: Any, command: str) -> Path | None:
    """The stick's tablekeeper folder, or None after saying there is no stick."""
    s = sticks.settings(getattr(args, "config", None))
    for problem in s.problems:
        warn(args, problem)
    found = sticks.find_stick(s)
    if found is None:
        roots = listing(map(str, s.media), _(" or "))
        err(args, _("no USB stick found (none mounted under {roots}, and no [app.stick] folder); plug one in, "
                        "or give a folder with --to DIR", roots=roots) if command == "backup" else
                _("no USB stick found (none mounted under {roots}, and no [app.stick] folder); plug one in, "
                  "or give a folder", roots=roots))
        return None
    return sticks.stick_folder(found)


def cmd_backup(args: Any) -> int:
    folder = Path(args.to) if args.to else _where(args, "backup")
    if folder is None:
        return 1
    with journal_for(args) as journal:
        try:
            info = bk.back_up(journal, folder)
        except bk.BackupError as e:
            err(args, e)
            return 1
    if args.json:
        json_out({"file": str(info.path), "manifest": info.manifest}, 2)
    else:
        out(args, info.made_sentence())
    return 0


def cmd_restore(args: Any) -> int:
    if args.list:
        folder = Path(args.file) if args.file else _where(args, "restore")
        if folder is None:
            return 1
        for path in bk.backups_in(folder):
            try:
                out(args, bk.read_manifest(path).sentence())
            except bk.RestoreRefused as e:
                out(args, _("{path}: {detail} ({what})", path=str(path), detail=e.detail,
                            what=bk.refusal_reason(e.why)))
        return 0
    if not args.file:
        err(args, _("which backup? give its file (`tablekeeper restore --list` lists the stick's)"))
        return EXIT_REFUSED
    source = Path(args.file)
    if not source.exists() and source.name == args.file:  # a bare name, as the stick's list names it
        folder = _where(args, "restore")
        if folder is None:
            return 1
        source = folder / args.file
    with journal_for(args) as journal:
        try:
            report = bk.restore(journal, source, unfinished=not args.finished_only)
        except bk.RestoreRefused as e:
            err(args, e)
            return EXIT_REFUSED
        except JournalError as e:
            err(args, e)
            return 1
    if args.json:
        json_out(report.to_dict(), 2)
    else:
        out(args, report.sentence())
    return 0


def cmd_export_stick(args: Any) -> int:
    folder = _where(args, "export")
    if folder is None:
        return 1
    with journal_for(args) as journal:
        try:
            written = export_to_stick(journal, folder.parent, args.state_dir, args.config, game=args.game,
                                      player=args.player, location=args.location, catalog=catalog_for(args))
        except (OSError, bk.BackupError) as e:
            err(args, _("cannot write to {folder}: {error} (no file was left half-written)", folder=str(folder),
                        error=getattr(e, "strerror", None) or said(e)))
            return 1
    out(args, written.sentence())
    return 0


def add_parsers(sub: Any) -> None:
    """``backup`` and ``restore``, and ``--stick`` on ``export`` (which ui/playlog/ adds first)."""
    b = sub.add_parser("backup", help="back up everything (games, roster) into one file: on the USB stick, "
                       "or --to DIR")
    b.add_argument("--to", metavar="DIR", default=None, help="the folder (default: the stick's tablekeeper/)")
    b.add_argument("--config", default=None, metavar="PATH", help="the TOML config whose [app.stick] names "
                   "the stick's folder on a PC")
    b.add_argument("--json", action="store_true", help="the file and its manifest as JSON")
    b.set_defaults(func=cmd_backup)

    r = sub.add_parser("restore", help="merge a backup into the journal (never a play twice); refuses a file "
                       "from elsewhere, a newer format or a damaged file, changing nothing")
    r.add_argument("file", nargs="?", default=None,
                   help="the backup file, or its bare name on the stick (with --list: a folder)")
    r.add_argument("--list", action="store_true", help="list the backups on the stick (or in the folder given)")
    r.add_argument("--finished-only", action="store_true", help="leave the backup's unfinished games out")
    r.add_argument("--config", default=None, metavar="PATH")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_restore)

    sub.choices["export"].set_defaults(func=cmd_export)  # ui/playlog/'s, with --stick handled here


def cmd_export(args: Any) -> int:
    """``export --stick`` writes the plays and a backup to the stick; else ui/playlog/ writes one file."""
    if getattr(args, "stick", False):
        return cmd_export_stick(args)
    return playlog.cmd_export(args)

