"""Every string a pod puts on screen at moments of real games, collected press by press.

The moments are states of the table stories written from the rulebooks (``bench/stories/rulebook-actions``
and ``bench/stories``), sampled; the counters game, which has no story, plays a short one here. On every
seat the pod is driven with its own buttons (a :class:`SeatControls` per visit, as the owner would): home
with each offer up/down reaches, the menu, the entry steps of every offer and every menu line (the
prompt and the values up/down cycle through), the preview, and every message a press gets back; then
what an applied action tells the other players' pods ("de Ana: oro +2").

:func:`collect` returns :class:`Shown` records (where the text was, the text, what was beside it) and the
names things go by: ``("offer", the offer or menu line chosen, the title of the entry it opened)`` and, in a
language other than English, ``("field", English title, English field, title, field)`` for each entry step.
"""
from __future__ import annotations

import copy
import json
import random
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tablekeeper.engine.messages import translated
from tablekeeper.engine.registry import make_rules
from tablekeeper.hardware.pod import DOWN, HOLD, MAIN, PRESS, RELEASE, SELECT, UP, InputEvent, PodView
from tablekeeper.ui.pod import grammar
from tablekeeper.ui.pod.inputs import ENTRY, HOME, MENU, PREVIEW, SeatControls, settle

ROOT = Path(__file__).resolve().parents[2]
STORY_DIRS = (ROOT / "bench" / "stories" / "rulebook-actions", ROOT / "bench" / "stories")
#: The games whose pods are also looked at on every later set of rulebook stories (``rulebook-N-actions``). Not
#: yet the Bloody Inn's: there a run over every set finds texts cut — an extra burial's preview title with a
#: table's long annex name ("+bury pp×: Ben's Ala nueva"), a Spanish burial line among the menu's that only its
#: left-out words tell apart ("+enterrar cc×: granero de Ben").
EVERY_SET = ("red-dragon-inn", "dragon-run", "dale-of-merchants")
GAMES = ("counters", "red-dragon-inn", "bloody-inn", "dragon-run", "dale-of-merchants")
#: Every how many events of a story a moment is looked at (and its first and last).
EVERY = 12
#: How many values of one entry step up/down go through at most.
CYCLE = 12
#: How many times the entry of one offer or menu line is gone through at one kind of moment.
ENTRIES = 2

#: A counters game has no story: a few presses of one.
COUNTERS = {"game": "counters", "players": ["Ana", "Ben", "Cai"],
            "options": {"counters": [{"name": "life", "start": 20, "out_at": 0}, "poison"],
                        "table": ["round"]},
            "actions": [[{"action": "adjust", "player": "Ana", "counter": "life", "delta": -3}],
                        [{"action": "next"}],
                        [{"action": "adjust", "player": "Ben", "counter": "life", "delta": -20}]]}

#: Moments the stories sampled above may not reach, each a few actions whose last state shows offers only such
#: a moment makes: the Bloody Inn's police officer killed or bribed in his room (once an officer told the police
#: rank), Dragon Run's cards another's room made the others draw.
RARE = {
    "bloody-inn": {"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {"ask_pocket": True},
                   "actions": [[{"action": "welcome", "police_rooms": [2, 4]}],
                               [{"action": "correct", "player": "Ana", "hand": 4}],
                               [{"action": "correct", "player": "Ben", "hand": 4}],
                               [{"action": "bribe", "player": "Ana", "room": 2, "rank": 1}]]},
    "dragon-run": {"game": "dragon-run", "players": ["Ana", "Ben", "Cai"], "options": {},
                   "actions": [[{"action": "room", "others": 1, "then": "pass"}]]},
}


@dataclass(frozen=True)
class Shown:
    """One string on a pod: which game, which screen and part of it, the text."""

    game: str
    where: str  # "home.status", "entry.prompt", "message", ...
    text: str
    beside: str = ""  # an offer's "k/n"; a header corner's seat and name


def _stories(game: str) -> list[dict]:
    out = []
    later = sorted((ROOT / "bench" / "stories").glob("rulebook-*-actions")) if game in EVERY_SET else []
    for folder in (*STORY_DIRS, *later):
        path = folder / f"{game}.json"
        if path.exists():
            raw = json.loads(path.read_text(encoding="utf-8"))
            out.append({"game": raw["game"], "players": raw["players"], "options": raw.get("options") or {},
                        "actions": [e["actions"] for e in raw["events"]]})
    if game == "counters":
        out.append(COUNTERS)
    if game in RARE:
        out.append(RARE[game])
    return out


