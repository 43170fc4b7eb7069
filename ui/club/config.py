"""Club mode's settings: the ``[club]`` table (a table publishing) and ``[league]`` (the league service).

Both live in the one config file the pods use (``--config``, ``$TABLEKEEPER_CONFIG``,
``~/.config/tablekeeper/tablekeeper.toml``, ``/etc/tablekeeper/tablekeeper.toml``), checked whole
before anything connects. No ``[club]`` table: club mode is off (:func:`club_settings` is None) and
nothing changes. ``[league]`` has defaults for everything but the password::

    [club]
    table = "mesa-1"            # the table's name: its topic level and, by default, its broker user name
    host = "192.168.1.10"       # the broker (default 127.0.0.1)
    port = 1883                 # default 1883, 8883 with TLS
    password_file = "/etc/tablekeeper/club.password"   # or password = "..." (not both)
    # username = "mesa-1"       # default: the table's name (the shipped ACL expects it)
    # tls = true                # or { ca_file = "...", cert_file = "...", key_file = "..." }
    # prefix = "tablekeeper"    # the topics' first level (the shipped ACL says tablekeeper)

    [league]
    host = "127.0.0.1"
    password_file = "/etc/tablekeeper/league.password"
    # username = "league"  db = "<state folder>/league.db"  http_host = "127.0.0.1"  http_port = 8080
    # name = "Martes de juegos"  min_plays = 3
    # points = { win = 3, shared = 2, draw = 1, loss = 0 }
    # [[league.seasons]]
    # name = "Otoño 2026"  start = 2026-09-01  end = 2026-12-31

Every problem is a :class:`~tablekeeper.hardware.errors.ConfigError` naming the file and the key
("tablekeeper.toml: club.port: must be a whole number 1-65535, not 'x'"). A relative file name
(``password_file``, the TLS files, ``db``) is taken from the config file's folder.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import socket
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from ...engine.journal import default_state_dir
from ...hardware.errors import ConfigError
from . import contract
from .standings import Scoring, Season

DEFAULT_HOST = "127.0.0.1"
PLAIN_PORT, TLS_PORT = 1883, 8883
DEFAULT_HTTP_HOST = "127.0.0.1"  # the page listens on the loopback unless told otherwise
DEFAULT_HTTP_PORT = 8080
LEAGUE_USER = "league"
LEAGUE_DB = "league.db"
#: Seconds between MQTT keepalive pings (a dead link is noticed within 1.5 times this).
DEFAULT_KEEPALIVE = 30

_BROKER_KEYS = {"host", "port", "tls", "username", "password", "password_file", "prefix", "client_id",
                "keepalive"}
_CLUB_KEYS = _BROKER_KEYS | {"table"}
_LEAGUE_KEYS = _BROKER_KEYS | {"db", "http_host", "http_port", "name", "points", "min_plays", "seasons"}
_POINTS_KEYS = ("win", "shared", "draw", "loss")
_SEASON_KEYS = {"name", "start", "end"}
#: Longest league or season name.
MAX_NAME = 60
_TLS_KEYS = {"ca_file", "cert_file", "key_file"}
#: A topic prefix: levels of letters, digits, ``-``, ``_`` and ``.``, joined by ``/`` (no wildcard, no ``$``).
_PREFIX = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")
_HOST = re.compile(r"[A-Za-z0-9.:_\[\]-]+")
#: What MQTT 3.1.1 allows every broker to accept in a client id (Mosquitto takes more).
_CLIENT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True)
class BrokerSettings:
    """How one client reaches the broker. ``tls``: encrypt (with ``ca_file``, else the system's CAs;
    ``cert_file``/``key_file``: a client certificate). ``client_id`` is fixed so that the broker keeps the
    client's persistent session across its reconnections and restarts."""

    host: str = DEFAULT_HOST
    port: int = PLAIN_PORT
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    prefix: str = contract.DEFAULT_PREFIX
    client_id: str = ""
    keepalive: int = DEFAULT_KEEPALIVE

    def configure(self, client: Any) -> None:
        """Give a paho ``mqtt.Client`` the credentials and TLS settings (not the address: connect does), and
        TCP_NODELAY on its socket."""
        client.on_socket_open = no_delay
        if self.username is not None:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(ca_certs=str(self.ca_file) if self.ca_file else None,
                           certfile=str(self.cert_file) if self.cert_file else None,
                           keyfile=str(self.key_file) if self.key_file else None)

    def describe(self) -> str:
        """``mesa-1@192.168.1.10:1883 (TLS)``: for logs (never the password)."""
        who = f"{self.username}@" if self.username else ""
        return f"{who}{self.host}:{self.port}" + (" (TLS)" if self.tls else "")


