"""The app's screens, one module each; :func:`screen_class` gives a name's class.

A screen's module is imported the first time the screen is shown: a table resumed at start needs
the table's, not the statistics', the settings' or the new game's (each a module of widgets and
their imports, kept in memory for the whole session once imported).
"""
from __future__ import annotations

import importlib

from .base import BaseScreen

#: A screen's name → its module (under this package) and class.
SCREENS: dict[str, tuple[str, str]] = {
    "home": ("home", "HomeScreen"),
    "new": ("newgame", "NewGameScreen"),
    "table": ("table", "TableScreen"),
    "history": ("history", "HistoryScreen"),
    "end": ("end", "EndScreen"),
    "settings": ("settings", "SettingsScreen"),
    "pods": ("pods", "PodsScreen"),
    "stats": ("stats", "StatsScreen"),
}


def screen_class(name: str) -> type[BaseScreen]:
    """The class of the screen called ``name``, its module imported now if it was not yet."""
    module, cls = SCREENS[name]
    screen: type[BaseScreen] = getattr(importlib.import_module(f"{__name__}.{module}"), cls)
    return screen
