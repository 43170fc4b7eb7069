"""Club mode's wire contract: the MQTT topics and the JSON payloads, version 1.

Tables and the league speak only through the names fixed here (and in
docs/club.md). Like ``tablekeeper replay``'s JSON, it is a public contract:
fields may be added, none is renamed or removed; a change that would break a
reader is a new version (``v2`` in the topic and in ``"v"``).

Topics (``PREFIX`` is ``tablekeeper`` unless ``[club] prefix`` says otherwise)::

    PREFIX/v1/tables/TABLE/status    retained  the table's connection: online or not (its last will)
    PREFIX/v1/tables/TABLE/live      retained  the game on the table now: players, counters, turn
    PREFIX/v1/tables/TABLE/actions   QoS 1     each committed journal entry, in order
    PREFIX/v1/tables/TABLE/plays     QoS 1     each finished play (the replay contract's names)
    PREFIX/v1/tables/TABLE/roster    retained  the table's people: which stored names are one person
    PREFIX/v1/tables/TABLE/ack       QoS 1     league -> table: what the league has stored

Every payload is one JSON object with ``"v": 1``, ``"table"`` (the table's
name, also its broker user name and the topic level) and, for what comes from
a journal, ``"journal"`` (the journal's own id: a table whose journal is
replaced starts a new series) and ``"game_no"`` (the journal's game number).
``"game"`` is the game's id as in ``tablekeeper replay`` (``"counters"``).

Delivery is at least once end to end: a table publishes from its journal
with QoS 1 over a persistent session and forgets nothing until the league's
``ack`` says it has stored it (a broker that dies before delivering loses
nothing: the table publishes again from the last ack). The league keeps
each action once by ``(table, journal, game_no, seq)`` and each play once
by ``(table, journal, game_no)``.

An action's ``"seq"`` counts its game's journal entries from 1 (the journal's entry 0 is ``seq`` 1).
An ``ack`` names one game of one journal: ``"seq"`` is the highest action number up to which the league
holds every action of that game (0: none yet), ``"play"`` whether it holds the finished play, and with it
``"finished"``, that play's end (a game finished anew after an undo is another play: a late ack of the earlier
one does not stand for it; a table reads an ack without it as holding the play it sent last). A table
publishes again, after a reconnection or a restart, whatever its last ack does not cover.

``roster`` says which names of the table's plays are one person (the table's ``tablekeeper players
merge`` and ``rename``): ``"people"`` is a list of ``{"name": the person's name now, "aliases": [every
stored name that is theirs]}``, of the people whose stored names are more than their own name (the others
change nothing). Retained, and published again at every connection and whenever the roster changes: the
league reads a table's plays through the newest one.
"""
from __future__ import annotations

import json
import re
from typing import Any

VERSION = 1
DEFAULT_PREFIX = "tablekeeper"

#: The kinds of message, each the last level of a table's topic.
STATUS, LIVE, ACTIONS, PLAYS, ACK, ROSTER = "status", "live", "actions", "plays", "ack", "roster"
KINDS = (STATUS, LIVE, ACTIONS, PLAYS, ACK, ROSTER)
#: What a table publishes (the ACL lets each table write these of its own topics, and read its acks).
TABLE_KINDS = (STATUS, LIVE, ACTIONS, PLAYS, ROSTER)
#: Retained topics (the newest message is what a new subscriber gets first).
RETAINED = frozenset({STATUS, LIVE, ROSTER})

#: A table's name: its topic level and its broker user name. Letters, digits, ``-`` and ``_``
#: (no MQTT wildcard, no ``/``, nothing a shell or a URL would need to quote), 1 to 32.
TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
#: Largest payload either side accepts (a live state of 8 players is a few kB).
MAX_PAYLOAD = 256 * 1024


class ContractError(ValueError):
    """A topic or payload that breaks the contract (the sentence says what and where)."""


def check_table_name(name: str) -> str:
    if not isinstance(name, str) or not TABLE_NAME.fullmatch(name):
        raise ContractError(f"a table's name is 1 to 32 letters, digits, '-' or '_', starting with a letter "
                            f"or digit: not {name!r}")
    return name


def topic(prefix: str, table: str, kind: str) -> str:
    """The topic of one kind of message of one table."""
    if kind not in KINDS:
        raise ContractError(f"no such kind of message: {kind!r}")
    return f"{prefix}/v{VERSION}/tables/{check_table_name(table)}/{kind}"


def subscription(prefix: str, kind: str = "#") -> str:
    """The league's filter for one kind of message of every table (``#``: every kind)."""
    return f"{prefix}/v{VERSION}/tables/+/{kind}" if kind != "#" else f"{prefix}/v{VERSION}/tables/#"


def parse_topic(prefix: str, name: str) -> tuple[str, str]:
    """``(table, kind)`` of a topic under ``prefix``; ContractError for anything else."""
    parts = name.split("/")
    if (len(parts) != 5 or parts[0] != prefix or parts[1] != f"v{VERSION}" or parts[2] != "tables"
            or parts[4] not in KINDS):
        raise ContractError(f"not a table's topic of version {VERSION}: {name!r}")
    return check_table_name(parts[3]), parts[4]


def encode(payload: dict[str, Any]) -> bytes:
    """A payload as sent: compact UTF-8 JSON with ``"v"`` set."""
    body = {"v": VERSION, **payload}
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    if len(data) > MAX_PAYLOAD:
        raise ContractError(f"payload of {len(data)} bytes is over the {MAX_PAYLOAD} allowed")
    return data


#: Fields every payload of a kind must have, with their types (beyond ``v`` and ``table``).
REQUIRED: dict[str, dict[str, type | tuple[type, ...]]] = {
    STATUS: {"online": bool, "at": (int, float)},
    LIVE: {"at": (int, float)},
    ACTIONS: {"journal": str, "game_no": int, "game": str, "seq": int, "at": (int, float), "entry": dict},
    PLAYS: {"journal": str, "game_no": int, "game": str, "started": (int, float), "finished": (int, float),
            "players": list, "winners": list, "draw": bool},
    ACK: {"journal": str, "game_no": int, "seq": int, "play": bool},
    ROSTER: {"at": (int, float), "people": list},
}


def decode(kind: str, data: bytes, table: str) -> dict[str, Any]:
    """A received payload, checked: the right version, the table of its topic, the kind's fields.

    ContractError with a sentence for anything else (the receiver logs it and drops the message:
    nothing a table sends can stop the league).
    """
    if len(data) > MAX_PAYLOAD:
        raise ContractError(f"{kind} from {table}: {len(data)} bytes, over the {MAX_PAYLOAD} allowed")
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ContractError(f"{kind} from {table}: not UTF-8 JSON ({e})") from None
    except RecursionError:  # nested deeper than the parser goes: garbage, not a reason to stop a reader
        raise ContractError(f"{kind} from {table}: JSON nested too deep") from None
    if not isinstance(body, dict):
        raise ContractError(f"{kind} from {table}: not a JSON object")
    if body.get("v") != VERSION:
        raise ContractError(f"{kind} from {table}: version {body.get('v')!r}, this reader knows {VERSION}")
    if body.get("table") != table:
        raise ContractError(f"{kind} from {table}: says it is from {body.get('table')!r}")
    for name, kinds in REQUIRED[kind].items():
        value = body.get(name)
        if not isinstance(value, kinds) or (isinstance(value, bool) and kinds in (int, (int, float))):
            raise ContractError(f"{kind} from {table}: field {name!r} missing or of the wrong type")
    return body
