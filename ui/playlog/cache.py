"""The plays on disk, through the summaries' cache; the roster; the statistics over them.

``plays-cache.json`` in the state folder keeps each finished game's summary (its final figures need a
replay of the game), so that statistics over thousands of stored games read the journal's games table
and this file and replay only what finished since. It is a cache: lost, damaged or from another
version, it is made again; a read-only state folder just goes without it.

Every file written goes through :func:`write_atomic` (a temporary file in the same folder, fsync,
rename, fsync the folder): a USB stick pulled mid-export leaves the old file or none under the final
name, never half of one.
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ...engine import Journal
from ...engine import records as rec
from ...engine import roster as people
from ...engine.messages import N_, Catalog, _
from ...engine.records import Play
from ..terminal import err, warn

CACHE_FILE = "plays-cache.json"
CACHE_FORMAT = 1
#: From how many games to summarize (replay) the command says it is doing so (a few ms each).
SAY_REPLAYS_FROM = 200


def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a power cut or a pulled stick leaves the old file or the new
    one, never half of one (:func:`tablekeeper.engine.backup.write_atomic`; readable by all: exports
    are for other programs)."""
    from ...engine.backup import write_atomic as write

    return write(path, data, mode=0o644)


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
    from ..settings import COLOURS, Settings

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
