"""Single-bit damage and cuts, scanned: every flipped bit of a journal opens, hides nothing, loses nothing.

A journal made by tablekeeper itself (three games: a finished Bloody Inn, a
finished Dale of Merchants and an unfinished counters game, 400 actions in
all) is closed, then copied once per damage: one bit flipped (every bit of a
small file, or a seeded sample), or the file cut at an offset. Each copy is
opened by the real code (``Journal`` then ``Session.resume``, as ``serve``
does) and judged:

``traceback``
    anything but a :class:`TablekeeperError` escaped (a crash);
``unopenable``
    the journal could not be opened at all (a sentence, but no game);
``missing``
    an acknowledged action is neither live nor in the quarantine;
``wrong``
    a live (or held) action is not the one acknowledged at its place;
``hidden``
    a game that has rows is missing from ``games()`` (list, stats, exports);
``reopened``
    a finished game came back unfinished (``serve`` would resume it);
``silent``
    something changed (a row moved to the quarantine, the file was repaired)
    and no warning said so.

``python -m tests.e2e.flipscan [--samples N] [--seed S] [--wal]`` prints the
figures (docs/reliability.md).
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

from tablekeeper.engine import Journal, Session, canonical
from tablekeeper.engine.errors import TablekeeperError
from tablekeeper.engine.journal import FILENAME

SCRIPTS = Path(__file__).resolve().parent.parent / "engine" / "scripts"
GAMES = ("bloody-inn-3p-short.jsonl", "dale-of-merchants-two-player-game.jsonl")
COUNTERS = {"counters": [{"name": "life", "start": 1000, "min": None}, {"name": "gold", "start": 10, "min": 0}]}


@dataclass
class Made:
    """What was acknowledged: each game's entries (canonical JSON) and which games finished."""

    entries: dict[int, list[str]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)

    @property
    def total(self) -> int:
        return sum(len(v) for v in self.entries.values())


def _script(name: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(x) for x in (SCRIPTS / name).read_text().splitlines() if x.strip()]
    return lines[0], lines[1:]


def make_journal(state_dir: Path, total: int = 400, *, keep_open: bool = False) -> tuple[Made, Journal | None]:
    """The scanned journal: two finished games from the rule tests' scripts, then counters up to ``total``.

    ``keep_open`` leaves the writer open (a live ``-wal`` beside the file, as a
    power cut would leave it) and returns it; the caller closes it.
    """
    with mock.patch("tablekeeper.engine.journal.time.time", side_effect=itertools.count(1.8e9, 0.0137).__next__):
        return _make_journal(state_dir, total, keep_open=keep_open)


def _make_journal(state_dir: Path, total: int, *, keep_open: bool) -> tuple[Made, Journal | None]:
    """:func:`make_journal` on a clock that ticks at every reading: the same bytes every time, so a seed
    names the same flips of the same file."""
    made = Made()
    j = Journal(state_dir)
    for name in GAMES:
        setup, actions = _script(name)
        s = Session.new(j, setup["game"], setup["players"], setup.get("options"))
        for a in actions:
            s.apply(a)
        if s.match.state["over"]:
            made.finished.add(s.game_id)
    s = Session.new(j, "counters", ["Ana", "Ben", "Cai"], COUNTERS)
    i = 0
    while sum(len(j.entries(g.id)) for g in j.games()) < total:
        if i % 11 == 10:
            s.apply({"action": "undo"})
        else:
            s.apply({"action": "adjust", "player": ("Ana", "Ben", "Cai")[i % 3], "counter": ("life", "gold")[i % 2],
                     "delta": 1 + i % 4})
        i += 1
    for g in j.games():  # every row as journalled (undo and redo are rows too)
        made.entries[g.id] = [canonical(e) for _, e in j.entries(g.id)]
    if keep_open:
        return made, j
    j.close()
    return made, None


@dataclass
class Verdict:
    damage: str
    kinds: list[str] = field(default_factory=list)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.kinds


def judge(state_dir: Path, made: Made, damage: str) -> Verdict:
    """Open a damaged copy as ``serve`` would and compare with what was acknowledged."""
    v = Verdict(damage)
    try:
        with Journal(state_dir) as j:
            Session.resume(j)
            listed = {g.id: g for g in j.games()}
            live = {gid: [canonical(e) for _, e in j.entries(gid)] for gid in made.entries}
            held: dict[tuple[int, int], str | None] = {}
            for q in j.quarantined():
                held.setdefault((q["game"], q["seq"]), None if q["entry"] is None else canonical(q["entry"]))
                if q["entry"] is not None:
                    held[(q["game"], q["seq"])] = canonical(q["entry"])
            warned = bool(j.warnings)
    except TablekeeperError as e:
        v.kinds.append("unopenable")
        v.detail = str(e)
        return v
    except Exception:  # noqa: BLE001 - a traceback is what is being counted
        v.kinds.append("traceback")
        v.detail = traceback.format_exc(limit=-3)
        return v
    changed = False
    for gid, acked in made.entries.items():
        if gid not in listed and (live[gid] or any(g == gid for g, _ in held)):
            v.kinds.append("hidden")
            v.detail += f"game {gid} not listed, though its actions are kept; "
        for seq, body in enumerate(acked):
            here = live[gid][seq] if seq < len(live[gid]) else None
            if here == body:
                continue
            changed = True
            if here is not None:
                v.kinds.append("wrong")
                v.detail += f"game {gid} action {seq} is not the one acknowledged; "
                break
            if (gid, seq) not in held:
                v.kinds.append("missing")
                v.detail += f"game {gid} action {seq} lost; "
                break
            if held[(gid, seq)] not in (None, body):
                v.kinds.append("wrong")
                v.detail += f"game {gid} action {seq} held in the quarantine is not the one acknowledged; "
                break
        if gid in made.finished and gid in listed and listed[gid].finished is None:
            v.kinds.append("reopened")
            v.detail += f"game {gid} reopened; "
    if (changed or held) and not warned:
        v.kinds.append("silent")
    return v


