"""``tablekeeper club init`` and ``club join``: a club's broker, league and tables set up in two commands.

``init FOLDER --host ADDRESS --tables N`` makes, in a new folder, everything a club needs that a person
used to make by hand (docs/club.md, "Setting up a club"):

* ``ca/``: the club's own certificate authority (its key never leaves this folder);
* ``broker/``: Mosquitto's settings for the club — a TLS listener on the LAN whose certificate the
  club's authority signed for ``--host`` (and the loopback), no anonymous clients, a client's id its
  login, the ACL that keeps each table to its own topics, and a password file with the league and
  every table (``mosquitto_passwd``);
* ``league/`` and ``tables/<table>/``: each one's ``tablekeeper.toml`` (``[league]`` or ``[club]``:
  the broker's address, TLS with the club's authority, its password file), the authority's
  certificate and its own password.

``add-table FOLDER NAME...`` adds tables to a club ``init`` made: each one's password (added to the
broker's password file, every other login kept as it is), its folder and config; the authority, the
broker's certificate, the ACL (its rules name a table by its login, so a new table needs no line of its
own) and the other tables' passwords stay as they are.

``join FOLDER`` on a table (or on the league's machine) copies one of those folders into the config
folder the pods read and adds its table to the config file there: one command per table. Nothing is
ever overwritten: a folder that exists, a config that already says ``[club]``, refuse with a sentence.

The certificates come from ``openssl`` and the password hashes from Mosquitto's ``mosquitto_passwd``
(both Debian packages: install.sh --club-broker installs Mosquitto).
"""
from __future__ import annotations

import glob
import ipaddress
import os
import secrets
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...engine.errors import TablekeeperError
from ...engine.journal_store import fsync
from ...engine.messages import N_, _
from ..terminal import out, say
from . import config, contract

#: Where ``club init`` tells the organiser to put the broker's folder (the paths in its settings).
BROKER_DIR = Path("/etc/mosquitto/tablekeeper")
#: The club's certificates' lifetime: ten years (a club does not renew certificates).
DAYS = 3650
CA_FILE, PASSWORD_FILE = "club-ca.crt", "club.password"
#: The names the authority and the password take beside the config file a folder joins.
JOINED = {"club": ("club-ca.crt", "club.password"), "league": ("league-ca.crt", "league.password")}


class SetupError(TablekeeperError):
    """A club cannot be set up or joined as asked: one sentence that says why."""


def acl_text(prefix: str = contract.DEFAULT_PREFIX) -> str:
    """The broker's ACL: each table writes only its own topics and reads only its own acks; the league
    reads every table and writes only acks (the same rules as systemd/mosquitto/tablekeeper.acl)."""
    def topic(table: str, kind: str) -> str:  # contract.topic's shape, with the ACL's own patterns
        return f"{prefix}/v{contract.VERSION}/tables/{table}/{kind}"

    own = [topic("%u", kind) for kind in contract.TABLE_KINDS]
    return ("# tablekeeper club ACL (mosquitto acl_file), made by `tablekeeper club init`.\n"
            "# A table logs in with its table name as user name and writes only its own topics:\n"
            + "".join(f"pattern write {t}\n" for t in own)
            + f"pattern read {topic('%u', contract.ACK)}\n\n"
            "# The league reads every table and acknowledges what it stored.\n"
            f"user {config.LEAGUE_USER}\n"
            f"topic read {contract.subscription(prefix)}\n"
            f"topic write {topic('+', contract.ACK)}\n")


def broker_conf(broker_dir: Path, port: int, listen: str | None = None) -> str:
    """Mosquitto's settings for the club: the shipped ones (systemd/mosquitto/tablekeeper.conf) with the
    listener on every address (or ``listen``'s), over TLS with the club's certificate."""
    d = broker_dir
    return ("# Mosquitto for a tablekeeper club, made by `tablekeeper club init`: the tables on the LAN\n"
            "# reach it over TLS with the club's own certificate authority (club-ca.crt).\n"
            "per_listener_settings false\n"
            "allow_anonymous false\n"
            f"password_file {d / 'tablekeeper.passwd'}\n"
            f"acl_file {d / 'tablekeeper.acl'}\n\n"
            f"listener {port}{' ' + listen if listen else ''}\n"
            f"cafile {d / CA_FILE}\n"
            f"certfile {d / 'server.crt'}\n"
            f"keyfile {d / 'server.key'}\n"
            "tls_version tlsv1.2\n"
            "# A client's id is its login: a table's password cannot connect as the league (or as another\n"
            "# table) and kick it off, wiping its persistent session.\n"
            "use_username_as_clientid true\n"
            "set_tcp_nodelay true\n\n"
            "persistence true\n"
            "autosave_interval 60\n"
            "max_queued_messages 100000\n")


