"""The rules engine: pure game definitions, actions, state and the journal.

Imports nothing outside the standard library.
"""
from .errors import JournalError, RuleError, SetupError, TablekeeperError, WouldEnd
from .game import Game, Offer, action
from .journal import Journal, default_state_dir
from .match import Match
from .registry import available, game_class, make_rules
from .session import Outcome, Session
from .spec import Counter, Option
from .state import Args, Txn, canonical, clone

__all__ = [
    "Args", "Counter", "Game", "JournalError", "Journal", "Match", "Offer", "Option", "Outcome",
    "RuleError", "Session", "SetupError", "TablekeeperError", "Txn", "WouldEnd", "action", "available",
    "canonical", "clone", "default_state_dir", "game_class", "make_rules",
]
