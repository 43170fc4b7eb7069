"""Languages on screen: gettext catalogs, compiled from the ``.po`` sources.

The catalogs live as ``ui/locale/<lang>/LC_MESSAGES/tablekeeper.po``. The
binary ``.mo`` files are never committed: :func:`compile_po` (a small
equivalent of GNU ``msgfmt``) builds them. ``python -m tablekeeper.ui.i18n``
builds them next to their sources (an install step, for the package data);
otherwise the app builds any missing or stale one in the user's cache folder
at start (a few milliseconds), so a checkout is never written to.

Words of a game (counter, action and option names) are looked up with a
context (``pgettext("counter", "gold")``), so "round" the counter and "round"
the verb can differ; a word without a translation is shown humanised
("drink_me" → "drink me").

Messages written by the engine (a refused action's reason, the history's
sentences) are English sentences; :func:`engine_text` translates the ones it
knows by pattern and leaves the others as they are.
"""
from __future__ import annotations

import ast
import gettext
import io
import locale
import os
import re
import struct
import sys
import tempfile
from pathlib import Path

from ..engine.messages import Msg

DOMAIN = "tablekeeper"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = {"en": "English", "es": "Español"}
DEFAULT = "en"

_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = DEFAULT


# -- the .po → .mo compiler ------------------------------------------------------
class PoError(ValueError):
    """A .po file that cannot be read; the message names the file and line."""


def _unquote(text: str, where: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        raise PoError(f"{where}: not a quoted string: {text}") from None
    if not isinstance(value, str):
        raise PoError(f"{where}: not a quoted string: {text}")
    return value


def parse_po(text: str, name: str = "<po>") -> dict[str, str]:
    """The translations of a .po file as ``{key: translation}``.

    ``key`` is ``msgid``, or ``msgctxt + "\\x04" + msgid`` with a context (the
    gettext convention); plural forms are joined with NUL. Fuzzy and
    untranslated entries are left out, as ``msgfmt`` does. The header (empty
    msgid) is kept: it carries the charset and plural rule.
    """
    out: dict[str, str] = {}
    entry: dict[str, list[str] | str] = {}
    field = None
    fuzzy = False

    def flush():
        nonlocal entry, fuzzy, field
        if "msgid" in entry:
            msgid = "".join(entry["msgid"])
            if "msgid_plural" in entry:
                msgid += "\0" + "".join(entry["msgid_plural"])
                forms = sorted(k for k in entry if k.startswith("msgstr["))
                msgstr = "\0".join("".join(entry[k]) for k in forms)
            else:
                msgstr = "".join(entry.get("msgstr", []))
            if "msgctxt" in entry:
                msgid = "".join(entry["msgctxt"]) + "\x04" + msgid
            if msgstr.strip("\0") and (not fuzzy or msgid == ""):
                out[msgid] = msgstr
        entry, fuzzy, field = {}, False, None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    flush()
                fuzzy = True
            continue
        if line.startswith('"'):
            if field is None:
                raise PoError(f"{where}: a continuation line with no keyword before it")
            entry[field].append(_unquote(line, where))
            continue
        keyword, _, rest = line.partition(" ")
        if not re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr(\[\d+\])?", keyword):
            raise PoError(f"{where}: unknown keyword {keyword!r}")
        if keyword in ("msgctxt", "msgid") and ("msgstr" in entry or any(k.startswith("msgstr[") for k in entry)):
            saved_fuzzy = fuzzy
            flush()
            fuzzy = saved_fuzzy
        if keyword == "msgid" and "msgid" in entry:
            raise PoError(f"{where}: msgid without a msgstr before it")
        field = keyword
        entry[field] = [_unquote(rest.strip(), where)]
    flush()
    return out


def mo_bytes(catalog: dict[str, str]) -> bytes:
    """The GNU .mo form of a catalog (little-endian, no hash table)."""
    keys = sorted(catalog)
    ids = b""
    strs = b""
    offsets = []
    for key in keys:
        k = key.encode("utf-8")
        v = catalog[key].encode("utf-8")
        offsets.append((len(ids), len(k), len(strs), len(v)))
        ids += k + b"\0"
        strs += v + b"\0"
    n = len(keys)
    key_start = 7 * 4 + 16 * n
    value_start = key_start + len(ids)
    table = []
    for o1, l1, o2, l2 in offsets:
        table += [l1, o1 + key_start]
    for o1, l1, o2, l2 in offsets:
        table += [l2, o2 + value_start]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + struct.pack(f"{len(table)}i", *table) + ids + strs


def compile_po(po: Path, mo: Path) -> None:
    """Write ``mo`` from ``po`` atomically (temp file, fsync, rename)."""
    catalog = parse_po(po.read_text(encoding="utf-8"), str(po))
    data = mo_bytes(catalog)
    mo.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".mo", dir=mo.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, mo)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _cache_locale_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tablekeeper" / "locale"


def _stale(po: Path, mo: Path) -> bool:
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def ensure_compiled(source: Path = LOCALE_DIR, into: Path | None = None) -> Path:
    """The folder to load catalogs from, every ``.mo`` in it fresh.

    The package's own ``.mo`` files when an install step built them and they
    are newer than their ``.po``; else they are built in ``into`` (default:
    the user's cache folder, so running from a checkout never writes into
    it). Cheap when nothing changed: a few stats.
    """
    pos = sorted(source.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))

    def mo_in(folder: Path, po: Path) -> Path:
        return folder / po.relative_to(source).with_suffix(".mo")

    if into is None and not any(_stale(po, mo_in(source, po)) for po in pos):
        return source
    target = into if into is not None else _cache_locale_dir()
    for po in pos:
        mo = mo_in(target, po)
        if _stale(po, mo):
            compile_po(po, mo)
    return target


# -- the current language --------------------------------------------------------
def system_language() -> str:
    """The language of the system locale if we have it ("es_ES.UTF-8" → "es"), else English."""
    candidates = [os.environ.get(k) for k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]
    try:
        candidates.append(locale.getlocale()[0])
    except ValueError:
        pass
    for value in candidates:
        if not value:
            continue
        for part in value.split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
            if code and code not in ("c", "posix"):
                break
    return DEFAULT


PACKAGE_DIR = Path(__file__).resolve().parent.parent