@cache
def moments(game: str) -> tuple[tuple[object, tuple[tuple[dict, dict, dict | None], ...]], ...]:
    """Per story: its rules and the sampled ``(state, next state, action between)``; the last has no next."""
    out = []
    for story in _stories(game):
        rules = make_rules({"game": story["game"], "players": story["players"], "options": story["options"]})
        state = rules.setup_state()
        seen = [(state, None)]
        for actions in story["actions"]:
            for action in actions:
                after, _events = rules.apply(state, action)
                seen.append((after, action))
                state = after
        picked = []
        for i in sorted({*range(0, len(seen) - 1, EVERY), len(seen) - 1}):
            nxt = seen[i + 1] if i + 1 < len(seen) else (None, None)
            picked.append((seen[i][0], nxt[0], nxt[1]))
        out.append((rules, tuple(picked)))
    return tuple(out)


class _Pod:
    """One seat's pod on one state: presses go to its controls; nothing is applied to the game."""

    def __init__(self, rules, state, seat: int, player: str, catalog, out: list, game: str):
        self.rules, self.state, self.catalog, self.out, self.game = rules, state, catalog, out, game
        self.ctl = SeatControls(seat, player)

    def twin(self) -> _Pod:
        """An independent copy of this pod, on the same screen."""
        other = copy.copy(self)
        other.ctl = copy.deepcopy(self.ctl)
        return other

    def say(self, where: str, text, beside: str = "") -> None:
        text = str(translated(text, self.catalog))
        if text:
            self.out.append(Shown(self.game, where, text, beside))

    def event(self, button: str, kind: str) -> None:
        intent = self.ctl.handle(InputEvent(self.ctl.seat, button, kind), self.rules, self.state)

        def apply(action):  # what the owner would answer: the rules' refusal, if any; the game is kept
            if action.get("action") in ("undo", "redo"):  # the match's, not the rules'
                return self.state
            return self.rules.apply(self.state, self.rules.prepare(self.state, action, random.Random(0)))[0]

        for text in settle(self.ctl, intent, self.rules, self.state, apply)[1]:
            self.say("message", text)

    def click(self, button: str, times: int = 1) -> None:
        for _ in range(times):
            self.event(button, PRESS)
            self.event(button, RELEASE)

    def hold(self, button: str) -> None:
        self.event(button, PRESS)
        self.event(button, HOLD)
        self.event(button, RELEASE)

    def view(self) -> PodView:
        v = self.ctl.view(self.rules, self.state, "", self.catalog)
        s = v.screen
        for name, value in v.counters:
            self.say(f"{s}.counter", name)
            if isinstance(value, str):
                self.say(f"{s}.value", value)
        for name, value in v.table:
            self.say(f"{s}.table", name)
            if isinstance(value, str):
                self.say(f"{s}.value", value)
        for part in ("status", "message", "prompt", "hint"):
            self.say(f"{s}.{part}", getattr(v, part))
        # the title shares the header with the step ("2/4") or the question ("OK?"), which takes its room
        self.say(f"{s}.title", v.title, v.step if s == ENTRY else v.prompt if s == PREVIEW else "")
        if s == HOME:  # the offer: in the bar while up/down go through them, else in the header's corner
            name = f"{v.seat} {v.player}"
            if v.choosing:
                self.say("home.offer", v.action, f"{v.pick + 1}/{v.choices}")
                self.say("home.corner", v.status, name)  # the status moves to the header's corner
            else:
                self.say("home.main" if v.choices == 1 else "home.action", v.action, name)
        if s in (HOME, MENU):
            self.say(f"{s}.header", f"{v.seat} {v.player}")
        if s != ENTRY:  # an entry's value and list are numbers or the step's options: said below
            for line in v.lines:  # a menu's line beside all its lines (what tells it from the others)
                self.say(f"{s}.line", line, "\n".join(v.lines) if s == MENU else "")
        return v


def _entry(pod: _Pod, chosen: str, pairs: set) -> None:
    """Every step of the entry ``pod`` is on: the prompt, each value up/down gives; then its preview."""
    seen = set()
    while pod.ctl.screen == ENTRY:
        v = pod.view()
        pairs.add(("offer", chosen, v.title))
        if pod.catalog is not None:  # the title and the step's field, in English and as shown
            en = pod.ctl.view(pod.rules, pod.state, "", None)
            pairs.add(("field", en.title, en.prompt, v.title, v.prompt))
        key = (v.prompt, v.step)
        if key in seen:  # main did not move on (refused): the refusal is said; stop here
            break
        seen.add(key)
        if not _is_number(v.value):
            pod.say("entry.value", v.value)
        first, last = v.value, _last(v.step)
        for _ in range(CYCLE):
            pod.click(UP)
            v = pod.view()
            if v.screen != ENTRY:
                return
            if not _is_number(v.value):  # a player, a choice, yes/no: a word shown
                pod.say("entry.value", v.value)
            if v.value == first:
                break
        pod.click(DOWN)  # back one: a number that went up once is now a valid one more often
        if last:
            pod.hold(MAIN)  # the preview, or the refusal at the step
            if pod.ctl.screen == PREVIEW:
                pod.view()
                pod.click(MAIN)  # do it (not applied: the answer is collected)
                if pod.ctl.screen == PREVIEW:
                    pod.view()
            break
        pod.click(MAIN)


