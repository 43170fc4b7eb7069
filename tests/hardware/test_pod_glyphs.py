"""Every character the text uses exists in the font that draws it: no empty box on a pod, none in the app.

The pods draw with the DejaVu fonts in hardware/fonts (regular, bold, and the condensed bold of the
large digits); the app's labels with Kivy's default, Roboto, and with DejaVu Sans (the symbol font)
for a text Roboto has no glyph for ("→": Roboto has no arrows). A missing glyph is found as the
renderer would draw it: the font's empty box (hardware/render.py: ``missing_glyphs``).
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tablekeeper.hardware.render import BOLD, DIGITS, REGULAR, missing_glyphs
from tablekeeper.ui.i18n import catalog_files

from . import podwords

#: What the renderer and the seats add themselves: the main button's mark, the cut, the dash of a value left
#: out, the minus, the "✓" of a press done.
MARKS = "▸…–−¿¡«»✓"


@cache
def catalog_text(lang: str = "es") -> dict[str, str]:
    """Every character of every catalog (the English sources and the translations), with one string
    that uses it."""
    from babel.messages.pofile import read_po

    out: dict[str, str] = {}
    for path in catalog_files(lang):
        with open(path, "rb") as f:
            for m in read_po(f, locale=lang):
                if not m.id:
                    continue
                for text in [*(m.id if isinstance(m.id, (tuple, list)) else (m.id,)),
                             *(m.string if isinstance(m.string, (tuple, list)) else (m.string,))]:
                    for ch in text or "":
                        out.setdefault(ch, f"{path.name}: {text[:60]!r}")
    return out


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.slow
@pytest.mark.parametrize("game", podwords.GAMES)
def test_every_character_a_pod_shows_is_in_the_pods_fonts(game, lang):
    shown, _pairs = podwords.collect(game, lang)
    text = "".join({s.text for s in shown}) + MARKS
    for path in (REGULAR, BOLD):  # a status in bold when it alerts, a title, an offer in the bar
        missing = missing_glyphs(path, text)
        assert not missing, f"{path.name} has no {sorted(missing)}"
    assert not missing_glyphs(DIGITS, "0123456789−-–"), "the large digits"


def test_every_character_of_the_catalogs_is_in_the_pods_fonts():
    """What a pod may say beyond the stories' moments (any refusal, any game word): its characters too."""
    assert missing_glyphs(REGULAR, "中a") == {"中"}  # the check finds a character the font has not
    chars = catalog_text()
    for path in (REGULAR, BOLD):
        missing = missing_glyphs(path, "".join(chars))
        assert not missing, f"{path.name} has no " + "; ".join(f"{ch!r} ({chars[ch]})" for ch in sorted(missing))


def test_every_character_of_the_catalogs_is_drawn_by_the_apps_fonts():
    """Every character of the app's, the engine's, the pods' and the games' catalogs is in Roboto or,
    where Roboto has none ("→"), in the symbol font, which the app's labels then draw that text with."""
    from tablekeeper.ui.widgets import DEFAULT_FONT_FILE, SYMBOL_FONT, default_font_lacks

    assert DEFAULT_FONT_FILE.exists() and SYMBOL_FONT
    chars = catalog_text()
    lacking = missing_glyphs(DEFAULT_FONT_FILE, "".join(chars))
    assert "→" in lacking and default_font_lacks("discard & draw → action")  # the check finds what it must
    nowhere = missing_glyphs(Path(SYMBOL_FONT), "".join(lacking))
    assert not nowhere, "neither font has " + "; ".join(f"{ch!r} ({chars[ch]})" for ch in sorted(nowhere))
    assert not default_font_lacks("¿Seguro? Ñandú: 3 → 4 …".replace("→", ""))
