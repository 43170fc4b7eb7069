"""The smallest text on the table screen and in dialogs, measured as drawn (no window needed).

The layout check (:meth:`tablekeeper.ui.testing.Robot.problems`) holds every label there to
:mod:`tablekeeper.ui.legibility`; these stand-ins are labels as Kivy leaves them: a font size
after shrinking to fit, inside parents, one of them a scatter with a scale.
"""
from __future__ import annotations

from types import SimpleNamespace

from tablekeeper.ui.legibility import MIN_KEY_TEXT, MIN_TEXT, drawn_font_size, key_text, too_small


def label(font_size, *parents):
    """A label whose font size ended at ``font_size``, inside ``parents`` (innermost first)."""
    top = None
    for p in reversed(parents):
        p.parent = top
        top = p
    return SimpleNamespace(font_size=font_size, parent=top, text="score")


def box():
    return SimpleNamespace()


def scatter(scale):
    return SimpleNamespace(scale=scale)


def test_a_label_shrunk_to_fit_is_reported_at_the_size_it_ended_at():
    shrunk = label(9, box(), box())
    assert drawn_font_size(shrunk) == 9
    assert too_small(shrunk) == "drawn at 9.0 px, under 12 px"


def test_a_scaled_card_scales_its_text_as_drawn():
    # 13 px is enough upright; on a card drawn at 0.8 of its size it is 10.4 px
    in_card = label(13, box(), scatter(0.8), box())
    assert drawn_font_size(in_card) == 13 * 0.8
    assert too_small(in_card) == "drawn at 10.4 px, under 12 px"
    assert too_small(label(13, box(), scatter(1), box())) is None
    # a scatter drawing larger lifts small text over the floor; a flag is not a scale
    assert too_small(label(10, scatter(1.25))) is None
    assert drawn_font_size(label(10, SimpleNamespace(scale=True))) == 10


def test_numbers_and_names_are_held_to_a_higher_floor():
    plain, number = label(13, box()), key_text(label(13, box()))
    assert too_small(plain) is None
    assert too_small(number) == "drawn at 13.0 px, under 14 px"
    assert too_small(key_text(label(MIN_KEY_TEXT, box()))) is None
    assert MIN_TEXT == 12 and MIN_KEY_TEXT == 14
