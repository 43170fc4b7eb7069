"""Where each player sits around the table, as the seat-facing layout needs it (no window needed)."""
from __future__ import annotations

#: Seat-facing layout (Settings → Layout): for this many players (at most four cards on a long side).
FACING_PLAYERS = (2, 8)
#: ... and with a seat at each short end of the table ("seats at the ends too"): for this many.
END_PLAYERS = (4, 6)


def facing_sides(names: list[str], ends: bool = False) -> tuple[list[str], list[str], list[str], list[str]]:
    """Who sits on the near long side, the far one, the left end and the right end, each side as
    seen on the screen left to right (an end: one player or none).

    Players are in seat order, clockwise around the table (the pods' order). The first sits at
    the near side's left end; clockwise from there comes the left end of the table (``ends``), the
    far side, left to right from the screen's view, the right end, then the near side from its
    right end back toward the first.
    """
    ends = ends and END_PLAYERS[0] <= len(names) <= END_PLAYERS[1]
    rest = names[1:]
    left = [rest.pop(0)] if ends else []
    long_side = len(rest) - (1 if ends else 0)  # the far side and the near side (the first's included)
    far_n = (long_side + 1) // 2 if ends else len(names) // 2
    far = rest[:far_n]
    rest = rest[far_n:]
    right = [rest.pop(0)] if ends else []
    near = [names[0]] + list(reversed(rest))
    return near, far, left, right


__all__ = ["END_PLAYERS", "FACING_PLAYERS", "facing_sides"]
