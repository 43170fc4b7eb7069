"""Stray presses: what one accidental click does on a pod whose player has nothing to do.

At every moment of the stories written from the rulebooks (``bench/stories/rulebook-actions``), the
pod of every player who is neither the one the story's next event is about nor the player whose turn
it is (nor, in the Bloody Inn's welcome and morning, the first player; nor a Red Dragon Inn player the
device waits for: whose go it is in a gambling round, each one still to drink a drink event's card, the
one in their last chance; nor a Dragon Run player who still enters a card another's room made them draw) gets
one click, and one press
leant on (held, three repeats), of ``main``, ``up``, ``down`` and ``select``, each on a pod at rest (its home
screen, as a player leaves it). A click that changes the game is counted, by the action it did.

    .venv/bin/python bench/bench_stray.py [STORY.json ...]

Prints one JSON object per story (``stray_<game>_*`` figures) and the changes found. The rules let a
player do a few things out of turn (the Red Dragon Inn's cards «en cualquier momento», Dragon Run's
cancel potion right after another's potion); those are listed apart as ``allowed`` when the action is
one the rules let a player take out of turn (``OUT_OF_TURN``), or a Bloody Inn income the device
does not work out, added by its owner at a moment it can come (``income_by_hand``).

A counter changed by hand takes two presses, select (choose the counter shown) and then up or down,
and a card played on another player during someone's last chance two, main and main (the player
asked): those deliberate pairs are tried too, apart from the stray presses, and what they did counted
as ``stray_<game>_on_purpose`` (what the rules let its owner do then; it must stay possible).
"""
from __future__ import annotations

import itertools
import json
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from stories import load, play, rules_of  # noqa: E402  (bench/ is not a package)

from tablekeeper.hardware.pod import DOWN, HOLD, MAIN, PRESS, RELEASE, REPEAT, SELECT, UP, InputEvent  # noqa: E402
from tablekeeper.ui.pod.inputs import SeatControls, settle  # noqa: E402

#: Actions the rules let a player take outside their own turn, by game: a stray click that does one of
#: these is a card the player may play at any moment, counted apart (``allowed``), not as a fault.
OUT_OF_TURN = {
    # «Cartas de En cualquier momento: se pueden jugar en cualquier momento»: fortitude gained or
    # another's fortitude lost by a card (an adjust), gold taken (a transfer)
    "red-dragon-inn": {"adjust", "transfer", "play"},
    # «Solo la poción de anulación se puede jugar durante el turno de otro jugador»
    "dragon-run": {"play"},
    "bloody-inn": set(),
    "dale-of-merchants": set(),
}

BUTTONS = (MAIN, UP, DOWN, SELECT)
#: A click, and a press leant on: held past the hold time, three repeats, let go.
GESTURES = {"click": (PRESS, RELEASE), "hold": (PRESS, HOLD, REPEAT, REPEAT, REPEAT, RELEASE)}


def income_by_hand(game: str, state: dict, action: dict) -> bool:
    """The Bloody Inn: cash moved by its owner while a guest checks in (the welcome, until the night's
    first action), in the morning or at the final count — the moments an annex's income comes — when the owner has an annex whose income the device
    does not work out (a power of the table's own, one paid at the end, or one it was not told)."""
    if game != "bloody-inn" or action.get("action") != "adjust" or action.get("counter") != "cash":
        return False
    turn = state.get("turn") or {}
    just_welcomed = turn.get("player") == state.get("first_player") and turn.get("action") == 1
    if state.get("phase") not in ("welcome", "morning", "count") and not just_welcomed:
        return False
    p = next(p for p in state["players"] if p["name"] == action.get("player"))
    return any(x.get("effect") in (None, "other", "end_game") for x in p["annexes"][1:])


