"""One renderer for every backend: a :class:`PodView` becomes a 1-bit 128x64 image.

Layout (pixels; the last column and row stay free so the burn-in pixel shift
of :mod:`tablekeeper.hardware.face` never cuts anything off)::

    y  0-10  seat and name (inverted on the player's turn) | ▸main button's label (in what the
                                                           | name leaves, at least 74 px)
    y 11-19  focused counter's icon and name, "1/4"        | other counters (icon,
                                                           | name if it fits whole), then
    y 23-48  focused counter's value, digits 25 px tall    | table figures (barred)
    y 51-62  status (inverted and bold when the player must act now); while
             up/down go through the game's offers: ▲▼, the offer main does and
             "k/n", inverted, and the status moves to the header's corner. An
             offer too long for the line gets two (y 40-62, cut only between
             words): the focused value is then drawn 16 px tall (y 23-38) and
             the right column keeps three lines

A value that just changed (``view.changed``) is drawn inverted for a moment; the
focused value is framed while up/down change it (``view.tuning``: its player chose
it with select).
A refusal message covers the lower half, inverted, for as long as the view
carries it. Fonts are DejaVu (Bitstream Vera licence) and, for the counters'
icons, Font Awesome Free's solid font (SIL OFL 1.1), shipped in ``hardware/fonts``.

The other screens of the button grammar (``view.screen``)::

    menu     y 0-10 seat, name | "actions"; four lines of 12 px, the chosen one
             inverted; ▲/▼ at the right edge when more lines are above/below
    entry    y 0-10 the action | "2/4"; y 12-21 the field's name (a list's numbers
             so far after it: "discard: 1 + 2 +"); y 23-48 its value (digits 25 px
             tall, a word in bold); y 51-62 what main and select do
    preview  y 0-10 the action | "OK?" inverted; up to three lines of what will
             change; y 51-62 what main and select do
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .pod import HEIGHT, WIDTH, PodView

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"
DIGITS = FONTS / "DejaVuSansCondensed-Bold.ttf"
#: The same letters narrower: a line too wide for its box in the regular face is drawn in these, at
#: the same height, before anything is cut (a condensed word reads as well at arm's length; a cut one
#: loses what tells two offers apart).
CONDENSED = FONTS / "DejaVuSansCondensed.ttf"
CONDENSED_BOLD = DIGITS
ICONS = FONTS / "fa-solid-900.ttf"  # the counters' icons (hardware/icons.py)
ICON_SIZE = 9

#: Point size of the focused value: DejaVu's digits are 0.729 em tall, so 34
#: gives 25 px (the issue asks for at least 24, readable at arm's length).
BIG_SIZE = 34
SMALL_SIZE = 10
TINY_SIZE = 9

RIGHT = WIDTH - 2  # last drawable column (one spare column for the pixel shift)
BOTTOM = HEIGHT - 2  # last drawable row
SPLIT = 77  # where the right column (other counters) starts
BAR_TOP = 51  # text 12 rows tall with accents and descenders: 51..62
#: An offer on two lines: the bar starts one line higher, and the focused value shrinks to fit above it.
LONG_BAR_TOP = BAR_TOP - 11
MID_SIZE = 22  # 16 px digits
ON = 255  # a lit pixel (mode "1" images store 0/255; drawing with 1 would store 1)


@cache
def font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


@cache
def _glyph(path: Path, ch: str) -> tuple:
    f = font(path, 20)
    mask = f.getmask(ch)
    return mask.size, bytes(mask), f.getlength(ch)


def missing_glyphs(path: Path, text: str) -> set[str]:
    """The characters of ``text`` the font at ``path`` has no glyph for: drawn as its empty box (the
    glyph U+FFFF gets, which no font has)."""
    return {ch for ch in set(text) if not ch.isspace() and _glyph(path, ch) == _glyph(path, "\uffff")}


def _width(f: ImageFont.FreeTypeFont, text: str) -> int:
    return int(f.getlength(text) + 0.5)


def fit(f: ImageFont.FreeTypeFont, text: str, width: int) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` pixels."""
    if _width(f, text) <= width:
        return text
    while text and _width(f, text + "…") > width:
        text = text[:-1]
    return (text + "…") if text else ""