def _client_toml(section: str, host: str, port: int, extra: str = "") -> str:
    return (f"# Made by `tablekeeper club init`; `tablekeeper club join` adds it to this machine's config.\n"
            f"[{section}]\n{extra}"
            f"host = {_quote(host)}\n"
            f"port = {port}\n"
            f"tls = {{ ca_file = {_quote(CA_FILE)} }}\n"
            f"password_file = {_quote(PASSWORD_FILE)}\n")


def _quote(text: str) -> str:
    """A TOML basic string (the names and hosts init writes are plain: letters, digits, . - _ :)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tool(name: str, package: str) -> str:
    path = shutil.which(name) or next((p for p in (f"/usr/bin/{name}", f"/usr/sbin/{name}") if os.access(p, os.X_OK)),
                                      None)
    if path is None:
        raise SetupError(_("{tool} is not installed: install the Debian package {package} first "
                           "(sudo apt install {package})", tool=name, package=package))
    return path


def _run(args: list[str]) -> None:
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise SetupError(_("{tool} failed: {error}", tool=Path(args[0]).name, error=lines[-1] if lines else "?"))


def _secret(path: Path, text: str) -> None:
    """A file only its owner reads (a password, a key)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


#: The group the appliance's services run as (systemd/*.service: User= and Group= tablekeeper).
SERVICE_GROUP = "tablekeeper"


def _for_the_services(path: Path) -> None:
    """As root on an appliance: a password file its services read — the tablekeeper group's, 0640
    (systemd/tablekeeper-league.service says so). Elsewhere it stays its owner's alone."""
    import grp

    if os.geteuid() != 0:
        return
    try:
        gid = grp.getgrnam(SERVICE_GROUP).gr_gid
    except KeyError:
        return
    os.chown(path, 0, gid)
    os.chmod(path, 0o640)


def _alt_names(host: str) -> str:
    names = []
    for name in dict.fromkeys([host, "localhost", "127.0.0.1"]):
        try:
            ipaddress.ip_address(name)
            names.append(f"IP:{name}")
        except ValueError:
            names.append(f"DNS:{name}")
    return ",".join(names)


@dataclass(frozen=True)
class Club:
    """What ``init`` made: the folder, the broker's address, the tables' names."""

    folder: Path
    host: str
    port: int
    tables: tuple[str, ...]


def init(folder: str | os.PathLike[str], host: str, tables: list[str], *, port: int = config.TLS_PORT,
         broker_dir: str | os.PathLike[str] | None = None, listen: str | None = None) -> Club:
    """Make a new club in ``folder`` (see the module's docstring). ``broker_dir``: where the broker's
    folder will live (its settings name the files there; default /etc/mosquitto/tablekeeper);
    ``listen``: the one address the broker listens on (default: every address)."""
    root = Path(folder)
    if root.exists() and any(root.iterdir()):
        raise SetupError(_("{folder} is not empty: club init makes a new club's keys and never overwrites "
                           "any (name a new folder; to add a table to it: club add-table)", folder=str(root)))
    names = _check_table_names(tables)
    if not config._HOST.fullmatch(host):
        raise SetupError(_("{host} is not a host name or an address", host=host))
    if not 1 <= port <= 65535:
        raise SetupError(_("port {port} is not 1-65535", port=port))
    openssl = _tool("openssl", "openssl")
    _tool("mosquitto_passwd", "mosquitto")
    broker_home = Path(broker_dir) if broker_dir is not None else BROKER_DIR
    with _made_whole(root, "init") as work:  # no half-made club, which init would refuse to overwrite
        _make(work, openssl, host, port, names, broker_home, listen)
    return Club(root, host, port, tuple(names))


