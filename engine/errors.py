"""One root for every error the engine raises on purpose.

Each class also inherits the builtin a caller would expect, so code that does
not know our names still catches them sensibly (the gpiozero habit).
"""


class TablekeeperError(Exception):
    """Root of every deliberate tablekeeper error."""


class RuleError(TablekeeperError, ValueError):
    """An action the rules forbid, or that is malformed.

    The message is for players: it names the rule in plain words. When this is
    raised, the game state is unchanged.
    """


class SetupError(RuleError):
    """A game cannot be set up as asked (unknown game, bad options, player count)."""


class JournalError(TablekeeperError, OSError):
    """The journal cannot be opened or written."""


class JournalFull(JournalError):
    """The disk holding the journal is full: nothing was written, nothing is lost."""


class JournalReadOnly(JournalError):
    """The state folder or the journal cannot be written; reading still works."""


class JournalBusy(JournalError):
    """Another process held the journal for writing longer than we wait."""


class WouldEnd(TablekeeperError):
    """The action would end the game and its caller asked to stop short of that (a pod's press,
    which the player then confirms): nothing was written, the game goes on unchanged."""
