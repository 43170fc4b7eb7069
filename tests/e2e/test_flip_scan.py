"""One flipped bit anywhere in a journal, or in a live -wal, and cuts of both: the scan of tests/e2e/flipscan.py.

Every copy opens as ``serve`` opens it; none may raise, none may be left
unopenable, no game that still has actions may vanish, no finished game may
come back unfinished, no repair may go unsaid, no acknowledged action may be
neither live nor in the quarantine, and none may be replaced by another.
"""
from __future__ import annotations

from pathlib import Path

import flipscan  # noqa: E402 - tests/e2e is on the path (conftest)
import pytest

from tablekeeper.engine.journal import FILENAME
from tablekeeper.engine.salvage import _varint


def _failures(verdicts):
    return [f"{v.damage}: {v.kinds} {v.detail.strip()[-300:]}" for v in verdicts if not v.ok]


@pytest.mark.slow
def test_a_thousand_flipped_bits_and_a_hundred_cuts_of_a_closed_journal(tmp_path):
    made, _ = flipscan.make_journal(tmp_path)
    verdicts = flipscan.scan(tmp_path, made, samples=1000, seed=7, cuts=100)
    figures = flipscan.figures(verdicts)
    assert figures["traceback"] == figures["unopenable"] == figures["hidden"] == 0, _failures(verdicts)
    assert figures["reopened"] == figures["silent"] == figures["wrong"] == figures["missing"] == 0, \
        _failures(verdicts)


@pytest.mark.slow
def test_every_flipped_bit_of_every_pages_kind_and_cell_count(tmp_path):
    """A leaf whose kind reads as an interior page (or as no kind), and a cell count off by a bit: the
    page is read as the kind one bit away whose rows hold, and past its count; nothing is lost."""
    made, _ = flipscan.make_journal(tmp_path)
    bits = flipscan.page_header_bits(tmp_path / FILENAME)
    assert len(bits) >= 14 * 24
    verdicts = flipscan.scan(tmp_path, made, bits=bits)
    figures = flipscan.figures(verdicts)
    assert figures["ok"] == figures["cases"] == len(bits), _failures(verdicts)


@pytest.mark.slow
def test_flipped_bits_and_cuts_of_a_live_write_ahead_log(tmp_path):
    made, writer = flipscan.make_journal(tmp_path / "live", keep_open=True)
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    for p in (tmp_path / "live").iterdir():
        if p.name in (FILENAME, f"{FILENAME}-wal"):
            Path(frozen / p.name).write_bytes(p.read_bytes())
    writer.close()
    assert (frozen / f"{FILENAME}-wal").stat().st_size > 100_000, "the actions live in the -wal"
    verdicts = flipscan.scan(frozen, made, target=f"{FILENAME}-wal", samples=150, seed=7, cuts=20)
    figures = flipscan.figures(verdicts)
    assert figures["traceback"] == figures["unopenable"] == figures["hidden"] == 0, _failures(verdicts)
    assert figures["missing"] == figures["wrong"] == figures["reopened"] == figures["silent"] == 0, \
        _failures(verdicts)


def _first_key_bits(path: Path, page_size: int = 4096) -> list[int]:
    """The lowest bit of the action number in the first and last cell of every leaf of actions: a flipped
    key there has no neighbour on its page to show it."""
    data = path.read_bytes()
    bits = []
    for n in range(1, len(data) // page_size):
        page = data[n * page_size:(n + 1) * page_size]
        if page[0] != 0x0A:  # an index leaf: the actions (a WITHOUT ROWID table)
            continue
        count = int.from_bytes(page[3:5], "big")
        for slot in (0, count - 1):
            ptr = int.from_bytes(page[8 + 2 * slot:10 + 2 * slot], "big")
            _size, i = _varint(page, ptr)  # the payload's size
            header, j = _varint(page, i)
            types = []
            while j < i + header:
                t, j = _varint(page, j)
                types.append(t)
            widths = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 8: 0, 9: 0}  # 8, 9: the constants 0 and 1
            if len(types) != 5 or types[0] not in widths or widths.get(types[1], 0) == 0:
                continue  # not an action (the index of meta's keys), or its number is a constant (no byte)
            seq_end = i + header + widths[types[0]] + widths[types[1]] - 1  # game, then seq: its last byte
            bits.append((n * page_size + seq_end) * 8)
    return bits


@pytest.mark.slow
def test_a_flipped_action_number_at_either_end_of_a_leaf_is_put_back_by_time(tmp_path):
    made, _ = flipscan.make_journal(tmp_path)
    bits = _first_key_bits(tmp_path / FILENAME)
    assert len(bits) >= 8
    verdicts = flipscan.scan(tmp_path, made, bits=bits)
    assert all(v.ok for v in verdicts), _failures(verdicts)
