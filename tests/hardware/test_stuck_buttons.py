"""A stuck button: recognised once held past the threshold, its repeats kept from the journal, said on its pod,
on the touchscreen and by ``hw check``, and working again once released — on wired (mock) and serial pods.

Time is the tables' fake clocks (the button scanner's, the serial wire's) or the events' own stamps.
"""
from __future__ import annotations

import time

import pytest

from tablekeeper.hardware.face import Care
from tablekeeper.hardware.pod import BUTTONS, HOLD, PRESS, RELEASE, REPEAT, InputEvent
from tablekeeper.hardware.render import message_lines, render
from tablekeeper.hardware.serial import backend
from tablekeeper.hardware.serial.link import FAST
from tablekeeper.hardware.serial.port import PortFinder
from tablekeeper.hardware.serial.sim.pty_pod import SimPod
from tablekeeper.ui.i18n import load_catalog
from tablekeeper.ui.pod.stuck import (
    FREED,
    HELD_BACK,
    PASS,
    STUCK,
    STUCK_AFTER,
    StuckButtons,
    screen_notice,
)

from .conftest import TIMING
from .test_pods import same_pixels
from .test_serial_link import Table as WireTable
from .test_serial_pty import serial_seat

#: The adjusts a held ± makes up to the threshold (press, hold, then a repeat every interval): they stay.
BEFORE_STUCK = 2 + int((STUCK_AFTER - TIMING.hold_time) / TIMING.repeat_interval)


def rows(session) -> int:
    """The game's rows in the journal."""
    return len(session.history())


def score(t, seat: int = 1) -> int:
    return t.state["players"][seat - 1]["counters"]["score"]


# -- a wired pod (gpiozero's mock pins, the scanner on a fake clock) ------------------------------------------
@pytest.mark.slow
def test_a_stuck_button_stops_adding_to_the_journal_once_held_past_the_threshold(table_factory):
    """A ± held down for good: its adjusts up to the threshold stay (a long hold is legitimate), after it
    the journal grows by nothing, however long it lasts."""
    t = table_factory("counters")
    start, before = score(t), rows(t.session)
    t.pod(1).pin("up").drive_low()
    t.settle(STUCK_AFTER - 1)
    assert rows(t.session) > before  # a long hold is a hold: it adjusts
    t.settle(2)
    stuck_at = rows(t.session)
    assert stuck_at - before == BEFORE_STUCK
    assert score(t) - start == BEFORE_STUCK
    t.settle(3 * STUCK_AFTER)
    assert rows(t.session) == stuck_at and score(t) - start == BEFORE_STUCK
    assert t.seats.held_back > 0


@pytest.mark.slow
def test_a_stuck_button_is_said_on_its_pod_and_in_the_log(table_factory):
    """Its pod says which button is stuck, in place of the status line, until it is released; the log says it
    once; the other pods show nothing of it."""
    t = table_factory("counters")
    t.pod(1).pin("down").drive_low()
    t.settle(STUCK_AFTER + 1)
    view = t.seats.view(1)
    assert view.stuck == ("down",) and view.notice == "▼ button stuck: ignored until released"
    assert same_pixels(t.pod(1).screen_image, render(view))
    assert not t.seats.view(2).stuck and not t.seats.view(2).notice
    assert [r for r in t.reports if "stuck" in r] == [
        f"seat 1: down held for over {STUCK_AFTER:g} s: stuck? Its holds and repeats are ignored until it is "
        "released"]
    t.settle(STUCK_AFTER)
    assert sum("stuck" in r for r in t.reports) == 1


def test_a_released_stuck_button_works_again_and_its_notice_goes(table_factory):
    """Let go at last: the notice goes, the log says so, and the next press adjusts again."""
    t = table_factory("counters")
    pin = t.pod(1).pin("up")
    pin.drive_low()
    t.settle(STUCK_AFTER + 5)
    stuck_at, value = rows(t.session), score(t)
    pin.drive_high()
    t.settle(TIMING.debounce * 3)
    view = t.seats.view(1)
    assert not view.stuck and not view.notice
    assert same_pixels(t.pod(1).screen_image, render(view))
    assert t.reports[-1] == "seat 1: up released: it works again"
    t.press(1, "up")
    assert rows(t.session) == stuck_at + 1 and score(t) == value + 1
    # and a hold is a hold again: its repeats adjust
    t.press(1, "up", hold=TIMING.debounce + TIMING.hold_time + 2 * TIMING.repeat_interval + 0.01)
    assert score(t) == value + 1 + 4