def narrower(f: ImageFont.FreeTypeFont) -> list[ImageFont.FreeTypeFont]:
    """``f`` and the faces of its size a line too wide for it may be drawn in, widest first: bold, then
    condensed bold, then condensed; regular, then condensed."""
    path = Path(str(f.path))  # font() opens every face by its path
    faces = {BOLD: (BOLD, CONDENSED_BOLD, CONDENSED), REGULAR: (REGULAR, CONDENSED)}.get(path, (path,))
    return [font(p, f.size) for p in faces]


def fitted(f: ImageFont.FreeTypeFont, text: str, width: int) -> tuple[ImageFont.FreeTypeFont, str]:
    """The face and text to draw ``text`` in ``width`` pixels: whole in ``f``, or whole in a narrower face
    of its size (:func:`narrower`), or cut with "…" in the narrowest."""
    faces = narrower(f)
    for face in faces:
        if _width(face, text) <= width:
            return face, text
    return faces[-1], fit(faces[-1], text, width)


def _fitted_text(draw, xy, text, f, width, fill=ON) -> int:
    """Draw ``text`` at ``xy`` in ``width`` pixels (:func:`fitted`); the width drawn."""
    face, shown = fitted(f, text, width)
    _text(draw, xy, shown, face, fill)
    return _width(face, shown)


def _text(draw, xy, text, f, fill=ON):
    # Anchor "lt": (x, y) is the top-left of the text's ink box.
    draw.text(xy, text, font=f, fill=fill, anchor="lt")


def render(view: PodView) -> Image.Image:
    """The pod's screen for ``view``: a new mode "1" 128x64 image (1 = lit)."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    drawer = SCREENS.get(view.screen)
    if drawer is not None:
        drawer(draw, view)
        _message(draw, view)
        return img
    small = font(REGULAR, SMALL_SIZE)
    tiny = font(REGULAR, TINY_SIZE)
    bold = font(BOLD, SMALL_SIZE)

    # -- header: seat and name (inverted on the player's turn), main button's label
    head_fg = ON
    if view.your_turn:
        draw.rectangle((0, 0, RIGHT, 10), fill=ON)
        head_fg = 0
    label_w = 0
    head_label = view.action
    if view.choosing:  # the offer is in the bottom bar; the header's corner says the status
        head_label = view.status
    if head_label:
        face, label = fitted(tiny, ("" if view.choosing else "▸") + head_label, header_room(view.seat, view.player))
        label_w = _width(face, label)
        _text(draw, (RIGHT - 1 - label_w, 1), label, face, head_fg)
    name_room = RIGHT - 2 - (label_w + 3 if label_w else 0)
    _fitted_text(draw, (1, 0), f"{view.seat} {view.player}", bold, name_room, head_fg)

    # -- the focused counter, large; "2/4" says which of how many ------------
    value = "" if view.focus_value is None else str(view.focus_value)
    long_offer = offer_lines(view) > 1
    big = font(DIGITS, MID_SIZE if long_offer else BIG_SIZE)
    left_w = SPLIT - 5
    lines = _right_column(view)[:3 if long_offer else 4]
    show_right = bool(lines) and _width(big, value) <= left_w
    if view.counters:
        room = left_w if show_right else RIGHT
        where = f"{view.focus + 1}/{len(view.counters)}" if len(view.counters) > 1 else ""
        where_w = _width(tiny, where) if where else 0
        if where:
            _text(draw, (room - where_w, 11), where, tiny)
        x = _icon(draw, (0, 11), view.focus_icon)
        _fitted_text(draw, (x, 11), view.focus_name, tiny, room - where_w - (3 if where else 0) - x)
        # Left-aligned: a +1 changes only the digits that change (fewer bytes on the bus).
        if view.focus_name in view.changed:  # just changed: inverted for a moment
            draw.rectangle((0, 22, _width(big, value) + 2, 39 if long_offer else 49), fill=ON)
            _text(draw, (1, 23), value, big, 0)
        else:
            _text(draw, (0, 23), value, big)
            if view.tuning:  # chosen with select: up/down change it (framed, as a field being edited)
                draw.rectangle((0, 21, _width(big, value) + 3, 40 if long_offer else 50), outline=ON)
    if show_right:
        for i, (k, v, is_table, icon) in enumerate(lines):
            y = 11 + 10 * i
            if is_table:  # table figures are marked by a bar on their left
                draw.line((SPLIT - 3, y + 2, SPLIT - 3, y + 8), fill=ON)
            v = str(v)
            vw = _width(small, v)
            if not is_table and k in view.changed:  # just changed: inverted for a moment
                draw.rectangle((RIGHT - vw - 2, y - 1, RIGHT, y + 9), fill=ON)
                _text(draw, (RIGHT - vw - 1, y), v, small, 0)
            else:
                _text(draw, (RIGHT - vw, y), v, small)
            x = _icon(draw, (SPLIT, y), icon)
            name = side_label(k, icon, RIGHT - x - vw - 3)
            if name:
                _text(draw, (x, y), name, tiny)

    # -- bottom bar: the status (inverted when the player must act) ---------
    if view.message or view.notice:
        _message(draw, view)
        return img
    if view.choosing:
        _offer(draw, view)
        return img
    fg = ON
    if view.alert:
        draw.rectangle((0, BAR_TOP - 1, RIGHT, BOTTOM), fill=ON)
        fg = 0
    if view.status:
        status_font = bold if view.alert else small
        _fitted_text(draw, (1, BAR_TOP), view.status, status_font, RIGHT - 2, fg)
    return img


#: What the header's corner (the main button's label, or the status while choosing) always has.
HEADER_LABEL = 74


def header_room(seat: int, player: str) -> int:
    """Pixels the header's corner has beside the seat and name: what the name leaves, at least
    :data:`HEADER_LABEL` (a long name is cut before the label is)."""
    name_w = _width(font(BOLD, SMALL_SIZE), f"{seat} {player}")
    return max(HEADER_LABEL, RIGHT - 2 - name_w - 3)


def _offer_room(view: PodView) -> int:
    """Pixels the offer's first line has: the bar less ▲▼ and "k/n"."""
    return RIGHT - 12 - _width(font(REGULAR, TINY_SIZE), f"{view.pick + 1}/{view.choices}")


