"""The app's screens, one module each; :data:`SCREENS` maps a name to its class."""
from __future__ import annotations

from .base import BaseScreen
from .end import EndScreen
from .history import HistoryScreen
from .home import HomeScreen
from .newgame import NewGameScreen
from .pods import PodsScreen
from .settings import SettingsScreen
from .stats import StatsScreen
from .table import TableScreen

SCREENS: dict[str, type[BaseScreen]] = {
    "home": HomeScreen,
    "new": NewGameScreen,
    "table": TableScreen,
    "history": HistoryScreen,
    "end": EndScreen,
    "settings": SettingsScreen,
    "pods": PodsScreen,
    "stats": StatsScreen,
}
