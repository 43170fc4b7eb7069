"""From a game's state to what each seat's pod shows: :func:`pod_view`.

Game-agnostic: everything game-specific comes from the rules' own
``seat_view(state, name)`` and ``seat_actions(state, name)`` hooks
(engine/game.py); this module only arranges their answer into a
:class:`~tablekeeper.hardware.pod.PodView`.
"""
from __future__ import annotations

import functools

from ...engine.messages import Msg, translated, word
from ...hardware.icons import GLYPHS
from ...hardware.pod import PodView
from . import grammar as g


def seat_number(state: dict, player_name: str) -> int:
    """The player's 1-based seat (their place in the setup's player list)."""
    for i, p in enumerate(state["players"]):
        if p["name"] == player_name:
            return i + 1
    names = ", ".join(p["name"] for p in state["players"])
    raise KeyError(f"there is no player called {player_name!r} (players: {names})")


def focus_index(counters, focus: int | str) -> int:
    """The index of ``focus`` (an index, or a counter's name) in ``counters``, clamped; 0 if unknown."""
    if not counters:
        return 0
    if isinstance(focus, str):
        for i, (name, _) in enumerate(counters):
            if name == focus:
                return i
        return 0
    return min(max(int(focus), 0), len(counters) - 1)


def _value(v):
    # Counters are whole numbers; a game may show a word (e.g. "-") instead.
    return v if isinstance(v, (int, str)) and not isinstance(v, bool) else str(v)


def _say(value, catalog):
    """``value`` in the table's language if it is a message; a number or a name as it is."""
    return value.translated(catalog) if isinstance(value, Msg) else value


def _words(pairs, catalog) -> tuple:
    # A counter's or a table figure's name is a word of the game; its value may be a word too.
    return tuple((_name(k, catalog), _say(_value(v), catalog)) for k, v in pairs)


def _name(key, catalog) -> str:
    """A counter's name as the table reads it: the catalog's word, else the key with spaces
    ("drink_me" → "drink me": English has no catalog of its own)."""
    if isinstance(key, Msg):
        text = str(key.translated(catalog))
        return text.replace("_", " ") if text == str(key) else text
    return _counter_name(str(key), catalog)


@functools.lru_cache(maxsize=1024)
def _counter_name(key: str, catalog) -> str:
    # A game's counters are few and their names fixed: each is looked up once per language.
    text = str(translated(word("counter", key), catalog))
    return text.replace("_", " ") if text == key else text


def pod_view(rules, state: dict, player_name: str, focus: int | str = 0, *,
             pick: int = 0, message: str = "", catalog=None, actions: list | None = None,
             choosing: bool = False) -> PodView:
    """What ``player_name``'s pod shows in ``state``.

    ``focus``: the index (or name) of the counter shown large, clamped to the
    counters there are. ``pick``: which of ``rules.seat_actions`` the main
    button does (0 = the most likely; wraps around); ``choosing``: the
    pod's up/down go through those offers. ``message``: a refusal to
    show for a moment. ``catalog``: the gettext catalog of the table's
    language (None: English); every word and sentence is translated here.
    """
    sv = g.seat_view(rules, state, player_name)
    counters = _words(sv.get("counters", ()), catalog)
    table = _words(sv.get("table", ()), catalog)
    icons = getattr(rules, "icons", {})
    if actions is None:  # the caller may have them already (one seat_actions call per view)
        actions = g.offers(rules, state, player_name)
    label = ""
    if actions:
        offer = actions[pick % len(actions)]
        label = str(_say(offer.get("label", ""), catalog))
        if offer.get("ask"):  # it asks something before it is done
            label += "…"
    player = next(p for p in state["players"] if p["name"] == player_name)
    turn = state.get("turn")
    your_turn = isinstance(turn, dict) and turn.get("player") == player_name and not state.get("over")
    return PodView(
        seat=seat_number(state, player_name),
        player=player_name,
        counters=counters,
        # the focus is a counter's key (the controls' own), not its name in the table's language
        focus=focus_index([(str(k), v) for k, v in sv.get("counters", ())], focus),
        status=str(_say(sv.get("status", "") or "", catalog)),
        alert=bool(sv.get("alert", False)),
        table=table,
        your_turn=bool(your_turn),
        out=bool(player.get("out", False)),
        action=label,
        choices=len(actions),
        pick=pick % len(actions) if actions else 0,
        choosing=choosing and len(actions) > 1,
        message=str(_say(message, catalog)),
        icons=_icons(sv.get("counters", ()), icons),
        table_icons=_icons(sv.get("table", ()), icons),
    )


def _icons(pairs, icons) -> tuple[str, ...]:
    # Only a counter the game names an icon for gets one (a seat view's own figures get none).
    return tuple(GLYPHS.get(icons.get(k, ""), "") if isinstance(k, str) else "" for k, _v in pairs)
