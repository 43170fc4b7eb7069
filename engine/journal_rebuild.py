"""A damaged journal rebuilt: every row of it that holds, into a fresh journal.

Rows come from what SQLite still reads, then from every page and every WAL frame
(:mod:`.salvage`); an action is kept if its checksum holds (one flipped bit is put back), a
game if its checksum holds or its copy in ``meta`` does (or, from before checksums, if its
setup decodes). A game cut short keeps its result: a finished game is never reopened. Actions
of a game whose row is lost go to the quarantine, with what it held before.

The opening of a damaged journal (:mod:`.journal_store`) and a sound copy of one
(:meth:`Journal.backup <tablekeeper.engine.journal.Journal.backup>`) both come here.
"""
from __future__ import annotations

import sqlite3
import tempfile
import zlib
from pathlib import Path
from typing import Any

from . import salvage
from .journal_rows import JournalRows, Row, choose_game, connect, sound_body
from .journal_schema import FILENAME, GAME_COPY, SCHEMA, check_version, is_copy_key, seal_game, txn


def salvage_into(damaged: Path, conn: sqlite3.Connection, *, wal_image: bytes = b"") -> tuple[int, int, int]:
    """Every row of ``damaged`` that holds, into ``conn``: (games, actions resumed, actions held).

    ``wal_image``: the ``-wal`` as it was found before SQLite's close deleted it (read when it is
    longer than the one beside ``damaged`` now).
    """
    games: dict[int, list[Row]] = {}
    entries: dict[tuple[int, int], Row] = {}
    meta: dict[str, str] = {}
    unsound: dict[tuple[int, int], Any] = {}  # actions read whose body does not hold: their time
    _salvage_sql(damaged, games, entries, meta, unsound)
    try:
        data = damaged.read_bytes()
    except OSError:
        data = b""
    wal = Path(f"{damaged}-wal")
    try:
        wal_data = wal.read_bytes() if wal.exists() else b""
    except OSError:
        wal_data = b""
    if len(wal_image) > len(wal_data):
        wal_data = wal_image  # SQLite's close deleted the -wal it could not read
    found = salvage.scan(data, wal_data)
    for row in reversed(found.games):  # the newest version first (a finish, an undo of it)
        games.setdefault(row[0], []).insert(0, row)
    for key, value in found.meta:
        if isinstance(key, str):  # a meta row whose key was lost says nothing
            meta.setdefault(key, value)
    claims: dict[tuple[int, int], dict[tuple[str, float | None], Row]] = {}
    for row in entries.values():
        claims.setdefault((row[0], row[1]), {})[(row[2], row[4])] = row
    for game, seq, raw, crc, at in found.entries:
        sound = sound_body(raw, crc)
        if sound is not None:
            row = (game, seq, sound.decode("utf-8"), zlib.crc32(sound), at)
            entries.setdefault((game, seq), row)
            claims.setdefault((game, seq), {}).setdefault((row[2], at), row)
        elif isinstance(game, int) and isinstance(seq, int):
            unsound.setdefault((game, seq), at)
    # the numbers the file holds an action under, none of whose copies holds: that action is lost, its number
    # not missing (a flipped number closes no gap there)
    unsound = {k: at for k, at in unsound.items() if k not in entries}
    _place_twins(entries, claims, unsound)
    good_games: dict[int, Row] = {}
    for gid in set(games) | {int(k.split(":", 1)[1]) for k in meta if is_copy_key(k)} | {g for g, _s in entries}:
        chosen = choose_game(gid, games.get(gid, []), meta.get(GAME_COPY.format(gid=gid)))
        if chosen is not None:
            good_games[gid] = chosen
    held_before = [q for q in found.quarantine if q[5] is not None]
    n_entries = held = 0
    with txn(conn):
        meta.pop("schema", None)
        for k in [k for k in meta if is_copy_key(k)]:
            meta.pop(k)  # written anew below, from the rows chosen
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", sorted(meta.items()))
        seen_held = set()
        for g, seq, body, crc, at, reason in held_before:
            key = (g, seq, bytes(body) if isinstance(body, bytes) else body)
            if key not in seen_held:
                seen_held.add(key)
                conn.execute("INSERT INTO quarantine (game, seq, body, crc, at, reason) VALUES (?,?,?,?,?,?)",
                             (g, seq, body, crc, at, reason))
        for gid in sorted({g for g, _s in entries} - set(good_games)):
            for s in sorted(seq for g, seq in entries if g == gid):
                g, seq, body, crc, at = entries[(gid, s)]
                conn.execute("INSERT INTO quarantine (game, seq, body, crc, at, reason) VALUES (?,?,?,?,?,?)",
                             (g, seq, body.encode("utf-8"), crc, at, "salvaged: its game's setup is lost"))
                held += 1
        for gid, row in sorted(good_games.items()):
            conn.execute("INSERT INTO games (id, game, setup, started, finished, result) VALUES (?,?,?,?,?,?)",
                         row[:6])
            seal_game(conn, gid, row[1], row[2], row[3])
            seqs = _close_gap(entries, gid, sorted(seq for g, seq in entries if g == gid), unsound)
            run = 0
            while run < len(seqs) and seqs[run] == run:
                run += 1
            conn.executemany("INSERT INTO entries VALUES (?,?,?,?,?)",
                             [entries[(gid, s)] for s in seqs[:run]])
            for s in seqs[run:]:
                g, seq, body, crc, at = entries[(gid, s)]
                conn.execute("INSERT INTO quarantine (game, seq, body, crc, at, reason) VALUES (?,?,?,?,?,?)",
                             (g, seq, body.encode("utf-8"), crc, at, f"salvaged after action {run} was lost"))
            n_entries += run
            held += len(seqs) - run
    return len(good_games), n_entries, held


