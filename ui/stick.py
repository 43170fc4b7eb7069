"""Where the USB stick is: the appliance's mount table, or a folder named in the config file on a PC.

:func:`find_stick` is cheap enough to poll every second or two (it reads the mount table, a few
kilobytes, and one or two sysfs files; no disk is touched, and an automount point is not
triggered): it returns the stick's folder, or None.

A mount counts as a stick when its file system is one a stick carries (FAT, exFAT, NTFS, ext*,
…, or an automount point) and either

* it is mounted under ``/media`` or ``/run/media`` (where udisks2 mounts removable drives, and
  where the appliance's udev rule, systemd/99-tablekeeper-stick.rules, has systemd mount them), or
* its disk says it is removable (``/sys/block/<disk>/removable`` is 1).

The newest such mount (the last in the table) wins. On a PC, or to choose a folder by hand, the
config file (the one the pods use) names it::

    [app.stick]
    folder = "~/tablekeeper-stick"    # counts as the stick while it exists
    # mounts = "/proc/mounts"         # where the mount table is (tests give a fake one)
    # sys_block = "/sys/block"
    # media = ["/media", "/run/media"]

``$TABLEKEEPER_STICK`` (a folder) overrides the file. Backups and exports go into the stick's
``tablekeeper/`` folder (:func:`stick_folder`).
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.messages import _
from .terminal import said

ENV_STICK = "TABLEKEEPER_STICK"
FOLDER = "tablekeeper"
#: File systems a stick carries; autofs is an automount point (mounted on first use).
STICK_FS = frozenset({"vfat", "msdos", "exfat", "ntfs", "ntfs3", "fuseblk", "ext2", "ext3", "ext4", "btrfs",
                      "f2fs", "hfsplus", "udf", "autofs"})


@dataclass(frozen=True)
class StickSettings:
    folder: Path | None = None  # a configured folder (a PC): the stick while it exists
    mounts: Path = Path("/proc/mounts")
    sys_block: Path = Path("/sys/block")
    media: tuple[Path, ...] = (Path("/media"), Path("/run/media"))
    problems: tuple[str, ...] = field(default=(), compare=False)  # what was wrong in the config file (messages)


@dataclass(frozen=True)
class Mount:
    device: str
    point: Path
    fstype: str
    options: tuple[str, ...]

    @property
    def read_only(self) -> bool:
        return "ro" in self.options


def settings(config: str | os.PathLike[str] | None = None) -> StickSettings:
    """The stick's settings: ``$TABLEKEEPER_STICK``, the config file's ``[app.stick]``, the defaults.
    Read once (the app keeps them); a problem in the file is kept in ``problems``, never raised."""
    from ..hardware import config as hw_config

    problems: list[str] = []
    table: dict = {}
    try:
        path = hw_config.find(config)
    except hw_config.ConfigError as e:
        path, problems = None, [said(e)]
    if path is not None:
        try:
            found = tomllib.loads(path.read_text(encoding="utf-8")).get("app", {}).get("stick", {})
            if isinstance(found, dict):
                table = found
            else:
                problems.append(_("{path}: [app.stick] is not a table", path=str(path)))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError) as e:
            problems.append(_("{path}: cannot read [app.stick] ({error})", path=str(path), error=str(e)))

    def a_path(key: str, default: Path | None) -> Path | None:
        value = table.get(key)
        if value is None:
            return default
        if isinstance(value, str) and value:
            return Path(os.path.expanduser(value))
        problems.append(_("[app.stick] {key} = {value} is not a folder's path", key=key, value=repr(value)))
        return default

    folder = a_path("folder", None)
    env = os.environ.get(ENV_STICK)
    if env:
        folder = Path(os.path.expanduser(env))
    media = table.get("media")
    roots = StickSettings.media
    if isinstance(media, list) and all(isinstance(m, str) and m for m in media):
        roots = tuple(Path(m) for m in media)
    elif media is not None:
        problems.append(_("[app.stick] media = {value} is not a list of folders", value=repr(media)))
    return StickSettings(folder, a_path("mounts", StickSettings.mounts) or StickSettings.mounts,
                         a_path("sys_block", StickSettings.sys_block) or StickSettings.sys_block,
                         roots, tuple(problems))


_ESCAPE = re.compile(r"\\([0-7]{3})")


def _unescape(field_text: str) -> str:
    """The mount table writes a space as \\040 (and tab, newline, backslash alike)."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), field_text)


def mounts(table: Path) -> list[Mount]:
    """The mount table's entries ([] when it cannot be read)."""
    try:
        text = table.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return []
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4:
            out.append(Mount(_unescape(parts[0]), Path(_unescape(parts[1])), parts[2], tuple(parts[3].split(","))))
    return out


def _removable(device: str, sys_block: Path) -> bool:
    """Whether the disk under a /dev node says it is removable (a partition: its disk's flag)."""
    if not device.startswith("/dev/"):
        return False
    name = Path(os.path.realpath(device) if os.path.islink(device) else device).name
    for disk in dict.fromkeys((name, re.sub(r"p?\d+$", "", name))):
        flag = sys_block / disk / "removable"
        try:
            return flag.read_text().strip() == "1"
        except OSError:
            continue
    return False


def _under(point: Path, roots: tuple[Path, ...]) -> bool:
    return any(point != root and point.is_relative_to(root) for root in roots)


def sticks(s: StickSettings | None = None) -> list[Path]:
    """Every stick mounted now, oldest mount first (the configured folder last, if it exists)."""
    s = s or settings()
    found: list[Path] = []
    for m in mounts(s.mounts):
        if m.fstype not in STICK_FS or m.point == Path("/") or m.point.is_relative_to("/boot"):
            continue  # a system booted from a USB stick: that stick is the system, not a backup stick
        if _under(m.point, s.media) or (m.fstype != "autofs" and _removable(m.device, s.sys_block)):
            if m.point in found:
                found.remove(m.point)  # an automount point and its mount: one stick
            found.append(m.point)
    if s.folder is not None and s.folder.is_dir():
        found.append(s.folder)
    return found


def find_stick(s: StickSettings | None = None) -> Path | None:
    """The stick's folder (the configured folder if it exists, else the newest stick mounted), or None."""
    s = s or settings()
    if s.folder is not None and s.folder.is_dir():
        return s.folder
    found = sticks(StickSettings(None, s.mounts, s.sys_block, s.media))
    return found[-1] if found else None


def stick_folder(stick: Path) -> Path:
    """Where tablekeeper's files go on a stick: its ``tablekeeper/`` folder."""
    return stick / FOLDER

