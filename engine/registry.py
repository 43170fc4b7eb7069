"""Which games exist: id → definition class.

Each game lives in its own package under ``engine/games/`` (rules, views, words
and its catalog; the generic counters in one module) and exposes its class as
``GAME``. This table is the one place outside a game that names it.
"""
from __future__ import annotations

import importlib
from typing import Any

from .errors import SetupError
from .game import Game
from .messages import _

#: game id → (package or module under engine.games, title)
KNOWN: dict[str, tuple[str, str]] = {
    "red-dragon-inn": ("red_dragon_inn", "The Red Dragon Inn"),
    "bloody-inn": ("bloody_inn", "The Bloody Inn"),
    "dragon-run": ("dragon_run", "Dragon Run"),
    "dale-of-merchants": ("dale_of_merchants", "Dale of Merchants"),
    "counters": ("counters", "Counters"),
}


def _load(game_id: str) -> type[Game]:
    module_name = KNOWN[game_id][0]
    game: type[Game] = importlib.import_module(f"{__package__}.games.{module_name}").GAME
    return game


def game_class(game_id: str) -> type[Game]:
    if not isinstance(game_id, str) or game_id not in KNOWN:
        known = ", ".join(KNOWN)
        raise SetupError(_("unknown game {game_id!r} (games: {known})", game_id=game_id, known=known))
    return _load(game_id)


def available() -> dict[str, type[Game]]:
    return {game_id: _load(game_id) for game_id in KNOWN}


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