@dataclass(frozen=True)
class ClubSettings:
    """A table in a club: its name and its broker."""

    table: str
    broker: BrokerSettings
    source: str = "config"


@dataclass(frozen=True)
class LeagueSettings:
    """The league service: its broker, its database and where its read-only page listens; its name
    (None: not named), its points and minimum plays, its seasons (in date order)."""

    broker: BrokerSettings
    db: Path
    http_host: str = DEFAULT_HTTP_HOST
    http_port: int = DEFAULT_HTTP_PORT
    source: str = "config"
    name: str | None = None
    scoring: Scoring = field(default_factory=Scoring)
    seasons: tuple[Season, ...] = ()

    def season(self, name: str) -> Season | None:
        """The season of that name, or None."""
        return next((s for s in self.seasons if s.name == name), None)


# -- the file -------------------------------------------------------------------------------
def read(path: str | os.PathLike[str] | None = None) -> tuple[dict[str, Any], str, Path | None]:
    """The config file's document, its name for messages, and its folder: ``(doc, source, folder)``.

    ``path`` None: the file the pods use (see the module doc); none at all is ``({}, "(no config file)",
    None)``. A file that cannot be read or is not TOML is a ConfigError naming it.
    """
    from ...hardware import config as pods_config

    found = pods_config.find(path)
    if found is None:
        return {}, "(no config file)", None
    try:
        text = found.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"{found}: cannot read it: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise ConfigError(f"{found}: not UTF-8 text ({e.reason} at byte {e.start})") from e
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{found}: not valid TOML: {e}") from e
    return doc, str(found), found.parent


def _document(cfg: Mapping[str, Any] | str | os.PathLike[str] | None,
              source: str | None, base: Path | None) -> tuple[Mapping[str, Any], str, Path | None]:
    if cfg is None or isinstance(cfg, (str, os.PathLike)):
        doc, found, folder = read(cfg)
        return doc, source or found, base or folder
    if not isinstance(cfg, Mapping):
        raise TypeError(f"a config document (a dict) or a path, not {type(cfg).__name__}")
    return cfg, source or "config", base


# -- checking ---------------------------------------------------------------------------------
class _Check:
    def __init__(self, source: str, section: str, base: Path | None):
        self.source = source
        self.section = section
        self.base = base

    def fail(self, key: str, problem: str) -> NoReturn:
        raise ConfigError(f"{self.source}: {self.section}.{key}: {problem}" if key
                          else f"{self.source}: [{self.section}]: {problem}")

    def string(self, table: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
        value = table.get(key, default)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"must be a text in quotes, not {value!r}")
        return value

    def integer(self, table: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"must be a whole number {lo}-{hi}, not {value!r}")
        if not lo <= value <= hi:
            self.fail(key, f"{value} is out of range ({lo}-{hi})")
        return value

    def path(self, value: Any, key: str, *, exists: bool = True) -> Path:
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"must be a file name in quotes, not {value!r}")
        p = Path(value).expanduser()
        if not p.is_absolute() and self.base is not None:
            p = self.base / p
        if exists and not p.is_file():
            self.fail(key, f"no such file: {p}")
        return p