def catalog_files(code: str) -> list[Path]:
    """The .po sources of a language: the app's own, then the pods' (hardware/) and the engine's
    and each game's — every ``locale/<code>/*.po`` under hardware/ and engine/."""
    files = [LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"]
    for package in ("hardware", "engine"):
        files += sorted((PACKAGE_DIR / package).rglob(f"locale/{code}/*.po"))
    return [f for f in files if f.exists()]


def load_catalog(code: str) -> gettext.NullTranslations:
    """One gettext catalog for ``code`` from all its .po files, compiled in memory by Babel."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    merged: Catalog | None = None
    for path in catalog_files(code):
        with open(path, "rb") as f:
            cat = read_po(f, locale=code)
        if merged is None:
            merged = cat
            continue
        for m in cat:
            if m.id and m.string and merged.get(m.id, context=m.context) is None:
                merged.add(m.id, m.string, context=m.context, flags=m.flags)
    if merged is None:
        return gettext.NullTranslations()
    buf = io.BytesIO()
    write_mo(buf, merged)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def set_language(code: str, localedir: Path | None = None) -> str:
    """Switch every later ``_()`` to ``code`` (unknown codes fall back to English)."""
    global _current, _lang
    if code not in LANGUAGES:
        code = DEFAULT
    _current = gettext.NullTranslations() if code == DEFAULT else load_catalog(code)
    _lang = code
    return code


def catalog() -> gettext.NullTranslations | None:
    """The current catalog for engine messages (None: English, the messages as they are)."""
    return None if _lang == DEFAULT else _current


def language() -> str:
    return _lang


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


def humanise(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def _word(context: str, name: str) -> str:
    text = humanise(name)
    out = _current.pgettext(context, text)
    return out


def counter_label(name: str) -> str:
    return _word("counter", name)


def action_label(name: str) -> str:
    return _word("action", name)


def option_label(name: str) -> str:
    return _word("option", name)


#: Game words with a name or a number in them: (pattern, msgid with {0}...).
_WORD_PATTERNS: list[tuple[re.Pattern, str]] = [
    (re.compile(p), m) for p, m in [
        (r"^(.+)'s turn$", N_("{0}'s turn")),
        (r"^drink for (.+)$", N_("drink for {0}")),
        (r"^bank (\d+)F$", N_("bank {0}F")),
        (r"^discard (\d+)$", N_("discard {0}")),
        (r"^(\d+) action$", N_("{0} action")),
        (r"^(\d+) actions$", N_("{0} actions")),
        (r"^action (\d+)$", N_("action {0}")),
    ]
]


def word(name) -> str:
    """A game word (a phase, a status, a choice, a button's label) in the current language.

    Looked up whole, then by pattern ("drink for Ben"), then as the two
    halves of "your turn: drink".
    """
    if not isinstance(name, str):
        return str(name)
    out = _word("word", name)
    if out != humanise(name) or _lang == DEFAULT:
        return out
    for pattern, msgid in _WORD_PATTERNS:
        m = pattern.match(name)
        if m:
            return _(msgid).format(*m.groups())
    if ": " in name:
        head, _sep, tail = name.partition(": ")
        return f"{word(head)}: {word(tail)}"
    if name.isupper():  # "PASSING OUT": an alarm, shouted
        return word(name.lower()).upper()
    return out


# -- what needs translating -----------------------------------------------------------
_MARKERS = {"_": None, "N_": None, "ngettext": None, "pgettext": "ctx"}


def extract(paths) -> set[tuple[str | None, str]]:
    """The ``(context, msgid)`` pairs marked in Python sources (``_``, ``N_``, ``pgettext``)."""
    found = set()
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MARKERS):
                continue
            args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
            if node.func.id == "pgettext":
                if len(args) >= 2 and args[0] and args[1]:
                    found.add((args[0], args[1]))
            elif args and args[0]:
                found.add((None, args[0]))
                if node.func.id == "ngettext" and len(args) > 1 and args[1]:
                    found.add((None, args[1]))
    return found


def game_words(games) -> set[tuple[str, str]]:
    """The words of these game classes that reach the screen: counters, actions, options, choices."""
    out = set()
    for cls in games:
        try:
            probe = cls._probe()
        except Exception:
            continue
        for c in list(probe.player_counters) + list(probe.table_counters):
            out.add(("counter", humanise(c)))
        for a in cls.actions:
            out.add(("action", humanise(a)))
        for o in cls.options_spec:
            out.add(("option", humanise(o.name)))
            for choice in o.choices or ():
                if isinstance(choice, str):
                    out.add(("word", humanise(choice)))
    return out


# -- the engine's sentences ---------------------------------------------------------
# (pattern, msgid): the msgid's {0}, {1}... are the pattern's groups, which are
# themselves passed through engine_text (names stay names). The first pattern that matches
# wins. In the games' patterns a leading name is ([^:;()]+?), so "... now is buy drinks"
# is not read as somebody called "... now is buy" drinking.
_ENGINE_PATTERNS: list[tuple[re.Pattern, str]] = [
    (re.compile(p), m) for p, m in [
        (r"^nothing to undo$", N_("nothing to undo")),
        (r"^nothing to redo$", N_("nothing to redo")),
        (r"^nothing changed$", N_("nothing changed")),
        (r"^(.+) is out of the game$", N_("{0} is out of the game")),
        (r"^(.+) is out: (.+)$", N_("{0} is out: {1}")),
        (r"^the game is over \((.+)\); only undo is possible$", N_("the game is over ({0}); only undo is possible")),
        (r"^(.+) won$", N_("{0} won")),
        (r"^(.+) won: (.+)$", N_("{0} won: {1}")),
        (r"^draw between (.+?): (.+)$", N_("draw between {0}: {1}")),
        (r"^draw between (.+)$", N_("draw between {0}")),
        (r"^game over$", N_("game over")),
        (r"^undone: (.+)$", N_("undone: {0}")),
        (r"^redone: (.+)$", N_("redone: {0}")),
        (r"^(.+)'s (\w+) stops at (-?\d+): ([+-]\d+) could not apply$",
         N_("{0}'s {1} stops at {2}: {3} could not apply")),
        (r"^the table's (\w+) stops at (-?\d+): ([+-]\d+) could not apply$",
         N_("the table's {0} stops at {1}: {2} could not apply")),
        (r"^(\w+): ([\w ]+) ([+-]\d+)$", N_("{0}: {1} {2}")),
        (r"^(\w+) gives (\w+) (\d+) (\w+)$", N_("{0} gives {1} {2} {3}")),
        (r"^only (\d+) (\w+) could move from (\w+) to (\w+)$", N_("only {0} {1} could move from {2} to {3}")),
        (r"^(\w+) cannot give (\w+) to themselves$", N_("{0} cannot give {1} to themselves")),
        (r"^target reached$", N_("target reached")),
        (r"^last one standing$", N_("last one standing")),
        (r"^everybody still in went out at once$", N_("everybody still in went out at once")),
        (r"^(\w+) reached (-?\d+)$", N_("{0} reached {1}")),
        # -- shared pieces
        (r"^buy drinks$", N_("buy drinks")),
        (r"^([^:;()]+?) passes$", N_("{0} passes")),
        (r"^(\w+) ([+-]\d+)$", N_("{0} {1}")),
        (r"^(\w+ [+-]\d+), (.+)$", N_("{0}, {1}")),
        (r"^it is (.+?)'s turn, not (.+?)'s$", N_("it is {0}'s turn, not {1}'s")),
        (r"^([^:;()]+?) had only (\d+) (\w+) to give$", N_("{0} had only {1} {2} to give")),
        (r"^resolve$", N_("resolve")),
        # -- The Red Dragon Inn
        (r"^([^:;()]+?) buys (.+?) 1 drink$", N_("{0} buys {1} 1 drink")),
        (r"^([^:;()]+?) buys (.+?) (\d+) drinks$", N_("{0} buys {1} {2} drinks")),
        (r"^([^:;()]+?) buys (.+?) 1 drink \(extra\)$", N_("{0} buys {1} 1 drink (extra)")),
        (r"^([^:;()]+?) buys (.+?) (\d+) drinks \(extra\)$", N_("{0} buys {1} {2} drinks (extra)")),
        (r"^([^:;()]+?) gets 1 drink$", N_("{0} gets 1 drink")),
        (r"^([^:;()]+?) gets (\d+) drinks$", N_("{0} gets {1} drinks")),
        (r"^the active player$", N_("the active player")),
        (r"^the next player$", N_("the next player")),
        (r"^([^:;()]+?) drinks$", N_("{0} drinks")),
        (r"^([^:;()]+?) drinks: (.+)$", N_("{0} drinks: {1}")),
        (r"^([^:;()]+?) drinks with 1 chaser$", N_("{0} drinks with 1 chaser")),
        (r"^([^:;()]+?) drinks with 1 chaser: (.+)$", N_("{0} drinks with 1 chaser: {1}")),
        (r"^([^:;()]+?) drinks with (\d+) chasers$", N_("{0} drinks with {1} chasers")),
        (r"^([^:;()]+?) drinks with (\d+) chasers: (.+)$", N_("{0} drinks with {1} chasers: {2}")),
        (r"^([^:;()]+?) drinks from the deck$", N_("{0} drinks from the deck")),
        (r"^([^:;()]+?) drinks from the deck: (.+)$", N_("{0} drinks from the deck: {1}")),
        (r"^([^:;()]+?) drinks from the deck with 1 chaser: (.+)$", N_("{0} drinks from the deck with 1 chaser: {1}")),
        (r"^([^:;()]+?) drinks from the deck with (\d+) chasers: (.+)$",
         N_("{0} drinks from the deck with {1} chasers: {2}")),
        (r"^no effect$", N_("no effect")),
        (r"^([^:;()]+?) has no Drink Me! cards and sobers up: alcohol −1$",
         N_("{0} has no Drink Me! cards and sobers up: alcohol −1")),
        (r"^([^:;()]+?): next phase$", N_("{0}: next phase")),
        (r"^([^:;()]+?): next phase \(skipped\)$", N_("{0}: next phase (skipped)")),
        (r"^([^:;()]+?): Gambling\? I'm in!$", N_("{0}: Gambling? I'm in!")),
        (r'^([^:;()]+?) plays (a gambling card|a cheating card|"Winning Hand!")$', N_("{0} plays {1}")),
        (r'^([^:;()]+?) plays (a gambling card|a cheating card|"Winning Hand!") and takes control$',
         N_("{0} plays {1} and takes control")),
        (r"^a gambling card$", N_("a gambling card")),
        (r"^a cheating card$", N_("a cheating card")),
        (r'^"Winning Hand!"$', N_("\"Winning Hand!\"")),
        (r"^([^:;()]+?) leaves the gambling round$", N_("{0} leaves the gambling round")),
        (r"^([^:;()]+?) is forced out of the gambling round$", N_("{0} is forced out of the gambling round")),
        (r"^the gambling round ends: pot to (.+)$", N_("the gambling round ends: pot to {0}")),
        (r"^the Inn$", N_("the Inn")),
        (r"^the player in control$", N_("the player in control")),
        (r"^([^:;()]+?) pays (\d+) gold into the pot$", N_("{0} pays {1} gold into the pot")),
        (r"^drink deck counted: (\d+) in the deck, (\d+) discarded$",
         N_("drink deck counted: {0} in the deck, {1} discarded")),
        (r"^([^:;()]+?) passes out: (\d+) of (\d+) gold to the Inn$", N_("{0} passes out: {1} of {2} gold to the Inn")),
        (r"^([^:;()]+?) passes out: (\d+) of (\d+) gold to the Inn, (\d+) to each of (.+)$",
         N_("{0} passes out: {1} of {2} gold to the Inn, {3} to each of {4}")),
        (r"^passed out$", N_("passed out")),
        (r"^out of gold$", N_("out of gold")),
        (r"^([^:;()]+?)'s turn: discard & draw$", N_("{0}'s turn: discard & draw")),
        (r"^([^:;()]+?) starts a gambling round; pot (\d+)$", N_("{0} starts a gambling round; pot {1}")),
        (r"^([^:;()]+?) starts a gambling round; pot (\d+) \(no ante from (.+)\)$",
         N_("{0} starts a gambling round; pot {1} (no ante from {2})")),
        (r"^([^:;()]+?) wins the gambling round \((.+)\) and takes the pot: (\d+) gold$",
         N_("{0} wins the gambling round ({1}) and takes the pot: {2} gold")),
        (r"^everybody else passed$", N_("everybody else passed")),
        (r"^([^:;()]+?) cannot ante, so nobody antes$", N_("{0} cannot ante, so nobody antes")),
        (r"^nobody is in control of the gambling round now$", N_("nobody is in control of the gambling round now")),
        (r"^the gambling round ends with nobody in control: the pot \((\d+) gold\) goes to the Inn$",
         N_("the gambling round ends with nobody in control: the pot ({0} gold) goes to the Inn")),
        (r"^the drink deck ran out: (.+?) paid 1 gold to the Inn; the (\d+) discarded drinks are the new deck$",
         N_("the drink deck ran out: {0} paid 1 gold to the Inn; the {1} discarded drinks are the new deck")),
        (r"^nobody$", N_("nobody")),
        (r"^the (\d+) discarded drinks are shuffled into a new drink deck$",
         N_("the {0} discarded drinks are shuffled into a new drink deck")),
        (r"^the drink deck and its discard are empty: no more cards to take$",
         N_("the drink deck and its discard are empty: no more cards to take")),
        (r"^every player still in lost at once$", N_("every player still in lost at once")),
        (r"^it is (.+?)'s turn, not (.+?)'s: only (.+?) can (.+)$",
         N_("it is {0}'s turn, not {1}'s: only {2} can {3}")),
        (r"^end a phase$", N_("end a phase")),
        (r"^buy drinks now$", N_("buy drinks now")),
        (r"^drink now$", N_("drink now")),
        (r"^start a gambling round$", N_("start a gambling round")),
        (r"^a gambling round is running: finish it before you (.+)$",
         N_("a gambling round is running: finish it before you {0}")),
        (r"^go on to the next phase$", N_("go on to the next phase")),
        (r"^drink$", N_("drink")),
        (r"^start another one$", N_("start another one")),
        (r'^([^:;()]+?) buys a drink for another player first \(phase 3: buy drinks\); if a card skips it, send "skip": true$',
         N_("{0} buys a drink for another player first (phase 3: buy drinks); if a card skips it, send \"skip\": true")),
        (r'^([^:;()]+?) drinks to end the turn \(phase 4: drink\); if a card skips it, send "skip": true$',
         N_("{0} drinks to end the turn (phase 4: drink); if a card skips it, send \"skip\": true")),
        (r"""^buying drinks is phase 3; now is (.+?)'s (.+?) phase; a card's extra drink is "extra": true$""",
         N_("buying drinks is phase 3; now is {0}'s {1} phase; a card's extra drink is \"extra\": true")),
        (r"""^buying drinks is phase 3; now is (.+?)'s drink phase \(a drink was bought already\); a card's extra drink is "extra": true$""",
         N_("buying drinks is phase 3; now is {0}'s drink phase (a drink was bought already); a card's extra drink is \"extra\": true")),
        (r"^([^:;()]+?) buys the drink for another player, not for themselves$",
         N_("{0} buys the drink for another player, not for themselves")),
        (r"""^drinking is phase 4; now is (.+?)'s (.+?) phase \(a drink a card makes someone take is "extra": true\)$""",
         N_("drinking is phase 4; now is {0}'s {1} phase (a drink a card makes someone take is \"extra\": true)")),
        (r"^discard & draw$", N_("discard & draw")),
        (r"^([^:;()]+?) has no Drink Me! cards: (.+?) sobers up \(alcohol −1\), there is no drink to apply$",
         N_("{0} has no Drink Me! cards: {1} sobers up (alcohol −1), there is no drink to apply")),
        (r"^([^:;()]+?) has only 1 Drink Me! card: a drink and at most 0 chasers$",
         N_("{0} has only 1 Drink Me! card: a drink and at most 0 chasers")),
        (r"^([^:;()]+?) has only 2 Drink Me! cards: a drink and at most 1 chaser$",
         N_("{0} has only 2 Drink Me! cards: a drink and at most 1 chaser")),
        (r"^([^:;()]+?) has only (\d+) Drink Me! cards: a drink and at most (\d+) chasers$",
         N_("{0} has only {1} Drink Me! cards: a drink and at most {2} chasers")),
        (r"^no gambling round is running$", N_("no gambling round is running")),
        (r"^it is (.+?)'s go in the gambling round, not (.+?)'s$",
         N_("it is {0}'s go in the gambling round, not {1}'s")),
        (r"^([^:;()]+?) left this gambling round and cannot (.+)$", N_("{0} left this gambling round and cannot {1}")),
        (r"^([^:;()]+?) already left this gambling round$", N_("{0} already left this gambling round")),
        (r'^after "Winning Hand!" only a cheating card can take control, not (.+)$',
         N_("after \"Winning Hand!\" only a cheating card can take control, not {0}")),
        (r"^a gambling round starts with an action card \(phase 2\); now is (.+)$",
         N_("a gambling round starts with an action card (phase 2); now is {0}")),
        (r"^play$", N_("play")),
        (r"^pass$", N_("pass")),
        # -- The Bloody Inn
        (r"^welcome the travellers$", N_("welcome the travellers")),
        (r"^welcome the travellers \(police in ([\d, ]+)\)$", N_("welcome the travellers (police in {0})")),
        (r"^welcome a traveller into room (\d+)$", N_("welcome a traveller into room {0}")),
        (r"^welcome a traveller into room (\d+) \(police\)$", N_("welcome a traveller into room {0} (police)")),
        (r"^([^:;()]+?) bribes the rank-(\d) guest of room (\d+)$", N_("{0} bribes the rank-{1} guest of room {2}")),
        (r"^([^:;()]+?) kills the rank-(\d) guest of room (\d+)$", N_("{0} kills the rank-{1} guest of room {2}")),
        (r"^([^:;()]+?) bribes peasants in the bistro$", N_("{0} bribes peasants in the bistro")),
        (r"^([^:;()]+?) kills peasants in the bistro$", N_("{0} kills peasants in the bistro")),
        (r"^([^:;()]+?) builds (.+?) \(rank (\d)\)$", N_("{0} builds {1} (rank {2})")),
        (r"^an annex$", N_("an annex")),
        (r"^annex (\d+)$", N_("annex {0}")),
        (r"^([^:;()]+?) buries corpse (\d+) under their annex (\d+)$", N_("{0} buries corpse {1} under their annex {2}")),
        (r"^([^:;()]+?) buries corpse (\d+) under their annex$", N_("{0} buries corpse {1} under their annex")),
        (r"^([^:;()]+?) buries corpse (\d+) under (.+?)'s annex (\d+)$", N_("{0} buries corpse {1} under {2}'s annex {3}")),
        (r"^([^:;()]+?) buries corpse (\d+) under (.+?)'s annex$", N_("{0} buries corpse {1} under {2}'s annex")),
        (r"^([^:;()]+?) passes and buys (\d+) check\(s\)$", N_("{0} passes and buys {1} check(s)")),
        (r"^([^:;()]+?) passes and cashes (\d+) check\(s\)$", N_("{0} passes and cashes {1} check(s)")),
        (r"^the morning: police, departure, wages$", N_("the morning: police, departure, wages")),
        (r"^the final count$", N_("the final count")),
        (r"^([^:;()]+?): (\w+) ([+-]\d+) \((.+)\)$", N_("{0}: {1} {2} ({3})")),
        (r"^table$", N_("table")),
        (r"^bury$", N_("bury")),
        (r"^departure$", N_("departure")),
        (r"^wages$", N_("wages")),
        (r"^adjust$", N_("adjust")),
        (r"^transfer$", N_("transfer")),
        (r"^(\d+) guests? leaves? for the exit stack \((\d+) there\)$",
         N_("{0} guests leave for the exit stack ({1} there)")),
        (r"^([^:;()]+?) bribes (\d+) peasants? from the bistro$", N_("{0} bribes {1} peasants from the bistro")),
        (r"^([^:;()]+?) bribes the rank-(\d) guest of room (\d+): an accomplice in hand$",
         N_("{0} bribes the rank-{1} guest of room {2}: an accomplice in hand")),
        (r"^([^:;()]+?) bribes a peasant in the bistro: an accomplice in hand$",
         N_("{0} bribes a peasant in the bistro: an accomplice in hand")),
        (r"^([^:;()]+?) builds (.+?) \(rank (\d): room for (\d+) corpses?\)$",
         N_("{0} builds {1} (rank {2}: room for {3} corpses)")),
        (r"^([^:;()]+?) buries a corpse under their (.+?) and takes its (\d+)F$",
         N_("{0} buries a corpse under their {1} and takes its {2}F")),
        (r"^([^:;()]+?) buries a corpse under (.+?)'s (.+?): (\d+)F shared, (\d+)F to (.+?), (\d+)F to (.+)$",
         N_("{0} buries a corpse under {1}'s {2}: {3}F shared, {4}F to {5}, {6}F to {7}")),
        (r"^([^:;()]+?) earns 1F: room (\d+) still has its guest$", N_("{0} earns 1F: room {1} still has its guest")),
        (r"^([^:;()]+?) kills the rank-(\d) guest of room (\d+): an unburied corpse with (\d+)F in its pockets$",
         N_("{0} kills the rank-{1} guest of room {2}: an unburied corpse with {3}F in its pockets")),
        (r"^([^:;()]+?) kills a peasant in the bistro: an unburied corpse with (\d+)F in its pockets$",
         N_("{0} kills a peasant in the bistro: an unburied corpse with {1}F in its pockets")),
        (r"^([^:;()]+?) passes and launders (\d+)F into (\d+) checks?$", N_("{0} passes and launders {1}F into {2} checks")),
        (r"^([^:;()]+?) passes and cashes (\d+) checks? \(\+(\d+)F\)$", N_("{0} passes and cashes {1} checks (+{2}F)")),
        (r"^([^:;()]+?) pays (\d+)F in wages$", N_("{0} pays {1}F in wages")),
        (r"^([^:;()]+?) pays (\d+)F in wages, (\d+)F short: discards (\d+) accomplices? \((\d+) to the bistro, (\d+) to the exit stack\)$",
         N_("{0} pays {1}F in wages, {2}F short: discards {3} accomplices ({4} to the bistro, {5} to the exit stack)")),
        (r"^([^:;()]+?) plays (\d+) cards?: (\d+) back to hand, (\d+) peasants? to the bistro, (\d+) to the exit stack$",
         N_("{0} plays {1} cards: {2} back to hand, {3} peasants to the bistro, {4} to the exit stack")),
        (r"^([^:;()]+?) welcomes (\d+) travellers? into rooms? ([\d, ]+); (\d+) left in the entrance stack$",
         N_("{0} welcomes {1} travellers into rooms {2}; {3} left in the entrance stack")),
        (r"^([^:;()]+?) welcomes (\d+) travellers? into rooms? ([\d, ]+) \(police in ([\d, ]+)\); (\d+) left in the entrance stack$",
         N_("{0} welcomes {1} travellers into rooms {2} (police in {3}); {4} left in the entrance stack")),
        (r"^([^:;()]+?)'s wealth track stops at (\d+)F: (\d+)F lost \((.+)\)$",
         N_("{0}'s wealth track stops at {1}F: {2}F lost ({3})")),
        (r"^([^:;()]+?)'s wealth track stops at (\d+)F: (\d+)F lost$", N_("{0}'s wealth track stops at {1}F: {2}F lost")),
        (r"^burial$", N_("burial")),
        (r"^([^:;()]+?): (\d+)F \+ (\d+) × 10F = (-?\d+)F$", N_("{0}: {1}F + {2} × 10F = {3}F")),
        (r"^([^:;()]+?): (\d+)F \+ (\d+) × 10F − (\d+) × (\d+)F = (-?\d+)F$",
         N_("{0}: {1}F + {2} × 10F − {3} × {4}F = {5}F")),
        (r"^([^:;()]+?) pays the gravedigger (\d+)F for (\d+) unburied corpses?; the corpses are gone$",
         N_("{0} pays the gravedigger {1}F for {2} unburied corpses; the corpses are gone")),
        (r"^([^:;()]+?) pays the gravedigger (\d+)F for (\d+) unburied corpses? \((\d+) checks?\); the corpses are gone$",
         N_("{0} pays the gravedigger {1}F for {2} unburied corpses ({3} checks); the corpses are gone")),
        (r"^every player has taken both actions: the morning comes$",
         N_("every player has taken both actions: the morning comes")),
        (r"^no police in the inn$", N_("no police in the inn")),
        (r"^the police investigate$", N_("the police investigate")),
        (r"^only (\d+) travellers? in the inn for (\d+) players: the last round is not played$",
         N_("only {0} travellers in the inn for {1} players: the last round is not played")),
        (r"^round (\d+): (.+?) takes the first-player card$", N_("round {0}: {1} takes the first-player card")),
        (r"^the entrance stack is empty for the second time: this is the last round$",
         N_("the entrance stack is empty for the second time: this is the last round")),
        (r"^the entrance stack is empty: the exit stack \((\d+) cards\) is shuffled into a new entrance stack; season 2 begins$",
         N_("the entrance stack is empty: the exit stack ({0} cards) is shuffled into a new entrance stack; season 2 begins")),
        (r"^the game ends: record end-of-game annex gains \(adjust\), then resolve for the final count$",
         N_("the game ends: record end-of-game annex gains (adjust), then resolve for the final count")),
        (r"^the richest innkeeper$", N_("the richest innkeeper")),
        (r"^the richest innkeeper \(tie broken by the most (cash|checks)\)$",
         N_("the richest innkeeper (tie broken by the most {0})")),
        (r"^shared victory at (\d+)F$", N_("shared victory at {0}F")),
        (r"^(\d+)F: (demonic|evil|hazardous|worrying) innkeeper$", N_("{0}F: {1} innkeeper")),
        (r"^demonic$", N_("demonic")),
        (r"^evil$", N_("evil")),
        (r"^hazardous$", N_("hazardous")),
        (r"^worrying$", N_("worrying")),
        (r"^(\d+)F: below worrying innkeeper$", N_("{0}F: below worrying innkeeper")),
        (r"^([^:;()]+?) had (\d+) unburied corpses? at a police investigation$",
         N_("{0} had {1} unburied corpses at a police investigation")),
        (r"^([^:;()]+?) has (\d+) unburied corpses? at the end$", N_("{0} has {1} unburied corpses at the end")),
        (r"^([^:;()]+?) had only (\d+)F to give$", N_("{0} had only {1}F to give")),
        (r"^it is (.+?)'s turn \(action (\d)\), not (.+?)'s$", N_("it is {0}'s turn (action {1}), not {2}'s")),
        (r"^the travellers have not been welcomed yet: (.+?) \(first player\) welcomes them first$",
         N_("the travellers have not been welcomed yet: {0} (first player) welcomes them first")),
        (r"^rooms are all taken: the travellers are welcomed; the night has begun$",
         N_("rooms are all taken: the travellers are welcomed; the night has begun")),
        (r"^travellers are welcomed only at the start of a round; the night has begun$",
         N_("travellers are welcomed only at the start of a round; the night has begun")),
        (r"^the night is not over: it is (.+?)'s turn \(action (\d)\)$",
         N_("the night is not over: it is {0}'s turn (action {1})")),
        (r"^every player has taken both actions: the morning comes next \(action morning\)$",
         N_("every player has taken both actions: the morning comes next (action morning)")),
        (r"^the last round is over: record end-of-game gains with adjust, then resolve for the final count$",
         N_("the last round is over: record end-of-game gains with adjust, then resolve for the final count")),
        (r"^the game is over$", N_("the game is over")),
        (r"^there is no room (\d+) \(the open rooms are 1–(\d+)\)$",
         N_("there is no room {0} (the open rooms are 1–{1})")),
        (r"^room (\d+) has no guest to (bribe|kill)$", N_("room {0} has no guest to {1}")),
        (r"^bribe$", N_("bribe")),
        (r"^kill$", N_("kill")),
        (r"^room (\d+) already has a guest$", N_("room {0} already has a guest")),
        (r"^rooms are all taken$", N_("rooms are all taken")),
        (r"^peasants are rank 0$", N_("peasants are rank 0")),
        (r"^the bistro is empty: no peasant to (bribe|kill)$", N_("the bistro is empty: no peasant to {0}")),
        (r"^the bistro has only 1 peasant$", N_("the bistro has only 1 peasant")),
        (r"^([^:;()]+?) has only (\d+) cards? in hand; this needs (\d+) played$",
         N_("{0} has only {1} cards in hand; this needs {2} played")),
        (r"^([^:;()]+?) has only (\d+) cards? in hand besides the annex; this needs (\d+) played$",
         N_("{0} has only {1} cards in hand besides the annex; this needs {2} played")),
        (r"^([^:;()]+?) has only (\d+) peasants? in hand$", N_("{0} has only {1} peasants in hand")),
        (r"^([^:;()]+?) plays (\d+) cards?: the kept cards \((\d+)\) and the peasants \((\d+)\) cannot be more than that$",
         N_("{0} plays {1} cards: the kept cards ({2}) and the peasants ({3}) cannot be more than that")),
        (r"^([^:;()]+?) has no traveller in hand to build an annex from \(peasants and police cannot become annexes\)$",
         N_("{0} has no traveller in hand to build an annex from (peasants and police cannot become annexes)")),
        (r"^([^:;()]+?) has no corpse to bury$", N_("{0} has no corpse to bury")),
        (r"^([^:;()]+?) has only (\d+) corpses?$", N_("{0} has only {1} corpses")),
        (r"^([^:;()]+?) has (\d+) corpses: say which \(corpse 1–(\d+)\)$",
         N_("{0} has {1} corpses: say which (corpse 1–{2})")),
        (r"^that annex is full: (.+)$", N_("that annex is full: {0}")),
        (r"^([^:;()]+?)'s barn has no room left$", N_("{0}'s barn has no room left")),
        (r"^a rank-0 annex holds no corpse$", N_("a rank-0 annex holds no corpse")),
        (r"^([^:;()]+?)'s (.+?) \(rank (\d)\) already holds (\d+) corpses?$",
         N_("{0}'s {1} (rank {2}) already holds {3} corpses")),
        (r"^([^:;()]+?) has (\d+)F in cash: (\d+) checks? costs? (\d+)F$", N_("{0} has {1}F in cash: {2} checks cost {3}F")),
        (r"^([^:;()]+?) has only (\d+) checks?$", N_("{0} has only {1} checks")),
        # -- Dragon Run
        (r"^([^:;()]+?) charges: a room$", N_("{0} charges: a room")),
        (r"^([^:;()]+?) charges: the dragon!$", N_("{0} charges: the dragon!")),
        (r"^([^:;()]+?) charges: the treasure hall \(\+(\d+)\)$", N_("{0} charges: the treasure hall (+{1})")),
        (r"^([^:;()]+?) cries like a baby, discarding \[([\d, ]+)\]$", N_("{0} cries like a baby, discarding [{1}]")),
        (r"^([^:;()]+?) hides, discarding \[([\d, ]+)\], and rolls (\d)$", N_("{0} hides, discarding [{1}], and rolls {2}")),
        (r"^([^:;()]+?) is dealt \[([\d, ]+)\]$", N_("{0} is dealt [{1}]")),
        (r"^([^:;()]+?) takes another turn$", N_("{0} takes another turn")),
        (r"^([^:;()]+?) uses the power$", N_("{0} uses the power")),
        (r"^([^:;()]+?) charges into a room$", N_("{0} charges into a room")),
        (r"^([^:;()]+?) charges into the treasure hall and draws a treasure worth (\d+)$",
         N_("{0} charges into the treasure hall and draws a treasure worth {1}")),
        (r"^([^:;()]+?) cries like a baby \(discards ([\d+= ]+)\)$", N_("{0} cries like a baby (discards {1})")),
        (r"^([^:;()]+?) hides \(discards ([\d+= ]+)\) and rolls (\d): not above the (\d+) location cards left; (.+?) must charge$",
         N_("{0} hides (discards {1}) and rolls {2}: not above the {3} location cards left; {4} must charge")),
        (r"^([^:;()]+?) hides \(discards ([\d+= ]+)\) and rolls 0: 0 always fails; (.+?) must charge$",
         N_("{0} hides (discards {1}) and rolls 0: 0 always fails; {2} must charge")),
        (r"^([^:;()]+?) hides \(discards ([\d+= ]+)\) and rolls (\d), above the (\d+) location cards left: escaped$",
         N_("{0} hides (discards {1}) and rolls {2}, above the {3} location cards left: escaped")),
        (r"^burnt to ashes by the dragon$", N_("burnt to ashes by the dragon")),
        (r"^([^:;()]+?)'s treasure goes to the discard \(([\d+= ]+)\)$", N_("{0}'s treasure goes to the discard ({1})")),
        (r"^([^:;()]+?)'s talismans in play are discarded \(([\d+= ]+)\)$",
         N_("{0}'s talismans in play are discarded ({1})")),
        (r"^([^:;()]+?) uses the character's power$", N_("{0} uses the character's power")),
        (r"^the dragon sleeps; tied at (\d+), the highest treasure card \((\d+)\) decides$",
         N_("the dragon sleeps; tied at {0}, the highest treasure card ({1}) decides")),
        (r"^the dragon sleeps; the richest survivor escapes with (\d+)$",
         N_("the dragon sleeps; the richest survivor escapes with {0}")),
        (r"^the dragon sleeps; tied at (\d+) with the same highest card \((\d+)\): a shared win$",
         N_("the dragon sleeps; tied at {0} with the same highest card ({1}): a shared win")),
        (r"^every hand is dealt: (.+?) starts$", N_("every hand is dealt: {0} starts")),
        (r"^game over: every adventurer is dead: the dragon wins$",
         N_("game over: every adventurer is dead: the dragon wins")),
        (r"^every adventurer is dead: the dragon wins$", N_("every adventurer is dead: the dragon wins")),
        (r"^the dragon! (.+?) is injured$", N_("the dragon! {0} is injured")),
        (r"^the dragon! (.+?) is killed$", N_("the dragon! {0} is killed")),
        (r"^the dungeon deck is reshuffled \((\d+) cards\)$", N_("the dungeon deck is reshuffled ({0} cards)")),
        (r"^(\d+) in treasure is entered as cards worth ([\d, ]+)$",
         N_("{0} in treasure is entered as cards worth {1}")),
        (r"^([^:;()]+?) gives up cards worth (\d+) and keeps (\d+) as change$",
         N_("{0} gives up cards worth {1} and keeps {2} as change")),
        (r"^([^:;()]+?) had only (\d+) in treasure to give$", N_("{0} had only {1} in treasure to give")),
        (r"^([^:;()]+?) holds no more treasure cards worth (\d+) \(cards: (.+)\)$",
         N_("{0} holds no more treasure cards worth {1} (cards: {2})")),
        (r"^([^:;()]+?) was killed by the dragon: the dead do not act$",
         N_("{0} was killed by the dragon: the dead do not act")),
        (r"^first enter the 4 treasure cards dealt to (.+?) \(action deal\)$",
         N_("first enter the 4 treasure cards dealt to {0} (action deal)")),
        (r"^([^:;()]+?) must charge: the escape test failed \(rolled (\d) with (\d+) location cards left\)$",
         N_("{0} must charge: the escape test failed (rolled {1} with {2} location cards left)")),
        (r"^([^:;()]+?) escaped the dragon this turn: charge into the next room, or pass$",
         N_("{0} escaped the dragon this turn: charge into the next room, or pass")),
        (r"^([^:;()]+?) has charged this turn: pass, take another turn \(again\), or charge again if the location says so$",
         N_("{0} has charged this turn: pass, take another turn (again), or charge again if the location says so")),
        (r"^([^:;()]+?) must first charge, hide or cry like a baby$", N_("{0} must first charge, hide or cry like a baby")),
        (r"^([^:;()]+?)'s dealt cards are already entered \(undo to change them\)$",
         N_("{0}'s dealt cards are already entered (undo to change them)")),
        (r"^deal: each player is dealt 4 treasure cards, not (\d+)$",
         N_("deal: each player is dealt 4 treasure cards, not {0}")),
        (r"^([^:;()]+?)'s power is used: it is ready again when the dragon comes up$",
         N_("{0}'s power is used: it is ready again when the dragon comes up")),
        (r"^to hide, discard treasure worth at least 1$", N_("to hide, discard treasure worth at least 1")),
        (r"^crying like a baby costs treasure worth at least 2, not (\d+)$",
         N_("crying like a baby costs treasure worth at least 2, not {0}")),
        (r"^the dragon's temper never rises \(undo to correct a mistake\)$",
         N_("the dragon's temper never rises (undo to correct a mistake)")),
        # -- Dale of Merchants
        (r"^([^:;()]+?): build a stack: (\w+) ([\d+= ]+)$", N_("{0}: build a stack: {1} {2}")),
        (r"^([^:;()]+?): build a stack: \[(.+)\] ([\d+= ]+)$", N_("{0}: build a stack: [{1}] {2}")),
        (r"^'(\w+)', '(\w+)'$", N_("'{0}', '{1}'")),
        (r"^([^:;()]+?): buy the card in slot (\d), paying (.+)$", N_("{0}: buy the card in slot {1}, paying {2}")),
        (r"^nothing$", N_("nothing")),
        (r"^([^:;()]+?): draw \(count=(\d+)\)$", N_("{0}: draw (count={1})")),
        (r"^([^:;()]+?): end the turn \(clean-up\)$", N_("{0}: end the turn (clean-up)")),
        (r"^([^:;()]+?): move \(count=(\d+), from=(\w+), to=(\w+)\)$", N_("{0}: move (count={1}, from={2}, to={3})")),
        (r"^([^:;()]+?): play a technique$", N_("{0}: play a technique")),
        (r"^([^:;()]+?): play a technique with a bonus action$", N_("{0}: play a technique with a bonus action")),
        (r"^([^:;()]+?): set_market \(slot=(\d), value=(\d+)\)$", N_("{0}: set_market (slot={1}, value={2})")),
        (r"^([^:;()]+?): discard (\d+) \(inventory\)$", N_("{0}: discard {1} (inventory)")),
        (r"^animal decks: (.+)$", N_("animal decks: {0}")),
        (r"^\(drawn at random\)$", N_("(drawn at random)")),
        (r"^market values, left to right: ([\d\- ]+)$", N_("market values, left to right: {0}")),
        (r"^check a payment of (.+)$", N_("check a payment of {0}")),
        (r"^(\w+), (\w+), (\w+)$", N_("{0}, {1}, {2}")),
        (r"^(\w+), (\w+), (\w+), (\w+)$", N_("{0}, {1}, {2}, {3}")),
        (r"^(\w+), (\w+), (\w+), (\w+), (\w+)$", N_("{0}, {1}, {2}, {3}, {4}")),
        (r"^([^:;()]+?) builds stack (\d): (\w+) ([\d+= ]+)$", N_("{0} builds stack {1}: {2} {3}")),
        (r"^([^:;()]+?) buys the (\d+) in slot (\d): (.+)$", N_("{0} buys the {1} in slot {2}: {3}")),
        (r"^([\d+= ]+) pays the price (\d+) exactly$", N_("{0} pays the price {1} exactly")),
        (r"^([\d+= ]+) pays the price (\d+), overpaying by (\d+) \(less than the smallest card used, (\d+)\)$",
         N_("{0} pays the price {1}, overpaying by {2} (less than the smallest card used, {3})")),
        (r"^([\d+= ]+) does not cover the price (\d+) \((\d+) short\)$",
         N_("{0} does not cover the price {1} ({2} short)")),
        (r"^([\d+= ]+) overpays the price (\d+) by (\d+), so a (\d+) is not needed: the surplus must be smaller than every card used$",
         N_("{0} overpays the price {1} by {2}, so a {3} is not needed: the surplus must be smaller than every card used")),
        (r"^([^:;()]+?) draws (\d+)$", N_("{0} draws {1}")),
        (r"^([^:;()]+?) plays a technique with a bonus action: (\d+) action\(s\) left$",
         N_("{0} plays a technique with a bonus action: {1} action(s) left")),
        (r"^([^:;()]+?) plays a technique$", N_("{0} plays a technique")),
        (r"^([^:;()]+?) shuffles the discard pile \((\d+) cards?\) into a new deck$",
         N_("{0} shuffles the discard pile ({1} cards) into a new deck")),
        (r"^the (\d)th stack completes the stall$", N_("the {0}th stack completes the stall")),
        (r"^([^:;()]+?)'s deck and discard pile are empty: (\d+) junk from the junk pile$",
         N_("{0}'s deck and discard pile are empty: {1} junk from the junk pile")),
        (r"^([^:;()]+?)'s deck and discard pile are empty: only (\d+) of (\d+) drawn$",
         N_("{0}'s deck and discard pile are empty: only {1} of {2} drawn")),
        (r"^([^:;()]+?): (\d+) cards? from (\w+) to (\w+)$", N_("{0}: {1} cards from {2} to {3}")),
        (r"^([^:;()]+?) discards (\d+) cards?$", N_("{0} discards {1} cards")),
        (r"^animal decks in play: (.+)$", N_("animal decks in play: {0}")),
        (r"^market prices: (.+)$", N_("market prices: {0}")),
        (r"^slot (\d) (\d+)$", N_("slot {0} {1}")),
        (r"^(slot \d \d+), (.+)$", N_("{0}, {1}")),
        (r"^new market cards in slot ([\d, ]+): enter their values \(set_market\)$",
         N_("new market cards in slot {0}: enter their values (set_market)")),
        (r"^the market discard pile \((\d+) cards\) is shuffled into a new market deck$",
         N_("the market discard pile ({0} cards) is shuffled into a new market deck")),
        (r"^the card in slot (\d) goes to the market discard pile$",
         N_("the card in slot {0} goes to the market discard pile")),
        (r"^([^:;()]+?) takes the card in slot (\d) \((\w+)\)$", N_("{0} takes the card in slot {1} ({2})")),
        (r"^accepted: (.+)$", N_("accepted: {0}")),
        (r"^refused: (.+)$", N_("refused: {0}")),
        (r"^([^:;()]+?) has no action left this turn: end the turn \(end_turn\)$",
         N_("{0} has no action left this turn: end the turn (end_turn)")),
        (r"^([^:;()]+?) has (\d+) cards? in hand, not (\d+) (.+)$", N_("{0} has {1} cards in hand, not {2} {3}")),
        (r"^for this stack$", N_("for this stack")),
        (r"^to pay with$", N_("to pay with")),
        (r"^to play$", N_("to play")),
        (r"^to discard$", N_("to discard")),
        (r"^market slot (\d) \(\+\d\) is empty$", N_("market slot {0} (+{0}) is empty")),
        (r"^([^:;()]+?) cannot buy the card in slot (\d): (.+)$", N_("{0} cannot buy the card in slot {1}: {2}")),
        (r"^([^:;()]+?) cannot build stack (\d): (.+)$", N_("{0} cannot build stack {1}: {2}")),
        (r"^stack (\d) must total exactly (\d), not (.+)$", N_("stack {0} must total exactly {1}, not {2}")),
        (r"^a stack is cards of one animal set, not (.+)$", N_("a stack is cards of one animal set, not {0}")),
        (r"^(\w+) and (\w+)$", N_("{0} and {1}")),
        (r"^junk cannot go into a stall: a stack is made of animal cards only$",
         N_("junk cannot go into a stall: a stack is made of animal cards only")),
        (r"^a stack needs at least one card$", N_("a stack needs at least one card")),
        (r"^([^:;()]+?)'s stack (\d) is already built; a stack cannot be added to later$",
         N_("{0}'s stack {1} is already built; a stack cannot be added to later")),
        (r"^stacks are built in order: (.+?)'s next stack is (\d), not (\d)$",
         N_("stacks are built in order: {0}'s next stack is {1}, not {2}")),
        (r"^([^:;()]+?) must take an action first: market \(buy\), technique, stall or inventory$",
         N_("{0} must take an action first: market (buy), technique, stall or inventory")),
        (r'^enter the value of the card in slot (\d) first \(set_market, or \"value\"\)$',
         N_("enter the value of the card in slot {0} first (set_market, or \"value\")")),
        (r"^enter the value of the card in slot (\d) first \(set_market\)$",
         N_("enter the value of the card in slot {0} first (set_market)")),
        (r"^([^:;()]+?) has only (\d+) cards? in (\w+), not (\d+)$", N_("{0} has only {1} cards in {2}, not {3}")),
        (r"^choose the animal decks first: .+$", N_("choose the animal decks first")),
    ]
]


