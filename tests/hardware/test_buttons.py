"""Debounce, hold and repeat on an injectable clock."""
from __future__ import annotations

import queue

from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.hardware.buttons import ButtonScanner, Debouncer, GpioButtons, Timing
from tablekeeper.hardware.mock import FakeClock
from tablekeeper.hardware.pod import HOLD, PRESS, RELEASE, REPEAT

T = Timing(debounce=0.02, hold_time=0.5, repeat_interval=0.1)


def kinds(events):
    return [e.kind for e in events]


def test_chatter_gives_exactly_one_press_and_one_release():
    """A chattering contact gives exactly one press."""
    out = []
    d = Debouncer(1, "up", out.append, T)
    t = 0.0
    for level in [1, 0, 1, 0, 1, 0, 1]:  # 1 ms bounces, then closed
        d.edge(t, bool(level))
        t += 0.001
    d.tick(t + 0.1)
    for level in [0, 1, 0, 1, 0]:  # bouncing open
        t += 0.2
        d.edge(t, bool(level))
    d.tick(t + 0.05)
    assert kinds(out) == [PRESS, RELEASE]


def test_short_glitch_is_ignored():
    """Debounce: a level must stay put for the debounce time; a 5 ms glitch is no press."""
    out = []
    d = Debouncer(1, "up", out.append, T)
    d.edge(0.0, True)
    d.edge(0.005, False)
    d.tick(1.0)
    assert out == []


def test_hold_then_repeats_at_their_times():
    """Hold repeats: hold after hold_time, repeat every repeat_interval, each at its due time."""
    out = []
    d = Debouncer(2, "down", out.append, T)
    d.edge(0.0, True)
    d.tick(0.83)
    assert kinds(out) == [PRESS, HOLD, REPEAT, REPEAT, REPEAT]
    assert [round(e.at, 3) for e in out] == [0.02, 0.52, 0.62, 0.72, 0.82]
    d.edge(0.85, False)
    d.tick(2.0)
    assert kinds(out)[-1] == RELEASE and len(out) == 6


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0001, 0.3), st.booleans()), max_size=40))
def test_events_alternate_press_release_whatever_the_contact_does(edges):
    """Debounce property: presses and releases alternate; holds/repeats only between them."""
    out = []
    d = Debouncer(1, "main", out.append, T)
    t = 0.0
    for dt, level in edges:
        t += dt
        d.tick(t)
        d.edge(t, level)
    d.tick(t + 10)
    down = False
    for e in out:
        if e.kind == PRESS:
            assert not down
            down = True
        elif e.kind == RELEASE:
            assert down
            down = False
        else:
            assert down
    assert down == d.stable


def test_mock_pins_through_gpiozero_reach_the_queue():
    """Buttons via gpiozero (pull-up: pressed = pin low) on MockFactory pins, events onto one queue."""
    clock = FakeClock()
    q = queue.Queue()
    scanner = ButtonScanner(q, clock)
    buttons = GpioButtons(4, {"up": 5, "main": 6}, scanner, MockFactory(), T)
    try:
        pin = buttons.pin("main")
        assert pin.state is True  # pulled up: released
        for _ in range(5):
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        clock.advance(0.03)
        scanner.tick()
        pin.drive_high()
        clock.advance(0.03)
        scanner.tick()
        got = [q.get_nowait() for _ in range(q.qsize())]
        assert [(e.seat, e.button, e.kind) for e in got] == [(4, "main", PRESS), (4, "main", RELEASE)]
    finally:
        buttons.close()


def test_scanner_thread_runs_timers_on_the_real_clock():
    """Hold timing without anyone ticking by hand (the headless loop's case)."""
    q = queue.Queue()
    scanner = ButtonScanner(q)
    d = scanner.add(1, "up", Timing(debounce=0.005, hold_time=0.05, repeat_interval=0.02))
    scanner.start()
    try:
        scanner.edge(d, True)
        first = [q.get(timeout=2).kind for _ in range(3)]
        assert first == [PRESS, HOLD, REPEAT]
        scanner.edge(d, False)
        while (e := q.get(timeout=2)).kind != RELEASE:
            assert e.kind == REPEAT
    finally:
        scanner.stop()
    assert scanner._thread is None  # stopped and joined
