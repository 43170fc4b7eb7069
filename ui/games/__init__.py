"""Each game's own part of the app: its guided dialogs, registered by game id.

A module here is one game's (its dialogs and whatever they show, such as the
Red Dragon Inn's drink list); it calls :func:`register` when imported. The
table's footer asks :func:`dialogs_for`; the screens never name a game.
"""
from __future__ import annotations

from ..guided import DialogButton

_DIALOGS: dict[str, tuple[DialogButton, ...]] = {}


def register(game_id: str, *buttons: DialogButton) -> None:
    """The footer buttons of ``game_id``'s guided dialogs, in the order shown."""
    _DIALOGS[game_id] = tuple(buttons)


def dialogs_for(game_id: str) -> tuple[DialogButton, ...]:
    """``game_id``'s footer buttons; none for a game without guided dialogs."""
    return _DIALOGS.get(game_id, ())


def _discover() -> None:
    """Import every module here: each registers its game's dialogs (a new game's module is found
    like the games themselves, by being here)."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


_discover()
