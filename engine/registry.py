"""Which games exist: id → definition class, found in ``engine/games/``.

Each game lives in its own package under ``engine/games/`` (rules, views, words
and its catalog; the generic counters in one module) and exposes its class as
``GAME``. The games are found there: adding a game touches only its own
modules. They are listed by title ("The" aside), the generic ones last.

A game is imported when it is first asked for, not all of them at import: a
table resuming one game loads that game's rules alone (each other game is
0.3-0.4 MB of the app's memory, docs/benchmarks.md). A game asked for by id is
looked for first in the package named like its id (``some-game`` →
``some_game``); a game whose package is named otherwise is still found,
by importing them all, as is every game once the whole list is asked for
(:func:`available`, ``KNOWN``).
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from . import games as _games_package
from .errors import SetupError
from .game import Game
from .messages import _

#: The games imported so far: id → (package or module under engine.games, class).
_LOADED: dict[str, tuple[str, type[Game]]] = {}
#: Every game, in the listed order, once all were imported (None until then).
_ALL: dict[str, tuple[str, type[Game]]] | None = None


def _names() -> list[str]:
    """The packages and modules under engine.games (none imported)."""
    return [info.name for info in pkgutil.iter_modules(_games_package.__path__)]


def _load(name: str) -> type[Game] | None:
    """The game that ``engine.games.<name>`` exposes as GAME (imported now if it was not), or None."""
    module = importlib.import_module(f"{_games_package.__name__}.{name}")
    game = getattr(module, "GAME", None)
    if isinstance(game, type) and issubclass(game, Game) and game.id:
        _LOADED.setdefault(game.id, (name, game))
        return game
    return None


def _all() -> dict[str, tuple[str, type[Game]]]:
    global _ALL
    if _ALL is None:
        found = [(name, game) for name in _names() if (game := _load(name)) is not None]
        found.sort(key=lambda item: (item[1].generic, item[1].title.removeprefix("The ").lower()))
        _ALL = {game.id: (name, game) for name, game in found}
    return _ALL


def _find(game_id: object) -> tuple[str, type[Game]] | None:
    """``game_id``'s (module name, class), or None (not a game here, not a name at all): its own package
    imported alone when it is named like the id."""
    if not isinstance(game_id, str) or not game_id:
        return None
    hit = _LOADED.get(game_id)
    if hit is None and _ALL is None:
        name = game_id.replace("-", "_")
        if name.isidentifier() and name in _names():
            _load(name)
            hit = _LOADED.get(game_id)
    if hit is None:
        hit = _all().get(game_id)
    return hit


def __getattr__(name: str) -> dict[str, tuple[str, str]]:
    if name == "KNOWN":
        #: game id → (package or module under engine.games, title); every game imported
        return {game_id: (module, cls.title) for game_id, (module, cls) in _all().items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def known(game_id: object) -> bool:
    """Whether ``game_id`` is a game here (imports that game alone when its package is named like it)."""
    return _find(game_id) is not None


def module_name(game_id: str) -> str | None:
    """The package or module under engine.games that ``game_id`` lives in, or None for a game not known here."""
    hit = _find(game_id)
    return hit[0] if hit is not None else None


def title(game_id: str) -> str | None:
    """``game_id``'s title, or None for a game not known here."""
    hit = _find(game_id)
    return hit[1].title if hit is not None else None


def game_class(game_id: str) -> type[Game]:
    hit = _find(game_id)
    if hit is None:
        raise SetupError(_("unknown game {game_id!r} (games: {known})", game_id=game_id, known=", ".join(_all())))
    return hit[1]


def available() -> dict[str, type[Game]]:
    return {game_id: cls for game_id, (_name, cls) in _all().items()}


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