def _broker(c: _Check, t: Mapping[str, Any], *, default_user: str, default_client_id: str) -> BrokerSettings:
    host = c.string(t, "host", DEFAULT_HOST)
    assert host is not None
    if not _HOST.fullmatch(host):
        c.fail("host", f"{host!r} is not a host name or an address")
    tls_raw = t.get("tls", False)
    tls = False
    files: dict[str, Path | None] = dict.fromkeys(_TLS_KEYS)
    if isinstance(tls_raw, bool):
        tls = tls_raw
    elif isinstance(tls_raw, Mapping):
        tls = True
        for key in tls_raw:
            if key not in _TLS_KEYS:
                c.fail(f"tls.{key}", f"unknown key (keys here: {', '.join(sorted(_TLS_KEYS))})")
        for key in sorted(_TLS_KEYS):
            if key in tls_raw:
                files[key] = c.path(tls_raw[key], f"tls.{key}")
        if (files["cert_file"] is None) != (files["key_file"] is None):
            c.fail("tls", "a client certificate needs both cert_file and key_file")
    else:
        c.fail("tls", f"must be true, false or a table {{ ca_file = \"...\" }}, not {tls_raw!r}")
    port = c.integer(t, "port", TLS_PORT if tls else PLAIN_PORT, 1, 65535)
    username = c.string(t, "username", default_user)
    if "password" in t and "password_file" in t:
        c.fail("password", "give password or password_file, not both")
    password = c.string(t, "password") if "password" in t else None
    if "password_file" in t:
        pf = c.path(t["password_file"], "password_file")
        try:
            password = pf.read_text(encoding="utf-8").strip("\r\n")
        except OSError as e:
            c.fail("password_file", f"cannot read {pf}: {e.strerror or e}")
        except UnicodeDecodeError:
            c.fail("password_file", f"{pf} is not UTF-8 text")
        if not password:
            c.fail("password_file", f"{pf} is empty")
    prefix = c.string(t, "prefix", contract.DEFAULT_PREFIX)
    assert prefix is not None
    if not _PREFIX.fullmatch(prefix):
        c.fail("prefix", f"{prefix!r} is not a topic prefix (levels of letters, digits, '-', '_' or '.', "
                         "joined by '/'; no '+', '#' or '$')")
    client_id = c.string(t, "client_id", default_client_id)
    assert client_id is not None
    if not _CLIENT_ID.fullmatch(client_id):
        c.fail("client_id", f"{client_id!r}: 1 to 64 letters, digits, '-', '_' or '.'")
    keepalive = c.integer(t, "keepalive", DEFAULT_KEEPALIVE, 5, 3600)
    return BrokerSettings(host, port, username, password, tls, files["ca_file"], files["cert_file"],
                          files["key_file"], prefix, client_id, keepalive)


def _section(c: _Check, doc: Mapping[str, Any], name: str, allowed: set[str]) -> Mapping[str, Any]:
    table = doc.get(name, {})
    if not isinstance(table, Mapping):
        raise ConfigError(f"{c.source}: {name}: must be a table ([{name}]), not {table!r}")
    for key in table:
        if key not in allowed:
            c.fail(str(key), f"unknown key (keys here: {', '.join(sorted(allowed))})")
    return table


def club_settings(cfg: Mapping[str, Any] | str | os.PathLike[str] | None, *, source: str | None = None,
                  base: str | os.PathLike[str] | None = None) -> ClubSettings | None:
    """The table's club settings, or None when the config has no ``[club]`` table (club mode off).

    ``cfg``: the decoded config document, or a config file's path (None: the file the pods use).
    ``source``: the file's name in messages; ``base``: the folder relative file names start from.
    """
    doc, src, folder = _document(cfg, source, Path(base) if base is not None else None)
    if "club" not in doc:
        return None
    c = _Check(src, "club", folder)
    t = _section(c, doc, "club", _CLUB_KEYS)
    if "table" not in t:
        c.fail("", "missing key 'table' (the table's name, like \"mesa-1\")")
    table = t["table"]
    try:
        contract.check_table_name(table)
    except contract.ContractError as e:
        c.fail("table", str(e))
    broker = _broker(c, t, default_user=table, default_client_id=f"tablekeeper-table-{table}")
    if broker.password is None:
        c.fail("password_file", "missing (or password): the broker takes no anonymous client, and a table's "
                                "password has no default")
    return ClubSettings(table, broker, src)


def league_settings(cfg: Mapping[str, Any] | str | os.PathLike[str] | None, *, source: str | None = None,
                    base: str | os.PathLike[str] | None = None,
                    state_dir: str | os.PathLike[str] | None = None) -> LeagueSettings:
    """The league service's settings: the ``[league]`` table, defaults for what it does not say.

    ``db`` defaults to ``league.db`` in the state folder (``state_dir``, else the journal's default).
    """
    doc, src, folder = _document(cfg, source, Path(base) if base is not None else None)
    c = _Check(src, "league", folder)
    t = _section(c, doc, "league", _LEAGUE_KEYS | {"lang"})
    broker = _broker(c, t, default_user=LEAGUE_USER, default_client_id="tablekeeper-league")
    if "db" in t:
        db = c.path(t["db"], "db", exists=False)
        if db.is_dir():
            c.fail("db", f"{db} is a folder; name the database file in it (like {db / LEAGUE_DB})")
    else:
        db = (Path(state_dir) if state_dir is not None else default_state_dir()) / LEAGUE_DB
    http_host = c.string(t, "http_host", DEFAULT_HTTP_HOST)
    assert http_host is not None
    if not _HOST.fullmatch(http_host):
        c.fail("http_host", f"{http_host!r} is not a host name or an address")
    http_port = c.integer(t, "http_port", DEFAULT_HTTP_PORT, 0, 65535)  # 0: any free port (tests)
    _language(c, t)  # checked with the rest; league_language gives it
    name = _name(c, t.get("name"), "name") if "name" in t else None
    return LeagueSettings(broker, db, http_host, http_port, src, name, _scoring(c, t), _seasons(c, t))


