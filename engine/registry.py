"""Which games exist: id → definition class.

Each game lives in its own module under ``engine/games/`` and exposes its class
as ``GAME``. A game whose module is not there yet answers with a clear "not
yet" instead of an unknown id.
"""
from __future__ import annotations

import importlib

from .errors import SetupError
from .messages import _
from .game import Game

#: game id → (module under engine.games, title, issue that brings it)
KNOWN: dict[str, tuple[str, str, int]] = {
    "red-dragon-inn": ("red_dragon_inn", "The Red Dragon Inn", 3),
    "bloody-inn": ("bloody_inn", "The Bloody Inn", 4),
    "dragon-run": ("dragon_run", "Dragon Run", 5),
    "dale-of-merchants": ("dale_of_merchants", "Dale of Merchants", 6),
    "counters": ("counters", "Counters", 2),
}


def _load(game_id: str) -> type[Game] | None:
    module_name = KNOWN[game_id][0]
    try:
        module = importlib.import_module(f"{__package__}.games.{module_name}")
    except ModuleNotFoundError as e:
        if e.name and e.name.endswith(f"games.{module_name}"):
            return None
        raise
    return module.GAME


def game_class(game_id: str) -> type[Game]:
    if not isinstance(game_id, str) or game_id not in KNOWN:
        known = ", ".join(KNOWN)
        raise SetupError(_("unknown game {game_id!r} (games: {known})", game_id=game_id, known=known))
    cls = _load(game_id)
    if cls is None:
        title, issue = KNOWN[game_id][1:]
        raise SetupError(_("{title} ({game_id}) is not available yet: it comes with issue #{issue}", title=title, game_id=game_id, issue=issue))
    return cls


def available() -> dict[str, type[Game]]:
    out = {}
    for game_id in KNOWN:
        cls = _load(game_id)
        if cls is not None:
            out[game_id] = cls
    return out


def make_rules(setup: dict) -> Game:
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