def offer_lines(view: PodView) -> int:
    """How many lines the offer being chosen takes: 1, or 2 when it does not fit one (0: not choosing)."""
    if not view.choosing:
        return 0
    return 1 if _width(font(BOLD, SMALL_SIZE), view.action) <= _offer_room(view) else 2


def offer_text(view: PodView) -> list[str]:
    """The offer as drawn, line by line: whole on one line, or cut between words over two (the second
    as wide as the bar); cut with "…" only when two lines cannot hold it."""
    bold = font(BOLD, SMALL_SIZE)
    room = _offer_room(view)
    if offer_lines(view) <= 1:
        return [view.action]
    words = view.action.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(len(words) - 1, 0, -1)]
    fitting = [(a, b) for a, b in splits if _width(bold, a) <= room]
    for first, rest in fitting:  # the longest first line with the rest whole below it
        if _width(bold, rest) <= RIGHT - 10:
            return [first, rest]
    if fitting:
        return [fitting[0][0], fit(bold, fitting[0][1], RIGHT - 10)]
    return [fit(bold, view.action, room), ""]


def _offer(draw, view: PodView) -> None:
    """The bottom bar while up/down go through the offers: ◆ the offer main does, "k/n" at the right;
    an offer that does not fit the line takes two."""
    tiny, bold = font(REGULAR, TINY_SIZE), font(BOLD, SMALL_SIZE)
    text = offer_text(view)
    top = BAR_TOP if len(text) == 1 else LONG_BAR_TOP
    draw.rectangle((0, top - 1, RIGHT, BOTTOM), fill=ON)
    where = f"{view.pick + 1}/{view.choices}"
    where_w = _width(tiny, where)
    _text(draw, (RIGHT - 1 - where_w, top + 1), where, tiny, 0)
    # ▲▼ says up/down change it; the label takes what is left
    draw.polygon([(2, top + 4), (0, top + 7), (5, top + 7)], fill=0)
    draw.polygon([(0, top + 9), (5, top + 9), (2, top + 12)], fill=0)
    for i, line in enumerate(text):
        _text(draw, (8, top + 11 * i), line, bold, 0)


