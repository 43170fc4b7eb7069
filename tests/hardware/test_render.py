"""What a pod shows: one renderer, 1-bit 128x64, large focused digits, goldens."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from PIL import Image, ImageChops

from tablekeeper.engine import available
from tablekeeper.hardware.pod import PodView
from tablekeeper.hardware.render import BIG_SIZE, DIGITS, FONTS, font, render
from tablekeeper.ui.pod.views import pod_view

from ..conftest import examples
from . import goldens
from .test_screen import views

GOLDEN_HINT = "regenerate with `.venv/bin/python -m tests.hardware.goldens` if the change is intended"


def test_one_bit_128x64():
    img = render(PodView(seat=1, player="Ana"))
    assert img.mode == "1" and img.size == (128, 64)


def test_focused_digits_are_at_least_24_px_tall():
    """The focused counter large: digits at least 24 px tall, readable at arm's length."""
    img = render(PodView(seat=1, player="Ana", counters=(("gold", 1234567890),)))
    band = img.crop((0, 21, 128, 51))  # the focused value's band, nothing else drawn there
    left, top, right, bottom = band.getbbox()
    assert bottom - top >= 24
    for digit in "0123456789":
        _, t, _, b = font(DIGITS, BIG_SIZE).getmask(digit).getbbox()
        assert b - t >= 24, f"digit {digit} is only {b - t} px tall"


def test_fonts_ship_with_their_licence():
    """The fonts ship with the package (open licence)."""
    assert (FONTS / "LICENSE-DejaVu.txt").read_text().count("Bitstream") > 0
    assert {p.name for p in FONTS.glob("*.ttf")} >= {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf",
                                                      "DejaVuSansCondensed-Bold.ttf"}


@settings(max_examples=examples(40), deadline=None)
@given(views)
def test_last_column_and_row_stay_free_for_the_burn_in_shift(view):
    """OLED care: the one-pixel shift must never cut anything off."""
    img = render(view)
    assert img.crop((127, 0, 128, 64)).getbbox() is None
    assert img.crop((0, 63, 128, 64)).getbbox() is None


def test_alert_is_inverted_and_turn_is_marked():
    """The state that matters now — 'PASSING OUT: last chance' stands out; the turn is visible."""
    calm = render(PodView(seat=1, player="Ana", counters=(("fortitude", 3),), status="PASSING OUT"))
    alert = render(PodView(seat=1, player="Ana", counters=(("fortitude", 3),), status="PASSING OUT", alert=True))
    bar = (0, 52, 127, 63)
    assert sum(alert.crop(bar).convert("L").getdata()) > 3 * sum(calm.crop(bar).convert("L").getdata())
    turn = render(PodView(seat=1, player="Ana", your_turn=True))
    assert sum(turn.crop((0, 0, 127, 10)).convert("L").getdata()) > 255 * 127 * 10 // 2  # inverted header


@pytest.mark.parametrize("game_id", sorted(available()))
def test_pod_view_comes_from_the_games_seat_view(journal, game_id):
    """Game-agnostic views built from rules.seat_view / seat_actions, for every game."""
    from tablekeeper.engine import Session

    s = Session.new(journal, game_id, goldens.players_for(game_id))
    for i, p in enumerate(s.state["players"]):
        sv = s.rules.seat_view(s.state, p["name"])
        v = pod_view(s.rules, s.state, p["name"], focus=1)
        assert v.seat == i + 1 and v.player == p["name"]
        # the names as the table reads them (English: the key's words, "drink me" for drink_me)
        assert [list(c) for c in v.counters] == [[str(k).replace("_", " "), val] for k, val in sv["counters"]]
        assert v.focus == (1 if len(sv["counters"]) > 1 else 0)
        assert v.status == sv["status"] and v.alert == sv["alert"]
        actions = s.rules.seat_actions(s.state, p["name"])
        label = str(actions[0]["label"]) + ("…" if actions and actions[0].get("ask") else "") if actions else ""
        assert v.action == label  # "…": the offer asks something first
        render(v)


GOLDEN = goldens.screens()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_screens(name):
    """Golden PNGs of each game's main pod screens (the luma test habit: no pixel differs)."""
    path = goldens.path_of(name)
    if not path.exists():
        pytest.fail(f"no golden screen {path.name}: {GOLDEN_HINT}")
    want = Image.open(path).convert("1")
    got = render(goldens.view_of(GOLDEN[name]))
    diff = ImageChops.difference(got, want).getbbox()
    assert diff is None, f"{name} differs from its golden in {diff}: {GOLDEN_HINT}"