def _salvage_sql(damaged: Path, games: dict[int, list[Row]], entries: dict[tuple[int, int], Row],
                 meta: dict[str, str], unsound: dict[tuple[int, int], Any]) -> None:
    """What SQLite itself still reads of ``damaged``: row by row, seeking past what fails; the actions it reads
    whose body does not hold, with their time, in ``unsound``."""
    try:
        old = connect(f"file:{damaged}?mode=ro", uri=True)
    except sqlite3.Error:
        return
    try:
        for sql, sink in (
            ("SELECT key, value FROM meta", lambda r: isinstance(r[0], str) and meta.setdefault(r[0], r[1])),
            ("SELECT id, game, CAST(setup AS BLOB), started, finished, result, crc FROM games ORDER BY id",
             lambda r: games.setdefault(r[0], []).append(tuple(r))),
            ("SELECT id, game, CAST(setup AS BLOB), started, finished, result, NULL FROM games ORDER BY id",
             lambda r: None if r[0] in games else games.setdefault(r[0], []).append(tuple(r))),
        ):
            try:
                for row in old.execute(sql):
                    sink(row)
            except Exception:  # noqa: BLE001,S112 - what SQLite cannot read, the page scan may
                continue
        for gid in list(games):
            lo, misses = 0, 0
            while misses < 64:
                try:
                    got = old.execute(
                        "SELECT game, seq, CAST(body AS BLOB), crc, at FROM entries "
                        "WHERE game=? AND seq>=? ORDER BY seq LIMIT 256", (gid, lo)).fetchall()
                except Exception:  # noqa: BLE001 - step past a page SQLite cannot read
                    lo, misses = lo + 1, misses + 1
                    continue
                if not got:
                    break
                for k, (game, seq, raw, crc, at) in enumerate(got):
                    if (k > 0 and seq <= got[k - 1][1]) or (k + 1 < len(got) and got[k + 1][1] <= seq):
                        continue  # out of key order: a flipped key, which the page scan reads by its place
                    sound = sound_body(raw, crc)
                    if sound is not None:
                        entries.setdefault((game, seq), (game, seq, sound.decode("utf-8"), zlib.crc32(sound), at))
                    elif (game, seq) not in entries:
                        unsound[(game, seq)] = at
                lo, misses = max(lo + 1, max(r[1] for r in got) + 1), 0  # always forward: a damaged
                # interior key can hand back rows below ``lo``
    except Exception:  # noqa: BLE001,S110 - the page scan still reads the file
        pass
    finally:
        old.close()


def _close_gap(entries: dict[tuple[int, int], Row], game: int, seqs: list[int],
               unsound: dict[tuple[int, int], Any]) -> list[int]:
    """A game's action numbers with a gap closed when one action past it, one bit away from the gap, is
    all that keeps the numbers from running on without one (the last action's number flipped upwards).
    Not where the journal still holds the gap's number, its action damaged (``unsound``): that action is
    lost, not misnumbered (a generated game's last action, «resolve», numbered one bit from a damaged drink
    four actions earlier, took the drink's place, and the three actions between were kept after it: the game
    no longer replayed and its restore was refused — or, with actions that still replay, would have told
    another game)."""
    gap = next((k for k, seq in enumerate(seqs) if seq != k), None)
    if gap is None or (game, gap) in unsound:
        return seqs
    rest = seqs[gap:]
    for k in rest:
        if (k ^ gap).bit_count() == 1 and sorted([gap] + [r for r in rest if r != k]) == list(
                range(gap, gap + len(rest))):
            entries[(game, gap)] = (game, gap) + entries.pop((game, k))[2:]
            return sorted(seq for g, seq in entries if g == game)
    return seqs


def _place_twins(entries: dict[tuple[int, int], Row], claims: dict[tuple[int, int], dict[Any, Row]],
                 unsound: dict[tuple[int, int], Any]) -> None:
    """Two different sound actions under one key, and a key one bit away missing: a flipped bit in a
    key that nothing around it on its page could show (the first or last cell of a leaf). The actions
    of a game are written in order, so of the two, the earlier in time takes the lower number. Not where
    the journal still holds that key, its action damaged (``unsound``): the key is not missing, its action is."""
    last: dict[int, int] = {}
    for game, seq in entries:
        last[game] = max(seq, last.get(game, seq))
    for (game, seq), rows in claims.items():
        if len(rows) != 2:
            continue
        first, second = sorted(rows.values(), key=lambda r: (r[4] is None, r[4] or 0.0))
        if first[4] is None or second[4] is None or first[4] == second[4]:
            continue
        for b in range(32):
            other = seq ^ (1 << b)
            if not 0 <= other <= last[game] + 1 or (game, other) in entries or (game, other) in unsound:
                continue  # the gap must be in the game's run of numbers (or right after its last)
            low, high = (first, second)
            if other < seq:
                entries[(game, other)] = (game, other) + low[2:]
                entries[(game, seq)] = high
            else:
                entries[(game, seq)] = low
                entries[(game, other)] = (game, other) + high[2:]
            break


def sound_copy(copy: sqlite3.Connection, path: Path) -> str | None:
    """Make ``copy`` (a page-for-page copy of the journal at ``path``) hold every sound row and nothing
    damaged; what was wrong, or None when the copy was sound as it was."""
    problem = JournalRows(copy).damage()
    if problem is None:
        return None
    with tempfile.TemporaryDirectory(prefix="tablekeeper-copy-") as d:
        damaged = Path(d) / FILENAME
        damaged.write_bytes(copy.serialize())
        fresh = connect(":memory:")
        try:
            fresh.executescript(SCHEMA)
            check_version(fresh, path)
            salvage_into(damaged, fresh)
            copy.deserialize(fresh.serialize())
        finally:
            fresh.close()
    return problem
