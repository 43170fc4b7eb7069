"""How small text may be drawn on the table screen and in its dialogs (read at arm's length).

The 7-inch panel shows 800x480 at about 0.19 mm a pixel, and the players read it from their
seats around the table: text there is drawn at least :data:`MIN_TEXT` px high, and what a player
looks for first — a counter's value, a player's name — at least :data:`MIN_KEY_TEXT` px.

"Drawn" is the label's font size as it ends up after shrinking to fit its box
(:class:`tablekeeper.ui.widgets.FitMixin`), times the scale of any scatter it is inside (a card
turned toward its seat). The app's layout check (:meth:`tablekeeper.ui.testing.Robot.problems`)
holds every label to it; this module imports no Kivy, so the rule can be tested without a window.
"""
from __future__ import annotations

#: The smallest text on the table screen and in dialogs, in pixels as drawn.
MIN_TEXT = 12.0
#: The smallest number (a counter's value) or player's name, in pixels as drawn.
MIN_KEY_TEXT = 14.0


def key_text(label):
    """Mark ``label`` as a number or a name (held to :data:`MIN_KEY_TEXT`); returns it."""
    label.min_drawn = MIN_KEY_TEXT
    return label


def drawn_font_size(label) -> float:
    """``label``'s text height as drawn: its font size now (after any shrink to fit), times the scale
    of every scatter it is inside."""
    size = float(label.font_size)
    node = getattr(label, "parent", None)
    while node is not None and node is not getattr(node, "parent", None):
        scale = getattr(node, "scale", None)
        if isinstance(scale, (int, float)) and not isinstance(scale, bool):
            size *= float(scale)
        node = getattr(node, "parent", None)
    return size


def floor_of(label) -> float:
    """The smallest size ``label`` may be drawn at: :data:`MIN_KEY_TEXT` for a number or a name."""
    return float(getattr(label, "min_drawn", MIN_TEXT))


def too_small(label) -> str | None:
    """What is wrong with ``label``'s size ("drawn at 9 px, under 14 px"), or None if it is big enough."""
    size, floor = drawn_font_size(label), floor_of(label)
    if size < floor - 0.05:
        return f"drawn at {size:.1f} px, under {floor:.0f} px"
    return None