def test_other_buttons_of_a_pod_with_a_stuck_one_still_work(table_factory):
    """Only the stuck button is ignored: select still moves the focus, main still ends the turn."""
    t = table_factory("counters", options={"counters": ["gold", "life"]})
    t.pod(1).pin("up").drive_low()
    t.settle(STUCK_AFTER + 1)
    t.press(1, "select")
    assert t.seats.view(1).focus_name == "life" and t.seats.view(1).stuck == ("up",)
    t.press(1, "main")
    assert t.state["turn"]["player"] == t.state["players"][1]["name"]


def test_a_stuck_button_lets_its_pod_dim(table_factory):
    """The held-back repeats are no presses: the pod dims after its idle time as if nobody touched it."""
    care = Care(contrast=200, dim_contrast=9, dim_after=30, shift_every=0)
    t = table_factory("counters", care=care)
    model = t.pod(1).face.link.model
    t.pod(1).pin("up").drive_low()
    t.settle(STUCK_AFTER + 1)
    # the last changed value's flash and the "✓" of the last press it made are over (the pods are refreshed
    # only when settled)
    t.settle(t.seats.message_seconds + 1)
    assert t.seats.view(1).stuck and model.contrast == 200
    t.settle(care.dim_after)
    assert model.contrast == 9


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_stuck_notice_fits_the_pods_screen_in_both_languages(lang):
    """One stuck button, or two, said whole in the message area of every screen (no "…"), in English and
    Spanish."""
    catalog = None if lang == "en" else load_catalog("es")
    cases = [(b,) for b in BUTTONS] + [(a, b) for i, a in enumerate(BUTTONS) for b in BUTTONS[i + 1:]]
    for buttons in cases:
        text = screen_notice(buttons).translated(catalog)
        for screen in ("home", "menu", "entry", "preview"):
            lines = message_lines(text, screen)
            assert " ".join(lines) == text, (screen, lines)


def test_a_spanish_table_is_told_in_spanish(table_factory):
    t = table_factory("counters")
    t.seats.catalog = load_catalog("es")
    t.pod(2).pin("select").drive_low()
    t.settle(STUCK_AFTER + 1)
    assert t.seats.view(2).notice == "botón select atascado: se ignora hasta soltarlo"


# -- a serial pod (the firmware's own repeats, over the wire, on a fake clock) -------------------------------
@pytest.mark.slow
def test_a_serial_pods_stuck_button_is_recognised_from_its_event_stream(tmp_path):
    """The pod's firmware makes the holds and repeats; the host recognises the stuck button from them alone:
    the journal stops growing, the pod shows why, and after the release the next press works."""
    table = WireTable(tmp_path, seats=(1, 2))
    assert table.run(2, until=lambda: all(t.link.online for t in table.t.values()))
    wire, pod = table.t[1].wire, table.t[1].pod
    start = rows(table.session)
    wire.at(table.clock.now, lambda: pod.contact(0, True, wire.ms()))
    table.run(STUCK_AFTER + 1)
    stuck_at = rows(table.session)
    assert stuck_at - start == BEFORE_STUCK
    table.run(2 * STUCK_AFTER)
    assert rows(table.session) == stuck_at
    assert table.hub.view(1).stuck == ("up",)
    assert table.run(2, until=lambda: table.shows_its_view(1))  # the pod's own screen says it
    # released: the notice goes, the next press adjusts again
    wire.at(table.clock.now, lambda: pod.contact(0, False, wire.ms()))
    table.run(0.5)
    assert not table.hub.view(1).stuck
    wire.click(0)
    assert table.run(2, until=lambda: rows(table.session) == stuck_at + 1)
    assert table.run(2, until=lambda: table.shows_its_view(1))


def test_hw_check_says_a_serial_pods_button_reads_pressed(tmp_path):
    """``hw check`` asks the pod which buttons are down (its firmware says so in IDENTITY): a stuck one is a
    problem, named; all released is fine."""
    by_id = tmp_path / "by-id"
    sim = SimPod("pod-1", by_id=by_id).start()
    try:
        found = {part: (ok, text) for part, ok, text in
                 backend.hw_check(serial_seat(1, "pod-1"), finder=PortFinder(by_id), timing=FAST)}
        assert found["buttons"] == (True, "all released")
        sim.pin("select").drive_low()
        deadline = time.monotonic() + 5
        while not sim.core.debouncers[BUTTONS.index("select")].stable and time.monotonic() < deadline:
            time.sleep(0.005)
        found = {part: (ok, text) for part, ok, text in
                 backend.hw_check(serial_seat(1, "pod-1"), finder=PortFinder(by_id), timing=FAST)}
        assert found["buttons"] == (False, "select reads pressed now (stuck, or held while checking?)")
    finally:
        sim.close()


