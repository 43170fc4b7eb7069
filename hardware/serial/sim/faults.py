"""Fault injection on a byte stream, by configuration: dropped, corrupted, duplicated, swapped bytes, garbage."""
from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Faults:
    """Per-byte fault probabilities for one direction of a link, with their own seeded random numbers.

    ``drop``: the byte is lost; ``corrupt``: it arrives with bits flipped;
    ``duplicate``: it arrives twice; ``reorder``: it swaps places with the
    next byte; ``garbage``: 1-12 random bytes (a sync byte among them at
    times) are inserted before it. Counts what it did.
    """

    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    garbage: float = 0.0
    seed: int = 0
    counts: dict = field(default_factory=lambda: {"bytes": 0, "dropped": 0, "corrupted": 0, "duplicated": 0,
                                                  "reordered": 0, "garbage": 0})

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.enabled = True

    @property
    def active(self) -> bool:
        return self.enabled and any((self.drop, self.corrupt, self.duplicate, self.reorder, self.garbage))

    def apply(self, data: bytes) -> bytes:
        self.counts["bytes"] += len(data)
        if not self.active or not data:
            return data
        rng = self.rng
        c = self.counts
        cut1 = self.drop
        cut2 = cut1 + self.corrupt
        cut3 = cut2 + self.duplicate
        cut4 = cut3 + self.reorder
        out = bytearray()
        i = 0
        n = len(data)
        while i < n:
            if self.garbage and rng.random() < self.garbage:
                junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 13)))
                if rng.random() < 0.5:
                    junk = b"\x7e" + junk
                out += junk
                c["garbage"] += len(junk)
            b = data[i]
            r = rng.random()
            if r < cut1:
                c["dropped"] += 1
            elif r < cut2:
                out.append(b ^ rng.randrange(1, 256))
                c["corrupted"] += 1
            elif r < cut3:
                out += bytes((b, b))
                c["duplicated"] += 1
            elif r < cut4 and i + 1 < n:
                out += bytes((data[i + 1], b))
                c["reordered"] += 1
                i += 1
            else:
                out.append(b)
            i += 1
        return bytes(out)
