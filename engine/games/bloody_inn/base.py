"""What the Bloody Inn's parts (rules.py, words.py) ask of each other: the one base both build on."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...game import Game
from ...state import Txn


class BloodyInnBase(Game):
    """The helpers shared by the rules and the words; the game class combines both (``__init__.py``)."""

    @staticmethod
    def _rooms(t: Txn) -> list[dict[str, Any]]:
        rooms: list[dict[str, Any]] = t.state["inn"]["rooms"]
        return rooms

    def _phase_refusal(self, t: Txn, wanted: str) -> RuleError:
        """Why ``wanted`` cannot be done in this phase (words.py says it)."""
        raise NotImplementedError