def _last(step: str) -> bool:
    k, _, n = step.partition("/")
    return k == n


def _is_number(value: str) -> bool:
    return value.lstrip("−-").isdigit() or value == "–"


def visit(rules, state, player: str, seat: int, catalog, out: list, pairs: set, game: str,
          entered: dict) -> None:
    """Everything ``player``'s pod shows in ``state``: home with every offer, the menu, every entry.
    ``entered`` counts the entries opened per label and kind of moment (the phase, whose turn): one
    opened :data:`ENTRIES` times is not gone through again (its title is still read)."""

    turn = state.get("turn") if isinstance(state.get("turn"), dict) else {}
    moment = (turn.get("phase"), turn.get("player") == player, state.get("over"))

    def enter(pod: _Pod, chosen: str) -> None:
        if pod.ctl.screen == ENTRY:
            key = (chosen, moment)
            entered[key] = entered.get(key, 0) + 1
            if entered[key] <= ENTRIES:
                _entry(pod, chosen, pairs)
            else:
                pairs.add(("offer", chosen, pod.ctl.view(rules, state, "", catalog).title))
        elif pod.ctl.screen == PREVIEW:
            pod.view()

    pod = _Pod(rules, state, seat, player, catalog, out, game)
    home = pod.view()
    for _i in range(home.choices):  # every offer, by up/down
        v = pod.view()
        chosen = v.action.removesuffix("…")
        twin = pod.twin()
        twin.event(MAIN, PRESS)
        enter(twin, chosen)
        if not v.choosing:
            break
        pod.click(DOWN)
    pod = _Pod(rules, state, seat, player, catalog, out, game)
    pod.hold(SELECT)
    lines = pod.view().lines if pod.ctl.screen == MENU else ()
    for line in lines:
        twin = pod.twin()
        twin.click(MAIN)
        enter(twin, line.removesuffix("…"))
        pod.click(DOWN)
    # the counters: select to each, a press of up and of down (a refusal says why)
    pod = _Pod(rules, state, seat, player, catalog, out, game)
    for _ in range(len(home.counters) + 1):
        pod.click(SELECT)
        pod.view()
        if pod.ctl.screen == HOME and not pod.ctl.choosing:
            pod.click(UP)
            pod.view()
            if pod.ctl.screen == PREVIEW:
                pod.view()
                break
    assert pod.ctl.screen in (HOME, MENU, ENTRY, PREVIEW)


LANGUAGES = ("en", "es")


def collect(game: str, lang: str) -> tuple[tuple[Shown, ...], frozenset]:
    """Every string the pods of ``game`` show in ``lang`` at the sampled moments (each once), and the
    (chosen offer or menu line → entry title) pairs."""
    return _collected(game)[lang]


@cache
def _collected(game: str) -> dict[str, tuple[tuple[Shown, ...], frozenset]]:
    # Both languages state by state: the second reads the offers, menus and dry runs the first made
    # (grammar keeps them per state), so two languages cost little more than one.
    catalogs = {lang: None if lang == "en" else _catalog(lang) for lang in LANGUAGES}
    out: dict[str, set[Shown]] = {lang: set() for lang in LANGUAGES}
    pairs: dict[str, set] = {lang: set() for lang in LANGUAGES}
    entered: dict[str, dict] = {lang: {} for lang in LANGUAGES}
    for rules, picked in moments(game):
        for state, after, action in picked:
            for lang, catalog in catalogs.items():
                said: list[Shown] = []
                for seat, p in enumerate(state["players"], 1):
                    visit(rules, state, p["name"], seat, catalog, said, pairs[lang], game, entered[lang])
                if after is not None and action is not None:
                    for text in grammar.affected(rules, state, after, rules.actor(state, action)).values():
                        said.append(Shown(game, "home.message", str(translated(text, catalog))))
                out[lang].update(said)
    return {lang: (tuple(sorted(out[lang], key=lambda s: (s.where, s.text, s.beside))), frozenset(pairs[lang]))
            for lang in LANGUAGES}


@cache
def _catalog(lang: str):
    from tablekeeper.ui.i18n import load_catalog

    return load_catalog(lang)


if __name__ == "__main__":  # python -m tests.hardware.podwords GAME LANG: what the pods say, one per line
    shown, _pairs = collect(sys.argv[1], sys.argv[2])
    for s in sorted({(s.where, s.text) for s in shown}):
        print(*s, sep="\t")
