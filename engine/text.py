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
from .messages import _

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
                return _("a broken character (not valid Unicode)")
            if ch in "\n\r\t":
                return _("a line break or tab")
            return _("an invisible or control character ({char})", char=shown(ch))
    return None


def clean_name(name: object) -> str:
    """One player's name as stored: NFC, trimmed, inner spaces collapsed; SetupError if unusable."""
    if not isinstance(name, str):
        raise SetupError(_("a player's name must be text, not {value}", value=shown(repr(name))[:40]))
    if len(name) > 4 * NAME_MAX:
        raise SetupError(_("the player name {shown!r}… is too long: at most {NAME_MAX} characters", shown=shown(name[:NAME_MAX]), NAME_MAX=NAME_MAX))
    bad = _bad_char(name)
    if bad:
        raise SetupError(_("the player name {shown!r} contains {bad}", shown=shown(name), bad=bad))
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        raise SetupError(_("a player's name cannot be empty"))
    if len(name) > NAME_MAX:
        raise SetupError(_("the player name {name!r} is too long for a pod's screen: at most {NAME_MAX} characters", name=name, NAME_MAX=NAME_MAX))
    return name


def clean_players(players: object) -> list[str]:
    """The setup's player list, each name cleaned; refuses two names that differ only in case or form."""
    if not isinstance(players, list):
        raise SetupError(_('players must be a list of names, like ["Ana", "Ben"]'))
    if len(players) > ITEMS_MAX:
        raise SetupError(_("at most {ITEMS_MAX} players", ITEMS_MAX=ITEMS_MAX))
    names = [clean_name(p) for p in players]
    seen: dict[str, str] = {}
    for n in names:
        key = n.casefold()
        if key in seen:
            same = f"{seen[key]!r} and {n!r}" if seen[key] != n else repr(n)
            raise SetupError(_("two players have the same name ({same}); names must be different", same=same))
        seen[key] = n
    return names


def check_value(value: object, what: str | None = None, *, depth: int = 0) -> None:
    """Refuse (RuleError) a JSON value too deep, too long, too large, or with text that is not plain."""
    what = _("the action") if what is None else what
    if depth > DEPTH_MAX:
        raise RuleError(_("{what} is nested too deeply (at most {DEPTH_MAX} levels)", what=what, DEPTH_MAX=DEPTH_MAX))
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if not -INT_MAX <= value <= INT_MAX:
            raise RuleError(_("{what}: the number {value}… is too large (at most {INT_MAX:,} either way)", what=what, value=str(value)[:12], INT_MAX=INT_MAX))
        return
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or abs(value) > INT_MAX:
            raise RuleError(_("{what}: {value} is not a usable number", what=what, value=str(value)[:12]))
        return
    if isinstance(value, str):
        if len(value) > TEXT_MAX:
            raise RuleError(_("{what}: the text {shown!r}… is too long (at most {TEXT_MAX} characters)", what=what, shown=shown(value[:20]), TEXT_MAX=TEXT_MAX))
        bad = _bad_char(value)
        if bad:
            raise RuleError(_("{what}: the text {shown!r} contains {bad}", what=what, shown=shown(value), bad=bad))
        return
    if isinstance(value, (list, dict)):
        if len(value) > ITEMS_MAX:
            raise RuleError(_("{what} has too many items ({len}; at most {ITEMS_MAX})", what=what, len=len(value), ITEMS_MAX=ITEMS_MAX))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(value, dict):
                check_value(key, what, depth=depth + 1)
            check_value(item, what, depth=depth + 1)
        return
    raise RuleError(_("{what}: {name} is not a JSON value", what=what, name=type(value).__name__))