# -- the owner (the app and serve): the keeper, its snapshots, the touchscreen's pod status -----------------
def held(seat: int, button: str, seconds: float, start: float = 100.0) -> list[InputEvent]:
    """The events of ``button`` held ``seconds`` from ``start`` with the test timing, as a pod sends them."""
    events = [InputEvent(seat, button, PRESS, start), InputEvent(seat, button, HOLD, start + TIMING.hold_time)]
    at = start + TIMING.hold_time + TIMING.repeat_interval
    while at <= start + seconds:
        events.append(InputEvent(seat, button, REPEAT, at))
        at += TIMING.repeat_interval
    return events


def test_the_touchscreen_is_told_and_shows_the_pod_stuck_until_released(tmp_path):
    """In the app (or serve): a toast when a button becomes stuck and when it is let go, the settings' pod
    status says "stuck" meanwhile, and the held-back repeats publish no snapshot at all."""
    from tablekeeper.hardware.config import mock_config
    from tablekeeper.ui.controller import Keeper
    from tablekeeper.ui.podlink import PodLink

    with Keeper(tmp_path, pods=True) as k:
        k.wait_idle()
        k.new_game("counters", ["Ana", "Ben"], {})
        link = PodLink(k, mock_config(2))
        assert k.wait_idle()
        k.notices()
        before = len(k.snapshot.table.history)
        events = held(1, "up", STUCK_AFTER + 10)
        crossing = next(i for i, e in enumerate(events) if e.at - events[0].at > STUCK_AFTER)
        for e in events[:crossing + 1]:
            k.press(e)
        assert k.wait_idle()
        assert len(k.snapshot.table.history) - before == BEFORE_STUCK
        assert [(n.kind, str(n.text)) for n in k.notices()] == [
            ("warning", "Pod 1 (Ana): ▲ button stuck: ignored until released")]
        status = {seat: (kind, str(detail)) for seat, _who, kind, detail in link.status()}
        assert status == {1: ("stuck", "▲ button stuck: ignored until released"), 2: ("mock", "mock pod (no hardware)")}
        serial = k.snapshot.serial
        for e in events[crossing + 1:]:
            k.press(e)
        assert k.wait_idle()
        assert k.snapshot.serial == serial  # nothing changed, nothing published
        assert len(k.snapshot.table.history) - before == BEFORE_STUCK
        k.press(InputEvent(1, "up", RELEASE, events[-1].at + 0.05))
        assert k.wait_idle()
        assert [(n.kind, str(n.text)) for n in k.notices()] == [
            ("warning", "Pod 1 (Ana): ▲ button released: it works again")]
        assert [s[2] for s in link.status()] == ["mock", "mock"]
        link.close()
        assert k.wait_idle()


# -- the recognition itself ---------------------------------------------------------------------------------
def test_stuck_means_held_past_the_threshold_and_ends_with_a_release_or_a_new_press():
    """Holds and repeats within the threshold pass; the first one past it makes the button stuck, later ones
    are held back; a release frees it, and so does a new press (its release was lost on the way);
    other buttons and seats are not affected; events without times never make a button stuck."""
    guard = StuckButtons(after=10.0)
    assert guard.take(InputEvent(1, "up", PRESS, 5.0)) == PASS
    assert guard.take(InputEvent(1, "up", REPEAT, 15.0)) == PASS
    assert guard.take(InputEvent(1, "up", REPEAT, 15.1)) == STUCK
    assert guard.take(InputEvent(1, "up", REPEAT, 15.2)) == HELD_BACK
    assert guard.buttons(1) == ("up",) and guard.buttons(2) == ()
    assert guard.take(InputEvent(1, "down", REPEAT, 15.2)) == PASS
    assert guard.take(InputEvent(2, "up", PRESS, 15.2)) == PASS
    assert guard.take(InputEvent(1, "up", RELEASE, 16.0)) == FREED
    assert guard.take(InputEvent(1, "up", REPEAT, 16.1)) == PASS  # a repeat with no press: timed from itself
    assert guard.take(InputEvent(1, "up", REPEAT, 26.2)) == STUCK
    assert guard.take(InputEvent(1, "up", PRESS, 30.0)) == FREED
    assert guard.take(InputEvent(1, "up", RELEASE, 30.1)) == PASS
    untimed = StuckButtons(after=10.0)
    assert all(untimed.take(InputEvent(1, "main", kind)) == PASS for kind in (PRESS, HOLD) + (REPEAT,) * 500)