@contextmanager
def _made_whole(target: Path, kind: str) -> Iterator[Path]:
    """A folder made whole or not at all: built in a new folder beside ``target`` (``.NAME.KIND-…``, the
    mode a plain mkdir gives), then every file and folder in it synced and the folder renamed to
    ``target`` (over an empty folder too). A failed step removes it; a power cut leaves ``target`` as it
    was, and such a cut's leftover beside it (never renamed, so never used: a key nobody has) is removed
    by the next try. The files in it must name each other by relative paths only."""
    target.parent.mkdir(parents=True, exist_ok=True)
    for leftover in target.parent.glob(f".{glob.escape(target.name)}.{kind}-*"):
        shutil.rmtree(leftover, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.{kind}-", dir=target.parent))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(work, 0o777 & ~umask)  # mkdtemp's is 0700
        yield work
        for here, _folders, files in os.walk(work, topdown=False):  # the folders last: their names durable
            for name in files:
                fsync(Path(here) / name)
            fsync(Path(here))
        os.rename(work, target)
        fsync(target.parent)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _make(root: Path, openssl: str, host: str, port: int, names: list[str], broker_home: Path,
          listen: str | None) -> None:
    """The club's files in ``root`` (see :func:`init`)."""
    ca, broker = root / "ca", root / "broker"
    for d in (ca, broker, root / "league", root / "tables"):
        d.mkdir(parents=True, exist_ok=True)
    os.chmod(ca, 0o700)
    # The club's authority, then the broker's certificate for its address and the loopback.
    _run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
          "-keyout", str(ca / "ca.key"), "-out", str(broker / CA_FILE), "-days", str(DAYS),
          "-subj", "/CN=tablekeeper club CA", "-addext", "basicConstraints=critical,CA:TRUE",
          "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    _run([openssl, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
          "-keyout", str(broker / "server.key"), "-out", str(ca / "server.csr"), "-subj", f"/CN={host}"])
    ext = ca / "server.ext"
    ext.write_text(f"subjectAltName={_alt_names(host)}\nextendedKeyUsage=serverAuth\n"
                   "keyUsage=critical,digitalSignature\nbasicConstraints=CA:FALSE\n")
    _run([openssl, "x509", "-req", "-in", str(ca / "server.csr"), "-CA", str(broker / CA_FILE),
          "-CAkey", str(ca / "ca.key"), "-CAserial", str(ca / "ca.srl"), "-CAcreateserial", "-out", str(broker / "server.crt"),
          "-days", str(DAYS), "-extfile", str(ext)])
    os.chmod(broker / "server.key", 0o640)
    for scrap in (ca / "server.csr", ext):
        scrap.unlink()
    (broker / "tablekeeper.passwd").touch(mode=0o640)
    _login(root, config.LEAGUE_USER, root / "league")
    (broker / "tablekeeper.acl").write_text(acl_text())
    (broker / "tablekeeper.conf").write_text(broker_conf(broker_home, port, listen))
    # The league usually runs beside the broker: it reaches it over the loopback, TLS all the same.
    (root / "league" / "tablekeeper.toml").write_text(_client_toml("league", "127.0.0.1", port))
    config.league_settings(root / "league" / "tablekeeper.toml", state_dir=root / "league")
    _add(root, host, port, names)


def _check_table_names(tables: list[str]) -> list[str]:
    if not tables:
        raise SetupError(_("a club needs at least one table"))
    names = list(dict.fromkeys(tables))
    for name in names:
        try:
            contract.check_table_name(name)
        except contract.ContractError as e:
            raise SetupError(str(e)) from None
        if name == config.LEAGUE_USER:
            raise SetupError(_("{name} is the league's login: name the table otherwise", name=name))
    return names


def _login(root: Path, user: str, place: Path) -> None:
    """A login for ``user``: a random password in its own file in ``place`` (with the club's authority),
    hashed into the broker's password file beside the others (``mosquitto_passwd -b`` changes that line
    only)."""
    place.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(18)
    _run([_tool("mosquitto_passwd", "mosquitto"), "-b", str(root / "broker" / "tablekeeper.passwd"), user, password])
    _secret(place / PASSWORD_FILE, password + "\n")
    shutil.copyfile(root / "broker" / CA_FILE, place / CA_FILE)


def _add(root: Path, host: str, port: int, names: list[str]) -> None:
    """Each table's login, folder and config, checked the way the table will read it. A table's folder is
    made whole or not at all (:func:`_made_whole`): a power cut leaves no half-made table
    that ``add-table`` would take for one the club has (its login, if already in the broker's password
    file, gets the new password when the table is added again)."""
    for name in names:
        with _made_whole(root / "tables" / name, "add") as place:
            _login(root, name, place)
            (place / "tablekeeper.toml").write_text(_client_toml("club", host, port, f"table = {_quote(name)}\n"))
            config.club_settings(place / "tablekeeper.toml")


