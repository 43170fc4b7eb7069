"""The pods' errors: one root, each class also the builtin a caller expects (the gpiozero habit)."""
from __future__ import annotations

from ..engine.errors import TablekeeperError


class HardwareError(TablekeeperError):
    """Root of every deliberate error of the seat pods."""


class ConfigError(HardwareError, ValueError):
    """The pod config is wrong; the message names the file and the key. Raised before any hardware is touched."""


class PodError(HardwareError, OSError):
    """A pod's display, bus or buttons failed ("no display at 0x3C on i2c-1 channel 2").

    ``temporary``: worth retrying (a bus error, a display that went away);
    false for what only a person can fix (permissions, a missing module).
    """

    def __init__(self, message: str, *, temporary: bool = True):
        super().__init__(message)
        self.temporary = temporary

    def __str__(self) -> str:
        return self.args[0] if self.args else ""