def _name(c: _Check, value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or not value.isprintable():
        c.fail(key, f"must be a text of 1 to {MAX_NAME} printable characters in quotes, not {value!r}")
    return value.strip()


def _scoring(c: _Check, t: Mapping[str, Any]) -> Scoring:
    """``points`` (a table: win, shared, draw, loss; each -1000 to 1000) and ``min_plays`` (0 or more)."""
    points = t.get("points", {})
    if not isinstance(points, Mapping):
        c.fail("points", f"must be a table {{ win = 3, shared = 2, draw = 1, loss = 0 }}, not {points!r}")
    for key in points:
        if key not in _POINTS_KEYS:
            c.fail(f"points.{key}", f"unknown key (keys here: {', '.join(_POINTS_KEYS)})")
    default = Scoring()
    inner = _Check(c.source, "league.points", c.base)
    values = {key: inner.integer(points, key, getattr(default, key), -1000, 1000) for key in _POINTS_KEYS}
    min_plays = c.integer(t, "min_plays", default.min_plays, 0, 1_000_000)
    return Scoring(min_plays=min_plays, **values)


def _day(c: _Check, value: Any, key: str) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    c.fail(key, f"must be a date like 2026-09-01, not {value!r}")


def _seasons(c: _Check, t: Mapping[str, Any]) -> tuple[Season, ...]:
    """``[[league.seasons]]``: each a name, a start and an end day (both included); no two with one name,
    none overlapping another (one season at a time is the current one)."""
    raw = t.get("seasons", [])
    if not isinstance(raw, list) or not all(isinstance(x, Mapping) for x in raw):
        c.fail("seasons", "must be tables: [[league.seasons]] with name, start and end")
    seasons: list[Season] = []
    for i, table in enumerate(raw, 1):
        where = f"seasons[{i}]"
        for key in table:
            if key not in _SEASON_KEYS:
                c.fail(f"{where}.{key}", f"unknown key (keys here: {', '.join(sorted(_SEASON_KEYS))})")
        for key in sorted(_SEASON_KEYS):
            if key not in table:
                c.fail(where, f"missing key {key!r} (a season has a name, a start and an end)")
        season = Season(_name(c, table["name"], f"{where}.name"), _day(c, table["start"], f"{where}.start"),
                        _day(c, table["end"], f"{where}.end"))
        if season.end < season.start:
            c.fail(f"{where}.end", f"{season.end} is before the start, {season.start}")
        for other in seasons:
            if other.name == season.name:
                c.fail(f"{where}.name", f"{season.name!r} names two seasons")
            if season.start <= other.end and other.start <= season.end:
                c.fail(where, f"{season.name!r} overlaps {other.name!r}")
        seasons.append(season)
    return tuple(sorted(seasons, key=lambda s: s.start))


def _language(c: _Check, t: Mapping[str, Any]) -> str | None:
    from ..i18n import LANGUAGES

    lang = t.get("lang")
    if lang is not None and (not isinstance(lang, str) or lang not in LANGUAGES):
        c.fail("lang", f"must be one of {', '.join(repr(code) for code in LANGUAGES)}, not {lang!r}")
    return lang


def league_language(cfg: Mapping[str, Any] | str | os.PathLike[str] | None, *,
                    source: str | None = None) -> str | None:
    """``[league] lang``: the language of the league's page ("es"); None when the config does not say."""
    doc, src, _folder = _document(cfg, source, None)
    c = _Check(src, "league", None)
    return _language(c, _section(c, doc, "league", _LEAGUE_KEYS | {"lang"}))


def no_delay(client: Any, userdata: Any, sock: Any) -> None:
    """Small messages go at once: without TCP_NODELAY, Nagle's algorithm and the peer's delayed ACK hold
    an action (and the ack after it) back by tens of milliseconds."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        pass  # not a TCP socket (a unix socket, or TLS over one): nothing to tune
