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


def set_language(code: str, localedir: Path | None = None) -> str:
    """Switch every later ``_()`` to ``code`` (unknown codes fall back to English)."""
    global _current, _lang
    if code not in LANGUAGES:
        code = DEFAULT
    if code == DEFAULT:
        _current = gettext.NullTranslations()
    else:
        try:
            folder = localedir if localedir is not None else ensure_compiled()
            _current = gettext.translation(DOMAIN, str(folder), languages=[code], fallback=True)
        except OSError:  # nowhere to write the .mo (a hardened service, a read-only home): in memory
            po = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
            _current = gettext.GNUTranslations(io.BytesIO(mo_bytes(parse_po(po.read_text(encoding="utf-8"),
                                                                            str(po)))))
    _lang = code
    return code


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
# themselves passed through engine_text (names stay names).
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
    ]
]


def engine_text(text: str) -> str:
    """An engine sentence in the current language, when its pattern is known."""
    if _lang == DEFAULT or not text:
        return text
    for pattern, msgid in _ENGINE_PATTERNS:
        m = pattern.match(text)
        if m:
            translated = _(msgid)
            if translated == msgid:
                return text
            parts = [_engine_part(g) for g in m.groups()]
            return translated.format(*parts)
    return text


def _engine_part(text: str) -> str:
    # A counter name inside a sentence is a game word; anything else keeps its form.
    if re.fullmatch(r"[a-z_]+", text):
        label = counter_label(text)
        if label != humanise(text):
            return label
    return engine_text(text)


def main(argv: list[str] | None = None) -> int:
    """``python -m tablekeeper.ui.i18n``: build every .mo next to its .po (an install step)."""
    folder = ensure_compiled(into=LOCALE_DIR)
    print(f"catalogs ready in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