def _message(draw, view: PodView) -> None:
    """A refusal over the lower half, inverted, for as long as the view carries it; else the pod's notice
    (a stuck button), in the same place. A message longer than that area takes the lines it needs, up
    to the whole screen (:data:`MESSAGE_PAGE` lines: the owner shows a longer one a page at a time,
    :func:`message_pages`)."""
    text = view.message or view.notice
    if not text:
        return
    small = font(REGULAR, SMALL_SIZE)
    lines = message_lines(text, view.screen)
    rows = max(message_rows(view.screen), len(lines))
    if rows >= MESSAGE_PAGE:  # the whole screen, a line every 12 rows
        top, pitch = 0, 12
    elif rows > message_rows(view.screen):  # everything under the header: no half-covered line above it
        top, pitch = 11, 11
    else:
        top, pitch = BOTTOM - 2 - 11 * rows, 11
    draw.rectangle((0, top, RIGHT, BOTTOM), fill=ON)
    for i, line in enumerate(lines):
        _text(draw, (2, top + 2 + pitch * i), line, small, 0)


#: The most lines of the small font a message has: the whole screen.
MESSAGE_PAGE = 5


def message_rows(screen: str) -> int:
    """Lines of the small font a message has at least on ``screen``: home keeps its counter in sight when
    the message leaves it room, the others have room."""
    return 2 if screen == "home" else 3


def message_lines(text: str, screen: str = "home") -> list[str]:
    """``text`` as a message shows it on ``screen``: wrapped on the lines it needs (at least
    :func:`message_rows`, at most :data:`MESSAGE_PAGE`; beyond those the last line is cut with "…")."""
    small = font(REGULAR, SMALL_SIZE)
    lines = _fill(small, text.split(), RIGHT - 4)
    rows = min(MESSAGE_PAGE, max(message_rows(screen), len(lines)))
    return _wrap(small, text, RIGHT - 4, rows)[:len(lines)]


def message_pages(text: str) -> list[str]:
    """``text`` in pages of at most :data:`MESSAGE_PAGE` lines, each drawn whole
    (:func:`message_lines`): a refusal too long for one screen is shown a page after another."""
    lines = _fill(font(REGULAR, SMALL_SIZE), text.split(), RIGHT - 4)
    return [" ".join(lines[i:i + MESSAGE_PAGE]) for i in range(0, len(lines), MESSAGE_PAGE)] or [text]


def _header(draw, left: str, right: str, inverted: bool, *, right_box: bool = False) -> None:
    """The top row: ``left`` in bold, ``right`` small at the right edge (boxed: a question)."""
    tiny, bold = font(REGULAR, TINY_SIZE), font(BOLD, SMALL_SIZE)
    fg = ON
    if inverted:
        draw.rectangle((0, 0, RIGHT, 10), fill=ON)
        fg = 0
    right_w = 0
    if right:
        f, right = fitted(bold if right_box else tiny, right, 60)
        right_w = _width(f, right)
        if right_box:
            draw.rectangle((RIGHT - right_w - 3, 0, RIGHT, 10), fill=0 if inverted else ON)
            _text(draw, (RIGHT - 1 - right_w, 0), right, f, ON if inverted else 0)
        else:
            _text(draw, (RIGHT - 1 - right_w, 1), right, f, fg)
    room = RIGHT - 2 - (right_w + 6 if right_w else 0)
    _fitted_text(draw, (1, 0), left, bold, room, fg)


MENU_ROWS = 4
ROW = 12


def menu_line(text: str, room: int) -> list[str]:
    """The chosen menu line as drawn in ``room`` pixels: whole on one row (in a narrower face if need be,
    :func:`fitted`), else over two rows cut between words (what tells two lines apart is often their
    end: "police in room 7"); cut with "…" only when two rows cannot hold it."""
    small = font(REGULAR, SMALL_SIZE)
    if fitted(small, text, room)[1] == text:
        return [text]
    for face in narrower(small):
        rows = _fill(face, text.split(" "), room)
        if len(rows) <= 2 and all(_width(face, r) <= room for r in rows):
            return rows
    rows = _fill(narrower(small)[-1], text.split(" "), room)
    return [rows[0], fitted(small, " ".join(rows[1:]), room)[1]]


