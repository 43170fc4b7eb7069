"""The table in a terminal (Textual): every seat's pod as its 128x64 picture, keys for its buttons.

Where there is no display — a PC without one, the Pi over SSH — ``tablekeeper table`` (and ``make run``
when standard input is a terminal) opens this instead of the touchscreen. It is one more face of the
same owner as the app's virtual pods (:class:`~tablekeeper.ui.virtual_pods.VirtualPods`): the keeper's
worker turns a button event into an action with the seat's input map, and the hardware renderer draws
the very pixels an OLED gets, shown here in Braille characters (2x4 pixels each: 64x16 a pod), with the
table's own numbers above them and the game's last entries below. The
keeper follows the journal: a game started elsewhere on it (``tablekeeper new``) opens here within a
second.

The setup screen: the game, the players (commas between) and, if wanted, its options as
``name=value; name=value`` (values in JSON where they are not plain words), the defaults shown.

Keys (shown under the pods): ``1``–``8`` choose the seat the keys act for; ``↑``/``↓``, ``Enter`` and
``Space`` are its pod's up, down, main and select; ``Shift+↑``/``Shift+↓`` hold up or down (through
several offers), ``m`` holds main (again, for more), ``s`` holds select (the pod's menu); ``u`` / ``r``
undo and redo; ``n`` a new game; ``Ctrl+Q`` quits (the game stays in the journal).
"""
from __future__ import annotations

import json
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Select, Static

from ..engine.messages import Catalog, Msg, _, translated, word
from .virtual_pods import VirtualPods

#: A key → (button, how): "click" is a press and a release; "hold" a press held past the hold time.
KEYS: dict[str, tuple[str, str]] = {
    "up": ("up", "click"), "down": ("down", "click"), "enter": ("main", "click"), "space": ("select", "click"),
    "shift+up": ("up", "hold"), "shift+down": ("down", "hold"), "m": ("main", "hold"), "s": ("select", "hold"),
}
#: The pod's input events a key stands for (hardware.pod's kinds).
GESTURES = {"click": ("press", "release"), "hold": ("press", "hold", "repeat", "repeat", "release")}

#: History lines shown under the pods.
HISTORY_LINES = 6

_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # Braille dot bits by (row, column)


def braille(image: Any) -> str:
    """A mode "1" image as Braille characters, 2x4 pixels each (a 128x64 pod: 16 lines of 64)."""
    w, h = image.size
    px = image.load()
    lines = []
    for top in range(0, h, 4):
        chars = []
        for left in range(0, w, 2):
            bits = 0
            for dy in range(4):
                for dx in range(2):
                    x, y = left + dx, top + dy
                    if x < w and y < h and px[x, y]:
                        bits |= _DOTS[dy][dx]
            chars.append(chr(0x2800 + bits))
        lines.append("".join(chars))
    return "\n".join(lines)


def key_map() -> Msg:
    """The keys, in a line (the table shows it under the pods; the README has the same)."""
    return _("keys: 1–8 seat · ↑ ↓ up/down · Enter main · Space select · Shift+↑/↓ hold · m hold main · "
             "s menu · u undo · r redo · n new game · Ctrl+Q quit")


def parse_options(text: str) -> dict[str, Any]:
    """A game's options as typed on the setup screen: ``name=value; name=value`` (each value JSON where it
    reads as JSON — ``4``, ``true``, ``["macaws", "pandas"]`` — else the text itself), or one JSON object.
    Raises ValueError (with a message) for anything else; the game checks the values themselves."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(_("the options are not a JSON object: {error}", error=e.msg)) from None
        if not isinstance(value, dict):
            raise ValueError(_("the options are not a JSON object: {error}", error=type(value).__name__))
        return value
    options: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        name, eq, raw = part.partition("=")
        if not eq or not name.strip():
            raise ValueError(_("say each option as name=value, not {part!r}", part=part))
        try:
            options[name.strip()] = json.loads(raw.strip())
        except json.JSONDecodeError:
            options[name.strip()] = raw.strip()
    return options


def options_help(game: str, catalog: Catalog | None = None) -> str:
    """A game's options in a line or two: each name with its default (and its choices), for the setup."""
    from ..engine.registry import game_class

    parts = []
    for o in game_class(game).options_spec:
        shown = json.dumps(o.default, ensure_ascii=False)
        choices = " | ".join(map(str, o.choices)) if o.choices else ""
        parts.append(f"{o.name}={shown}" + (f" ({choices})" if choices else ""))
    if not parts:
        return str(translated(_("this game has no options"), catalog))
    return str(translated(_("its options (leave them out for the defaults): {options}", options="; ".join(parts)),
                          catalog))


