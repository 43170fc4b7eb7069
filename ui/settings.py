"""The app's own settings: a small JSON file in the state folder.

Language, pods' brightness, and per stored game which pod each player sits
at. Game state never lives here (that is the journal's); losing this file
loses only preferences. Written atomically (temp file, fsync, rename, fsync
the folder), so a power cut leaves the old file or the new one.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

FILENAME = "app-settings.json"

#: Pod brightness is a level 1–10 (the hardware maps it to the OLED contrast).
BRIGHTNESS_LEVELS = (1, 10)
DEFAULT_BRIGHTNESS = 8
#: The file's keys: any JSON value may be read back, so each getter checks its own.
#: How many player colours there are (ui.widgets.PLAYER_COLOURS).
COLOURS = 8
DEFAULTS: dict[str, Any] = {"language": None, "brightness": DEFAULT_BRIGHTNESS, "seats": {}, "colours": {}, "motion": True,
                             "seat_facing": True, "table_ends": False}


def _switch(key: str) -> property:
    """A setting that is on unless the file says ``false``."""

    def get(self: Settings) -> bool:
        return self.data.get(key) is not False

    def set_(self: Settings, on: bool) -> None:
        self.data[key] = bool(on)

    return property(get, set_)


class Settings:
    """Preferences with defaults; :meth:`save` after changing them."""

    def __init__(self, state_dir: str | os.PathLike):
        self.path = Path(state_dir) / FILENAME
        self.problem: str | None = None
        self.data: dict[str, Any] = dict(DEFAULTS)
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                self.data.update({k: v for k, v in loaded.items() if k in DEFAULTS})
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as e:
            self.problem = f"the settings file {self.path} cannot be read ({e}); defaults are used"

    # -- language: None = follow the system --------------------------------------
    @property
    def language(self) -> str | None:
        value = self.data.get("language")
        return value if isinstance(value, str) else None

    @language.setter
    def language(self, code: str | None) -> None:
        self.data["language"] = code

    # -- brightness -----------------------------------------------------------------
    @property
    def brightness(self) -> int:
        lo, hi = BRIGHTNESS_LEVELS
        value = self.data.get("brightness")
        if isinstance(value, bool) or not isinstance(value, int):
            return DEFAULT_BRIGHTNESS
        return max(lo, min(hi, value))

    @brightness.setter
    def brightness(self, level: int) -> None:
        lo, hi = BRIGHTNESS_LEVELS
        self.data["brightness"] = max(lo, min(hi, int(level)))

    #: A changed value flashes, an elimination or a win gets its moment (on unless switched off).
    motion = _switch("motion")
    #: Each player's card turned toward their side of the table, 2–6 players (on unless switched off).
    seat_facing = _switch("seat_facing")

    #: Seat-facing with a seat at each short end of the table (4–6 players; off unless switched on).
    @property
    def table_ends(self) -> bool:
        return self.data.get("table_ends") is True

    @table_ends.setter
    def table_ends(self, on: bool) -> None:
        self.data["table_ends"] = bool(on)

    # -- seats: stored game id → {player: pod number (1-based)} ---------------------
    def seats(self, game_id: int, players: list[str]) -> dict[str, int]:
        """Which pod each player of a stored game uses; by seat order when unset."""
        stored = self.data.get("seats", {}).get(str(game_id))
        default = {name: i + 1 for i, name in enumerate(players)}
        if not isinstance(stored, dict) or set(stored) != set(players):
            return default
        return {name: int(stored[name]) for name in players}

    def set_seats(self, game_id: int, mapping: dict[str, int]) -> None:
        self.data.setdefault("seats", {})[str(game_id)] = dict(mapping)

    # -- colours: stored game id → {player: colour (an index of widgets.PLAYER_COLOURS)} ----
    def colours(self, game_id: int, players: list[str]) -> dict[str, int]:
        """Each player's colour in a stored game: as chosen at setup, else by pod order."""
        seats = self.seats(game_id, players)
        default = {name: i % COLOURS for i, name in enumerate(sorted(players, key=lambda n: seats[n]))}
        stored = self.data.get("colours", {}).get(str(game_id))
        if not isinstance(stored, dict) or set(stored) != set(players) or not all(
                isinstance(v, int) and 0 <= v < COLOURS for v in stored.values()):
            return default
        return {name: stored[name] for name in players}

    def set_colours(self, game_id: int, mapping: dict[str, int]) -> None:
        self.data.setdefault("colours", {})[str(game_id)] = dict(mapping)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps(self.data, indent=1, sort_keys=True, ensure_ascii=False)
        fd, tmp = tempfile.mkstemp(prefix=".settings-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(body)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        dfd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
