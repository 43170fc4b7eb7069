"""Saying things on the command line, one way for every command (``tablekeeper …``, ``club``, ``serve``,
the records, ``doctor``, the demo):

* :func:`out`: a result, one line or several, on standard output;
* :func:`err`: a refusal, an error or a note on standard error, after the command's name
  (``tablekeeper export: …``); :func:`warn` is one that starts ``warning:``;
* :func:`json_out`: data for scripts on standard output (``--json``, ``replay``): as the data is, English.

Each takes the language first: the command's parsed arguments (``--lang``, else the system locale:
:func:`catalog_for`), a catalog, or None for English. A message (engine/messages.py) is said in that
language; every line is made safe for a terminal (``shown``: control characters escaped). Below them
all: a command module never imports the dispatcher (:mod:`.cli`) for its words.
"""
from __future__ import annotations

import contextlib
import json
import sys
import unicodedata
from collections.abc import Iterator
from typing import Any

from ..engine import Journal
from ..engine.messages import Catalog, _, translated
from ..engine.text import shown

# -- the language --------------------------------------------------------------
_CATALOGS: dict = {}


def catalog_for(args):
    """The gettext catalog for this command's messages, or None for English.

    ``--lang`` chooses; without it the system locale does, except for ``replay``,
    whose messages stay English unless asked (scripts read them).
    """
    from . import i18n

    lang = getattr(args, "lang", None)
    if lang is None:
        lang = i18n.DEFAULT if getattr(args, "command", None) == "replay" else i18n.system_language()
    if lang == i18n.DEFAULT:
        return None
    if lang not in _CATALOGS:
        _CATALOGS[lang] = i18n.load_catalog(lang)
    return _CATALOGS[lang]


def _catalog(lang: Any) -> Catalog | None:
    """``lang`` as a catalog: a command's arguments give theirs, a catalog is itself, None is English."""
    if lang is None or hasattr(lang, "pgettext"):
        return lang
    return catalog_for(lang)


def said(text: Any) -> Any:
    """What an error says: the message it carries (it translates), else its text; anything else as it is."""
    if isinstance(text, BaseException):
        return text.args[0] if len(text.args) == 1 and isinstance(text.args[0], str) else str(text)
    return text


def say(lang: Any, text: Any) -> str:
    """A message (or an error carrying one) in ``lang``'s language, safe for a terminal: a part of a line."""
    return shown(translated(said(text), _catalog(lang)))


# -- the three ways out ------------------------------------------------------------
def _lines(lang: Any, text: Any) -> str:
    return "\n".join(shown(line) for line in str(translated(said(text), _catalog(lang))).split("\n"))


def out(lang: Any, text: Any = "", *, flush: bool = False) -> None:
    """``text`` (a message, a string, lines of either) on standard output, in ``lang``'s language."""
    print(_lines(lang, text), flush=flush)


def err(lang: Any, text: Any, *, who: str | None = None) -> None:
    """A refusal, an error or a note on standard error, in ``lang``'s language: ``<who>: <text>``.

    ``who`` is by default the command (``tablekeeper export``) when ``lang`` is a command's
    arguments; ``""`` says the text alone."""
    if who is None:
        command = getattr(lang, "command", None)
        who = f"tablekeeper {command}" if command else ""
    line = _lines(lang, text)
    print(f"{who}: {line}" if who else line, file=sys.stderr, flush=True)


def warn(lang: Any, text: Any) -> None:
    """``warning: <text>`` on standard error, in ``lang``'s language."""
    err(lang, _("warning: {text}", text=said(text)), who="")


def json_out(data: Any, indent: int | None = None) -> None:
    """``data`` as JSON on standard output (text as it is: not escaped to ASCII)."""
    print(json.dumps(data, ensure_ascii=False, indent=indent))


# -- columns -------------------------------------------------------------------
def width(text: str) -> int:
    """How many terminal columns ``text`` takes: a combining accent none, a wide (East Asian) letter two."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def ljust(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * max(0, columns - width(text)) + text


def cut(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` terminal columns (a letter and its accents stay together)."""
    kept, used = "", 0
    for ch in text:
        w = width(ch)
        if used + w > columns:
            break
        kept, used = kept + ch, used + w
    return kept


# -- the journal's warnings ------------------------------------------------------------
def say_warnings(lang: Any, journal: Journal) -> None:
    """The journal's warnings not said yet (each repair is said once), on standard error."""
    for w in journal.take_warnings():
        warn(lang, w)


@contextlib.contextmanager
def journal_for(args: Any) -> Iterator[Journal]:
    """The stored journal for one command (``--state-dir``); every warning it gathers is said, before
    the command and after it, even when it fails."""
    journal = Journal(args.state_dir)
    try:
        say_warnings(args, journal)
        yield journal
    finally:
        say_warnings(args, journal)
        journal.close()