def presses(rules, state: dict, seat: int, name: str, steps) -> dict | None:
    """``steps``, each a button and its events (``GESTURES``), one after the other on a pod at rest: the
    first action they did (and the rules took), or None. An action that would end the game is not done
    (the pod asks to confirm it)."""
    ctl = SeatControls(seat, name)
    done: list[dict] = []
    for button, kinds in steps:
        for kind in kinds:
            intent = ctl.handle(InputEvent(seat, button, kind), rules, state)

            def apply(action: dict, now: dict = state, short_of_end: bool = intent.short_of_end) -> dict:
                if action.get("action") not in ("undo", "redo"):
                    action = rules.prepare(now, action, random.Random(3))
                after: dict = rules.apply(now, action)[0]  # a refusal raises: nothing done
                if not (short_of_end and after.get("over") and not now.get("over")):
                    done.append(action)
                return after

            state = settle(ctl, intent, rules, state, apply)[0]
    return done[0] if done else None


#: Two presses meant together: a counter chosen and changed by hand; an offer opened and done.
ON_PURPOSE = ((SELECT, UP), (MAIN, MAIN))


def sweep(path: Path) -> dict:
    story = load(path)
    rules = rules_of(story)
    game = story.game
    probes, faults, allowed, deliberate = 0, Counter(), Counter(), Counter()
    examples: dict[str, str] = {}
    for i, (event, before, _after) in enumerate(play(story, check=False), 1):
        if before.get("over"):
            continue
        acting = {event.who, (before.get("turn") or {}).get("player")}
        if before.get("phase") in ("welcome", "morning"):  # the Bloody Inn's: the first player's phases
            acting.add(before.get("first_player"))
        if before.get("gambling"):  # the Red Dragon Inn's gambling round: whose go it is
            acting.add(before["gambling"].get("to_act"))
        # the Red Dragon Inn's players the device waits for whoever's turn it is: each one's card of a drink
        # event (status "drink from the deck"), and the player about to pass out, whose last chance it is
        acting.update((before.get("drink_event") or {}).get("waiting", ()))
        acting.update(e["name"] for e in before.get("pending") or () if isinstance(e, dict) and "name" in e)
        # Dragon Run's players who still enter a card another's room made them draw or discard (status "enter your
        # card")
        acting.update(before.get("to_draw") or ())
        acting.update(before.get("to_discard") or ())
        for seat, p in enumerate(before["players"], 1):
            name = p["name"]
            if name in acting or p.get("out"):
                continue
            for buttons in ON_PURPOSE:
                action = presses(rules, before, seat, name, [(b, GESTURES["click"]) for b in buttons])
                if action is not None:
                    deliberate[f"{', '.join(buttons)} → {action.get('action')}"] += 1
            for (how, kinds), button in itertools.product(GESTURES.items(), BUTTONS):
                probes += 1
                action = presses(rules, before, seat, name, [(button, kinds)])
                if action is None:
                    continue
                key = f"{how} {button} → {action.get('action')}"
                if action.get("action") in OUT_OF_TURN.get(game, set()) or income_by_hand(game, before, action):
                    allowed[key] += 1
                else:
                    faults[key] += 1
                    examples.setdefault(key, f"event {i} ({event.say[:90]}), {name}'s pod: {json.dumps(action)}")
    g = game.replace("-", "_")
    return {
        f"stray_{g}_clicks": {"value": probes, "unit": "clicks",
                              "note": "one click and one hold of each button on every idle pod at every moment of the story"},
        f"stray_{g}_changes": {"value": sum(faults.values()), "unit": "clicks", "goal": "0",
                               "by_kind": dict(faults), "examples": examples},
        f"stray_{g}_out_of_turn_cards": {"value": sum(allowed.values()), "unit": "clicks",
                                         "note": "a card the rules let its player play at any moment, or an annex's income by hand",
                                         "by_kind": dict(allowed)},
        f"stray_{g}_on_purpose": {"value": sum(deliberate.values()), "unit": "pairs",
                                  "note": "select then up, main then main, on an idle pod: done on purpose",
                                  "by_kind": dict(deliberate)},
    }


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((HERE / "stories" / "rulebook-actions").glob("*.json"))
    for path in paths:
        print(json.dumps(sweep(path), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
