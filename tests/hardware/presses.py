"""Physical button presses with contact bounce, and what a debouncer must make of them.

Shared by the host's and the pod's debounce tests. Times are whole
microseconds: the pod's debouncer only adds and compares, so it takes them
as they are; the host's gets them scaled to seconds by :data:`US` (a power
of two, so every sum stays exact).

A physical press: the contact closes, bounces (closed/open pairs, each part
from 1 µs — an EMI-like spike — to 5 ms, the whole train shorter than the
debounce window), stays closed longer than the debounce window plus the
noise threshold, opens, bounces the same way, then stays open longer than
the debounce window before the next press.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

US = 2.0 ** -20  # seconds per test microsecond on the host (≈ 0.95 µs, exact in binary floating point)
DEBOUNCE = 20_000
NOISE = 1_000
HOLD = 600_000
REPEAT = 150_000
LONGEST_BOUNCE_PART = 5_000


@dataclass(frozen=True)
class Press:
    down: int  # the first closing edge
    settled_down: int  # closed for good from here (the end of the press bounce)
    up: int  # the first opening edge
    settled_up: int  # open for good from here


def bounce(draw_int: Callable[[int, int], int], first: bool, start: int) -> tuple[list, int]:
    """Edges of a bounce train beginning with ``first`` at ``start``, shorter than DEBOUNCE; and its end."""
    edges, t = [], start
    for _ in range(draw_int(0, 6)):
        closed, opened = draw_int(1, LONGEST_BOUNCE_PART), draw_int(1, LONGEST_BOUNCE_PART)
        if t + closed + opened - start >= DEBOUNCE:
            break
        edges += [(t, first), (t + closed, not first)]
        t += closed + opened
    edges.append((t, first))
    return edges, t


def script(draw_int: Callable[[int, int], int], presses: int) -> tuple[list, list]:
    """Contact edges ``[(µs, closed)]`` of ``presses`` physical presses, and the presses."""
    edges: list = []
    made = []
    t = draw_int(0, 50_000)
    for _ in range(presses):
        down_edges, settled_down = bounce(draw_int, True, t)
        up = settled_down + DEBOUNCE + NOISE + draw_int(1, 1_000_000)  # held: sometimes long enough to repeat
        up_edges, settled_up = bounce(draw_int, False, up)
        edges += down_edges + up_edges
        made.append(Press(t, settled_down, up, settled_up))
        t = settled_up + DEBOUNCE + draw_int(1, 200_000)  # the gap before the next press
    return edges, made


@st.composite
def physical_presses(draw, max_presses: int = 5):
    return script(lambda lo, hi: draw(st.integers(lo, hi)), draw(st.integers(1, max_presses)))


def check_one_press_per_press(events: list, presses: list, settle: int) -> None:
    """``events``: ``[(kind, at_µs)]``. Exactly one press and one release per physical press, in order, each
    within its press (no later than ``settle`` after the contact came to rest); hold and repeat only while
    pressed."""
    edges = [(k, at) for k, at in events if k in ("press", "release")]
    assert [k for k, _ in edges] == ["press", "release"] * len(presses), events
    for p, (_, down), (_, up) in zip(presses, edges[::2], edges[1::2]):
        assert p.down <= down <= p.settled_down + settle, (p, down)
        assert p.up <= up <= p.settled_up + settle, (p, up)
    pressed = False
    for kind, _ in events:
        if kind in ("press", "release"):
            pressed = kind == "press"
        else:
            assert pressed, events
