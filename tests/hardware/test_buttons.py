"""Debounce, hold and repeat on an injectable clock."""
from __future__ import annotations

import queue

from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.hardware.buttons import ButtonScanner, Debouncer, GpioButtons, Timing
from tablekeeper.hardware.mock import FakeClock
from tablekeeper.hardware.pod import HOLD, PRESS, RELEASE, REPEAT

from ..conftest import examples
from . import presses

T = Timing(debounce=0.02, hold_time=0.5, repeat_interval=0.1)
STABLE = Timing(debounce=0.02, hold_time=0.5, repeat_interval=0.1, eager=False)


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


def run(d: Debouncer, edges, until: float, step: float = 0.0001) -> None:
    """Feed ``[(t, level)]`` to ``d`` with its timers run every ``step`` s in between (as the scanner does)."""
    t = 0.0
    for at, level in [*edges, (until, None)]:
        while t < at:
            d.tick(t)
            t += step
        d.tick(at)
        if level is not None:
            d.edge(at, level)


def test_stable_wait_ignores_a_glitch_shorter_than_the_debounce_time():
    """Stable-wait debounce (eager=False): a level must stay put for the debounce time; 5 ms low is no press.
    (Eager debounce, the default, takes 5 ms for a press: see the next tests.)"""
    out = []
    run(Debouncer(1, "up", out.append, STABLE), [(0.0, True), (0.005, False)], 1.0)
    assert out == []


def test_eager_spikes_shorter_than_the_noise_threshold_are_no_press():
    """Eager debounce: spikes of 0.9 ms, even 20 of them in a row 0.1 ms apart, are no press; 1.1 ms is."""
    out = []
    burst = [(i / 1000 + dt, level) for i in range(20) for dt, level in ((0, True), (0.0009, False))]
    run(Debouncer(1, "up", out.append, T), burst, 1.0)
    assert out == []
    run(Debouncer(1, "up", out.append, T), [(0.0, True), (0.0011, False)], 1.0)
    assert kinds(out) == [PRESS, RELEASE]


def test_eager_press_counts_after_the_noise_threshold_not_the_debounce_time():
    """Instant presses: a clean contact gives its press 1 ms after it closes (stable-wait: 20 ms), and its
    release 1 ms after it opens."""
    for timing, settle in ((T, 0.001), (STABLE, 0.02)):
        out = []
        run(Debouncer(1, "up", out.append, timing), [(0.0, True), (0.1, False)], 1.0)
        assert [(e.kind, round(e.at, 4)) for e in out] == [(PRESS, settle), (RELEASE, round(0.1 + settle, 4))]


def test_eager_bounces_within_the_lockout_are_ignored():
    """After an eager press the button is locked for the debounce time: a 3 ms bounce open right after the
    press is no release, and a tap released inside the lockout is released when the lockout ends."""
    out = []
    run(Debouncer(1, "up", out.append, T), [(0.0, True), (0.002, False), (0.005, True), (0.1, False)], 1.0)
    assert [(e.kind, round(e.at, 4)) for e in out] == [(PRESS, 0.001), (RELEASE, 0.101)]
    out = []
    run(Debouncer(1, "up", out.append, T), [(0.0, True), (0.008, False)], 1.0)
    assert [(e.kind, round(e.at, 4)) for e in out] == [(PRESS, 0.001), (RELEASE, 0.021)]


def host_events(edges, eager: bool) -> list:
    """The host debouncer's events ``[(kind, µs)]`` for contact edges in test microseconds."""
    out = []
    us = presses.US
    timing = Timing(presses.DEBOUNCE * us, presses.HOLD * us, presses.REPEAT * us, eager=eager,
                    noise=presses.NOISE * us)
    d = Debouncer(1, "main", lambda e: out.append((e.kind, round(e.at / us))), timing)
    for t, level in edges:
        d.tick(t * us)
        d.edge(t * us, level)
    d.tick((edges[-1][0] + 3_000_000) * us)
    return out


@settings(max_examples=examples(200), deadline=None)
@given(presses.physical_presses())
def test_chattering_presses_give_one_press_and_one_release_each(script):
    """Whatever a press's and its release's bounce trains (parts from 1 µs to 5 ms, each train shorter than
    the debounce window), eager and stable-wait debounce both give exactly one press and one release per
    physical press, in order, each at most the settle time (1 ms eager, 20 ms stable-wait) after the contact
    came to rest."""
    edges, made = script
    presses.check_one_press_per_press(host_events(edges, True), made, presses.NOISE)
    presses.check_one_press_per_press(host_events(edges, False), made, presses.DEBOUNCE)


def test_hold_then_repeats_at_their_times():
    """Hold repeats: hold after hold_time, repeat every repeat_interval, each at its due time, counted from
    the press (eager: 1 ms after the contact closed; stable-wait: after the 20 ms debounce time)."""
    for timing, settle in ((T, 0.001), (STABLE, 0.02)):
        out = []
        d = Debouncer(2, "down", out.append, timing)
        d.edge(0.0, True)
        d.tick(0.83)
        assert kinds(out) == [PRESS, HOLD, REPEAT, REPEAT, REPEAT]
        assert [round(e.at, 3) for e in out] == [round(settle + x, 3) for x in (0, 0.5, 0.6, 0.7, 0.8)]
    d.edge(0.85, False)
    d.tick(2.0)
    assert kinds(out)[-1] == RELEASE and len(out) == 6


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.floats(0.0001, 0.3), st.booleans()), max_size=40))
def test_events_alternate_press_release_whatever_the_contact_does(edges):
    """Debounce property: presses and releases alternate; holds/repeats only between them (both algorithms)."""
    for timing in (T, STABLE):
        out = []
        d = Debouncer(1, "main", out.append, timing)
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
    scanner = ButtonScanner(q.put, clock)
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
    scanner = ButtonScanner(q.put)
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


def test_a_late_timer_thread_loses_no_press():
    """A press whose timer has not run yet when the contact opens (the scanner thread late, here never run)
    is still emitted, before the release: an edge first emits what fell due before it."""
    clock = FakeClock()
    q = queue.Queue()
    scanner = ButtonScanner(q.put, clock)
    d = scanner.add(1, "up", T)
    scanner.edge(d, True)
    clock.advance(0.05)
    scanner.edge(d, False)
    clock.advance(0.05)
    scanner.tick()
    assert [q.get_nowait().kind for _ in range(q.qsize())] == [PRESS, RELEASE]