def engine_text(text) -> str:
    """An engine sentence in the current language: a message is translated by its catalog;
    a bare sentence (a game not yet speaking in messages) by pattern, when its pattern is known."""
    if isinstance(text, BaseException):
        text = text.args[0] if text.args else str(text)
    if _lang == DEFAULT or not text:
        return str(text) if isinstance(text, Msg) else text
    if isinstance(text, Msg):
        out = text.translated(_current)
        if out != text:
            return out
        text = str(text)  # no entry for it (yet): try the patterns below
    for pattern, msgid in _ENGINE_PATTERNS:
        m = pattern.match(text)
        if m:
            translated = _(msgid)
            if translated == msgid and not _has_entry(msgid):
                return text
            parts = [_engine_part(g) for g in m.groups()]
            return _plural_fix(translated.format(*parts))
    return text


def _plural_fix(text: str) -> str:
    # "1 cheque(s)" → "1 cheque", "2 cheque(s)" → "2 cheques": one msgid serves 1 and many.
    return re.sub(r"\b(\d+) ([^\W\d_]+)\((e?s)\)",
                  lambda m: f"{m[1]} {m[2]}" + ("" if m[1] == "1" else m[3]), text)


def _has_entry(msgid: str) -> bool:
    # A translation that reads as the English ("{0}, {1}") is still a translation.
    return msgid in getattr(_current, "_catalog", {})


def _engine_part(text: str) -> str:
    # A counter name inside a sentence is a game word; a sentence of its own is translated;
    # a game word ("macaws", an annex's name) is looked up; anything else keeps its form.
    if re.fullmatch(r"[a-z_]+", text):
        label = counter_label(text)
        if label != humanise(text):
            return label
    out = engine_text(text)
    if out == text and re.fullmatch(r"[a-z][a-z' ]*", text):
        out = _word("word", text)
        if out == humanise(text):
            return text
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m tablekeeper.ui.i18n``: build every .mo next to its .po (an install step)."""
    folder = ensure_compiled(into=LOCALE_DIR)
    print(f"catalogs ready in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
