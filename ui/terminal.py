"""Saying things on the command line: the command's language, text safe for a terminal, its width.

Every command (``tablekeeper …``, ``club``, ``serve``, the records) says things through here, below
them all: a command module never imports the dispatcher (:mod:`.cli`) for its words.
"""
from __future__ import annotations

import json
import unicodedata
from typing import Any

from ..engine.messages import translated
from ..engine.text import shown


def dump(obj: Any, indent: int | None = None) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=indent)


# -- words for people ----------------------------------------------------------
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


def say(args, text) -> str:
    """A message (or an error carrying one) in the command's language, safe for a terminal."""
    if isinstance(text, BaseException):
        text = text.args[0] if len(text.args) == 1 else str(text)
    return shown(translated(text, catalog_for(args)))


# -- columns -------------------------------------------------------------------
def width(text: str) -> int:
    """How many terminal columns ``text`` takes: a combining accent none, a wide (East Asian) letter two."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def ljust(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * max(0, columns - width(text)) + text