def add_tables(folder: str | os.PathLike[str], tables: list[str], *, host: str | None = None) -> Club:
    """Add tables to the club ``init`` made in ``folder`` (see the module's docstring). ``host``: the
    broker's address as the new tables reach it (default: the one the club's tables have)."""
    root = Path(folder)
    for needed in (root / "broker" / "tablekeeper.passwd", root / "broker" / CA_FILE, root / "league" /
                   "tablekeeper.toml"):
        if not needed.is_file():
            raise SetupError(_("{folder} is not a folder `tablekeeper club init` made (no {file})",
                               folder=str(root), file=str(needed.relative_to(root))))
    names = _check_table_names(tables)
    have = sorted(p.name for p in (root / "tables").iterdir() if p.is_dir() and not p.name.startswith(".")) \
        if (root / "tables").is_dir() else []
    for name in names:
        if name in have:
            raise SetupError(_("{name} is a table of this club already (its folder: {folder}); its password "
                               "is kept", name=name, folder=str(root / "tables" / name)))
    port = config.league_settings(root / "league" / "tablekeeper.toml", state_dir=root / "league").broker.port
    if host is None:
        for other in have:
            settings = config.club_settings(root / "tables" / other / "tablekeeper.toml")
            if settings is not None:
                host = settings.broker.host
                break
    if host is None:
        raise SetupError(_("the club has no table to take the broker's address from: give it with --host"))
    if not config._HOST.fullmatch(host):
        raise SetupError(_("{host} is not a host name or an address", host=host))
    _add(root, host, port, names)
    return Club(root, host, port, tuple(names))


