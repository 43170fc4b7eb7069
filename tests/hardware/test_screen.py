"""Only changed bytes on the bus, proved against an SSD1306 RAM model.

The model decodes the real command/data stream (luma.oled's ssd1306 set-up,
then our address windows) into its RAM; after any sequence of views the RAM
must equal the rendered image.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablekeeper.hardware.face import Care
from tablekeeper.hardware.mock import FakeSMBus, FakeSpiDev, MockDisplay, Ssd1306Model
from tablekeeper.hardware.pod import PodView
from tablekeeper.hardware.render import render
from tablekeeper.hardware.screen import FRAME_BYTES, Screen, Window, pack, plan, unpack

from ..conftest import examples

STILL = Care(shift_every=0, dim_after=0)  # no burn-in shift: RAM compares 1:1 with the render
FAST = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ABCDÉ_-:!é", max_size=24)
values = st.one_of(st.integers(-999, 99999), st.sampled_from(["-", "Ana"]))
views = st.builds(
    PodView,
    seat=st.integers(1, 8),
    player=words,
    counters=st.lists(st.tuples(words, st.integers(-999, 99999)), max_size=6).map(tuple),
    focus=st.integers(0, 5),
    status=words,
    alert=st.booleans(),
    table=st.lists(st.tuples(words, values), max_size=3).map(tuple),
    your_turn=st.booleans(),
    out=st.booleans(),
    action=words,
    choices=st.integers(0, 3),
    message=st.one_of(st.just(""), words),
).map(lambda v: v if v.focus < max(len(v.counters), 1) else PodView(**{**v.__dict__, "focus": 0}))


def test_pack_matches_luma_ssd1306_layout():
    """The frame layout is the SSD1306's: byte page*128+x, bit 0 the top row of the page (as luma packs it)."""
    model = Ssd1306Model()
    from luma.oled.device import ssd1306

    device = ssd1306(model)
    img = render(PodView(seat=3, player="Ana", counters=(("gold", 10), ("alcohol", 2)), status="your turn"))
    device.display(img)  # luma's own full-frame path
    assert bytes(model.ram) == pack(img)
    assert unpack(pack(img)).tobytes() == img.tobytes()


@FAST
@given(st.lists(views, min_size=1, max_size=6))
def test_ram_model_equals_rendered_view_after_any_sequence(seq):
    """The RAM model 'must end equal to the rendered image after any sequence of views'."""
    display = MockDisplay()
    model = display.model
    screen = Screen(display)
    screen.shown = bytes(FRAME_BYTES)  # luma's set-up cleared the RAM
    previous = None
    for view in seq:
        img = render(view)
        model.reset_counts()
        sent = screen.show(img)
        assert bytes(model.ram) == pack(img)
        assert sent == model.data_bytes
        if previous is not None and pack(previous) == pack(img):
            assert model.bytes_sent == 0  # unchanged: nothing on the bus
        previous = img
    assert model.unknown == []


frames = st.binary(min_size=FRAME_BYTES, max_size=FRAME_BYTES)