def menu_other_line(text: str, lines: tuple[str, ...], room: int) -> tuple[ImageFont.FreeTypeFont, str]:
    """A menu line that is not the chosen one, as drawn on its one row of ``room`` pixels: whole (in a
    narrower face if need be, :func:`fitted`); else its first words, "…" and its last words, as many as
    fit, such that no other of the menu's ``lines`` begins and ends with the same words: what tells it
    from the others is kept, wherever it is; the numbers first, then as many words as fit ("welcome:… in
    room 7", "nueva 2,… 5: 3+1+1"). Cut at its end only when no such choice of whole words fits."""
    return _menu_other_line(text, tuple(lines), room)


def cut_could_be(head: str, tail: str, line: str) -> bool:
    """Whether ``line`` could be the one drawn as ``head`` "…" ``tail``: it begins with ``head`` at a word's end
    (or after a sum's "+") and ends with ``tail`` from a word's start (or a value after a "+"), something left
    out between."""
    if len(line) <= len(head) + len(tail) + 1 or not (line.startswith(head) and line.endswith(tail)):
        return False
    return (head.endswith("+") or line[len(head)] == " ") and line[-len(tail) - 1] in " +"


@cache
def _menu_other_line(text: str, lines: tuple[str, ...], room: int) -> tuple[ImageFont.FreeTypeFont, str]:
    face, shown = fitted(font(REGULAR, SMALL_SIZE), text, room)
    if shown == text:
        return face, text
    # the pieces a line is cut between: its words, and a sum's values ("⚄2+3+2+2+1?": a payment of five cards
    # has no word to leave out, and two payments that differ in their last card read alike cut at the end)
    pieces = [piece for word in re.findall(r"[^ ]+ ?", text) for piece in re.findall(r"[^+]+\+(?=\S)|.+$", word)]
    others = [x for x in lines if x != text]
    best, score = None, None
    for k in range(1, len(pieces)):  # the first k pieces ...
        head = "".join(pieces[:k]).rstrip(" ")
        for j in range(k + 1, len(pieces)):  # ... and the pieces from j on (at least one piece left out)
            tail = "".join(pieces[j:])
            drawn = f"{head}… {tail}"
            if _width(face, drawn) > room:
                continue
            if any(cut_could_be(head, tail, x) for x in others):
                continue  # another line has these first and last pieces: the left-out ones tell them apart
            kept = pieces[:k] + pieces[j:]
            # the numbers first ("room 7", "buy #5: 3+1+1"), then the most pieces, then the most letters
            this = (sum(any(c.isdigit() for c in w) for w in kept), len(kept), len(drawn))
            if score is None or this > score:
                best, score = drawn, this
    return face, best if best is not None else shown


def _menu(draw, view: PodView) -> None:
    small = font(REGULAR, SMALL_SIZE)
    _header(draw, f"{view.seat} {view.player}", view.title, view.your_turn)
    n = len(view.lines)
    cursor = min(max(view.cursor, 0), n - 1) if n else -1
    marks = 8 if n > MENU_ROWS else 0  # a column for the scroll marks
    chosen = menu_line(view.lines[cursor], RIGHT - marks - 5) if n else []
    if len(chosen) > 1 and n == MENU_ROWS:  # two rows for the chosen one: a line is then out of sight
        marks = 8
        chosen = menu_line(view.lines[cursor], RIGHT - marks - 5)
    room = RIGHT - marks - 5
    shown = MENU_ROWS - (len(chosen) - 1 if chosen else 0)  # the chosen line may take two rows
    top = min(max(0, cursor - 1), max(0, n - shown))
    y = 12
    for i in range(top, min(n, top + shown)):
        if i == cursor:
            draw.rectangle((0, y, RIGHT - marks, y + ROW * len(chosen) - 1), fill=ON)
            for row in chosen:
                _fitted_text(draw, (3, y + 1), row, small, room, 0)
                y += ROW
        else:
            face, text = menu_other_line(view.lines[i], tuple(view.lines), room)
            _text(draw, (3, y + 1), text, face)
            y += ROW
    if top > 0:  # more above
        draw.polygon([(RIGHT - 3, 13), (RIGHT - 6, 18), (RIGHT, 18)], fill=ON)
    if top + shown < n:  # more below
        draw.polygon([(RIGHT - 6, 55), (RIGHT, 55), (RIGHT - 3, 60)], fill=ON)


