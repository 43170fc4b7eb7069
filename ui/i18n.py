"""Languages on screen, on the pods and at the command line: gettext catalogs compiled by Babel.

The sources are .po files: the app's own (``ui/locale/<lang>/LC_MESSAGES/tablekeeper.po``),
the pods' (``hardware/locale/<lang>/``), the engine core's (``engine/locale/<lang>/``) and
each game's (``engine/games/<game>/locale/<lang>/<game-id>.po``). :func:`load_catalog` merges them
and compiles them in memory with Babel (no ``.mo`` is ever written, so a checkout or a
hardened service's read-only folders are never a problem).

Words of a game (counter, action and option names, its choices) are the engine's
messages (``word("counter", "gold")``, engine/messages.py), as the pods say them:
their Spanish is in the game's catalog (or the engine's, for words the games
share), never the app's. The context keeps "round" the counter and "round" the
verb apart; a word without a translation is shown humanised ("drink_me" →
"drink me").

What the engine says is a message (engine/messages.py): a template and its
parameters. :func:`engine_text` renders it with the current catalog; nothing
parses an English sentence back.
"""
from __future__ import annotations

import gettext
import io
import locale
import os
from pathlib import Path

from ..engine.fields import Field
from ..engine.messages import Msg
from ..engine.messages import word as game_word

DOMAIN = "tablekeeper"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = {"en": "English", "es": "Español"}
DEFAULT = "en"

_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = DEFAULT


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
    """The .po sources of a language: the app's own, then the pods' interface's (ui/pod/), their
    devices' (hardware/), the engine's and each game's — every ``locale/<code>/*.po`` under
    ui/pod/, hardware/ and engine/."""
    files = [LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"]
    for package in ("ui/pod", "hardware", "engine"):
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


def word(name, context: str = "word") -> str:
    """A game's word in the current language, looked up as the engine and the pods do: a message from
    the engine renders with the catalog; a name (a counter, an action, an option, a choice, a phase)
    is the game's ``word(context, name)``, humanised ("drink_me" → "drink me")."""
    if isinstance(name, Msg):
        if name.context and not name.params and name.plural is None and "_" in name.template:
            return word(name.template, name.context)  # a game's word by its id ("drink_me"): as a name
        return name.translated(catalog())
    if not isinstance(name, str):
        return str(name)
    cat = catalog()
    text = game_word(context, humanise(name)).translated(cat)
    if cat is not None and text == humanise(name) and name != text:  # the catalog knows it by its id only
        return game_word(context, name).translated(cat)
    return text


def field_caption(field: Field, label: str | None = None) -> str:
    """An action field's caption on a touchscreen form: ``label``, else the word the pods' steps show it by
    (which every declared field has in each language: as a game's plain word, "counter", "delta", "others" and
    "side" showed in English on a Spanish screen); "(optional)" after one the action can do without."""
    caption = label or word(field.name, "field")
    return caption if field.required else _("{name} (optional)").format(name=caption)


def counter_label(name: str) -> str:
    return word(name, "counter")


def action_label(name: str) -> str:
    return word(name, "action")


def option_label(name: str) -> str:
    return word(name, "option")


# -- what needs translating -----------------------------------------------------------
#: How the app marks its own strings, for pybabel (the engine's keywords differ: see engine/messages.py).
UI_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def extract(folder: Path | None = None) -> set[tuple[str | None, str]]:
    """The ``(context, msgid)`` pairs the app marks in its sources (``folder``: the app's), as pybabel extracts them.

    The pods' interface (``ui/pod/``) keeps its own catalog (``ui/pod/locale``), like the engine
    and the devices: its messages are not the app's."""
    from babel.messages.extract import extract_from_dir

    folder = Path(__file__).resolve().parent if folder is None else folder

    found = set()
    for file, _line, message, _comments, context in extract_from_dir(
            str(folder), method_map=[("**.py", "python")], keywords=UI_KEYWORDS):
        if Path(file).parts[:1] == ("pod",):
            continue
        for msgid in (message if isinstance(message, tuple) else (message,)):
            if msgid:
                found.add((context, msgid))
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


def engine_text(text) -> str:
    """What the engine said (a message, or an error carrying one) in the current language."""
    if isinstance(text, BaseException):
        text = text.args[0] if len(text.args) == 1 else str(text)
    return text.translated(catalog()) if isinstance(text, Msg) else str(text)