@st.composite
def edits(draw):
    """A frame and a few rectangular edits of it: the planner's hard cases (scattered, adjacent, page edges)."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    frame = bytearray(draw(frames))
    out = [bytes(frame)]
    for _ in range(draw(st.integers(1, 5))):
        for _ in range(rnd.randint(1, 6)):
            p0 = rnd.randrange(8)
            p1 = min(7, p0 + rnd.randrange(3))
            c0 = rnd.randrange(128)
            c1 = min(127, c0 + rnd.choice([0, 1, 5, 20, 127]))
            for p in range(p0, p1 + 1):
                for c in range(c0, c1 + 1):
                    frame[p * 128 + c] = rnd.randrange(256)
        out.append(bytes(frame))
    return out


@settings(max_examples=examples(60), deadline=None)
@given(edits())
def test_planned_windows_rebuild_any_frame(seq):
    """Only the pages and columns that changed, via column/page windows — and the result is exact."""
    model = Ssd1306Model()
    model.command(0x20, 0x00)  # horizontal addressing, as luma sets it
    link = _ModelLink(model)
    screen = Screen(link)
    for frame in seq:
        old = screen.shown
        screen.show_frame(frame)
        assert bytes(model.ram) == frame
        if old is not None:
            changed = {i for i in range(FRAME_BYTES) if old[i] != frame[i]}
            covered = set()
            for w in link.windows:
                covered |= {p * 128 + c for p in range(w.page0, w.page1 + 1) for c in range(w.col0, w.col1 + 1)}
            assert changed <= covered
            assert sum(w.size for w in link.windows) <= FRAME_BYTES
        link.windows.clear()


class _ModelLink:
    """A DisplayDriver straight onto a model (no luma), recording the windows."""

    def __init__(self, model):
        self.model = model
        self.windows: list[Window] = []

    def write(self, col0, col1, page0, page1, data):
        self.windows.append(Window(col0, col1, page0, page1))
        self.model.command(0x21, col0, col1, 0x22, page0, page1)
        self.model.data(data)


def test_plan_unchanged_is_empty_and_unknown_is_whole_frame():
    """Nothing is sent for an unchanged view; unknown RAM (after an error) gets the whole frame."""
    frame = bytes(range(256)) * 4
    assert plan(frame, frame) == []
    assert plan(None, frame) == [Window(0, 127, 0, 7)]


def test_one_digit_change_is_a_small_window():
    """Goal (b): one counter changing by one costs at most a quarter frame (aim: an eighth)."""
    a = pack(render(PodView(seat=1, player="Ana", counters=(("gold", 17), ("alcohol", 3)), status="your turn")))
    b = pack(render(PodView(seat=1, player="Ana", counters=(("gold", 18), ("alcohol", 3)), status="your turn")))
    windows = plan(a, b)
    assert 0 < sum(w.size for w in windows) <= FRAME_BYTES // 8


def test_mux_selects_the_channel_before_every_transaction():
    """Several displays on one bus behind a TCA9548A, 'channel selected before every transaction'."""
    from tablekeeper.hardware.displays import I2cBuses, MuxedI2C, open_i2c_display
    from tablekeeper.hardware.face import Face

    models = {ch: Ssd1306Model() for ch in (0, 2)}
    bus = FakeSMBus({(ch, 0x3C): m for ch, m in models.items()}, mux=0x70)
    buses = I2cBuses(opener=lambda port: bus)
    faces = {ch: Face(ch, lambda ch=ch: open_i2c_display(1, 0x3C, 0x70, ch, buses=buses), STILL)
              for ch in (0, 2)}
    views = {ch: PodView(seat=ch, player=f"P{ch}", counters=(("score", ch * 11),)) for ch in (0, 2)}
    for _ in range(2):
        for ch, face in faces.items():
            face.show(views[ch])
            views[ch] = PodView(seat=ch, player=f"P{ch}", counters=(("score", ch * 11 + 1),))
    for ch, face in faces.items():
        assert bytes(models[ch].ram) == pack(render(face.view))
    # every transaction to the display address comes right after a channel select
    last_select = None
    for addr, first, _ in bus.log:
        if addr == 0x70:
            last_select = first
        else:
            assert last_select is not None
            last_select = None
    assert all(m.unknown == [] for m in models.values())
    for face in faces.values():
        face.close()
    assert bus.closed  # the shared bus closes with its last display
    # a display address that nobody answers is named in the words the user sees
    mux = MuxedI2C(1, 0x3D, mux=0x70, channel=2, buses=I2cBuses(opener=lambda port: bus))
    try:
        mux.command(0xAF)
    except OSError as e:
        assert str(e) == "no display at 0x3D on i2c-1 channel 2"
    else:
        raise AssertionError("a missing display must raise")


def test_spi_display_with_its_own_chip_select():
    """SPI with one chip select each: D/C through gpiozero pins, bytes via spidev."""
    from gpiozero.pins.mock import MockFactory

    from tablekeeper.hardware.displays import GpiozeroGPIO, open_spi_display
    from tablekeeper.hardware.face import Face

    factory = MockFactory()
    gpio = GpiozeroGPIO(factory)
    models = [Ssd1306Model(), Ssd1306Model()]
    devs = []

    def spidev_for(i):
        def make():
            d = FakeSpiDev(models[i], lambda: gpio.level(24))
            devs.append(d)
            return d
        return make

    faces = [
        Face(1, lambda: open_spi_display(0, 0, 24, gpio=gpio, spidev=spidev_for(0)), STILL),
        Face(2, lambda: open_spi_display(0, 0, 24, gpio=gpio, cs=17, spidev=spidev_for(1)), STILL),
    ]
    for i, face in enumerate(faces):
        face.show(PodView(seat=i + 1, player="Ana", counters=(("score", 5 + i),)))
        assert bytes(models[i].ram) == pack(render(face.view))
        assert models[i].unknown == []
    assert devs[1].no_cs is True  # the GPIO chip select drives CS, not spidev
    for face in faces:
        face.close()
    assert not models[0].on and not any(models[0].ram)


@FAST
@given(st.lists(st.tuples(views, st.one_of(st.none(), st.integers(0, 3))), min_size=1, max_size=6))
def test_ram_converges_after_failed_writes(steps):
    """A pod that fails (I2C error mid-update) is retried; its RAM ends equal to the current view."""
    from tablekeeper.hardware.face import Face
    from tablekeeper.hardware.mock import FakeClock

    clock = FakeClock()
    model = Ssd1306Model()
    face = Face(1, lambda: MockDisplay(model), STILL, clock=clock)
    for view, fail_after in steps:
        model.fail_after = fail_after  # the display dies after that many transfers of this update
        face.show(view)
        model.fail = model.fail_after = None
        clock.advance(31)
        face.tick()
        assert face.online
        assert bytes(model.ram) == pack(render(view))
