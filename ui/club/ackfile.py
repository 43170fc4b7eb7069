"""The table's ack file: what its league acknowledged, kept beside the journal (``club-acks.json``).

Written atomically and not in the journal (the journal keeps its one writer): after a table restart
or hours offline, the publisher sends again exactly what these acks do not cover.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...engine.backup import write_atomic

ACK_FILE = "club-acks.json"
ACK_FILE_VERSION = 1


def ranges(numbers: Iterable[int]) -> list[list[int]]:
    """Numbers as [from, to] runs (``[1, 2, 3, 5]``: ``[[1, 3], [5, 5]]``)."""
    out: list[list[int]] = []
    for n in sorted(set(numbers)):
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


class AckFile:
    """What the league acknowledged, kept beside the journal: ``{"v", "table", "journal", "first_game",
    "settled": [[from, to], ...], "games": {"N": [acked seq, finished time of the play held or null]}}``."""

    def __init__(self, path: Path):
        self.path = path

    def load(self) -> dict[str, Any] | None:
        """The file's content; None when there is none; ValueError with a sentence when it is unusable."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise ValueError(f"{self.path}: cannot read it: {e.strerror or e}") from None
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict) or data.get("v") != ACK_FILE_VERSION:
                raise ValueError("not an ack file of version 1")
            int(data["first_game"])
            for lo, hi in data["settled"]:
                int(lo), int(hi)
            for k, (seq, held) in data["games"].items():
                int(k), int(seq), None if held is None else float(held)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
            raise ValueError(f"{self.path}: not a usable ack file ({e})") from None
        return data

    def save(self, data: dict[str, Any]) -> None:
        write_atomic(self.path, json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8"))