def join(folder: str | os.PathLike[str], target: str | os.PathLike[str]) -> tuple[str, Path]:
    """Add the club part ``folder`` (``league/`` or ``tables/<table>/`` of an ``init``) to the config file
    ``target``: its authority and password beside it, its table appended. Returns (section, the file)."""
    src = Path(folder)
    made = src / "tablekeeper.toml"
    try:
        doc = tomllib.loads(made.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise SetupError(_("{folder} is not a folder `tablekeeper club init` made ({error})", folder=str(src),
                           error=str(e))) from None
    sections = [s for s in ("club", "league") if s in doc]
    if len(sections) != 1:
        raise SetupError(_("{file} says neither [club] nor [league]", file=str(made)))
    section = sections[0]
    dest = Path(target)
    existing = dest.read_text(encoding="utf-8") if dest.exists() else ""
    if existing:
        try:
            have = tomllib.loads(existing)
        except tomllib.TOMLDecodeError as e:
            raise SetupError(_("{file} is not valid TOML: {error}", file=str(dest), error=str(e))) from None
        if section in have:
            raise SetupError(_("{file} already has a [{section}] table: remove it first to join another club",
                               file=str(dest), section=section))
    dest.parent.mkdir(parents=True, exist_ok=True)
    ca_name, pw_name = JOINED[section]
    for name in (ca_name, pw_name):
        if (dest.parent / name).exists():
            raise SetupError(_("{file} exists: remove it first to join another club", file=str(dest.parent / name)))
    shutil.copyfile(src / CA_FILE, dest.parent / ca_name)
    _secret(dest.parent / pw_name, (src / PASSWORD_FILE).read_text(encoding="utf-8"))
    _for_the_services(dest.parent / pw_name)
    text = made.read_text(encoding="utf-8").replace(_quote(CA_FILE), _quote(ca_name)).replace(
        _quote(PASSWORD_FILE), _quote(pw_name))
    body = text[text.index(f"[{section}]"):]
    with dest.open("a", encoding="utf-8") as f:
        f.write(("\n" if existing and not existing.endswith("\n\n") else "") + body)
    # The joined config is checked as the services will read it.
    if section == "club":
        config.club_settings(dest)
    else:
        config.league_settings(dest, state_dir=dest.parent)
    return section, dest


# -- the commands ---------------------------------------------------------------------------
def add_parsers(csub: Any) -> None:
    """``club init`` and ``club join`` on ``tablekeeper club``'s subparsers."""
    i = csub.add_parser("init", help="set up a club: its certificate authority, the broker's TLS settings, "
                        "the league's and each table's login (docs/club.md)",
                        description="Make, in a new folder, a club's certificate authority, Mosquitto's "
                                    "settings (a TLS listener on the LAN, the ACL, a password file), and a "
                                    "folder for the league and for each table that `club join` installs.")
    i.add_argument("folder", metavar="FOLDER", help="a new, empty folder (it holds the club's keys)")
    i.add_argument("--host", required=True, help="the broker's address on the LAN, as the tables reach it "
                   "(an IP address or a host name)")
    i.add_argument("--tables", type=int, default=None, metavar="N", help="tables mesa-1 … mesa-N")
    i.add_argument("--table", action="append", default=[], metavar="NAME", help="a table by name (repeatable)")
    i.add_argument("--port", type=int, default=config.TLS_PORT, help="the TLS listener's port (default 8883)")
    i.add_argument("--broker-dir", default=str(BROKER_DIR), metavar="PATH",
                   help="where the broker/ folder will be installed (default /etc/mosquitto/tablekeeper)")
    i.set_defaults(func=cmd_init)
    a = csub.add_parser("add-table", help="add tables to a club `club init` made: their logins, folders and "
                        "configs (the authority and the other passwords are kept)",
                        description="Add tables to the club in FOLDER: a password for each, added to the "
                                    "broker's password file beside the others, and a folder for each that "
                                    "`club join` installs. The club's authority, the broker's certificate, the "
                                    "ACL and every other login stay as they are.")
    a.add_argument("folder", metavar="FOLDER", help="the folder `club init` made")
    a.add_argument("tables", nargs="+", metavar="NAME", help="the new tables' names")
    a.add_argument("--host", default=None, help="the broker's address as the new tables reach it (default: "
                   "the one the club's tables have)")
    a.add_argument("--broker-dir", default=str(BROKER_DIR), metavar="PATH",
                   help="where the broker/ folder is installed (default /etc/mosquitto/tablekeeper)")
    a.set_defaults(func=cmd_add_table)
    j = csub.add_parser("join", help="add a table (or the league) of a `club init` folder to this machine's "
                        "config", description="Copy one folder made by `club init` (league/ or tables/NAME/) "
                                              "into the config: its authority and password beside the config "
                                              "file, its [club] or [league] table appended.")
    j.add_argument("folder", metavar="FOLDER")
    j.add_argument("--config", default=None, metavar="PATH", help="the config file to add to (default: "
                   "/etc/tablekeeper/tablekeeper.toml as root, else ~/.config/tablekeeper/tablekeeper.toml)")
    j.set_defaults(func=cmd_join)


def cmd_init(args: Any) -> int:
    tables = list(args.table) + [f"mesa-{n}" for n in range(1, (args.tables or 0) + 1)]
    club = init(args.folder, args.host, tables, port=args.port, broker_dir=args.broker_dir)
    root = club.folder
    out(args, say(args, N_("a club for {n} table in {folder}: broker {host}:{port} (TLS)",
                           "a club for {n} tables in {folder}: broker {host}:{port} (TLS)", len(club.tables),
                           folder=str(root), host=club.host, port=club.port)))
    out(args, say(args, _("on the broker: sudo install -d {dir} && sudo cp {broker}/* {dir}/ && "
                          "sudo cp {dir}/tablekeeper.conf /etc/mosquitto/conf.d/ && "
                          "sudo chgrp mosquitto {dir}/server.key {dir}/tablekeeper.passwd && "
                          "sudo systemctl restart mosquitto", dir=args.broker_dir, broker=str(root / "broker"))))
    out(args, say(args, _("the league: sudo tablekeeper club join {folder}", folder=str(root / "league"))))
    for name in club.tables:
        out(args, say(args, _("table {table}: copy {folder} to it, then sudo tablekeeper club join FOLDER",
                              table=name, folder=str(root / "tables" / name))))
    return 0


def cmd_add_table(args: Any) -> int:
    club = add_tables(args.folder, list(args.tables), host=args.host)
    root = club.folder
    out(args, say(args, N_("{n} table added to the club in {folder}: {names}",
                           "{n} tables added to the club in {folder}: {names}", len(club.tables),
                           folder=str(root), names=", ".join(club.tables))))
    out(args, say(args, _("on the broker: sudo cp {passwd} {dir}/ && sudo chgrp mosquitto {dir}/tablekeeper.passwd "
                          "&& sudo systemctl reload mosquitto (the tables connected stay connected)",
                          passwd=str(root / "broker" / "tablekeeper.passwd"), dir=args.broker_dir)))
    for name in club.tables:
        out(args, say(args, _("table {table}: copy {folder} to it, then sudo tablekeeper club join FOLDER",
                              table=name, folder=str(root / "tables" / name))))
    return 0


def _default_config() -> Path:
    if os.geteuid() == 0:
        return Path("/etc/tablekeeper/tablekeeper.toml")
    return Path.home() / ".config" / "tablekeeper" / "tablekeeper.toml"


def cmd_join(args: Any) -> int:
    target = Path(args.config) if args.config else _default_config()
    section, dest = join(args.folder, target)
    out(args, say(args, _("{file}: [{section}] added; restart tablekeeper to connect", file=str(dest),
                          section=section)))
    return 0
