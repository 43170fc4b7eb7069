"""Which games exist: id → definition class, found in ``engine/games/``.

Each game lives in its own package under ``engine/games/`` (rules, views, words
and its catalog; the generic counters in one module) and exposes its class as
``GAME``. The games are found there: adding a game touches only its own
modules. They are listed by title ("The" aside), the generic ones last.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from . import games as _games_package
from .errors import SetupError
from .game import Game
from .messages import _


def _discover() -> dict[str, tuple[str, type[Game]]]:
    found: list[tuple[str, type[Game]]] = []
    for info in pkgutil.iter_modules(_games_package.__path__):
        module = importlib.import_module(f"{_games_package.__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, type) and issubclass(game, Game) and game.id:
            found.append((info.name, game))
    found.sort(key=lambda item: (item[1].generic, item[1].title.removeprefix("The ").lower()))
    return {game.id: (name, game) for name, game in found}


_GAMES = _discover()

#: game id → (package or module under engine.games, title)
KNOWN: dict[str, tuple[str, str]] = {game_id: (name, cls.title) for game_id, (name, cls) in _GAMES.items()}


def game_class(game_id: str) -> type[Game]:
    if not isinstance(game_id, str) or game_id not in _GAMES:
        known = ", ".join(_GAMES)
        raise SetupError(_("unknown game {game_id!r} (games: {known})", game_id=game_id, known=known))
    return _GAMES[game_id][1]


def available() -> dict[str, type[Game]]:
    return {game_id: cls for game_id, (_name, cls) in _GAMES.items()}


def make_rules(setup: dict[str, Any]) -> Game:
    """Rules bound to a table from a setup object ``{"game", "players", "options"}``."""
    if not isinstance(setup, dict):
        raise SetupError(_('the setup must be an object like {"game": "counters", "players": ["Ana", "Ben"]}'))
    extra = sorted(set(setup) - {"game", "players", "options"})
    if extra:
        raise SetupError(_("setup: unexpected field {value!r}", value=extra[0]))
    if "game" not in setup:
        raise SetupError(_('the setup needs a "game" field'))
    if "players" not in setup:
        raise SetupError(_('the setup needs a "players" list'))
    cls = game_class(setup["game"])
    return cls(setup["players"], setup.get("options") or {})