def _is_number(text: str) -> bool:
    return text.lstrip("−-").isdigit() or text == "–"


def entry_step_shown(title: str, step: str) -> str:
    """The step ("2/4") beside an entry's title, or "" when the title fits whole only without it (a burial
    under a vegetable garden): the title says what is being entered, the hint whether more steps follow."""
    if not step:
        return ""
    tiny, bold = font(REGULAR, TINY_SIZE), font(BOLD, SMALL_SIZE)
    face, shown = fitted(tiny, step, 60)
    beside = RIGHT - 2 - (_width(face, shown) + 6)
    if fitted(bold, title, beside)[1] != title and fitted(bold, title, RIGHT - 2)[1] == title:
        return ""
    return step


def _entry(draw, view: PodView) -> None:
    tiny, small = font(REGULAR, TINY_SIZE), font(REGULAR, SMALL_SIZE)
    _header(draw, view.title, entry_step_shown(view.title, view.step), view.your_turn)
    if view.lines and view.lines[0]:
        # a list entry: the numbers so far after the field's name, the number being set below, "+" between
        # them ("discard: 1 + 2 +"); when long, the last ones ("values: … 2 + 1 +")
        numbers = view.lines[0].split()
        prompt = f"{view.prompt}: {' + '.join(numbers)} +"
        while _width(small, prompt) > RIGHT - 2 and len(numbers) > 1:
            numbers = numbers[1:]
            prompt = f"{view.prompt}: … {' + '.join(numbers)} +"
        _fitted_text(draw, (1, 12), prompt, small, RIGHT - 2)
    else:
        _fitted_text(draw, (1, 12), view.prompt, small, RIGHT - 2)
    value = view.value
    if _is_number(value):
        big = font(DIGITS, BIG_SIZE)
        _text(draw, (0, 24), fit(big, value, RIGHT), big)
    else:  # a word: a player, a choice, yes/no
        word_font = font(BOLD, 16)
        _fitted_text(draw, (0, 30), value, word_font, RIGHT)
    if view.hint:  # a list entry keeps its hint ("select: add, main: end") after the first number
        _fitted_text(draw, (1, BAR_TOP + 1), view.hint, tiny, RIGHT - 2)


def preview_question_below(view: PodView) -> bool:
    """Whether the preview's question ("OK?") leaves the header to the action's name, which does not
    fit beside it, and is asked at the start of the bottom line instead."""
    if not view.prompt:
        return False
    bold = font(BOLD, SMALL_SIZE)
    f, question = fitted(bold, view.prompt, 60)
    return fitted(bold, view.title, RIGHT - 2 - (_width(f, question) + 6))[1] != view.title


def _preview(draw, view: PodView) -> None:
    tiny, small = font(REGULAR, TINY_SIZE), font(REGULAR, SMALL_SIZE)
    below = preview_question_below(view)
    _header(draw, view.title, "" if below else view.prompt, view.your_turn, right_box=True)
    rows: list[str] = []
    for line in view.lines:
        rows += _wrap_items(small, line, RIGHT - 2)
    for i, line in enumerate(rows[:3]):
        _fitted_text(draw, (1, 13 + 12 * i), line, small, RIGHT - 2)
    if len(rows) > 3:
        _text(draw, (RIGHT - _width(small, "…"), 13 + 24), "…", small)
    x = 1
    if below:  # the question boxed at the start of the bottom line, what the buttons do beside it
        bold = font(BOLD, SMALL_SIZE)
        w = _width(bold, view.prompt)
        draw.rectangle((0, BAR_TOP - 1, w + 3, BOTTOM), fill=ON)
        _text(draw, (2, BAR_TOP), view.prompt, bold, 0)
        x = w + 7
    if view.hint:
        draw.line((0, BAR_TOP - 2, RIGHT, BAR_TOP - 2), fill=ON)
        _fitted_text(draw, (x, BAR_TOP + 1), view.hint, tiny, RIGHT - 1 - x)


