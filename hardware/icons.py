"""Counter icons: a coin for gold, a heart for fortitude, a flame for the dragon's temper.

The glyphs come from Font Awesome Free 6.7.2's solid font (``fonts/fa-solid-900.ttf``,
unmodified, SIL OFL 1.1: ``fonts/LICENSE-FontAwesome.txt``), vector outlines that stay
sharp at every size: the touchscreen draws them as text, a pod renders them to 1 bit.

A game names the icon of each of its counters (``Game.icons``: counter → icon name,
an entry of :data:`GLYPHS`); :func:`icon_for` falls back to a generic icon, so a
counter without one still shows something (a test holds every game to naming all of
its counters).
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

FONT = str(Path(__file__).resolve().parent / "fonts" / "fa-solid-900.ttf")

#: Icon name (Font Awesome's) → its code point in the solid font.
GLYPHS: dict[str, str] = {
    "coins": "\uf51e", "heart": "\uf004", "beer-mug-empty": "\uf0fc", "wine-bottle": "\uf72f",
    "hotel": "\uf594", "sack-dollar": "\uf81d", "money-bill": "\uf0d6", "money-check": "\uf53c",
    "moon": "\uf186", "leaf": "\uf06c", "store": "\uf54e", "hand": "\uf256", "layer-group": "\uf5fd",
    "trash": "\uf1f8", "bolt": "\uf0e7", "box-archive": "\uf187", "recycle": "\uf1b8",
    "bandage": "\uf462", "gem": "\uf3a5", "fire": "\uf06d", "dungeon": "\uf6d9", "star": "\uf005",
    "hashtag": "\u0023", "skull": "\uf54c", "crown": "\uf521", "dragon": "\uf6d5", "dice": "\uf522",
    "trophy": "\uf091", "hands-praying": "\uf684", "gear": "\uf013", "flask": "\uf0c3", "paw": "\uf1b0",
    "ankh": "\uf644", "heart-crack": "\uf7a9",
    # the touchscreen's header, when its words do not fit (seats at the ends of the table)
    "house": "\uf015", "tablet-screen-button": "\uf3fa", "rotate-left": "\uf2ea", "rotate-right": "\uf2f9", "clock-rotate-left": "\uf1da",
    "ellipsis": "\uf141",
}

#: What a counter without a game's own icon shows.
GENERIC = "hashtag"


def icon_for(icons: Mapping[str, str] | None, counter: str) -> str:
    """The glyph (one character of :data:`FONT`) of ``counter`` among a game's ``icons``."""
    name = (icons or {}).get(counter, GENERIC)
    return GLYPHS.get(name, GLYPHS[GENERIC])