def _copy(src: Path, dst: Path) -> None:
    for p in src.iterdir():
        if p.name.startswith(FILENAME):
            shutil.copyfile(p, dst / p.name)


def bits_of(path: Path, samples: int | None, rng: random.Random) -> list[int]:
    n = path.stat().st_size * 8
    return list(range(n)) if samples is None or samples >= n else sorted(rng.sample(range(n), samples))


def page_header_bits(path: Path, offsets: tuple[int, ...] = (0, 3, 4), page_size: int = 4096) -> list[int]:
    """Every bit of the given bytes of each page's b-tree header (0: the page's kind; 3–4: its cell count)."""
    pages = path.stat().st_size // page_size
    return [(n * page_size + (100 if n == 0 else 0) + b) * 8 + k for n in range(pages) for b in offsets
            for k in range(8)]


def scan(src: Path, made: Made, *, target: str = FILENAME, samples: int | None = 1000, seed: int = 0,
         cuts: int = 0, bits: list[int] | None = None) -> list[Verdict]:
    """Flip one bit of ``target`` (a file in ``src``) per copy (``bits``, or ``samples`` random ones), and
    cut it at ``cuts`` random offsets."""
    rng = random.Random(seed)
    path = src / target
    data = path.read_bytes()
    out = []
    with tempfile.TemporaryDirectory(prefix="flipscan-") as tmp:
        for k, bit in enumerate(bits if bits is not None else bits_of(path, samples, rng)):
            d = Path(tmp) / f"f{k}"
            d.mkdir()
            _copy(src, d)
            damaged = bytearray(data)
            damaged[bit // 8] ^= 1 << (bit % 8)
            (d / target).write_bytes(bytes(damaged))
            out.append(judge(d, made, f"{target} bit {bit} (byte {bit // 8})"))
            shutil.rmtree(d)
        for k in range(cuts):
            at = rng.randrange(1, len(data))
            d = Path(tmp) / f"c{k}"
            d.mkdir()
            _copy(src, d)
            (d / target).write_bytes(data[:at])
            v = judge(d, made, f"{target} cut at {at}")
            # a cut loses what was after it: only tracebacks and unopenable files count here
            v.kinds = [x for x in v.kinds if x in ("traceback", "unopenable", "hidden")]
            out.append(v)
            shutil.rmtree(d)
    return out


def figures(verdicts: list[Verdict]) -> dict:
    kinds = Counter(k for v in verdicts for k in set(v.kinds))
    return {"cases": len(verdicts), "ok": sum(v.ok for v in verdicts), **{k: kinds.get(k, 0) for k in
            ("traceback", "unopenable", "missing", "wrong", "hidden", "reopened", "silent")}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=1000, help="bits flipped per file (0: every bit)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cuts", type=int, default=100)
    ap.add_argument("--wal", action="store_true", help="also flip bits of a live -wal (a writer cut off)")
    ap.add_argument("--show", type=int, default=5, help="failures shown")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="flipscan-src-") as src:
        made, _ = make_journal(Path(src))
        verdicts = scan(Path(src), made, samples=args.samples or None, seed=args.seed, cuts=args.cuts)
        print(json.dumps({"journal": figures(verdicts)}))
        for v in [v for v in verdicts if not v.ok][: args.show]:
            print(" ", v.damage, v.kinds, v.detail.strip()[-600:])
    if args.wal:
        with tempfile.TemporaryDirectory(prefix="flipscan-wal-") as src:
            made, writer = make_journal(Path(src), keep_open=True)
            frozen = Path(src) / "frozen"
            frozen.mkdir()
            _copy(Path(src), frozen)
            assert writer is not None
            writer.close()
            side = frozen / f"{FILENAME}-wal"
            if side.exists() and side.stat().st_size:
                verdicts = scan(frozen, made, target=f"{FILENAME}-wal", samples=args.samples or None,
                                seed=args.seed, cuts=args.cuts)
                print(json.dumps({"wal": figures(verdicts)}))
                for v in [v for v in verdicts if not v.ok][: args.show]:
                    print(" ", v.damage, v.kinds, v.detail.strip()[-600:])
            else:
                print(json.dumps({"wal": "no live -wal beside the journal (not in WAL mode)"}))


if __name__ == "__main__":
    main()