SCREENS = {"menu": _menu, "entry": _entry, "preview": _preview}


def render_message(lines: list[str]) -> Image.Image:
    """A message on a whole pod screen ("Switched off", "The game is saved"): up to 4 lines, centred."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    lines = [line for line in lines if line.strip()][:4]
    bold = font(BOLD, SMALL_SIZE + 2)
    step = 15
    top = max(0, (HEIGHT - 1 - step * len(lines)) // 2)
    for i, line in enumerate(lines):
        text = fit(bold, line, RIGHT - 2)
        _text(draw, ((RIGHT - _width(bold, text)) // 2, top + 2 + step * i), text, bold)
    return img


def _right_column(view: PodView) -> list[tuple[str, Any, bool, str]]:
    """Up to four lines: the player's other counters first (up to three when the table has a figure),
    then the table figures (``is_table``) in the lines left.

    A player's own counters come before the table's: a game of four counters shows all four at
    home (the focused one large), with one table figure. Counters left out are one select away;
    the "2/4" beside the focused counter's name says there are more.
    """
    table_icons = view.table_icons or ("",) * len(view.table)
    other_icons = view.other_icons or ("",) * len(view.others)
    others: list[tuple[str, Any, bool, str]] = [
        (k, v, False, icon) for (k, v), icon in zip(view.others, other_icons)][:4 - min(len(view.table), 1)]
    table: list[tuple[str, Any, bool, str]] = [
        (k, v, True, icon) for (k, v), icon in zip(view.table, table_icons)][:4 - len(others)]
    return others + table


def side_label(name: str, icon: str, room: int) -> str:
    """A small counter's name in ``room`` pixels: cut with "…" when it has no icon; with an icon,
    whole or not at all (the icon says it: "♥ 20", never "fortit… 20")."""
    tiny = font(REGULAR, TINY_SIZE)
    if not icon:
        return fit(tiny, name, room)
    return name if _width(tiny, name) <= room else ""


def _icon(draw, xy, glyph: str) -> int:
    """Draw a counter's 1-bit icon at ``xy`` (top-left); the x where its name starts (xy's x if none)."""
    if not glyph:
        return xy[0]
    f = font(ICONS, ICON_SIZE)
    draw.text(xy, glyph, font=f, fill=ON, anchor="lt")
    return xy[0] + _width(f, glyph) + 2


def _fill(f, pieces: list[str], width: int) -> list[str]:
    """``pieces`` joined by spaces into as few lines of ``width`` pixels as they fill (greedy)."""
    lines: list[str] = []
    line = ""
    for piece in pieces:
        trial = f"{line} {piece}" if line else piece
        if _width(f, trial) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = piece
    if line:
        lines.append(line)
    return lines


def _wrap_items(f, text: str, width: int) -> list[str]:
    """``text`` in lines that break only after a comma or a colon ("fortitude −1" stays whole); an item
    too wide for a line even in a narrower face (:func:`fitted`) breaks between its words."""
    lines = []
    for line in _fill(f, re.split(r"(?<=[,:]) ", text), width):
        if fitted(f, line, width)[1] == line:
            lines.append(line)
        else:
            lines += [fitted(f, part, width)[1] for part in _fill(f, line.split(" "), width)]
    return lines


def _wrap(f, text: str, width: int, max_lines: int) -> list[str]:
    lines = _fill(f, text.split(), width)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [" ".join(lines[max_lines - 1:])]
    return [fit(f, ln, width) for ln in lines]


def as_ascii(img: Image.Image) -> str:
    """The image as text, two pixel rows per character line (for a terminal)."""
    px = img.load()
    assert px is not None  # an image in memory always has its pixels
    w, h = img.size
    rows = []
    for y in range(0, h, 2):
        row = []
        for x in range(w):
            top, bottom = px[x, y], (px[x, y + 1] if y + 1 < h else 0)
            row.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        rows.append("".join(row).rstrip())
    return "\n".join(rows)
