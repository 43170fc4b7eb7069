"""What text and numbers the engine accepts from people: names, actions, options.

Everything a person types ends up in the journal, on a 128x64 pod and on a
terminal. So a player name is normalised (Unicode NFC, spaces trimmed and
collapsed), must fit a pod's header, and may not carry control, format
(bidi overrides, zero-width) or unpaired-surrogate characters; two names are
the same player if they match ignoring case. Any other value (an action, the
options) is bounded in size, depth and magnitude, and its text obeys the same
character rules; nothing is silently altered there, it is refused.
"""
from __future__ import annotations

import unicodedata

from .errors import RuleError, SetupError

#: Longest player name: what a pod's header shows beside the seat number without cutting.
NAME_MAX = 12
#: Longest text value in an action or an option (a cause, a counter's name, a label).
TEXT_MAX = 120
#: Largest whole number accepted anywhere (far beyond any game's figures).
INT_MAX = 10**9
#: Deepest nesting of lists/objects, most items in one list/object, largest encoded action.
DEPTH_MAX = 6
ITEMS_MAX = 64
ACTION_BYTES_MAX = 4096

# Categories refused in any text: Cc control (NUL, ESC, newline...), Cf format (bidi
# overrides, zero-width joiners), Cs unpaired surrogates, Co private use, Cn unassigned.
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn"}


def shown(text: str) -> str:
    """``text`` safe for a terminal or a log: every control/format character escaped (``\\x1b``, ``\\u202e``)."""
    if not isinstance(text, str):
        text = str(text)
    out = []
    for ch in text:
        if unicodedata.category(ch) in _REFUSED:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def _bad_char(text: str) -> str | None:
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in _REFUSED:
            if cat == "Cs":
                return "a broken character (not valid Unicode)"
            if ch in "\n\r\t":
                return "a line break or tab"
            return f"an invisible or control character ({shown(ch)})"
    return None


def clean_name(name) -> str:
    """One player's name as stored: NFC, trimmed, inner spaces collapsed; SetupError if unusable."""
    if not isinstance(name, str):
        raise SetupError(f"a player's name must be text, not {shown(repr(name))[:40]}")
    if len(name) > 4 * NAME_MAX:
        raise SetupError(f"the player name {shown(name[:NAME_MAX])!r}… is too long: at most {NAME_MAX} characters")
    bad = _bad_char(name)
    if bad:
        raise SetupError(f"the player name {shown(name)!r} contains {bad}")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        raise SetupError("a player's name cannot be empty")
    if len(name) > NAME_MAX:
        raise SetupError(f"the player name {name!r} is too long for a pod's screen: at most {NAME_MAX} characters")
    return name


def clean_players(players) -> list[str]:
    """The setup's player list, each name cleaned; refuses two names that differ only in case or form."""
    if not isinstance(players, list):
        raise SetupError('players must be a list of names, like ["Ana", "Ben"]')
    if len(players) > ITEMS_MAX:
        raise SetupError(f"at most {ITEMS_MAX} players")
    names = [clean_name(p) for p in players]
    seen: dict[str, str] = {}
    for n in names:
        key = n.casefold()
        if key in seen:
            same = f"{seen[key]!r} and {n!r}" if seen[key] != n else repr(n)
            raise SetupError(f"two players have the same name ({same}); names must be different")
        seen[key] = n
    return names


def check_value(value, what: str = "the action", *, depth: int = 0) -> None:
    """Refuse (RuleError) a JSON value too deep, too long, too large, or with text that is not plain."""
    if depth > DEPTH_MAX:
        raise RuleError(f"{what} is nested too deeply (at most {DEPTH_MAX} levels)")
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if not -INT_MAX <= value <= INT_MAX:
            raise RuleError(f"{what}: the number {str(value)[:12]}… is too large (at most {INT_MAX:,} either way)")
        return
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or abs(value) > INT_MAX:
            raise RuleError(f"{what}: {str(value)[:12]} is not a usable number")
        return
    if isinstance(value, str):
        if len(value) > TEXT_MAX:
            raise RuleError(f"{what}: the text {shown(value[:20])!r}… is too long (at most {TEXT_MAX} characters)")
        bad = _bad_char(value)
        if bad:
            raise RuleError(f"{what}: the text {shown(value)!r} contains {bad}")
        return
    if isinstance(value, (list, dict)):
        if len(value) > ITEMS_MAX:
            raise RuleError(f"{what} has too many items ({len(value)}; at most {ITEMS_MAX})")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(value, dict):
                check_value(key, what, depth=depth + 1)
            check_value(item, what, depth=depth + 1)
        return
    raise RuleError(f"{what}: {type(value).__name__} is not a JSON value")