class PodBox(Static):
    """One seat's pod: its name and its screen."""


class TermTable(App):
    """The terminal table over a started :class:`~tablekeeper.ui.controller.Keeper` (its pods on)."""

    CSS = """
    #pods { grid-size: 2; grid-gutter: 1 2; height: auto; }
    PodBox { border: round $secondary; width: 68; height: 19; padding: 0 1; }
    PodBox.active { border: double $accent; }
    #status { height: auto; text-style: bold; }
    #notice { height: auto; color: $warning; }
    #numbers { height: auto; }
    #history { height: auto; color: $text-muted; }
    #keys { height: auto; color: $text-muted; }
    #setup { height: auto; }
    #setup Horizontal { height: auto; }
    #optdoc { height: auto; color: $text-muted; }
    #players { width: 60; }
    """
    #: The first focus is the players' field (not Textual's first focusable widget, the game's list): a key
    #: typed as the setup shows goes where the setup's focus will be, whichever of the two lands first.
    AUTO_FOCUS = "#players"
    BINDINGS = [("ctrl+q", "quit", "quit"), ("u", "undo", "undo"), ("r", "redo", "redo"), ("n", "new", "new game")]

    def __init__(self, keeper, catalog: Catalog | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.keeper = keeper
        self.catalog = catalog
        self.pods = VirtualPods(keeper)
        self.seat = 1  # the seat the keys act for
        self._serial = -1
        self._boxes: dict[int, PodBox] = {}
        self._drawn: dict[int, tuple[Any, str]] = {}  # seat -> (its image, in Braille): drawn once per image
        self.said = ""  # the last message (a refusal, what an action did)

    def t(self, message: Any) -> str:
        return str(translated(message, self.catalog))

    # -- building ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        from ..engine.registry import available

        yield Static("", id="status")
        with Vertical(id="setup"):
            yield Static(self.t(_("A new game: choose it, name the players (2 or more, commas between), start.")))
            with Horizontal():
                yield Select([(name, name) for name in sorted(available())], value="counters", id="game",
                             allow_blank=False)
                yield Input(placeholder=self.t(_("players: Ana, Ben, Cai")), id="players")
                yield Button(self.t(_("Start")), id="start", variant="primary")
            yield Input(placeholder=self.t(_("options (optional): name=value; name=value")), id="options")
            yield Static(options_help("counters", self.catalog), id="optdoc")
        yield Static("", id="numbers", markup=False)
        yield Grid(id="pods")
        yield Static("", id="history", markup=False)
        yield Static("", id="notice", markup=False)
        yield Static(self.t(key_map()), id="keys")

    def on_mount(self) -> None:
        self.set_interval(0.05, self.refresh_table)
        self.refresh_table()

    # -- what is shown -------------------------------------------------------------------------
    def refresh_table(self) -> None:
        if not self.screen_stack:  # the app is closing: a last tick of the timer has nothing to draw on
            return
        for notice in self.keeper.notices():
            text = self.t(notice.text) if notice.text else ""
            lines = [self.t(x) for x in notice.lines]
            self.said = "; ".join(lines) if lines and notice.kind == "events" else (
                text + (": " + "; ".join(lines) if lines else ""))
            self.query_one("#notice", Static).update(self.said)
        snap = self.keeper.snapshot
        if snap.table is not None and self.focused is not None and self.query_one("#setup") in self.focused.ancestors:
            # a game resumed at the start (the screen's first focus comes after the first drawing) or opened
            # from elsewhere: the hidden setup's field would keep the focus and swallow the printable keys
            # (the seat digits, Space, s, u, r, n; a play-tester could not leave seat 1)
            self.screen.set_focus(None)
        if snap.serial == self._serial:
            return
        self._serial = snap.serial
        table = snap.table
        setup = self.query_one("#setup")
        setup.display = table is None
        if table is None:
            # the focus set now (Widget.focus() sets it later): a key read after "No game open." shows finds it there
            self.screen.set_focus(self.query_one("#players", Input))
            self.query_one("#status", Static).update(self.t(_("No game open.")))
            return
        turn = (table.state.get("turn") or {}).get("player")
        title = self.t(getattr(table.rules, "title", "") or table.game)
        if table.over:
            winners = ", ".join(table.state.get("winners") or [])
            status = self.t(_("{title}, game {number}: over — {winners}", title=title, number=table.game_id,
                              winners=winners or self.t(_("a draw"))))
        else:
            status = self.t(_("{title}, game {number}: {name}'s turn", title=title, number=table.game_id,
                              name=turn or "—"))
        self.query_one("#status", Static).update(status)
        self.query_one("#numbers", Static).update(self.numbers(table))
        self.query_one("#history", Static).update(self.history(table))
        grid = self.query_one("#pods", Grid)
        seats = self.pods.seats(table)
        if sorted(self._boxes) != [s for s, _p in seats]:
            grid.remove_children()
            self._boxes = {seat: PodBox("") for seat, _p in seats}  # no ids: the old ones go after a frame
            grid.mount(*self._boxes.values())
            # a game opened (started, resumed, or another): the keys act for the seat whose turn it is, where
            # the next press most likely belongs (a play-tester's resumed game had Ana's pod framed on Dee's turn)
            self.seat = next((seat for seat, player in seats if player == turn), min(self.seat, len(seats)) or 1)
        for seat, player in seats:
            box = self._boxes[seat]
            box.border_title = f"{seat}: {player}"
            box.set_class(seat == self.seat, "active")
            box.update(self.pod_text(seat))

    def numbers(self, table) -> str:
        """The table's own numbers (the bank, the pot, the market deck…) in a line; the players' are on their pods."""
        shown = [f"{self.t(word('counter', name))} {table.state['table'][name]}" for name in table.rules.table_counters
                 if name in table.state.get("table", {})]
        return self.t(_("table: {numbers}", numbers=" · ".join(shown))) if shown else ""

    def history(self, table, last: int = HISTORY_LINES) -> str:
        """The game's last entries, newest last, each with its number (``u`` undoes the last)."""
        items = table.history[-last:]
        if not items:
            return self.t(_("history: nothing yet"))
        return self.t(_("history:")) + "\n" + "\n".join(f"{item.seq:>4}  {self.t(item.text)}" for item in items)

    def pod_text(self, seat: int) -> str:
        """What pod ``seat`` shows, as the terminal draws it (the image changes only with the pod's view:
        the others are not drawn again)."""
        table = self.keeper.snapshot.table
        if table is None:
            return ""
        image = self.pods.image(table, seat)
        drawn = self._drawn.get(seat)
        if drawn is None or drawn[0] is not image:
            drawn = (image, braille(image))
            self._drawn[seat] = drawn
        return drawn[1]

    # -- keys ----------------------------------------------------------------------------------
    def on_key(self, event) -> None:
        if self.keeper.snapshot.table is None:
            return  # the setup's fields take the keys
        key = event.key
        if key.isdigit() and 1 <= int(key) <= len(self._boxes):
            self.seat = int(key)
            self._serial = -1  # redraw the frames
            event.stop()
            return
        if key in KEYS:
            button, how = KEYS[key]
            for kind in GESTURES[how]:
                self.pods.event(self.seat, button, kind)
            event.stop()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.start_game()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.start_game()

    def on_select_changed(self, event: Select.Changed) -> None:
        self.query_one("#optdoc", Static).update(options_help(str(event.value), self.catalog))

    def start_game(self) -> None:
        game = str(self.query_one("#game", Select).value)
        names = [n.strip() for n in self.query_one("#players", Input).value.split(",") if n.strip()]
        notice = self.query_one("#notice", Static)
        if len(names) < 2:
            notice.update(self.t(_("name at least two players, commas between")))
            return
        try:
            options = parse_options(self.query_one("#options", Input).value)
        except ValueError as e:
            notice.update(self.t(e.args[0]))
            return
        notice.update("")
        self.keeper.new_game(game, names, options)  # a refused option comes back as a notice

    def action_undo(self) -> None:
        if self.keeper.snapshot.table is not None:  # on the setup screen there is nothing to undo
            self.keeper.submit({"action": "undo"})

    def action_redo(self) -> None:
        if self.keeper.snapshot.table is not None:
            self.keeper.submit({"action": "redo"})

    def action_new(self) -> None:
        self.keeper.close_game()


def run(state_dir=None, *, catalog: Catalog | None = None) -> int:
    """Open the terminal table on the journal in ``state_dir`` (the unfinished game resumes), in the
    language of ``catalog`` (None: English)."""
    from .controller import Keeper

    keeper = Keeper(state_dir, pods=True, catalog=catalog, follow=True).start(resume=True)
    try:
        TermTable(keeper, catalog).run()
    finally:
        keeper.stop()
    return 0
