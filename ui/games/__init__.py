"""Each game's own part of the app: its guided dialogs, registered by game id.

A module here is one game's (its dialogs and whatever they show, such as the
Red Dragon Inn's drink list), named like the game's package in ``engine/games/``;
it calls :func:`register` when imported, which happens the first time the app asks
for that game's dialogs or board: a table loads its own game's module, not all of
them (nor, through them, the other games' rules). The
table's footer asks :func:`dialogs_for`; the screens never name a game. A game whose
rules check more than its counters (the Bloody Inn's rooms and annexes) registers a
:class:`Board` too: the table shows it beside the cards (:func:`board_for`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..guided import DialogButton

_DIALOGS: dict[str, tuple[DialogButton, ...]] = {}


@dataclass(frozen=True)
class Place:
    """One place of the table's board (a room of the inn): its ``title`` ("room 3"), whose it is
    (a player's name, or "" for nobody's), what is in it in words ("guest", "police", "empty") and
    its ``look``: "empty", "taken" or "alert" (the tile's colour)."""

    id: str
    title: str
    holder: str
    content: str
    look: str


@dataclass(frozen=True)
class Board:
    """What a game shows beside its counters, read from the state (never adjusted there: the game's
    own actions change it). ``places(state)``: the table's places, a column of tiles beside the
    cards; ``card_line(state, name)``: a line on each player's card (their annexes)."""

    places: Callable[[dict], list[Place]]
    card_line: Callable[[dict, str], str]


_BOARDS: dict[str, Board] = {}


def register(game_id: str, *buttons: DialogButton) -> None:
    """The footer buttons of ``game_id``'s guided dialogs, in the order shown."""
    _DIALOGS[game_id] = tuple(buttons)


def dialogs_for(game_id: str) -> tuple[DialogButton, ...]:
    """``game_id``'s footer buttons; none for a game without guided dialogs."""
    _load(game_id)
    return _DIALOGS.get(game_id, ())


def register_board(game_id: str, board: Board) -> None:
    """What ``game_id`` shows beside its counters."""
    _BOARDS[game_id] = board


def board_for(game_id: str) -> Board | None:
    """``game_id``'s board; None for a game whose counters say it all."""
    _load(game_id)
    return _BOARDS.get(game_id)


#: The game ids whose module here was looked for.
_LOOKED: set[str] = set()


def _load(game_id: str) -> None:
    """Import ``game_id``'s module here, if it has one (named like its package in engine/games/: the
    registry says which), the first time it is asked for; it registers the game's dialogs and board.
    A new game's module is found like the game itself, by being here under its package's name."""
    if game_id in _LOOKED:
        return
    _LOOKED.add(game_id)
    import importlib
    import pkgutil

    from ...engine.registry import module_name

    name = module_name(game_id)
    if name is not None and name in {info.name for info in pkgutil.iter_modules(__path__)}:
        importlib.import_module(f"{__name__}.{name}")
